"""A URL of an organization that receives its events (a webhook endpoint)."""

from __future__ import annotations

import enum
from uuid import UUID

from advanced_alchemy.base import UUIDv7AuditBase
from advanced_alchemy.types import JsonB
from sqlalchemy import Boolean, ForeignKey, String
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
    secret: Mapped[str] = mapped_column(String(64))
    """whsec_ and the base64 of the signing key; shown to the customer once, when created."""
