"""One entry of an organization's audit log: who changed what, when. Written in the transaction of the
change it records and never changed afterwards."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from advanced_alchemy.base import UUIDv7AuditBase
from advanced_alchemy.types import JsonB
from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column


class AuditEntry(UUIDv7AuditBase):
    __tablename__ = "audit_entries"
    __table_args__ = (Index("ix_audit_entries_list", "org_id", "created_at", "id"),)

    org_id: Mapped[UUID] = mapped_column(ForeignKey("organizations.id", ondelete="CASCADE"))
    actor: Mapped[str] = mapped_column(String(320))
    """A token's display prefix ("token oat_…"), a member's email, or "system"."""
    action: Mapped[str] = mapped_column(String(64))
    """<target_type>.<what happened>, e.g. token.created, member.role_changed, origin.removed."""
    target_type: Mapped[str] = mapped_column(String(32))
    target_id: Mapped[str | None] = mapped_column(String(64), default=None)
    details: Mapped[dict[str, Any]] = mapped_column(JsonB, default=dict)
    """What changed, without secrets: the fields' new values (old and new for changes)."""
