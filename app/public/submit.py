"""The four public collection endpoints the widgets call from visitors' browsers, without a token.

Each one decodes and validates its body (400), passes the gate (404, 403, 429), then stores and commits
before it answers; ratings are judged and committed in batches, and answered once their batch is
committed. Bodies are JSON; a `text/plain` content type is read as JSON too, because that is what
navigator.sendBeacon and preflight-free fetch() send.
"""

from __future__ import annotations

from typing import Any

from litestar import Controller, Request, post
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import FeedbackSource
from app.errors import error_responses
from app.ingest import helpful_input, typed_input
from app.public.paths import CONTACT, FEEDBACK, HELPFUL_RATING, TYPED_RATING
from app.request_checks import strict_body
from app.schemas.contact_requests import PublicContactBody
from app.schemas.feedback_requests import PublicFeedbackBody
from app.schemas.public_responses import StoredReceipt, TypedRatingReceipt
from app.schemas.rating_requests import PublicHelpfulRatingBody, PublicTypedRatingBody
from app.services.contact_messages import ContactMessages
from app.services.feedback_items import FeedbackItems
from app.state import ingest_of
from app.webhooks.subscriptions import remember_subscriptions
from tenants.scope import widget_scope

ERRORS = error_responses(400, 403, 404, 413, 429)


class PublicSubmitController(Controller):
    path = "/"
    tags = ["Public collection"]

    @post(HELPFUL_RATING, status_code=204, summary="Submit a helpful rating", responses=ERRORS)
    async def submit_helpful_rating(
        self,
        request: Request[Any, Any, Any],
        data: PublicHelpfulRatingBody,
    ) -> None:
        """From the helpful widget; the page's origin must be allowed by the project."""
        data = await strict_body(request, data)
        await ingest_of(request.scope).submit_rating(
            request.scope, "rating", data.project_key, helpful_input(data)
        )

    @post(TYPED_RATING, status_code=201, summary="Submit a helpful, star or nps rating", responses=ERRORS)
    async def submit_typed_rating(
        self,
        request: Request[Any, Any, Any],
        data: PublicTypedRatingBody,
    ) -> TypedRatingReceipt:
        """From the star and NPS widgets; the page's origin must be allowed by the project."""
        data = await strict_body(request, data)
        stored = await ingest_of(request.scope).submit_rating(
            request.scope, "ratings", data.project_key, typed_input(data)
        )
        return TypedRatingReceipt(id=str(stored.id), rating_type=stored.rating_type)

    @post(FEEDBACK, status_code=200, summary="Submit a feedback item", responses=ERRORS)
    async def submit_feedback(
        self,
        request: Request[Any, Any, Any],
        data: PublicFeedbackBody,
        db_session: AsyncSession,
    ) -> StoredReceipt:
        """From the feedback widget; the page's origin must be allowed by the project."""
        data = await strict_body(request, data)
        project = await ingest_of(request.scope).admit(request.scope, "feedback", data.project_key)
        if data.website:  # the honeypot: answered like a success so the bot learns nothing
            return StoredReceipt()
        remember_subscriptions(db_session, project.org_id, project.webhooks)
        await FeedbackItems(db_session, widget_scope(project.org_id), project.as_project()).create(
            message=data.message,
            type=data.type,
            source=FeedbackSource.WIDGET,
            path=data.path,
            version=data.version,
            submitted_by=data.submitted_by,
            metadata=data.metadata,
        )
        return StoredReceipt()

    @post(CONTACT, status_code=200, summary="Submit a contact message", responses=ERRORS)
    async def submit_contact(
        self,
        request: Request[Any, Any, Any],
        data: PublicContactBody,
        db_session: AsyncSession,
    ) -> StoredReceipt:
        """From the contact widget; the page's origin must be allowed by the project."""
        data = await strict_body(request, data)
        project = await ingest_of(request.scope).admit(request.scope, "contact", data.project_key)
        if data.website:
            return StoredReceipt()
        remember_subscriptions(db_session, project.org_id, project.webhooks)
        await ContactMessages(db_session, widget_scope(project.org_id), project.as_project()).create(
            name=data.name,
            email=data.email,
            message=data.message,
            subject=data.subject,
            path=data.path,
            version=data.version,
        )
        return StoredReceipt()
