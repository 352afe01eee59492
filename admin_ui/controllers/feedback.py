"""The feedback inbox: filters, pages, status changed in place from the row, a detail view with the
history and a resolution note, archive and restore, bulk status change. Every role may triage.

All reads and changes go through FeedbackItems, the service the REST API uses."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, TypeVar
from uuid import UUID

import msgspec
from litestar import Controller, Response, get, post
from litestar.di import Provide
from litestar.plugins.htmx import HTMXRequest

from admin_ui.controllers.conversations import conversation_of
from admin_ui.forms import Form
from admin_ui.listing import PAGE_SIZE, Pages, choice, page_number
from admin_ui.rendering import go_to, render
from app.churn.rewards import Rewards
from app.db.ids import parse_uuid
from app.db.models import FeedbackItem, FeedbackSource, FeedbackStatus, FeedbackType, Project, SubjectKind
from app.db.models.billing_items import subscription_of
from app.db.models.idea import TITLE_LENGTH
from app.db.read_routing import REPLICA_READS
from app.dependencies import build, provide, request_settings
from app.errors import ApiError, InvalidRequest, Unavailable, msgspec_violation
from app.exports.attachments import attachment_response
from app.ideas.service import Ideas
from app.ideas.triage import IdeaTriage
from app.integrations.tracker_integrations import TrackerIntegrations
from app.integrations.trackers import TRACKERS, tracker_named
from app.notifications.reporter_confirmation import confirmed_addresses
from app.schemas.feedback_requests import FeedbackCreateBody, FeedbackPatchBody
from app.schemas.pagination import Pagination
from app.services.attachments import FeedbackAttachments
from app.services.feedback_items import FeedbackChanges, FeedbackFilter, FeedbackItems
from app.services.insights import Insights
from app.services.linked_issues import LinkedIssues
from app.services.projects import ProjectScoped
from tenants.members import Members
from tenants.permissions import needs
from tenants.scope import Access

TRIAGE = needs(Access.WRITE)


@dataclass
class RewardForm:
    coupon: str = ""


ADMIN = needs(Access.ADMIN)
FILTERS = ("status", "type", "source", "path", "search", "meaning", "theme", "archived")
STATUSES = [s.value for s in FeedbackStatus]
TYPES = [t.value for t in FeedbackType]
SOURCES = [s.value for s in FeedbackSource]


def checked_changes(form: dict[str, Any]) -> FeedbackChanges:
    """The same rules as a PATCH body, so the console cannot store what the API would refuse."""
    try:
        body = msgspec.convert(form, FeedbackPatchBody)
    except msgspec.ValidationError as exc:
        rule, field = msgspec_violation(exc)
        raise InvalidRequest(field or "body", rule) from None
    return {k: v for k, v in msgspec.structs.asdict(body).items() if v is not msgspec.UNSET}  # type: ignore[return-value]


def feedback_filter(query: dict[str, str]) -> FeedbackFilter:
    """The inbox's filters from its query string (the list and its downloads read the same)."""
    return FeedbackFilter(
        status=choice(query.get("status"), STATUSES, "status"),
        type=choice(query.get("type"), TYPES, "type"),
        source=choice(query.get("source"), SOURCES, "source"),
        path=query.get("path", "").strip() or None,
        search=query.get("search", "").strip() or None,
        archived=query.get("archived") == "true",
    )


async def insights_filter(
    where: FeedbackFilter, query: dict[str, str], insights: Insights
) -> tuple[FeedbackFilter, Any]:
    """The inbox's theme and "Search by meaning": the search text ordered by meaning instead of matched
    as words. Returns the filter and the theme shown, if any."""
    theme = await insights.theme(query["theme"]) if query.get("theme") else None
    if theme is not None:
        where = replace(where, theme=theme.id)
    if query.get("meaning") == "true" and where.search:
        where = replace(where, semantic=where.search, search=None)
    return where, theme


