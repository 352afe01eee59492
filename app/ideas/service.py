"""The ideas and the changelog of one project: what the team's API, the console, the MCP tools and the
public portal do with them.

Counts are kept, not counted per request: `vote_count`, `comment_count` and `demand_count` change in the
same statement-level transaction as the rows they count (a vote is an insert that may find the row there
already, then one increment), so the portal's list sorts by a column. Merging locks both ideas in id
order, moves the votes a person has not already given the target, and recounts the target.

Who may see what: the team sees everything; a portal reader sees neither pending ideas (except their
own), nor ideas kept as spam (except their own: a bot learns nothing), nor merged ones in lists.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Literal
from uuid import UUID

import msgspec
from sqlalchemy import ColumnElement, and_, delete, exists, false, func, literal, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm.attributes import set_committed_value

from app.config import Settings
from app.db.models import (
    ChangelogEntry,
    ChangelogIdea,
    FeedbackItem,
    Idea,
    IdeaComment,
    IdeaDemand,
    IdeaStatus,
    IdeaTag,
    IdeaVote,
    Project,
)
from app.db.paging import one_page
from app.db.row_locks import lock_rows
from app.errors import InvalidRequest, NotFound
from app.ideas.bodies import (
    ChangelogCreateBody,
    ChangelogPatchBody,
    IdeaCreateBody,
    IdeaOut,
    IdeaPatchBody,
)
from app.ideas.people import Person
from app.services.projects import ProjectScoped
from app.timestamps import utc_now
from tenants.permissions import require
from tenants.scope import Access, OrgScope

Sort = Literal["top", "new", "trending"]
PENDING = IdeaStatus.PENDING.value
DONE = IdeaStatus.DONE.value


def normal_tags(tags: Sequence[str]) -> list[str]:
    """Trimmed, lower case, each once, in the order given."""
    seen: list[str] = []
    for tag in tags:
        clean = " ".join(tag.split()).lower()
        if not clean:
            raise InvalidRequest("tags", "a tag must not be blank")
        if clean not in seen:
            seen.append(clean)
    return seen


def _insert(session: AsyncSession) -> Any:
    return postgresql.insert if session.get_bind().dialect.name == "postgresql" else sqlite.insert


class Ideas(ProjectScoped):
    def __init__(self, session: AsyncSession, scope: OrgScope, project: Project, settings: Settings) -> None:
        super().__init__(session, scope, project)
        self.settings = settings

    # -- reading ------------------------------------------------------------------------------------------

    def _visible(self, viewer: Person | None, team: bool) -> list[ColumnElement[bool]]:
        where: list[ColumnElement[bool]] = [Idea.project_id == self.project.id]
        if team:
            return where
        own = Idea.author_key == viewer.key if viewer is not None else false()
        where.append(or_(and_(Idea.status != PENDING, Idea.spam.is_(False)), own))
        return where

    async def list(
        self,
        *,
        status: str | None = None,
        tag: str | None = None,
        search: str | None = None,
        sort: Sort = "top",
        page: int = 1,
        limit: int = 20,
        viewer: Person | None = None,
        team: bool = False,
        spam: bool | None = None,
    ) -> tuple[list[Idea], int]:
        """One page of ideas and how many match. Merged ideas are left out; pinned ones come first."""
        where = [*self._visible(viewer, team), Idea.merged_into_id.is_(None)]
        if status is not None:
            where.append(Idea.status == status)
        elif not team:
            where.append(Idea.status != IdeaStatus.DECLINED.value)
        if team and spam is not None:
            where.append(Idea.spam.is_(spam))
        elif team:
            where.append(Idea.spam.is_(False))
        if tag:
            where.append(
                exists().where(IdeaTag.idea_id == Idea.id, IdeaTag.tag == " ".join(tag.split()).lower())
            )
        if search and search.strip():
            text = search.strip().lower()
            where.append(
                or_(
                    func.lower(Idea.title).contains(text, autoescape=True),
                    func.lower(Idea.body).contains(text, autoescape=True),
                )
            )
        if sort == "new":
            order: tuple[Any, ...] = (Idea.pinned.desc(), Idea.created_at.desc(), Idea.id.desc())
        elif sort == "trending":
            order = (Idea.pinned.desc(), self._trend().desc(), Idea.id.desc())
        else:
            order = (Idea.pinned.desc(), Idea.vote_count.desc(), Idea.id.desc())
        # The total rides along with each row (one round trip); a page past the end counts on its own.
        counted = select(Idea, func.count().over().label("total")).where(*where)
        rows = (await self.session.execute(one_page(counted, Idea, page, limit, *order))).all()
        if rows:
            return [row[0] for row in rows], int(rows[0].total)
        total = await self.session.scalar(select(func.count()).select_from(Idea).where(*where)) or 0
        return [], total

    def _trend(self) -> ColumnElement[float]:
        """Votes / (age in hours + 2)^2, as news aggregators rank (gravity 2: plain arithmetic, the same
        on both databases)."""
        if self.session.get_bind().dialect.name == "postgresql":
            hours = func.extract("epoch", func.now() - Idea.created_at) / 3600.0
        else:
            hours = (func.julianday("now") - func.julianday(Idea.created_at)) * 24.0
        age = hours + 2.0
        return Idea.vote_count * 1.0 / (age * age)

    async def get(self, idea_id: UUID, *, viewer: Person | None = None, team: bool = True) -> Idea:
        """An idea of this project the reader may see; another project's idea is not found."""
        idea = await self.session.scalar(select(Idea).where(Idea.id == idea_id, *self._visible(viewer, team)))
        if idea is None:
            raise NotFound("no idea with this id in this project")
        return idea

    async def tags_of(self, ideas: Sequence[Idea]) -> dict[UUID, list[str]]:
        tags: dict[UUID, list[str]] = {idea.id: [] for idea in ideas}
        if ideas:
            rows = await self.session.execute(
                select(IdeaTag.idea_id, IdeaTag.tag).where(IdeaTag.idea_id.in_(tags)).order_by(IdeaTag.tag)
            )
            for idea_id, tag in rows.tuples():
                tags[idea_id].append(tag)
        return tags

    async def project_tags(self) -> list[str]:
        """Every tag of the project's visible ideas, for the portal's filter."""
        rows = await self.session.scalars(
            select(IdeaTag.tag).where(IdeaTag.project_id == self.project.id).distinct().order_by(IdeaTag.tag)
        )
        return list(rows)

    async def voted(self, ideas: Sequence[Idea], person: Person | None) -> set[UUID]:
        """Which of these ideas the person voted for."""
        if person is None or not ideas:
            return set()
        rows = await self.session.scalars(
            select(IdeaVote.idea_id).where(
                IdeaVote.idea_id.in_([idea.id for idea in ideas]), IdeaVote.voter_key == person.key
            )
        )
        return set(rows)

    async def voters(self, idea: Idea, *, page: int = 1, limit: int = 50) -> tuple[list[IdeaVote], int]:
        require(self.scope, Access.READ)
        where = [IdeaVote.idea_id == idea.id]
        total = await self.session.scalar(select(func.count()).select_from(IdeaVote).where(*where)) or 0
        rows = await self.session.scalars(
            select(IdeaVote)
            .where(*where)
            .order_by(IdeaVote.created_at, IdeaVote.voter_key)
            .limit(limit)
            .offset((page - 1) * limit)
        )
        return list(rows), total

    async def comments(
        self, idea: Idea, *, viewer: Person | None = None, team: bool = False
    ) -> list[IdeaComment]:
        """Oldest first; comments kept as spam only for the team and their author."""
        where: list[ColumnElement[bool]] = [IdeaComment.idea_id == idea.id]
        if not team:
            own = IdeaComment.author_key == viewer.key if viewer is not None else false()
            where.append(or_(IdeaComment.spam.is_(False), own))
        rows = await self.session.scalars(
            select(IdeaComment).where(*where).order_by(IdeaComment.created_at, IdeaComment.id)
        )
        return list(rows)

    # -- the team's changes -------------------------------------------------------------------------------

    async def create(self, data: IdeaCreateBody) -> Idea:
        """The team's idea: open unless another status is given."""
        require(self.scope, Access.WRITE)
        idea = Idea(
            project_id=self.project.id,
            title=_title(data.title),
            body=data.body,
            status=data.status,
            response=data.response,
            pinned=data.pinned,
            author_name="",
        )
        self.session.add(idea)
        await self.session.flush()
        await self._set_tags(idea, normal_tags(data.tags))
        await self._created(idea)
        return idea

    async def update(self, idea: Idea, data: IdeaPatchBody) -> Idea:
        require(self.scope, Access.WRITE)
        changes = {
            field: value
            for field in data.__struct_fields__
            if (value := getattr(data, field)) is not msgspec.UNSET
        }
        tags = normal_tags(changes.pop("tags")) if "tags" in changes else None
        if "title" in changes:
            changes["title"] = _title(changes["title"])
        before = idea.status
        for field, value in changes.items():
            setattr(idea, field, value)
        if tags is not None:
            await self._set_tags(idea, tags)
        await self.session.flush()
        if "title" in changes or "body" in changes:
            await self._queue_vector(idea)
        if idea.status != before:
            await self._status_changed(idea, before)
        return idea

    async def set_status(self, idea: Idea, status: str) -> Idea:
        return await self.update(idea, IdeaPatchBody(status=status))

    async def delete(self, idea: Idea) -> None:
        """The idea with its votes, comments, tags and links (foreign keys cascade); ideas merged into it
        stand alone again."""
        require(self.scope, Access.WRITE)
        await self.session.delete(idea)
        await self.session.flush()

    async def merge(self, idea: Idea, into_id: UUID) -> Idea:
        """`idea` is a duplicate of `into`: its votes and voters move (a person who voted for both counts
        once), its feedback links too, and it points at `into` from then on. Returns `into`."""
        require(self.scope, Access.WRITE)
        if into_id == idea.id:
            raise InvalidRequest("into", "an idea cannot be merged into itself")
        target = await self.session.scalar(
            select(Idea).where(Idea.id == into_id, Idea.project_id == self.project.id)
        )
        if target is None:
            raise InvalidRequest("into", "no idea with this id in this project")
        if target.merged_into_id is not None:
            raise InvalidRequest("into", "that idea is merged into another itself: merge into that one")
        if idea.merged_into_id is not None:
            raise InvalidRequest("into", "this idea is merged already")
        await lock_rows(self.session, Idea, [Idea.id.in_([idea.id, target.id])], [Idea.id])
        # A WHERE in the SELECT keeps SQLite from reading ON CONFLICT as part of a join.
        moved = select(
            literal(target.id, IdeaVote.__table__.c.idea_id.type),
            IdeaVote.voter_key,
            IdeaVote.project_id,
            IdeaVote.name,
            IdeaVote.email,
            IdeaVote.language,
            IdeaVote.created_at,
        ).where(IdeaVote.idea_id == idea.id)
        columns = ["idea_id", "voter_key", "project_id", "name", "email", "language", "created_at"]
        await self.session.execute(
            _insert(self.session)(IdeaVote.__table__)
            .from_select(columns, moved)
            .on_conflict_do_nothing(index_elements=["idea_id", "voter_key"])
        )
        await self.session.execute(delete(IdeaVote).where(IdeaVote.idea_id == idea.id))
        await self.session.execute(
            update(IdeaDemand)
            .where(IdeaDemand.idea_id == idea.id)
            .values(idea_id=target.id)
            .execution_options(synchronize_session=False)
        )
        idea.merged_into_id = target.id
        idea.vote_count = 0
        idea.demand_count = 0
        await self.session.flush()
        await self._recount(target)
        return target

    async def _recount(self, idea: Idea) -> None:
        idea.vote_count = (
            await self.session.scalar(
                select(func.count()).select_from(IdeaVote).where(IdeaVote.idea_id == idea.id)
            )
            or 0
        )
        idea.demand_count = (
            await self.session.scalar(
                select(func.count()).select_from(IdeaDemand).where(IdeaDemand.idea_id == idea.id)
            )
            or 0
        )
        await self.session.flush()

    async def link_feedback(self, feedback_id: UUID, idea_id: UUID | None, title: str | None) -> Idea:
        """The feedback item counts as demand for the idea (an existing one, or a new open one of this
        title); an item linked before moves to this idea."""
        require(self.scope, Access.WRITE)
        item = await self.session.scalar(
            select(FeedbackItem).where(
                FeedbackItem.id == feedback_id, FeedbackItem.project_id == self.project.id
            )
        )
        if item is None:
            raise NotFound("no feedback item with this id in this project")
        if (idea_id is None) == (title is None):
            raise InvalidRequest("idea_id", "give either idea_id or title")
        if idea_id is not None:
            idea = await self.session.scalar(
                select(Idea).where(Idea.id == idea_id, Idea.project_id == self.project.id)
            )
            if idea is None:
                raise InvalidRequest("idea_id", "no idea with this id in this project")
            while idea.merged_into_id is not None:
                idea = await self.get(idea.merged_into_id)
        else:
            idea = await self.create(IdeaCreateBody(title=title or "", body=item.message or ""))
        link = await self.session.scalar(select(IdeaDemand).where(IdeaDemand.feedback_id == item.id))
        previous = None
        if link is None:
            self.session.add(IdeaDemand(feedback_id=item.id, idea_id=idea.id, project_id=self.project.id))
        elif link.idea_id != idea.id:
            previous = link.idea_id
            link.idea_id = idea.id
        await self.session.flush()
        await self._recount(idea)
        if previous is not None:
            await self._recount(await self.get(previous))
        return idea

    # -- what people do on the portal ---------------------------------------------------------------------

    async def suggest(self, person: Person, title: str, body: str, *, spam: bool, auto_approve: bool) -> Idea:
        """A person's suggestion: pending unless the project approves suggestions by itself; one judged
        spam is kept (pending, marked) and causes nothing."""
        idea = Idea(
            project_id=self.project.id,
            title=_title(title),
            body=body,
            status=IdeaStatus.OPEN.value if auto_approve and not spam else PENDING,
            spam=spam,
            author_key=person.key,
            author_name=person.name,
            author_email=person.email,
            author_language=person.language,
        )
        self.session.add(idea)
        await self.session.flush()
        if not spam:
            await self._created(idea)
        return idea

    async def vote(self, idea: Idea, person: Person) -> bool:
        """The person's vote (given once however often asked); True when it is new."""
        self._votable(idea)
        statement = (
            _insert(self.session)(IdeaVote.__table__)
            .values(
                idea_id=idea.id,
                voter_key=person.key,
                project_id=self.project.id,
                name=person.name,
                email=person.email,
                language=person.language,
                created_at=utc_now(),
            )
            .on_conflict_do_nothing(index_elements=["idea_id", "voter_key"])
            .returning(IdeaVote.__table__.c.voter_key)
        )
        added = (await self.session.execute(statement)).first() is not None
        if added:
            await self._count(idea, Idea.vote_count, 1)
        return added

    async def unvote(self, idea: Idea, person: Person) -> bool:
        """The person's vote taken back; True when there was one."""
        result = await self.session.execute(
            delete(IdeaVote).where(IdeaVote.idea_id == idea.id, IdeaVote.voter_key == person.key)
        )
        removed = result.rowcount == 1  # type: ignore[attr-defined]
        if removed:
            await self._count(idea, Idea.vote_count, -1)
        return removed

    async def comment(
        self,
        idea: Idea,
        body: str,
        *,
        person: Person | None,
        parent_id: UUID | None = None,
        spam: bool = False,
    ) -> IdeaComment:
        """A person's comment, or the team's (person None)."""
        if person is None:
            require(self.scope, Access.WRITE)
        if idea.merged_into_id is not None:
            raise InvalidRequest("idea_id", "this idea is merged into another: comment there")
        if parent_id is not None and not await self.session.scalar(
            select(exists().where(IdeaComment.id == parent_id, IdeaComment.idea_id == idea.id))
        ):
            raise InvalidRequest("parent_id", "no comment with this id on this idea")
        comment = IdeaComment(
            idea_id=idea.id,
            project_id=self.project.id,
            parent_id=parent_id,
            author_key=person.key if person else None,
            author_name=person.name if person else "",
            author_email=person.email if person else None,
            body=body.strip(),
            team=person is None,
            spam=spam,
        )
        self.session.add(comment)
        await self.session.flush()
        if not spam:
            await self._count(idea, Idea.comment_count, 1)
        return comment

    def _votable(self, idea: Idea) -> None:
        if idea.merged_into_id is not None:
            raise InvalidRequest("idea_id", "this idea is merged into another: vote there")
        if idea.status == PENDING or idea.spam:
            raise InvalidRequest("idea_id", "this idea awaits the team's approval")

    async def _count(self, idea: Idea, column: Any, delta: int) -> None:
        """Move a kept count in the database (concurrent changes add up) and take its new value."""
        value = await self.session.scalar(
            update(Idea)
            .where(Idea.id == idea.id)
            .values({column.key: column + delta})
            .returning(column)
            .execution_options(synchronize_session=False)
        )
        set_committed_value(idea, column.key, value)

    # -- shared -------------------------------------------------------------------------------------------

    async def _set_tags(self, idea: Idea, tags: list[str]) -> None:
        await self.session.execute(delete(IdeaTag).where(IdeaTag.idea_id == idea.id))
        for tag in tags:
            self.session.add(IdeaTag(idea_id=idea.id, tag=tag, project_id=self.project.id))
        await self.session.flush()

    async def out(self, ideas: Sequence[Idea]) -> list[IdeaOut]:
        tags = await self.tags_of(ideas)
        return [IdeaOut.of(idea, tags[idea.id]) for idea in ideas]

    async def _created(self, idea: Idea) -> None:
        from app.ideas.events import idea_created, record_idea_events

        await self._queue_vector(idea)
        await record_idea_events(
            self.session, self.project.org_id, [idea_created(idea, (await self.tags_of([idea]))[idea.id])]
        )

    async def _status_changed(self, idea: Idea, before: str) -> None:
        from app.ideas.events import idea_status_changed, record_idea_events
        from app.ideas.notices import tell_of_done

        tags = (await self.tags_of([idea]))[idea.id]
        await record_idea_events(self.session, self.project.org_id, [idea_status_changed(idea, tags, before)])
        if idea.status == DONE:
            await tell_of_done(self.session, self.settings, self.project, [idea])

    async def _queue_vector(self, idea: Idea) -> None:
        from app.ideas.similar import queue_idea_vectors

        if not idea.spam:
            await queue_idea_vectors(self.session, [idea])


