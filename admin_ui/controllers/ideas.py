"""The project's Ideas tab: the pending queue ("Approve" / "Decline"), every idea with its status
changed in place from its row, and an idea's page: its status, the team's public response, tags, "Pin",
its voters, the feedback items linked to it as demand, the duplicates merged into it, and merging it into
another idea, with the ideas that say the same by meaning offered first. Its Changelog: drafts and
published entries naming the ideas they shipped. Any member triages ideas; owners and admins write the
changelog (it is published under the project's name and mails the voters).

Everything goes through the Ideas and Changelog services the REST API uses, so the console cannot store
what the API would refuse, and the refusals name the field."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

import msgspec
from litestar import Controller, get, post
from litestar.di import Provide
from litestar.plugins.htmx import HTMXRequest

from admin_ui.forms import Form
from admin_ui.listing import PAGE_SIZE, Pages, choice, page_number
from admin_ui.rendering import go_to, render
from app.db.models import ChangelogEntry, Idea, IdeaStatus, Project
from app.db.read_routing import REPLICA_READS
from app.dependencies import provide
from app.errors import ApiError, InvalidRequest, NotFound, msgspec_violation
from app.ideas.bodies import ChangelogCreateBody, ChangelogPatchBody, IdeaCreateBody, IdeaPatchBody
from app.ideas.service import Changelog, Ideas
from app.ideas.triage import IdeaTriage
from app.schemas.pagination import Pagination
from app.schemas.portal import portal_of
from app.timestamps import utc_now
from tenants.permissions import needs
from tenants.scope import Access

TRIAGE = needs(Access.WRITE)
ADMIN = needs(Access.ADMIN)
STATUSES = [status.value for status in IdeaStatus]
STATUS_LABELS = {
    "pending": "Pending",
    "open": "Open",
    "planned": "Planned",
    "in_progress": "In progress",
    "done": "Done",
    "declined": "Declined",
}
SORTS = {"top": "Most votes", "new": "Newest", "trending": "Trending"}
FILTERS = ("status", "tag", "q", "sort")
VOTERS_SHOWN = 50
QUEUE_SHOWN = 20


def ideas_url(project: Project, *rest: object) -> str:
    return "/".join([f"/projects/{project.id}/ideas", *map(str, rest)])


def patch_of(form: dict[str, Any]) -> IdeaPatchBody:
    """The same rules as a PATCH body: the console cannot store what the API would refuse."""
    try:
        return msgspec.convert(form, IdeaPatchBody)
    except msgspec.ValidationError as exc:
        rule, name = msgspec_violation(exc)
        raise InvalidRequest((name or "body").split("[")[0], rule) from None


def tags_of_text(text: str) -> list[str]:
    """ "UI, dark mode" -> ["UI", "dark mode"]: tags are typed separated by commas."""
    return [tag.strip() for tag in text.split(",") if tag.strip()]


def uuids_in(values: list[str]) -> list[UUID]:
    """The ids among a form's ticked values (a forged one is left out: the service names it)."""
    found = []
    for value in values:
        try:
            found.append(UUID(value))
        except ValueError:
            continue
    return found


def parse_uuid_field(value: str, name: str) -> UUID:
    try:
        return UUID(value.strip())
    except ValueError:
        raise InvalidRequest(name, "choose an idea") from None


@dataclass
class IdeaForm:
    """An idea's form; a field a form does not send stays UNSET and is left alone."""

    title: str | msgspec.UnsetType = msgspec.UNSET
    body: str | msgspec.UnsetType = msgspec.UNSET
    status: str | msgspec.UnsetType = msgspec.UNSET
    response: str | msgspec.UnsetType = msgspec.UNSET
    tags: str | msgspec.UnsetType = msgspec.UNSET

    def changes(self) -> dict[str, Any]:
        given = {name: value for name, value in vars(self).items() if value is not msgspec.UNSET}
        if "title" in given:
            given["title"] = given["title"].strip()
        if "response" in given:
            given["response"] = given["response"].strip() or None
        if "tags" in given:
            given["tags"] = tags_of_text(given["tags"])
        return given


