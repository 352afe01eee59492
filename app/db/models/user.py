"""A console user; the password is kept only as an argon2id hash."""

from __future__ import annotations

from datetime import datetime

from advanced_alchemy.base import UUIDv7AuditBase
from advanced_alchemy.types import DateTimeUTC
from sqlalchemy import String
from sqlalchemy.orm import Mapped, mapped_column


class User(UUIDv7AuditBase):
    __tablename__ = "users"

    email: Mapped[str] = mapped_column(String(320), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    language: Mapped[str] = mapped_column(String(8), default="en", server_default="en")
    """The language of the mail this user receives: en, de or sv."""
    email_verified_at: Mapped[datetime | None] = mapped_column(DateTimeUTC(timezone=True), default=None)
    """When the owner of the address followed a link mailed to it (or an operator vouched for it); a
    server without SMTP counts every account as confirmed."""