def _title(title: str) -> str:
    clean = title.strip()
    if not clean:
        raise InvalidRequest("title", "must not be blank")
    return clean


class Changelog(ProjectScoped):
    """The project's changelog: entries, drafts until published, each naming the ideas it shipped."""

    def __init__(self, session: AsyncSession, scope: OrgScope, project: Project, settings: Settings) -> None:
        super().__init__(session, scope, project)
        self.settings = settings

    async def list(
        self, *, published_only: bool = False, page: int = 1, limit: int = 20
    ) -> tuple[list[ChangelogEntry], int]:
        """Newest first (by publication, drafts first for the team)."""
        where: list[ColumnElement[bool]] = [ChangelogEntry.project_id == self.project.id]
        if published_only:
            where.append(ChangelogEntry.published_at <= utc_now())
        total = await self.session.scalar(select(func.count()).select_from(ChangelogEntry).where(*where)) or 0
        order = (
            ChangelogEntry.published_at.is_(None).desc(),
            ChangelogEntry.published_at.desc(),
            ChangelogEntry.id.desc(),
        )
        rows = await self.session.scalars(
            one_page(select(ChangelogEntry).where(*where), ChangelogEntry, page, limit, *order)
        )
        return list(rows), total

    async def get(self, entry_id: UUID, *, published_only: bool = False) -> ChangelogEntry:
        where = [ChangelogEntry.id == entry_id, ChangelogEntry.project_id == self.project.id]
        if published_only:
            where.append(ChangelogEntry.published_at <= utc_now())
        entry = await self.session.scalar(select(ChangelogEntry).where(*where))
        if entry is None:
            raise NotFound("no changelog entry with this id in this project")
        return entry

    async def idea_ids_of(self, entries: Sequence[ChangelogEntry]) -> dict[UUID, list[UUID]]:
        found: dict[UUID, list[UUID]] = {entry.id: [] for entry in entries}
        if entries:
            rows = await self.session.execute(
                select(ChangelogIdea.entry_id, ChangelogIdea.idea_id)
                .where(ChangelogIdea.entry_id.in_(found))
                .order_by(ChangelogIdea.idea_id)
            )
            for entry_id, idea_id in rows.tuples():
                found[entry_id].append(idea_id)
        return found

    async def create(self, data: ChangelogCreateBody) -> ChangelogEntry:
        require(self.scope, Access.WRITE)
        await self._check_ideas(data.idea_ids)
        entry = ChangelogEntry(
            project_id=self.project.id,
            title=data.title.strip(),
            body=data.body,
            published_at=data.published_at,
        )
        self.session.add(entry)
        await self.session.flush()
        await self._set_ideas(entry, data.idea_ids)
        await self._tell(entry)
        return entry

    async def update(self, entry: ChangelogEntry, data: ChangelogPatchBody) -> ChangelogEntry:
        require(self.scope, Access.WRITE)
        if data.idea_ids is not msgspec.UNSET:
            await self._check_ideas(data.idea_ids)
        for field in ("title", "body", "published_at"):
            value = getattr(data, field)
            if value is not msgspec.UNSET:
                setattr(entry, field, value.strip() if field == "title" else value)
        await self.session.flush()
        if data.idea_ids is not msgspec.UNSET:
            await self._set_ideas(entry, data.idea_ids)
        await self._tell(entry)
        return entry

    async def delete(self, entry: ChangelogEntry) -> None:
        require(self.scope, Access.WRITE)
        await self.session.delete(entry)
        await self.session.flush()

    async def _check_ideas(self, idea_ids: Sequence[UUID]) -> None:
        if not idea_ids:
            return
        found = set(
            await self.session.scalars(
                select(Idea.id).where(Idea.id.in_(idea_ids), Idea.project_id == self.project.id)
            )
        )
        for position, idea_id in enumerate(idea_ids):
            if idea_id not in found:
                raise InvalidRequest(f"idea_ids[{position}]", "no idea with this id in this project")

    async def _set_ideas(self, entry: ChangelogEntry, idea_ids: Sequence[UUID]) -> None:
        await self.session.execute(delete(ChangelogIdea).where(ChangelogIdea.entry_id == entry.id))
        for idea_id in dict.fromkeys(idea_ids):
            self.session.add(ChangelogIdea(entry_id=entry.id, idea_id=idea_id))
        await self.session.flush()

    async def _tell(self, entry: ChangelogEntry) -> None:
        """A published entry tells the voters of the ideas it names (each once, ever, per idea)."""
        from app.ideas.notices import tell_of_done

        if entry.published_at is None or entry.published_at > utc_now():
            return
        ids = (await self.idea_ids_of([entry]))[entry.id]
        if ids:
            ideas = list(await self.session.scalars(select(Idea).where(Idea.id.in_(ids))))
            await tell_of_done(self.session, self.settings, self.project, ideas, entry=entry)


def published(entry: ChangelogEntry, now: datetime | None = None) -> bool:
    return entry.published_at is not None and entry.published_at <= (now or utc_now())
