"""GET /audit-log: who changed the organization's tokens, members, invitations, projects, origins,
webhooks and integrations, who erased whose data and who deleted what for good; newest first."""

from __future__ import annotations

from litestar import get

from app.api.paging import Limit, Page
from app.db.read_routing import REPLICA_READS
from app.dependencies import provide
from app.errors import error_responses
from app.schemas.audit_log import AuditEntryOut, AuditLogPage
from app.schemas.pagination import Pagination
from app.services.audit_log import AuditLog


@get(
    "/audit-log",
    summary="The organization's audit log, newest first",
    tags=["Audit log"],
    responses=error_responses(400, 401),
    dependencies={"log": provide(AuditLog)},
    opt=REPLICA_READS,
)
async def audit_log(log: AuditLog, page: Page = 1, limit: Limit = 20) -> AuditLogPage:
    """Each entry names the action, its target, the acting token or member and when; it needs a token
    of the organization, like every route here."""
    entries, total = await log.page(page=page, limit=limit)
    return AuditLogPage(
        entries=[AuditEntryOut.of(e) for e in entries],
        pagination=Pagination.of(page=page, limit=limit, total=total),
    )