def feedback_url(project: Project, item: FeedbackItem | None = None) -> str:
    base = f"/projects/{project.id}/feedback"
    return f"{base}/{item.id}" if item else base


@dataclass
class FeedbackForm:
    """What the feedback forms post. A field a form does not send stays UNSET, which is not the same as
    sent empty: the detail form's empty assignee unassigns, a form without one leaves it alone."""

    message: str | msgspec.UnsetType = msgspec.UNSET
    type: str | msgspec.UnsetType = msgspec.UNSET
    status: str | msgspec.UnsetType = msgspec.UNSET
    resolution_note: str | msgspec.UnsetType = msgspec.UNSET
    assignee: str | msgspec.UnsetType = msgspec.UNSET
    duplicate_of: str | msgspec.UnsetType = msgspec.UNSET

    def given(self, *names: str) -> dict[str, Any]:
        """The named fields the form sent, as sent."""
        return {name: value for name in names if (value := getattr(self, name)) is not msgspec.UNSET}


@dataclass
class BulkForm:
    """The inbox's bulk change: the ticked rows (one `ids` value per row) and the status for them all."""

    status: str = ""
    ids: str | list[str] = field(default_factory=list)

    def id_values(self) -> list[str]:
        return [self.ids] if isinstance(self.ids, str) else self.ids


@dataclass
class LinkIdeaForm:
    """ "Link to idea": an existing idea chosen, or a new one's title (the title wins when both are given)."""

    idea_id: str = ""
    title: str = ""


@dataclass
class ItemPage:
    """One feedback item's page and what it shows, so that a handler shows the item again (saved, or with
    a refusal beside its field) in one call."""

    request: HTMXRequest
    project: Project
    feedback_items: FeedbackItems
    insights: Insights
    members: Members

    async def show(self, item: FeedbackItem, *, status_code: int = 200, **extra: Any) -> Any:
        request, project, feedback_items = self.request, self.project, self.feedback_items
        history = await feedback_items.history(item)
        similar, similar_note = await similar_of(self.insights, item)
        linked = (
            await LinkedIssues(feedback_items.session, feedback_items.scope, project).of_items([item.id])
        ).get(item.id, [])
        set_up = await beside(request, feedback_items, TrackerIntegrations).all()
        triage = beside(request, feedback_items, IdeaTriage)
        return render(
            request,
            "feedback_item.html",
            fragment="partials/_feedback_detail.html",
            status_code=status_code,
            project=project,
            item=item,
            history=history,
            emails=await feedback_items.assignee_emails(history),
            members=await self.members.list(),
            statuses=STATUSES,
            types=TYPES,
            errors=extra.pop("errors", {}),
            similar=similar,
            similar_note=similar_note,
            duplicate_count=(await feedback_items.duplicate_counts([item])).get(item.id, 0),
            attachments=(await feedback_attachments(feedback_items).of_items([item.id])).get(item.id, []),
            linked_issues=linked,
            conversation=await conversation_of(feedback_items, project, SubjectKind.FEEDBACK, item.id),
            can_reward=subscription_of(item) is not None,
            reward=await beside(request, feedback_items, Rewards).of(item),
            notify_confirmed=await _notify_confirmed(feedback_items, item),
            linked_idea=await triage.idea_of(item.id),
            idea_choices=await triage.linkable(),
            can_file=[
                tracker
                for name, tracker in TRACKERS.items()
                if name in set_up and not any(issue.tracker == name for issue in linked)
            ],
            **extra,
        )


