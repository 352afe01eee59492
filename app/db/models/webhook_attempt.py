"""One attempt to deliver a webhook: what the receiver answered, or why there was no answer."""

from __future__ import annotations

from uuid import UUID

from advanced_alchemy.base import UUIDv7AuditBase
from sqlalchemy import ForeignKey, Integer, SmallInteger, String, Text
from sqlalchemy.orm import Mapped, mapped_column


class WebhookAttempt(UUIDv7AuditBase):
    __tablename__ = "webhook_attempts"

    delivery_id: Mapped[UUID] = mapped_column(
        ForeignKey("webhook_deliveries.id", ondelete="CASCADE"), index=True
    )
    status_code: Mapped[int | None] = mapped_column(SmallInteger, default=None)
    error: Mapped[str | None] = mapped_column(String(500), default=None)
    duration_ms: Mapped[int] = mapped_column(Integer)
    response_body: Mapped[str] = mapped_column(Text, default="")
    """The first KiB of the response, as text."""
