"""A project's Linear team for issues: its id is in the webhook URL pasted into Linear."""

from __future__ import annotations

from uuid import UUID

from advanced_alchemy.base import UUIDv7AuditBase
from sqlalchemy import ForeignKey, String, Text
from sqlalchemy.orm import Mapped, mapped_column


class LinearIntegration(UUIDv7AuditBase):
    __tablename__ = "linear_integrations"

    project_id: Mapped[UUID] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"), unique=True)
    team_id: Mapped[str] = mapped_column(String(100))
    """The Linear team's id (a UUID) that issues are filed in."""
    sealed_api_key: Mapped[str] = mapped_column(Text)
    """The API key, encrypted (app.db.secret_box); never returned."""
    sealed_webhook_secret: Mapped[str] = mapped_column(Text)
    """The secret Linear signs deliveries with, encrypted; shown once, when the integration is saved."""