@dataclass
class NewIdeaForm:
    title: str = ""
    body: str = ""
    tags: str = ""

    def body_of(self) -> IdeaCreateBody:
        """The team's idea, open at once, under the API's rules."""
        form = {"title": self.title.strip(), "body": self.body, "tags": tags_of_text(self.tags)}
        try:
            return msgspec.convert(form, IdeaCreateBody)
        except msgspec.ValidationError as exc:
            rule, name = msgspec_violation(exc)
            raise InvalidRequest((name or "title").split("[")[0], rule) from None


@dataclass
class PinForm:
    pinned: str = ""


@dataclass
class MergeForm:
    into: str = ""


@dataclass
class IdeaPage:
    """One idea's page and what it shows, so that a handler shows the idea again (saved, or with the
    refusal beside its field) in one call."""

    request: HTMXRequest
    project: Project
    ideas: Ideas
    triage: IdeaTriage

    async def show(self, idea: Idea, *, status_code: int = 200, **context: Any) -> Any:
        voters, voter_total = await self.ideas.voters(idea, limit=VOTERS_SHOWN)
        merge_q = self.request.query_params.get("merge_q", "").strip()
        target = await self.ideas.get(idea.merged_into_id) if idea.merged_into_id else None
        similar = [] if target else await self.triage.similar_to(idea)
        return render(
            self.request,
            "idea.html",
            fragment="partials/_idea_detail.html",
            status_code=status_code,
            project=self.project,
            idea=idea,
            tags=(await self.ideas.tags_of([idea]))[idea.id],
            voters=voters,
            voter_total=voter_total,
            demand=await self.triage.demand(idea),
            duplicates=await self.triage.merged_into(idea),
            comments=await self.ideas.comments(idea, team=True),
            merged_target=target,
            similar=similar,
            merge_q=merge_q,
            found=await self.triage.titled(merge_q, exclude=idea.id) if merge_q and not target else [],
            statuses=STATUSES,
            status_labels=STATUS_LABELS,
            portal=portal_of(self.project),
            errors=context.pop("errors", {}),
            values=context.pop("values", {}),
            **context,
        )


