"""Bodies of the erasure endpoint."""

from __future__ import annotations

import msgspec

from app.schemas.fields import ContactEmail, SubmittedBy


class ErasureBody(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """At least one of the two (ERASURE_BODY_RULE says so in the OpenAPI document)."""

    submitted_by: SubmittedBy | None = None
    email: ContactEmail | None = None


class ErasedOut(msgspec.Struct):
    feedback: int
    ratings: int
    contact_messages: int
    survey_responses: int
    conversations: int = 0
    """The person's conversations with the team, with their messages."""


ERASURE_BODY_RULE = {
    "anyOf": [
        {"required": ["submitted_by"], "properties": {"submitted_by": {"type": "string"}}},
        {"required": ["email"], "properties": {"email": {"type": "string"}}},
    ]
}
