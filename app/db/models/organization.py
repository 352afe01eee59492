"""An organization: the tenant that owns projects, members and tokens."""

from __future__ import annotations

from advanced_alchemy.base import UUIDv7AuditBase
from sqlalchemy import Boolean, String
from sqlalchemy.orm import Mapped, mapped_column


class Organization(UUIDv7AuditBase):
    __tablename__ = "organizations"

    name: Mapped[str] = mapped_column(String(200))
    require_two_factor: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")
    """Members without a second factor are sent to set one up before anything else in the console."""