class FeedbackController(Controller):
    path = "/projects/{project_id:str}/feedback"
    include_in_schema = False
    dependencies = {
        "feedback_items": provide(FeedbackItems),
        "insights": provide(Insights),
        "members": provide(Members),
        "item_page": Provide(ItemPage, sync_to_thread=False),
    }

    async def _list(
        self,
        request: HTMXRequest,
        project: Project,
        feedback_items: FeedbackItems,
        insights: Insights,
        **extra: Any,
    ) -> Any:
        query = {name: request.query_params.get(name, "") for name in FILTERS}
        page = page_number(request.query_params.get("page"))
        try:
            where, theme = await insights_filter(feedback_filter(query), query, insights)
            items, total = await feedback_items.list(where, page=page, limit=PAGE_SIZE)
        except Unavailable as exc:
            items, total, theme = [], 0, None
            extra["insights_error"] = f"Search by meaning is unavailable: {exc.details}"
        extra["theme"] = theme
        pages = Pages(Pagination.of(page=page, limit=PAGE_SIZE, total=total), feedback_url(project), query)
        return render(
            request,
            "feedback.html",
            fragment="partials/_feedback_list.html",
            project=project,
            items=items,
            pages=pages,
            filters=query,
            statuses=STATUSES,
            types=TYPES,
            sources=SOURCES,
            **extra,
        )

    @get("/", opt=REPLICA_READS)
    async def inbox(
        self, request: HTMXRequest, project: Project, feedback_items: FeedbackItems, insights: Insights
    ) -> Any:
        return await self._list(request, project, feedback_items, insights)

    @get("/new", opt=TRIAGE)
    async def new_page(self, request: HTMXRequest, project: Project) -> Any:
        return render(request, "feedback_new.html", project=project, types=TYPES, values={}, errors={})

    @post("/new", opt=TRIAGE)
    async def create(
        self, request: HTMXRequest, project: Project, feedback_items: FeedbackItems, data: Form[FeedbackForm]
    ) -> Any:
        """Feedback typed in by a member (source Manual), with the API's rules for its message and type."""
        form = data.given("message", "type")
        try:
            body = msgspec.convert(
                {"message": form.get("message", "").strip(), "type": form.get("type") or "Other"},
                FeedbackCreateBody,
            )
        except msgspec.ValidationError as exc:
            rule, field = msgspec_violation(exc)
            return render(
                request,
                "feedback_new.html",
                status_code=400,
                project=project,
                types=TYPES,
                values=form,
                errors={field or "message": rule},
            )
        item = await feedback_items.create(message=body.message, type=body.type, source=FeedbackSource.MANUAL)
        return go_to(request, feedback_url(project, item))

    @post("/bulk", opt=TRIAGE)
    async def bulk_status(
        self,
        request: HTMXRequest,
        project: Project,
        feedback_items: FeedbackItems,
        insights: Insights,
        data: Form[BulkForm],
    ) -> Any:
        changes = checked_changes({"status": data.status or None})
        ids = []
        for value in data.id_values():
            try:
                ids.append(UUID(value))
            except ValueError:
                raise InvalidRequest("ids", f"{value!r:.40} is not a feedback id") from None
        changed = await feedback_items.update_many(ids, changes) if ids else []
        if request.htmx:
            return await self._list(request, project, feedback_items, insights, bulk_changed=len(changed))
        back = request.url.query
        return go_to(request, feedback_url(project) + (f"?{back}" if back else ""))

    @get("/{feedback_id:uuid}")
    async def detail(self, feedback_items: FeedbackItems, item_page: ItemPage, feedback_id: UUID) -> Any:
        return await item_page.show(await feedback_items.get(feedback_id))

    @get("/{feedback_id:uuid}/attachments/{attachment_id:uuid}")
    async def attachment(
        self, feedback_items: FeedbackItems, feedback_id: UUID, attachment_id: UUID
    ) -> Response[Any]:
        """The image itself, for the thumbnails and the full view (a member reads it by session)."""
        return attachment_response(
            await feedback_attachments(feedback_items).image(feedback_id, attachment_id)
        )

    @post("/{feedback_id:uuid}", opt=TRIAGE)
    async def update(
        self, feedback_items: FeedbackItems, item_page: ItemPage, feedback_id: UUID, data: Form[FeedbackForm]
    ) -> Any:
        item = await feedback_items.get(feedback_id)
        form = data.given("status", "type", "resolution_note", "assignee")
        if "resolution_note" in form:
            form["resolution_note"] = form["resolution_note"].strip() or None
        if "assignee" in form:
            form["assignee"] = form["assignee"] or None
        return await self._change(feedback_items, item_page, item, form)

    @post("/{feedback_id:uuid}/duplicate", opt=TRIAGE)
    async def mark_duplicate(
        self, feedback_items: FeedbackItems, item_page: ItemPage, feedback_id: UUID, data: Form[FeedbackForm]
    ) -> Any:
        """ "Mark as duplicate" on a row of Similar feedback (this item repeats that one: it is closed), or
        "Not a duplicate" (an empty original)."""
        item = await feedback_items.get(feedback_id)
        form = {"duplicate_of": data.duplicate_of or None}
        return await self._change(feedback_items, item_page, item, form)

    async def _change(
        self, feedback_items: FeedbackItems, item_page: ItemPage, item: FeedbackItem, form: dict[str, Any]
    ) -> Any:
        """Apply a form's changes to the item and show it again: saved, or 400 naming the field."""
        try:
            await feedback_items.update(item, checked_changes(form))
        except InvalidRequest as exc:
            return await item_page.show(item, status_code=400, errors={exc.field: exc.details})
        return await item_page.show(item, saved=True)

    @post("/{feedback_id:uuid}/issues/{tracker:str}", opt=TRIAGE)
    async def file_issue(
        self,
        request: HTMXRequest,
        feedback_items: FeedbackItems,
        item_page: ItemPage,
        feedback_id: UUID,
        tracker: str,
    ) -> Any:
        """ "Create GitHub issue" (Linear, Jira): files the item in the project's tracker and shows the
        link; the tracker's refusal is shown in words."""
        item = await feedback_items.get(feedback_id)
        chosen = tracker_named(tracker)
        try:
            await beside(request, feedback_items, TrackerIntegrations).file_issue(chosen, item)
        except ApiError as exc:
            return await item_page.show(
                item, status_code=exc.status_code, issue_error=exc.details.removeprefix("tracker: ")
            )
        return await item_page.show(item, issue_filed=f"The {chosen.label} issue is filed.")

    @post("/{feedback_id:uuid}/idea", opt=TRIAGE)
    async def link_idea(
        self,
        request: HTMXRequest,
        feedback_items: FeedbackItems,
        item_page: ItemPage,
        feedback_id: UUID,
        data: Form[LinkIdeaForm],
    ) -> Any:
        """ "Link to idea": the item counts as demand for the idea (its reporter hears when it is done); a
        new title makes a new open idea with the item's message as its description."""
        item = await feedback_items.get(feedback_id)
        title = data.title.strip()
        try:
            if not title and not data.idea_id:
                raise InvalidRequest("idea_id", "choose an idea or type a new idea's title")
            if len(title) > TITLE_LENGTH:
                raise InvalidRequest("title", f"at most {TITLE_LENGTH} characters")
            idea_id = None if title else parse_uuid(data.idea_id, "idea_id")
            idea = await beside(request, feedback_items, Ideas).link_feedback(item.id, idea_id, title or None)
        except InvalidRequest as exc:
            return await item_page.show(
                item,
                status_code=400,
                idea_error=exc.details.removeprefix(f"{exc.field}: "),
                idea_title=title,
            )
        return await item_page.show(item, idea_linked=f"Linked to “{idea.title}”.")

    @post("/{feedback_id:uuid}/rewards", opt=TRIAGE)
    async def thank_with_discount(
        self,
        request: HTMXRequest,
        feedback_items: FeedbackItems,
        item_page: ItemPage,
        feedback_id: UUID,
        data: Form[RewardForm],
    ) -> Any:
        """ "Thank with a discount": applies the coupon through Stripe or Polar; the refusal is shown in
        words (and nothing is recorded)."""
        item = await feedback_items.get(feedback_id)
        try:
            await beside(request, feedback_items, Rewards).thank(item.id, data.coupon)
        except ApiError as exc:
            return await item_page.show(
                item,
                status_code=exc.status_code,
                reward_error=exc.details.removeprefix("coupon: "),
                coupon=data.coupon,
            )
        return await item_page.show(item, reward_applied="The discount is applied to their subscription.")

    @post("/{feedback_id:uuid}/status", opt=TRIAGE)
    async def row_status(
        self,
        request: HTMXRequest,
        project: Project,
        feedback_items: FeedbackItems,
        feedback_id: UUID,
        data: Form[FeedbackForm],
    ) -> Any:
        """The status select of one inbox row: answers with the row itself."""
        item = await feedback_items.get(feedback_id)
        await feedback_items.update(item, checked_changes(data.given("status")))
        if request.htmx:
            return render(
                request,
                "partials/_feedback_row.html",
                project=project,
                item=item,
                statuses=STATUSES,
                row_saved=True,
            )
        return go_to(request, feedback_url(project))

    @post("/{feedback_id:uuid}/archive", opt=TRIAGE)
    async def archive(self, feedback_items: FeedbackItems, item_page: ItemPage, feedback_id: UUID) -> Any:
        item = await feedback_items.get(feedback_id)
        await feedback_items.update(item, {"archived": True})
        return await item_page.show(item)

    @post("/{feedback_id:uuid}/restore", opt=TRIAGE)
    async def restore(self, feedback_items: FeedbackItems, item_page: ItemPage, feedback_id: UUID) -> Any:
        item = await feedback_items.get(feedback_id)
        await feedback_items.update(item, {"archived": False})
        return await item_page.show(item)

    @get("/{feedback_id:uuid}/delete", opt=ADMIN)
    async def purge_page(
        self, request: HTMXRequest, project: Project, feedback_items: FeedbackItems, feedback_id: UUID
    ) -> Any:
        item = await feedback_items.get(feedback_id)
        return render(
            request,
            "purge_confirm.html",
            project=project,
            what="feedback item",
            excerpt=item.message,
            action=f"{feedback_url(project, item)}/delete",
            back=feedback_url(project, item),
        )

    @post("/{feedback_id:uuid}/delete", opt=ADMIN)
    async def purge(
        self, request: HTMXRequest, project: Project, feedback_items: FeedbackItems, feedback_id: UUID
    ) -> Any:
        await feedback_items.purge(await feedback_items.get(feedback_id))
        return go_to(request, feedback_url(project))


