"""A project's Polar webhook endpoint: its id is in the URL pasted into Polar's dashboard."""

from __future__ import annotations

from uuid import UUID

from advanced_alchemy.base import UUIDv7AuditBase
from sqlalchemy import ForeignKey, Text
from sqlalchemy.orm import Mapped, mapped_column


class PolarIntegration(UUIDv7AuditBase):
    __tablename__ = "polar_integrations"

    project_id: Mapped[UUID] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"), unique=True)
    sealed_webhook_secret: Mapped[str] = mapped_column(Text)
    """The secret Polar shows for the endpoint, encrypted (app.db.secret_box); never returned."""
    sealed_api_key: Mapped[str | None] = mapped_column(Text, default=None)
    """An organization access token that may update subscriptions (thank-you discounts), encrypted;
    never returned."""
