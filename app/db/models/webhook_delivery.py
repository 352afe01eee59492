"""One event for one endpoint: what is sent (the same body and webhook-id on every retry). Its state
(pending, attempts, next attempt) is its outbox job's, which shares its id."""

from __future__ import annotations

from uuid import UUID

from advanced_alchemy.base import UUIDv7AuditBase
from sqlalchemy import ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column


class WebhookDelivery(UUIDv7AuditBase):
    __tablename__ = "webhook_deliveries"
    __table_args__ = (Index("ix_webhook_deliveries_endpoint", "endpoint_id", "created_at", "id"),)

    id: Mapped[UUID] = mapped_column(ForeignKey("outbox_jobs.id", ondelete="CASCADE"), primary_key=True)
    endpoint_id: Mapped[UUID] = mapped_column(ForeignKey("webhook_endpoints.id", ondelete="CASCADE"))
    event_type: Mapped[str] = mapped_column(String(64))
    body: Mapped[str] = mapped_column(Text)
    """The event as JSON text: {"type", "timestamp", "data"[, "changes"]}."""
