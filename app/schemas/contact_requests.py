"""The body the contact widget sends."""

from __future__ import annotations

from uuid import UUID

import msgspec

from app.schemas.fields import (
    ContactEmail,
    ContactMessageText,
    ContactName,
    ContactSubject,
    ElapsedMs,
    Honeypot,
    Path,
    SubmittedBy,
    UserSignature,
    UserToken,
    Version,
)


class PublicContactBody(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """POST /contact/submit (public)."""

    project_key: UUID
    name: ContactName
    email: ContactEmail
    message: ContactMessageText
    subject: ContactSubject | None = None
    path: Path | None = None
    version: Version | None = None
    submitted_by: SubmittedBy | None = None
    user_signature: UserSignature | None = None
    user_token: UserToken | None = None
    website: Honeypot = ""
    elapsed_ms: ElapsedMs | None = None
