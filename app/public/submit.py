"""The four public collection endpoints the widgets call from visitors' browsers, without a token.

Each one decodes and validates its body (400), passes the gate (404, 403, 429), then stores and commits
before it answers; ratings are judged and committed in batches, and answered once their batch is
committed. Bodies are JSON; a `text/plain` content type is read as JSON too, because that is what
navigator.sendBeacon and preflight-free fetch() send.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from litestar import Controller, Request, post
from sqlalchemy.ext.asyncio import AsyncSession

from app.conversations.service import PersonConversations
from app.db.after_commit import on_commit
from app.db.models import FeedbackSource, Project
from app.errors import TOO_LARGE_DETAILS, InvalidRequest, error_responses
from app.ingest import Submitter, helpful_input, spam_reason, submitter, typed_input
from app.notifications.reporter_confirmation import ask_to_confirm
from app.operations.metrics import SPAM_SUBMISSIONS
from app.public.feedback_submission import ATTACHMENTS, FORM_MAX_BYTES, feedback_submission
from app.public.paths import CONTACT, FEEDBACK, HELPFUL_RATING, TYPED_RATING
from app.request_checks import strict_body
from app.schemas.contact_requests import PublicContactBody
from app.schemas.public_responses import StoredReceipt, TypedRatingReceipt
from app.schemas.rating_requests import PublicHelpfulRatingBody, PublicTypedRatingBody
from app.services.attachments import FeedbackAttachments
from app.services.contact_messages import ContactMessages
from app.services.feedback_items import FeedbackItems
from app.services.image_cleaning import MAX_FILES, CleanImage, ImageRefused, clean_image
from app.state import ingest_of
from app.webhooks.subscriptions import remember_subscriptions
from tenants.scope import OrgScope, widget_scope

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
            request.scope, "rating", data.project_key, helpful_input(data), data.user_signature
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
            request.scope,
            "ratings",
            data.project_key,
            typed_input(data),
            data.context.user_signature if data.context else None,
        )
        return TypedRatingReceipt(id=str(stored.id), rating_type=stored.rating_type)

    @post(
        FEEDBACK,
        status_code=200,
        summary="Submit a feedback item, with up to 3 images as multipart/form-data",
        responses=ERRORS,
        request_max_body_size=FORM_MAX_BYTES,
        opt={TOO_LARGE_DETAILS: f"{ATTACHMENTS}: at most {MAX_FILES} images of 5 MB each"},
    )
    async def submit_feedback(
        self, request: Request[Any, Any, Any], db_session: AsyncSession
    ) -> StoredReceipt:
        """From the feedback widget; the page's origin must be allowed by the project. A JSON body, or
        `multipart/form-data` with the same fields and up to 3 images (PNG, JPEG or WebP, 5 MB each), each
        a part named `attachments`: every image is decoded and stored again without its metadata, at most
        4096 pixels a side. A file that is not such an image, is damaged, is over the limits, or would take
        the project over its storage quota is refused (400 or 413, naming `attachments`), and so are images
        that would take the sending address over its budget of image bytes in the project (429); nothing
        is then stored."""
        submission = await feedback_submission(request)
        data = submission.body
        project = await ingest_of(request.scope).admit(request.scope, "feedback", data.project_key)
        sender = submitter(project, data.submitted_by, data.user_signature, data.user_token)
        images = [await _cleaned(raw, project.org_id) for raw in submission.files]
        spam = _judged_spam(db_session, "feedback", data.website, data.elapsed_ms)
        remember_subscriptions(db_session, project.org_id, project.webhooks)
        scope, scoped_project = widget_scope(project.org_id), project.as_project()
        item = await FeedbackItems(db_session, scope, scoped_project).create(
            message=data.message,
            type=data.type,
            source=FeedbackSource.WIDGET,
            path=data.path,
            version=data.version,
            submitted_by=sender.submitted_by,
            submitted_by_verified=sender.verified,
            metadata=data.metadata,
            notify_email=data.notify_email,
            spam=spam,
        )
        await _remember_address(db_session, scope, scoped_project, sender)
        settings = request.app.state.settings
        await FeedbackAttachments(db_session, scope, scoped_project).store(
            item, images, settings.attachment_quota_bytes
        )
        if not spam:  # an address is only ever mailed once its owner confirms it
            await ask_to_confirm(db_session, settings, item)
        if images:  # last, so that a refusal by the project's quota spends none of the client's budget
            await ingest_of(request.scope).spend_image_bytes(
                request.scope, data.project_key, sum(len(image.data) for image in images)
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
        sender = submitter(project, data.submitted_by, data.user_signature, data.user_token)
        spam = _judged_spam(db_session, "contact", data.website, data.elapsed_ms)
        remember_subscriptions(db_session, project.org_id, project.webhooks)
        scope, scoped_project = widget_scope(project.org_id), project.as_project()
        await ContactMessages(db_session, scope, scoped_project).create(
            name=data.name,
            email=data.email,
            message=data.message,
            subject=data.subject,
            path=data.path,
            version=data.version,
            submitted_by=sender.submitted_by,
            submitted_by_verified=sender.verified,
            spam=spam,
        )
        await _remember_address(db_session, scope, scoped_project, sender)
        return StoredReceipt()


async def _remember_address(
    session: AsyncSession, scope: OrgScope, project: Project, sender: Submitter
) -> None:
    """A person who sent a token is mailed about their conversations at its `email`."""
    if sender.person is not None and sender.person.email:
        await PersonConversations(session, scope, project).remember(sender.person, None)


def _judged_spam(session: AsyncSession, endpoint: str, honeypot: str, elapsed_ms: int | None) -> bool:
    """Spam is answered exactly like a success, so a bot learns nothing; it is stored, and counted once
    its transaction has committed (a submission refused or not stored is not counted)."""
    reason = spam_reason(honeypot, elapsed_ms)
    if reason is not None:
        on_commit(session, SPAM_SUBMISSIONS.labels(endpoint, reason).inc)
    return reason is not None


async def _cleaned(raw: bytes, organization: UUID) -> CleanImage:
    try:
        return await clean_image(raw, organization)
    except ImageRefused as refused:
        raise InvalidRequest(ATTACHMENTS, str(refused)) from None
