"""POST /privacy/erase: one person's feedback, ratings and contact messages deleted for good across the
organization, counters kept exact."""

from __future__ import annotations

from litestar import post

from app.dependencies import provide
from app.errors import error_responses
from app.schemas.privacy import ErasedOut, ErasureBody
from app.services.erasure import Erasure, Person


@post(
    "/privacy/erase",
    status_code=200,
    summary="Erase for good every feedback item, rating and contact message with this submitted_by and "
    "every contact message from this email (case-insensitive), in every project of the organization",
    tags=["Privacy"],
    responses=error_responses(400, 401, 403, 413, 415),
    dependencies={"erasure": provide(Erasure)},
)
async def erase(data: ErasureBody, erasure: Erasure) -> ErasedOut:
    """Needs submitted_by, email or both; the answer counts what was deleted. Cannot be undone."""
    erased = await erasure.erase(Person(submitted_by=data.submitted_by, email=data.email))
    return ErasedOut(
        feedback=erased.feedback,
        ratings=erased.ratings,
        contact_messages=erased.contact_messages,
        survey_responses=erased.survey_responses,
        conversations=erased.conversations,
    )
