"""The four public collection endpoints the widgets call from visitors' browsers, without a token (D2, D10).

Each one decodes and validates its body (400), passes the gate (404, 403, 429), then stores and commits
before it answers; ratings go through the intake, which judges and commits them in batches, and are
answered once their batch is committed.
Bodies are JSON; a `text/plain` content type is read as JSON too, because that is what
navigator.sendBeacon and preflight-free fetch() send.
"""

from __future__ import annotations

from typing import Any

from litestar import Controller, Request, post
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import FeedbackSource
from app.errors import error_responses
from app.public.gate import PublicGate
from app.public.rating_intake import RatingIntake
from app.schemas.contact_requests import PublicContactBody
from app.schemas.feedback_requests import PublicFeedbackBody
from app.schemas.public_responses import StoredReceipt, TypedRatingReceipt
from app.schemas.rating_requests import PublicHelpfulRatingBody, PublicTypedRatingBody
from app.services.contact_messages import ContactMessages
from app.services.feedback_items import FeedbackItems
from app.services.rating_input import helpful_input, typed_input
from app.strict_body import strict_body

WIDGET_ACTOR = "widget"
ERRORS = error_responses(400, 403, 404, 413, 429)


def _gate(request: Request[Any, Any, Any]) -> PublicGate:
    gate: PublicGate = request.app.state.public_gate
    return gate


def _rating_intake(request: Request[Any, Any, Any]) -> RatingIntake:
    intake: RatingIntake = request.app.state.rating_intake
    return intake


class PublicSubmitController(Controller):
    path = "/"
    tags = ["Public collection"]
    # The per-worker objects come straight from the application's state: resolving dependencies (or
    # even a `state` parameter) costs Litestar time on every request of the hottest path.

    @post("/rating/submit", status_code=204, summary="Submit a helpful rating", responses=ERRORS)
    async def submit_helpful_rating(
        self,
        request: Request[Any, Any, Any],
        data: PublicHelpfulRatingBody,
    ) -> None:
        data = await strict_body(request, data)
        visit = _gate(request).visit(request, "rating", data.project_key)
        await _rating_intake(request).submit(visit, helpful_input(data))

    @post("/ratings", status_code=201, summary="Submit a helpful, star or nps rating", responses=ERRORS)
    async def submit_typed_rating(
        self,
        request: Request[Any, Any, Any],
        data: PublicTypedRatingBody,
    ) -> TypedRatingReceipt:
        data = await strict_body(request, data)
        visit = _gate(request).visit(request, "ratings", data.project_key)
        stored = await _rating_intake(request).submit(visit, typed_input(data))
        return TypedRatingReceipt(id=str(stored.id), rating_type=stored.rating_type)

    @post("/feedback/submit", status_code=200, summary="Submit a feedback item", responses=ERRORS)
    async def submit_feedback(
        self,
        request: Request[Any, Any, Any],
        data: PublicFeedbackBody,
        db_session: AsyncSession,
    ) -> StoredReceipt:
        data = await strict_body(request, data)
        gate = _gate(request)
        project = await gate.admit(gate.visit(request, "feedback", data.project_key))
        if data.website:  # the honeypot: answered like a success so the bot learns nothing
            return StoredReceipt()
        await FeedbackItems(db_session, project.as_project(), WIDGET_ACTOR).create(
            message=data.message,
            type=data.type,
            source=FeedbackSource.WIDGET,
            path=data.path,
            version=data.version,
            submitted_by=data.submitted_by,
        )
        return StoredReceipt()

    @post("/contact/submit", status_code=200, summary="Submit a contact message", responses=ERRORS)
    async def submit_contact(
        self,
        request: Request[Any, Any, Any],
        data: PublicContactBody,
        db_session: AsyncSession,
    ) -> StoredReceipt:
        data = await strict_body(request, data)
        gate = _gate(request)
        project = await gate.admit(gate.visit(request, "contact", data.project_key))
        if data.website:
            return StoredReceipt()
        await ContactMessages(db_session, project.as_project()).create(
            name=data.name,
            email=data.email,
            message=data.message,
            subject=data.subject,
            path=data.path,
            version=data.version,
        )
        return StoredReceipt()