class IdeasController(Controller):
    path = "/projects/{project_id:str}/ideas"
    include_in_schema = False
    dependencies = {
        "ideas": provide(Ideas),
        "triage": provide(IdeaTriage),
        "idea_page": Provide(IdeaPage, sync_to_thread=False),
    }

    async def _board(
        self,
        request: HTMXRequest,
        project: Project,
        ideas: Ideas,
        *,
        status_code: int = 200,
        **context: Any,
    ) -> Any:
        query = {name: request.query_params.get(name, "").strip() for name in FILTERS}
        status = choice(query["status"], STATUSES, "status")
        sort = choice(query["sort"], SORTS, "sort") or "top"
        page = page_number(request.query_params.get("page"))
        rows, total = await ideas.list(
            status=status,
            tag=query["tag"] or None,
            search=query["q"] or None,
            sort=sort,  # type: ignore[arg-type]
            page=page,
            limit=PAGE_SIZE,
            team=True,
        )
        queue, waiting = await ideas.list(status="pending", sort="new", limit=QUEUE_SHOWN, team=True)
        pages = Pages(Pagination.of(page=page, limit=PAGE_SIZE, total=total), ideas_url(project), query)
        return render(
            request,
            "ideas.html",
            fragment="partials/_ideas_board.html",
            status_code=status_code,
            project=project,
            ideas=rows,
            queue=queue,
            waiting=waiting,
            tags=await ideas.tags_of([*rows, *queue]),
            project_tags=await ideas.project_tags(),
            pages=pages,
            back=pages.query_string,
            filters=query,
            statuses=STATUSES,
            status_labels=STATUS_LABELS,
            sorts=SORTS,
            portal=portal_of(project),
            new_errors=context.pop("new_errors", {}),
            new_values=context.pop("new_values", {}),
            **context,
        )

    @get("/", opt=REPLICA_READS)
    async def board(self, request: HTMXRequest, project: Project, ideas: Ideas) -> Any:
        deleted = request.query_params.get("deleted")
        return await self._board(
            request,
            project,
            ideas,
            notice="Deleted the idea with its votes and comments." if deleted else None,
        )

    @post("/", opt=TRIAGE)
    async def create(
        self,
        request: HTMXRequest,
        project: Project,
        ideas: Ideas,
        data: Form[NewIdeaForm],
    ) -> Any:
        """ "New idea": the team's own, open on the portal at once."""
        try:
            idea = await ideas.create(data.body_of())
        except InvalidRequest as exc:
            return await self._board(
                request,
                project,
                ideas,
                status_code=400,
                new_errors={exc.field: exc.details.removeprefix(f"{exc.field}: ")},
                new_values=vars(data),
            )
        return go_to(request, ideas_url(project, idea.id))

    async def _set_status(
        self,
        request: HTMXRequest,
        project: Project,
        ideas: Ideas,
        idea_id: UUID,
        status: str,
    ) -> Any:
        idea = await ideas.get(idea_id)
        await ideas.set_status(idea, status)
        done = f"“{idea.title}” is {STATUS_LABELS[status].lower()}."
        if request.htmx:
            return await self._board(request, project, ideas, notice=done)
        back = request.url.query
        return go_to(request, ideas_url(project) + (f"?{back}" if back else ""))

    @post("/{idea_id:uuid}/approve", opt=TRIAGE)
    async def approve(self, request: HTMXRequest, project: Project, ideas: Ideas, idea_id: UUID) -> Any:
        """A pending suggestion goes on the portal, open for votes."""
        return await self._set_status(request, project, ideas, idea_id, IdeaStatus.OPEN.value)

    @post("/{idea_id:uuid}/decline", opt=TRIAGE)
    async def decline(self, request: HTMXRequest, project: Project, ideas: Ideas, idea_id: UUID) -> Any:
        return await self._set_status(request, project, ideas, idea_id, IdeaStatus.DECLINED.value)

    @post("/{idea_id:uuid}/status", opt=TRIAGE)
    async def row_status(
        self, request: HTMXRequest, project: Project, ideas: Ideas, idea_id: UUID, data: Form[IdeaForm]
    ) -> Any:
        """The status select of one row: answers with the row itself."""
        idea = await ideas.get(idea_id)
        await ideas.update(idea, patch_of({"status": data.status if data.status else ""}))
        if request.htmx:
            return render(
                request,
                "partials/_idea_row.html",
                project=project,
                idea=idea,
                tags=await ideas.tags_of([idea]),
                statuses=STATUSES,
                status_labels=STATUS_LABELS,
                back="",
                row_saved=True,
            )
        back = request.url.query
        return go_to(request, ideas_url(project) + (f"?{back}" if back else ""))

    @get("/{idea_id:uuid}")
    async def detail(self, request: HTMXRequest, ideas: Ideas, idea_page: IdeaPage, idea_id: UUID) -> Any:
        notice = (
            "Merged: the votes and linked feedback moved here."
            if request.query_params.get("merged")
            else None
        )
        return await idea_page.show(await ideas.get(idea_id), notice=notice)

    @post("/{idea_id:uuid}", opt=TRIAGE)
    async def save(
        self,
        ideas: Ideas,
        idea_page: IdeaPage,
        idea_id: UUID,
        data: Form[IdeaForm],
    ) -> Any:
        """Title, description, status, the team's response and tags, as the form shows them."""
        idea = await ideas.get(idea_id)
        try:
            await ideas.update(idea, patch_of(data.changes()))
        except InvalidRequest as exc:  # refused before anything changed
            return await idea_page.show(
                idea,
                status_code=400,
                errors={exc.field: exc.details.removeprefix(f"{exc.field}: ")},
                values={k: v for k, v in vars(data).items() if v is not msgspec.UNSET},
            )
        return await idea_page.show(idea, saved="Saved.")

    @get("/{idea_id:uuid}/delete", opt=ADMIN)
    async def confirm_delete(
        self, request: HTMXRequest, project: Project, ideas: Ideas, idea_id: UUID
    ) -> Any:
        idea = await ideas.get(idea_id)
        votes = f"{idea.vote_count} vote{'' if idea.vote_count == 1 else 's'}"
        comments = f"{idea.comment_count} comment{'' if idea.comment_count == 1 else 's'}"
        return render(
            request,
            "purge_confirm.html",
            project=project,
            what="idea",
            excerpt=idea.title,
            action=ideas_url(project, idea.id, "delete"),
            back=ideas_url(project, idea.id),
            consequence=f"It is deleted for good with its {votes} and {comments}, and leaves the "
            "portal; ideas merged into it stand alone again.",
        )

    @post("/{idea_id:uuid}/delete", opt=ADMIN)
    async def delete(self, request: HTMXRequest, project: Project, ideas: Ideas, idea_id: UUID) -> Any:
        """An admin's, after the confirmation page: as the API's DELETE."""
        await ideas.delete(await ideas.get(idea_id))
        return go_to(request, ideas_url(project) + "?deleted=1")

    @post("/{idea_id:uuid}/pin", opt=TRIAGE)
    async def pin(
        self,
        ideas: Ideas,
        idea_page: IdeaPage,
        idea_id: UUID,
        data: Form[PinForm],
    ) -> Any:
        """ "Pin" keeps the idea at the top of the portal's lists; "Unpin" lets it sort with the rest."""
        idea = await ideas.get(idea_id)
        await ideas.update(idea, IdeaPatchBody(pinned=data.pinned == "true"))
        return await idea_page.show(idea, saved="Pinned." if idea.pinned else "Unpinned.")

    @post("/{idea_id:uuid}/merge", opt=TRIAGE)
    async def merge(
        self,
        request: HTMXRequest,
        project: Project,
        ideas: Ideas,
        idea_page: IdeaPage,
        idea_id: UUID,
        data: Form[MergeForm],
    ) -> Any:
        """This idea is a duplicate of `into`: its votes and linked feedback move there (a person who voted
        for both counts once). Then the console shows the idea that kept them."""
        idea = await ideas.get(idea_id)
        try:
            target = await ideas.merge(idea, parse_uuid_field(data.into, "into"))
        except InvalidRequest as exc:
            return await idea_page.show(
                idea,
                status_code=400,
                errors={"into": exc.details.removeprefix("into: ")},
            )
        return go_to(request, ideas_url(project, target.id) + "?merged=1")


