"""The organization's audit log for admins: who changed tokens, members, invitations, projects, origins,
webhooks and integrations, who erased whose data and who deleted what for good; newest first, a page at
a time."""

from __future__ import annotations

from typing import Any

from litestar import get
from litestar.plugins.htmx import HTMXRequest

from admin_ui.listing import PAGE_SIZE, Pages, page_number
from admin_ui.rendering import render
from app.db.read_routing import REPLICA_READS
from app.dependencies import provide
from app.schemas.pagination import Pagination
from app.services.audit_log import AuditLog
from tenants.permissions import needs
from tenants.scope import Access


@get(
    "/audit-log",
    opt={**needs(Access.ADMIN), **REPLICA_READS},
    include_in_schema=False,
    dependencies={"audit_log": provide(AuditLog)},
)
async def audit_log_page(request: HTMXRequest, audit_log: AuditLog) -> Any:
    page = page_number(request.query_params.get("page"))
    entries, total = await audit_log.page(page=page, limit=PAGE_SIZE)
    pages = Pages(Pagination.of(page=page, limit=PAGE_SIZE, total=total), "/audit-log", {})
    return render(request, "audit_log.html", entries=entries, pages=pages)
