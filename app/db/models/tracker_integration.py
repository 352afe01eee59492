"""A project's issue tracker (GitHub, Linear, Jira Cloud): where its feedback is filed as issues, the
credential that files them and the secret its webhooks sign with. Its id is in the webhook URL pasted
into the tracker, so it is kept when the integration is saved again."""

from __future__ import annotations

from enum import StrEnum
from typing import Any
from uuid import UUID

from advanced_alchemy.base import UUIDv7AuditBase
from advanced_alchemy.types import JsonB
from sqlalchemy import ForeignKey, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column


class TrackerKind(StrEnum):
    """The trackers Hearken files issues in: each is one module in app/integrations (`TRACKERS`)."""

    GITHUB = "github"
    LINEAR = "linear"
    JIRA = "jira"


class TrackerIntegration(UUIDv7AuditBase):
    __tablename__ = "tracker_integrations"
    __table_args__ = (UniqueConstraint("project_id", "tracker", name="uq_tracker_integration"),)

    project_id: Mapped[UUID] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"))
    tracker: Mapped[str] = mapped_column(String(16))
    """A TrackerKind."""
    settings: Mapped[dict[str, Any]] = mapped_column(JsonB, default=dict)
    """What the tracker's body gave besides its credential, as the API shows it: GitHub's `repository`,
    Linear's `team_id`, Jira's `site_url`, `project_key` and `email`."""
    sealed_credential: Mapped[str] = mapped_column(Text)
    """The token or API key, encrypted (app.db.secret_box); never returned."""
    sealed_webhook_secret: Mapped[str] = mapped_column(Text)
    """The secret the tracker signs deliveries with, encrypted; shown once, when the integration is saved."""
