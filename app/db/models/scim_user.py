"""What an organization's identity provider said of one of its users over SCIM: the attributes Hearken
has no column of its own for (userName as sent, externalId, names) and whether the user is active.
Membership is the truth of access: an inactive user has no membership, and this row keeps them
listed so that the provider can find them and turn them on again."""

from __future__ import annotations

from uuid import UUID

from advanced_alchemy.base import UUIDv7AuditBase
from sqlalchemy import Boolean, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

NAME_MAX_LENGTH = 200
"""userName (an address), externalId and each name part."""


class ScimUser(UUIDv7AuditBase):
    __tablename__ = "scim_users"
    __table_args__ = (UniqueConstraint("org_id", "user_id"),)

    org_id: Mapped[UUID] = mapped_column(ForeignKey("organizations.id", ondelete="CASCADE"), index=True)
    user_id: Mapped[UUID] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    user_name: Mapped[str] = mapped_column(String(NAME_MAX_LENGTH))
    external_id: Mapped[str | None] = mapped_column(String(NAME_MAX_LENGTH), default=None, index=True)
    given_name: Mapped[str | None] = mapped_column(String(NAME_MAX_LENGTH), default=None)
    family_name: Mapped[str | None] = mapped_column(String(NAME_MAX_LENGTH), default=None)
    display_name: Mapped[str | None] = mapped_column(String(NAME_MAX_LENGTH), default=None)
    active: Mapped[bool] = mapped_column(Boolean, default=True, server_default="1")
