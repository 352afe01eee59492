"""A project: one site, app or documentation set of an organization."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID, uuid4

from advanced_alchemy.base import UUIDv7AuditBase
from advanced_alchemy.types import DateTimeUTC, JsonB
from sqlalchemy import Boolean, ForeignKey, Integer, String, Text, Uuid
from sqlalchemy.orm import Mapped, mapped_column


class Project(UUIDv7AuditBase):
    __tablename__ = "projects"

    org_id: Mapped[UUID] = mapped_column(ForeignKey("organizations.id", ondelete="CASCADE"), index=True)
    key: Mapped[UUID] = mapped_column(Uuid, unique=True, default=uuid4)
    name: Mapped[str] = mapped_column(String(200))
    description: Mapped[str] = mapped_column(Text, default="")
    allowed_origins: Mapped[list[str]] = mapped_column(JsonB, default=list)
    retention_days: Mapped[int | None] = mapped_column(Integer, default=None)
    """Items older than this many days are deleted for good by the periodic retention job; None keeps them."""
    retention_due_at: Mapped[datetime | None] = mapped_column(DateTimeUTC(timezone=True), default=None)
    """When the retention job is next due for this project: the lease a process claims it by."""
    sealed_identity_secret: Mapped[str | None] = mapped_column(Text, default=None)
    """The identity secret backends sign user ids with, encrypted (app.db.secret_box); shown once, never
    returned again."""
    require_verified_users: Mapped[bool] = mapped_column(Boolean, default=False)
    """Refuse a submission that names a user without that user's valid signature."""
    portal: Mapped[dict[str, Any] | None] = mapped_column(JsonB, default=None)
    """The public ideas portal's settings (app/schemas/portal.py); None: never set up (off)."""