ProjectService = TypeVar("ProjectService", bound=ProjectScoped)


def beside(
    request: HTMXRequest, feedback_items: FeedbackItems, service: type[ProjectService]
) -> ProjectService:
    """Another service of the project (its ideas, issue trackers, thank-you discounts), in the same
    session and scope."""
    return build(
        service,
        feedback_items.session,
        feedback_items.scope,
        feedback_items.project,
        request_settings(request),
    )


def feedback_attachments(feedback_items: FeedbackItems) -> FeedbackAttachments:
    """The attachments of the same project, in the same session and scope."""
    return FeedbackAttachments(feedback_items.session, feedback_items.scope, feedback_items.project)


async def similar_of(
    insights: Insights, item: FeedbackItem
) -> tuple[list[tuple[FeedbackItem, float]], str | None]:
    """The item's Similar feedback, or a note saying why there is none to show."""
    try:
        found, pending = await insights.similar(item, 5)
    except Unavailable as exc:
        return [], f"Similar feedback is unavailable: {exc.details}"
    if pending:
        return [], "This item is still being compared; reload in a moment."
    return found, None if found else "No similar feedback yet."


async def _notify_confirmed(feedback_items: FeedbackItems, item: FeedbackItem) -> bool:
    """Whether the reporter's address is confirmed, so that resolving the item mails it."""
    if not item.notify_email:
        return False
    address = item.notify_email.lower()
    return address in await confirmed_addresses(feedback_items.session, item.project_id, {address})
