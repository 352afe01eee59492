"""The audit log as the API returns it."""

from __future__ import annotations

from typing import Any

import msgspec

from app.db.models import AuditEntry
from app.schemas.pagination import Pagination
from app.timestamps import iso_z


class AuditEntryOut(msgspec.Struct):
    id: str
    actor: str
    action: str
    target_type: str
    target_id: str | None
    details: dict[str, Any]
    created_at: str

    @classmethod
    def of(cls, entry: AuditEntry) -> AuditEntryOut:
        return cls(
            id=str(entry.id),
            actor=entry.actor,
            action=entry.action,
            target_type=entry.target_type,
            target_id=entry.target_id,
            details=entry.details or {},
            created_at=iso_z(entry.created_at),
        )


class AuditLogPage(msgspec.Struct):
    entries: list[AuditEntryOut]
    pagination: Pagination
