"""A project: one site, app or documentation set of an organization."""

from __future__ import annotations

from uuid import UUID, uuid4

from advanced_alchemy.base import UUIDv7AuditBase
from advanced_alchemy.types import JsonB
from sqlalchemy import ForeignKey, String, Text, Uuid
from sqlalchemy.orm import Mapped, mapped_column


class Project(UUIDv7AuditBase):
    __tablename__ = "projects"

    org_id: Mapped[UUID] = mapped_column(ForeignKey("organizations.id", ondelete="CASCADE"), index=True)
    key: Mapped[UUID] = mapped_column(Uuid, unique=True, default=uuid4)
    name: Mapped[str] = mapped_column(String(200))
    description: Mapped[str] = mapped_column(Text, default="")
    allowed_origins: Mapped[list[str]] = mapped_column(JsonB, default=list)
