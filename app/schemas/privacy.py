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
    ideas: int = 0
    """Ideas the person suggested on a portal (with the votes and comments on them)."""
    idea_votes: int = 0
    idea_comments: int = 0


ERASURE_BODY_RULE = {
    "anyOf": [
        {"required": ["submitted_by"], "properties": {"submitted_by": {"type": "string"}}},
        {"required": ["email"], "properties": {"email": {"type": "string"}}},
    ]
}
