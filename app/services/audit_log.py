"""Reading an organization's audit log (entries are written by the unit of work, app.db.audit_trail)."""

from __future__ import annotations

from sqlalchemy import func, select

from app.db.models import AuditEntry
from app.db.paging import one_page
from tenants.scope import OrgScoped


class AuditLog(OrgScoped):
    async def page(self, *, page: int = 1, limit: int = 20) -> tuple[list[AuditEntry], int]:
        """One page of the organization's entries, newest first, and their total."""
        where = AuditEntry.org_id == self.scope.org_id
        total = await self.session.scalar(select(func.count()).select_from(AuditEntry).where(where))
        entries = await self.session.scalars(
            one_page(select(AuditEntry).where(where), AuditEntry, page, limit)
        )
        return list(entries), total or 0