# -- the changelog ------------------------------------------------------------------------------------------


@dataclass
class EntryForm:
    title: str = ""
    body: str = ""
    published_at: str = ""
    """A datetime-local value, read as UTC; empty: a draft."""
    idea_ids: str | list[str] = field(default_factory=list)
    action: str = "save"
    """"save" as the form says, "publish" now, "unpublish" back to a draft."""

    def ids(self) -> list[str]:
        return [self.idea_ids] if isinstance(self.idea_ids, str) else list(self.idea_ids)


def published_at_of(form: EntryForm) -> datetime | None:
    if form.action == "publish":
        return utc_now()
    if form.action == "unpublish":
        return None
    text = form.published_at.strip()
    if not text:
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise InvalidRequest("published_at", "must be a date and time, or empty for a draft") from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def entry_body(form: EntryForm) -> dict[str, Any]:
    """The form as the API's body (its rules apply to both)."""
    ids = []
    for value in form.ids():
        try:
            ids.append(str(UUID(value)))
        except ValueError:
            raise InvalidRequest("idea_ids", f"{value!r:.40} is not an idea id") from None
    published = published_at_of(form)
    return {
        "title": form.title.strip(),
        "body": form.body,
        "published_at": published.isoformat() if published else None,
        "idea_ids": ids,
    }


def field_error(exc: ApiError) -> dict[str, str]:
    """A refusal worded "field: rule" as the form's error beside that field."""
    field, _, rule = exc.details.partition(": ")
    return {field.split("[")[0]: rule}


def checked_entry(form: EntryForm, kind: type[Any]) -> Any:
    try:
        return msgspec.convert(entry_body(form), kind)
    except msgspec.ValidationError as exc:
        rule, name = msgspec_violation(exc)
        raise InvalidRequest((name or "body").split("[")[0], rule) from None


