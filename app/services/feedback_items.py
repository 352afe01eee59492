"""Feedback items of one project: every query here is filtered by that project.

Used by the REST API and the console inbox alike, so nothing here knows about HTTP.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal, TypedDict
from uuid import UUID

from sqlalchemy import ColumnElement, Select, delete, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.conversations.threads import open_conversations
from app.db.audit_trail import audit
from app.db.id_lookups import checked_among
from app.db.models import (
    FeedbackChange,
    FeedbackCounter,
    FeedbackEmbedding,
    FeedbackItem,
    FeedbackSource,
    FeedbackStatus,
    FeedbackType,
    Membership,
    Project,
    User,
)
from app.db.paging import one_page
from app.db.row_locks import lock_in_id_order, lock_rows
from app.errors import InvalidRequest, NotFound
from app.insights.jobs import queue_embeddings
from app.notifications.events import forget_news_about, queue_notification
from app.notifications.reporter_confirmation import confirmed_addresses
from app.services.attachments import delete_attachments
from app.services.feedback_counters import CounterKey, apply_feedback_counts, counted_feedback
from app.services.insights import Insights
from app.services.projects import ProjectScoped
from app.timestamps import utc_now
from app.webhooks.events import Event, feedback_created, feedback_updated, record_events
from tenants.scope import OrgScope

FeedbackSort = Literal["-created_at", "created_at", "-updated_at", "updated_at"]


@dataclass(frozen=True, slots=True)
class FeedbackFilter:
    """What a feedback list shows; every field left as None does not filter."""

    status: str | None = None
    type: str | None = None
    source: str | None = None
    path: str | None = None
    search: str | None = None
    """Case-insensitive substring of the message; LIKE wildcards in it match literally."""
    archived: bool = False
    theme: UUID | None = None
    """Only the items of this theme (an id the caller has checked belongs to the project)."""
    semantic: str | None = None
    """Order by closeness in meaning to this text (the list's own business: see FeedbackItems.list)."""
    verified: bool | None = None
    """Only items whose submitter was (True) or was not (False) verified by signature."""
    spam: bool = False
    """The items judged spam instead of the others: spam is in no other list."""

    def conditions(self, project_id: UUID) -> list[ColumnElement[bool]]:
        where = [
            FeedbackItem.project_id == project_id,
            FeedbackItem.archived == self.archived,
            FeedbackItem.spam == self.spam,
        ]
        if self.status is not None:
            where.append(FeedbackItem.status == self.status)
        if self.type is not None:
            where.append(FeedbackItem.type == self.type)
        if self.source is not None:
            where.append(FeedbackItem.source == self.source)
        if self.path is not None:
            where.append(FeedbackItem.path == self.path)
        if self.search:
            where.append(FeedbackItem.message.icontains(self.search, autoescape=True))
        if self.verified is not None:
            where.append(FeedbackItem.submitted_by_verified == self.verified)
        if self.theme is not None:
            where.append(
                FeedbackItem.id.in_(
                    select(FeedbackEmbedding.id).where(FeedbackEmbedding.theme_id == self.theme)
                )
            )
        return where

    def counter_conditions(self, project_id: UUID) -> list[ColumnElement[bool]] | None:
        """The same selection on feedback_counters, or None when the counters cannot answer it
        (path, search and the rest look inside the items)."""
        inside = (self.path, self.theme, self.semantic, self.verified)
        if self.search or self.spam or any(value is not None for value in inside):
            return None  # the counters count no spam
        where = [FeedbackCounter.project_id == project_id, FeedbackCounter.archived == self.archived]
        if self.status is not None:
            where.append(FeedbackCounter.status == self.status)
        if self.type is not None:
            where.append(FeedbackCounter.type == self.type)
        if self.source is not None:
            where.append(FeedbackCounter.source == self.source)
        return where


class FeedbackChanges(TypedDict, total=False):
    """Fields a PATCH may change, with values already validated by the request body."""

    message: str
    type: str
    status: str
    resolution_note: str | None
    archived: bool
    assignee: UUID | None
    """A member's user id; checked against the organization's members by the service."""
    duplicate_of: UUID | None
    """Another item of the project (checked by the service); marking closes the item."""
    spam: bool
    """Marking an item not spam sends what was held back (its feedback.created webhook, notifications)."""


EDITABLE_FIELDS: tuple[str, ...] = ("message", "type", "status", "resolution_note", "archived", "spam")


class FeedbackItems(ProjectScoped):
    async def create(
        self,
        *,
        message: str,
        type: str = FeedbackType.OTHER,
        status: str = FeedbackStatus.NEW,
        source: str = FeedbackSource.MANUAL,
        path: str | None = None,
        version: str | None = None,
        submitted_by: str | None = None,
        submitted_by_verified: bool = False,
        metadata: dict[str, Any] | None = None,
        created_at: datetime | None = None,
        notify_email: str | None = None,
        spam: bool = False,
    ) -> FeedbackItem:
        """Store a new item in the caller's transaction. `created_at` is for imports, which keep the
        time the feedback was given upstream. Spam is stored uncounted and unannounced."""
        # One clock reading: the two column defaults would read it twice, at times a millisecond apart.
        now = utc_now()
        item = FeedbackItem(
            created_at=created_at or now,
            updated_at=now,
            project_id=self.project.id,
            message=message,
            type=str(type),
            status=str(status),
            source=str(source),
            path=path,
            version=version,
            submitted_by=submitted_by,
            submitted_by_verified=submitted_by_verified,
            custom_data=metadata or None,
            notify_email=notify_email,
            archived=False,
            spam=spam,
        )
        self.session.add(item)
        if spam:
            await self.session.flush()
            return item
        await apply_feedback_counts(self.session, [(counter_key(item), +1)])
        await self._announce([item])
        return item

    async def _announce(self, items: list[FeedbackItem]) -> None:
        """What a new item sets off: its webhook event, the members' notification and its vector; for an
        item marked not spam, what was held back."""
        if not items:
            return
        await record_events(self.session, self.project.org_id, [feedback_created(item) for item in items])
        await self.session.flush()  # the items' ids, for the news of them
        for item in items:
            queue_notification(self.session, self.project.id, "feedback", item.id)
        await queue_embeddings(self.session, items)
        await open_conversations(self.session, items)  # a verified reporter's private thread

    def query(self, where: FeedbackFilter) -> Select[tuple[FeedbackItem]]:
        """The items a filter selects, unordered: the one place list filtering is written."""
        return select(FeedbackItem).where(*where.conditions(self.project.id))

    async def list(
        self, where: FeedbackFilter, *, sort: FeedbackSort = "-created_at", page: int = 1, limit: int = 20
    ) -> tuple[list[FeedbackItem], int]:
        """One page of the filtered items and the exact total (from the counters when they can tell),
        stable between pages. With `semantic`, the items nearest that text in meaning, nearest first
        (the sort does not apply)."""
        if where.semantic is not None:
            return await self._by_meaning(where, page, limit)
        counted = where.counter_conditions(self.project.id)
        if counted is not None:
            total: int | None = await counted_feedback(self.session, counted)
        else:
            total = await self.session.scalar(
                select(func.count()).select_from(FeedbackItem).where(*where.conditions(self.project.id))
            )
        items = await self.session.scalars(
            one_page(self.query(where), FeedbackItem, page, limit, *feedback_order(sort))
        )
        return list(items), total or 0

    async def _by_meaning(
        self, where: FeedbackFilter, page: int, limit: int
    ) -> tuple[list[FeedbackItem], int]:
        ranked = await Insights(self.session, self.scope, self.project).ranked(where.semantic or "")
        if not ranked:
            return [], 0
        score = dict(ranked)
        kept = where.conditions(self.project.id)
        matching = list(
            await self.session.scalars(
                select(FeedbackItem.id).where(
                    *checked_among(self.session, FeedbackItem.id, list(score), kept)
                )
            )
        )
        matching.sort(key=lambda feedback_id: (-score[feedback_id], feedback_id))
        start = (page - 1) * limit
        on_page = matching[start : start + limit]
        if not on_page:
            return [], len(matching)
        items = {
            item.id: item
            for item in await self.session.scalars(
                select(FeedbackItem).where(*checked_among(self.session, FeedbackItem.id, on_page, kept))
            )
        }
        return [items[feedback_id] for feedback_id in on_page if feedback_id in items], len(matching)

    async def duplicate_counts(self, items: Iterable[FeedbackItem]) -> dict[UUID, int]:
        """How many items are marked as duplicates of each of these."""
        ids = [item.id for item in items]
        if not ids:
            return {}
        rows = await self.session.execute(
            select(FeedbackItem.duplicate_of_id, func.count())
            .where(
                FeedbackItem.project_id == self.project.id,
                FeedbackItem.duplicate_of_id.in_(ids),
                FeedbackItem.spam.is_(False),  # spam is in no count
            )
            .group_by(FeedbackItem.duplicate_of_id)
        )
        return {original: count for original, count in rows.tuples() if original is not None}

    async def get(self, feedback_id: UUID) -> FeedbackItem:
        """An item of this project, archived or not; another project's item is not found."""
        item = await self.session.scalar(
            select(FeedbackItem).where(
                FeedbackItem.id == feedback_id, FeedbackItem.project_id == self.project.id
            )
        )
        if item is None:
            raise NotFound("no feedback item with this id in this project")
        return item

    async def update(self, item: FeedbackItem, changes: FeedbackChanges) -> FeedbackItem:
        """Apply the changes and record each changed field, in one transaction. The item's row is locked
        and read again first, as a purge locks the items before their counters: one lock order, so a
        change racing a purge waits for it (and finds the item gone) instead of deadlocking, and the
        counters move from the item as it is, not as an earlier read saw it."""
        if not await lock_rows(self.session, FeedbackItem, [FeedbackItem.id == item.id], []):
            raise NotFound("no feedback item with this id in this project")
        assignee = await self._assignee(changes)
        await self._check_duplicate_of(item, changes)
        before, was_spam = item.message, item.spam
        deltas, events = self._apply(item, changes, assignee)
        await apply_feedback_counts(self.session, deltas)
        await record_events(self.session, self.project.org_id, events)
        await self._tell_reporters([item])
        if was_spam and not item.spam:
            await self._announce([item])
        elif item.message != before and not item.spam:
            await queue_embeddings(self.session, [item])
        await self.session.flush()
        return item

    async def update_many(self, feedback_ids: Sequence[UUID], changes: FeedbackChanges) -> list[FeedbackItem]:
        """The same changes on several items of this project (bulk triage); unknown ids are skipped. The
        rows are locked in the order a purge locks them, before any counter."""
        items = await lock_rows(
            self.session,
            FeedbackItem,
            [FeedbackItem.project_id == self.project.id, FeedbackItem.id.in_(feedback_ids)],
            [FeedbackItem.created_at, FeedbackItem.id],
        )
        deltas: list[tuple[CounterKey, int]] = []
        events: list[Event] = []
        assignee = await self._assignee(changes)
        if "duplicate_of" in changes:
            raise InvalidRequest("duplicate_of", "is marked one item at a time")
        before = {item.id: (item.message, item.spam) for item in items}
        for item in items:
            item_deltas, item_events = self._apply(item, changes, assignee)
            deltas += item_deltas
            events += item_events
        await apply_feedback_counts(self.session, deltas)
        await record_events(self.session, self.project.org_id, events)
        await self._tell_reporters(items)
        released = [item for item in items if before[item.id][1] and not item.spam]
        await self._announce(released)
        await queue_embeddings(
            self.session,
            [
                item
                for item in items
                if item.message != before[item.id][0] and not item.spam and item not in released
            ],
        )
        await self.session.flush()
        return items

    async def _tell_reporters(self, items: Iterable[FeedbackItem]) -> None:
        """A resolved item whose reporter asked to hear of it, from an address confirmed for the project,
        queues its one mail (composed and sent by the notification handler, with the resolution note as it
        is then); never twice, never for spam. An item resolved before its address is confirmed is mailed
        when it is resolved again after."""
        due = [
            item
            for item in items
            if item.status == FeedbackStatus.RESOLVED
            and item.notify_email
            and item.resolved_mail_at is None
            and not item.spam
        ]
        confirmed = await confirmed_addresses(
            self.session, self.project.id, {item.notify_email.lower() for item in due if item.notify_email}
        )
        for item in due:
            if item.notify_email and item.notify_email.lower() in confirmed:
                item.resolved_mail_at = utc_now()
                queue_notification(self.session, self.project.id, "resolved", item.id)

    async def archive(self, item: FeedbackItem) -> FeedbackItem:
        """Soft delete; archiving twice changes nothing and records nothing."""
        return await self.update(item, {"archived": True})

    async def purge(self, item: FeedbackItem) -> None:
        """Delete the item for good, with its history, and take it off the counters, in one transaction
        with its audit entry (which names the item, never its text)."""
        await delete_feedback(
            self.session, [FeedbackItem.id == item.id, FeedbackItem.project_id == self.project.id]
        )
        audit(
            self.session,
            self.project.org_id,
            "feedback.purged",
            "feedback",
            item.id,
            {"project_id": self.project.id},
        )
        self.session.expunge(item)
        await self.session.flush()

    async def history(self, item: FeedbackItem) -> list[FeedbackChange]:
        """Every recorded change of the item, oldest first."""
        changes = await self.session.scalars(
            select(FeedbackChange)
            .where(FeedbackChange.feedback_id == item.id)
            .order_by(FeedbackChange.created_at, FeedbackChange.id)
        )
        return list(changes)

    async def assignee_emails(self, history: Iterable[FeedbackChange]) -> dict[str, str]:
        """The emails of the users an assignee change names (history keeps user ids, which stay true
        when an email changes), for showing the history to people."""
        ids = {
            UUID(value)
            for change in history
            if change.field == "assignee"
            for value in (change.from_value, change.to_value)
            if value is not None
        }
        if not ids:
            return {}
        users = await self.session.execute(select(User.id, User.email).where(User.id.in_(ids)))
        return {str(user_id): email for user_id, email in users.tuples()}

    async def _assignee(self, changes: FeedbackChanges) -> User | None:
        """The user a change assigns to, once checked to be a member of the project's organization."""
        user_id = changes.get("assignee")
        if user_id is None:
            return None
        user = await self.session.scalar(
            select(User)
            .join(Membership, Membership.user_id == User.id)
            .where(User.id == user_id, Membership.org_id == self.project.org_id)
        )
        if user is None:
            raise InvalidRequest("assignee", "must be the user_id of a member of this organization")
        return user

    async def _check_duplicate_of(self, item: FeedbackItem, changes: FeedbackChanges) -> None:
        """A duplicate points at another item of this project that is not itself a duplicate."""
        original_id = changes.get("duplicate_of")
        if original_id is None:
            return
        if original_id == item.id:
            raise InvalidRequest("duplicate_of", "an item cannot be a duplicate of itself")
        original = await self.session.scalar(
            select(FeedbackItem).where(
                FeedbackItem.id == original_id, FeedbackItem.project_id == self.project.id
            )
        )
        if original is None:
            raise InvalidRequest("duplicate_of", "must be the id of another feedback item of this project")
        if original.duplicate_of_id is not None:
            raise InvalidRequest(
                "duplicate_of",
                f"that item is itself a duplicate of {original.duplicate_of_id}; name that one",
            )

    def _apply(
        self, item: FeedbackItem, changes: FeedbackChanges, assignee: User | None = None
    ) -> tuple[list[tuple[CounterKey, int]], list[Event]]:
        """Change the item, record the history; returns the counter moves and the event (none when
        nothing changed) the change implies. Assigning a New item to someone makes it Assigned."""
        now = utc_now()
        changed: list[tuple[str, object, object]] = []
        before_key = None if item.spam else counter_key(item)
        wanted: dict[str, Any] = dict(changes)
        if "assignee" in wanted:
            new_id = assignee.id if assignee else None
            if item.assignee_id != new_id:
                self._record(item, "assignee", item.assignee_id, new_id, now, changed)
                item.assignee_id, item.assignee = new_id, assignee
                if assignee is not None and wanted.get("status", item.status) == FeedbackStatus.NEW:
                    wanted["status"] = FeedbackStatus.ASSIGNED.value
        if "duplicate_of" in wanted:
            original_id = wanted["duplicate_of"]
            if item.duplicate_of_id != original_id:
                self._record(item, "duplicate_of", item.duplicate_of_id, original_id, now, changed)
                item.duplicate_of_id = original_id
            if original_id is not None:
                wanted["status"] = FeedbackStatus.CLOSED.value
        for field in EDITABLE_FIELDS:
            if field not in wanted:
                continue
            before, after = getattr(item, field), wanted[field]
            if before == after:
                continue
            setattr(item, field, after)
            self._record(item, field, before, after, now, changed)
        if changed:
            item.updated_at = now
        after_key = None if item.spam else counter_key(item)
        deltas = [] if after_key == before_key else [(before_key, -1), (after_key, +1)]
        deltas = [(key, delta) for key, delta in deltas if key is not None]  # spam is counted nowhere
        held = item.spam or before_key is None  # spam is unannounced; what is released is news of its own
        return deltas, [feedback_updated(item, changed)] if changed and not held else []

    def _record(
        self,
        item: FeedbackItem,
        field: str,
        before: object,
        after: object,
        now: datetime,
        changed: list[tuple[str, object, object]],
    ) -> None:
        """One field's change in the item's history, and in the event's list of changes."""
        self.session.add(
            FeedbackChange(
                feedback_id=item.id,
                field=field,
                from_value=stored_value(before),
                to_value=stored_value(after),
                changed_by=self.scope.actor,
                created_at=now,
                updated_at=now,
            )
        )
        changed.append(
            (
                field,
                stored_value(before) if isinstance(before, UUID) else before,
                stored_value(after) if isinstance(after, UUID) else after,
            )
        )


async def delete_feedback(
    session: AsyncSession, where: Iterable[ColumnElement[bool]], *, limit: int | None = None
) -> int:
    """Delete for good the items matching `where` (at most `limit`, oldest first) with their history,
    images and the mail about them (waiting or sent), and take them off the counters and the image quota,
    in the caller's transaction; returns how many went. The rows are locked first, so a concurrent change
    cannot move a counter of an item being deleted, and then their vectors in id order, as the writers of
    vectors lock them (the cascade that deletes them would take them in the order its scan meets
    them)."""
    query = (
        select(FeedbackItem.id, FeedbackItem.spam, *COUNTER_COLUMNS)
        .where(*where)
        .order_by(FeedbackItem.created_at, FeedbackItem.id)
        .with_for_update()
    )
    rows = list(await session.execute(query if limit is None else query.limit(limit)))
    if not rows:
        return 0
    counted = [(tuple(row[2:]), -1) for row in rows if not row[1]]  # spam is on no counter
    await apply_feedback_counts(session, counted)  # type: ignore[arg-type]
    ids = [row[0] for row in rows]
    in_id_order = sorted(ids)
    for start in range(0, len(ids), 500):
        vectors = [FeedbackEmbedding.id.in_(in_id_order[start : start + 500])]
        await lock_in_id_order(session, FeedbackEmbedding.id, vectors, deleting=True)
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        await delete_attachments(session, [FeedbackItem.id.in_(chunk)])
        await forget_news_about(session, chunk)
        await session.execute(delete(FeedbackChange).where(FeedbackChange.feedback_id.in_(chunk)))
        await session.execute(
            delete(FeedbackItem)
            .where(FeedbackItem.id.in_(chunk))
            .execution_options(synchronize_session=False)
        )
    return len(rows)


COUNTER_COLUMNS = (
    FeedbackItem.project_id,
    FeedbackItem.archived,
    FeedbackItem.status,
    FeedbackItem.type,
    FeedbackItem.source,
)
"""The columns of an item's counter key, in CounterKey order."""


def feedback_order(sort: FeedbackSort) -> tuple[ColumnElement[Any], ColumnElement[Any]]:
    """The order of a list or export: by the sort's time, then by id, so pages are stable."""
    column = FeedbackItem.updated_at if sort.endswith("updated_at") else FeedbackItem.created_at
    if sort.startswith("-"):
        return column.desc(), FeedbackItem.id.desc()
    return column.asc(), FeedbackItem.id.asc()


def counter_key(item: FeedbackItem) -> CounterKey:
    return (item.project_id, item.archived, item.status, item.type, item.source)


def stored_value(value: object) -> str | None:
    """History keeps every value as text; booleans as "true" / "false", user ids as text."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, UUID):
        return str(value)
    return value  # type: ignore[return-value]


async def unassign_member(session: AsyncSession, scope: OrgScope, user_id: UUID) -> None:
    """Items assigned to a member who leaves the organization go back to nobody, each change recorded in
    its history and announced like any other."""
    assigned = await session.execute(
        select(Project, FeedbackItem.id)
        .join(FeedbackItem, FeedbackItem.project_id == Project.id)
        .where(Project.org_id == scope.org_id, FeedbackItem.assignee_id == user_id)
    )
    by_project: dict[Project, list[UUID]] = {}
    for project, item_id in assigned.tuples():
        by_project.setdefault(project, []).append(item_id)
    for project, item_ids in by_project.items():
        await FeedbackItems(session, scope, project).update_many(item_ids, {"assignee": None})
