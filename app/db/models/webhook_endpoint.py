"""A URL of an organization that receives its events (a webhook endpoint)."""

from __future__ import annotations

import enum
from datetime import datetime
from uuid import UUID

from advanced_alchemy.base import UUIDv7AuditBase
from advanced_alchemy.types import DateTimeUTC, JsonB
from sqlalchemy import Boolean, ForeignKey, String, Text
from sqlalchemy.orm import Mapped, mapped_column


class WebhookFormat(enum.StrEnum):
    STANDARD = "standard"
    """Signed JSON events, the Standard Webhooks convention."""
    SLACK = "slack"
    """A Slack incoming webhook: {"text": ...}, unsigned."""


class WebhookEndpoint(UUIDv7AuditBase):
    __tablename__ = "webhook_endpoints"

    org_id: Mapped[UUID] = mapped_column(ForeignKey("organizations.id", ondelete="CASCADE"), index=True)
    url: Mapped[str] = mapped_column(String(2048))
    description: Mapped[str] = mapped_column(String(500), default="")
    events: Mapped[list[str]] = mapped_column(JsonB, default=list)
    """Event types it receives; empty means every event."""
    project_ids: Mapped[list[str]] = mapped_column(JsonB, default=list)
    """Projects whose events it receives; empty means every project of the organization."""
    format: Mapped[str] = mapped_column(String(16), default=WebhookFormat.STANDARD.value)
    enabled: Mapped[bool] = mapped_column(Boolean, default=True)
    sealed_secret: Mapped[str] = mapped_column(Text)
    """The signing secret (whsec_ and the base64 of the key), encrypted (app.db.secret_box); shown to the
    customer once, when created or rotated."""
    sealed_previous_secret: Mapped[str | None] = mapped_column(Text, default=None)
    """The secret the last rotation replaced, encrypted: deliveries carry its signature too until
    previous_secret_expires_at, so receivers can switch without losing an event."""
    previous_secret_expires_at: Mapped[datetime | None] = mapped_column(
        DateTimeUTC(timezone=True), default=None
    )