class ChangelogConsoleController(Controller):
    path = "/projects/{project_id:str}/ideas/changelog"
    include_in_schema = False
    dependencies = {"changelog": provide(Changelog), "triage": provide(IdeaTriage)}

    async def _page(
        self,
        request: HTMXRequest,
        project: Project,
        changelog: Changelog,
        triage: IdeaTriage,
        *,
        status_code: int = 200,
        **context: Any,
    ) -> Any:
        page = page_number(request.query_params.get("page"))
        entries, total = await changelog.list(page=page, limit=PAGE_SIZE)
        named = await changelog.idea_ids_of(entries)
        return render(
            request,
            "changelog.html",
            status_code=status_code,
            project=project,
            entries=entries,
            named=named,
            names=await triage.by_ids([i for ids in named.values() for i in ids]),
            pages=Pages(
                Pagination.of(page=page, limit=PAGE_SIZE, total=total), ideas_url(project, "changelog"), {}
            ),
            choices=await triage.for_changelog(uuids_in(context.get("chosen", []))),
            chosen=context.pop("chosen", []),
            status_labels=STATUS_LABELS,
            portal=portal_of(project),
            now=utc_now(),
            errors=context.pop("errors", {}),
            values=context.pop("values", {}),
            **context,
        )

    @get("/", opt=REPLICA_READS)
    async def entries(
        self, request: HTMXRequest, project: Project, changelog: Changelog, triage: IdeaTriage
    ) -> Any:
        notice = {"created": "Saved.", "deleted": "Deleted the entry."}.get(
            request.query_params.get("done", "")
        )
        return await self._page(request, project, changelog, triage, notice=notice)

    @post("/")
    async def create(
        self,
        request: HTMXRequest,
        project: Project,
        changelog: Changelog,
        triage: IdeaTriage,
        data: Form[EntryForm],
    ) -> Any:
        try:
            await changelog.create(checked_entry(data, ChangelogCreateBody))
        except (InvalidRequest, NotFound) as exc:  # an idea it names may have gone meanwhile
            return await self._page(
                request,
                project,
                changelog,
                triage,
                status_code=400,
                errors=field_error(exc),
                values=vars(data),
                chosen=[i for i in data.ids()],
            )
        done = "published" if data.action == "publish" else "created"
        return go_to(request, ideas_url(project, "changelog") + f"?done={done}")

    async def _entry(
        self,
        request: HTMXRequest,
        project: Project,
        changelog: Changelog,
        triage: IdeaTriage,
        entry: ChangelogEntry,
        *,
        status_code: int = 200,
        **context: Any,
    ) -> Any:
        named = (await changelog.idea_ids_of([entry]))[entry.id]
        chosen = context.pop("chosen", None)
        chosen = [str(i) for i in named] if chosen is None else chosen
        named = list(dict.fromkeys([*named, *uuids_in(chosen)]))
        return render(
            request,
            "changelog_entry.html",
            status_code=status_code,
            project=project,
            entry=entry,
            choices=await triage.for_changelog(named),
            chosen=chosen,
            status_labels=STATUS_LABELS,
            portal=portal_of(project),
            now=utc_now(),
            errors=context.pop("errors", {}),
            values=context.pop("values", {}),
            **context,
        )

    @get("/{entry_id:uuid}")
    async def entry(
        self, request: HTMXRequest, project: Project, changelog: Changelog, triage: IdeaTriage, entry_id: UUID
    ) -> Any:
        return await self._entry(request, project, changelog, triage, await changelog.get(entry_id))

    @post("/{entry_id:uuid}")
    async def update(
        self,
        request: HTMXRequest,
        project: Project,
        changelog: Changelog,
        triage: IdeaTriage,
        entry_id: UUID,
        data: Form[EntryForm],
    ) -> Any:
        """Save as the form says, "Publish now" (the voters of the ideas it names hear of it, each once per
        idea), or "Unpublish"."""
        entry = await changelog.get(entry_id)
        try:
            await changelog.update(entry, checked_entry(data, ChangelogPatchBody))
        except (InvalidRequest, NotFound) as exc:  # an idea it names may have gone meanwhile
            return await self._entry(
                request,
                project,
                changelog,
                triage,
                entry,
                status_code=400,
                errors=field_error(exc),
                values=vars(data),
                chosen=data.ids(),
            )
        saved = {"publish": "Published.", "unpublish": "Unpublished: it is a draft again."}.get(
            data.action, "Saved."
        )
        return await self._entry(request, project, changelog, triage, entry, saved=saved)

    @post("/{entry_id:uuid}/delete")
    async def delete(
        self, request: HTMXRequest, project: Project, changelog: Changelog, entry_id: UUID
    ) -> Any:
        await changelog.delete(await changelog.get(entry_id))
        return go_to(request, ideas_url(project, "changelog") + "?done=deleted")
