"""The SAML assertions that signed somebody in, kept until they expire: an assertion is good once, on
every node, so a response copied from a browser or a log cannot sign anybody in again."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from advanced_alchemy.base import UUIDv7Base
from advanced_alchemy.types import DateTimeUTC
from sqlalchemy import ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column


class SamlAssertion(UUIDv7Base):
    __tablename__ = "saml_assertions"
    __table_args__ = (
        UniqueConstraint("org_id", "assertion_id", name="uq_saml_assertions_org_id_assertion_id"),
    )

    org_id: Mapped[UUID] = mapped_column(ForeignKey("organizations.id", ondelete="CASCADE"))
    assertion_id: Mapped[str] = mapped_column(String(256))
    """The assertion's `ID`, as the identity provider made it."""
    expires_at: Mapped[datetime] = mapped_column(DateTimeUTC(timezone=True), index=True)
    """When the assertion stops being valid anyway (its `NotOnOrAfter`); the row may go after that."""
