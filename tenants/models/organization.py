"""An organization: the tenant that owns projects, members and tokens."""

from __future__ import annotations

from advanced_alchemy.base import UUIDv7AuditBase
from sqlalchemy import String
from sqlalchemy.orm import Mapped, mapped_column


class Organization(UUIDv7AuditBase):
    __tablename__ = "organizations"

    name: Mapped[str] = mapped_column(String(200))
