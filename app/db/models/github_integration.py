"""A project's GitHub repository for issues: its id is in the webhook URL pasted into GitHub."""

from __future__ import annotations

from uuid import UUID

from advanced_alchemy.base import UUIDv7AuditBase
from sqlalchemy import ForeignKey, String, Text
from sqlalchemy.orm import Mapped, mapped_column


class GithubIntegration(UUIDv7AuditBase):
    __tablename__ = "github_integrations"

    project_id: Mapped[UUID] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"), unique=True)
    repository: Mapped[str] = mapped_column(String(200))
    """"owner/name", as GitHub spells it."""
    sealed_token: Mapped[str] = mapped_column(Text)
    """The access token, encrypted (app.db.secret_box); never returned."""
    sealed_webhook_secret: Mapped[str] = mapped_column(Text)
    """The secret GitHub signs deliveries with, encrypted; shown once, when the integration is saved."""
