"""Spam: the feedback items and contact messages judged spam, which no other list shows, each with
"Not spam" to mark it real (which sends the webhooks and notifications held back while it was spam)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from litestar import Controller, get, post
from litestar.plugins.htmx import HTMXRequest

from admin_ui.listing import PAGE_SIZE
from admin_ui.rendering import go_to, render
from app.db.models import Project
from app.dependencies import provide
from app.services.contact_messages import ContactMessages
from app.services.feedback_items import FeedbackFilter, FeedbackItems
from tenants.permissions import needs
from tenants.scope import Access

TRIAGE = needs(Access.WRITE)


class SpamController(Controller):
    path = "/projects/{project_id:str}/spam"
    include_in_schema = False
    dependencies = {
        "feedback_items": provide(FeedbackItems),
        "contact_messages": provide(ContactMessages),
    }

    @get("/")
    async def spam_page(
        self,
        request: HTMXRequest,
        project: Project,
        feedback_items: FeedbackItems,
        contact_messages: ContactMessages,
    ) -> Any:
        """The newest spam of each kind, one page each."""
        items, item_total = await feedback_items.list(FeedbackFilter(spam=True), limit=PAGE_SIZE)
        records, record_total = await contact_messages.list(spam=True, limit=PAGE_SIZE)
        return render(
            request,
            "spam.html",
            project=project,
            items=items,
            item_total=item_total,
            records=records,
            record_total=record_total,
        )

    @post("/feedback/{feedback_id:uuid}", opt=TRIAGE)
    async def feedback_not_spam(
        self, request: HTMXRequest, project: Project, feedback_items: FeedbackItems, feedback_id: UUID
    ) -> Any:
        await feedback_items.update(await feedback_items.get(feedback_id), {"spam": False})
        return go_to(request, f"/projects/{project.id}/spam")

    @post("/contact/{message_id:uuid}", opt=TRIAGE)
    async def contact_not_spam(
        self, request: HTMXRequest, project: Project, contact_messages: ContactMessages, message_id: UUID
    ) -> Any:
        await contact_messages.mark_spam(await contact_messages.get(message_id), False)
        return go_to(request, f"/projects/{project.id}/spam")
