"""The organization's audit log for admins: who changed tokens, members, invitations, projects, origins,
webhooks and integrations, and who erased whose data; newest first, a page at a time."""

from __future__ import annotations

from typing import Any

from litestar import get
from litestar.plugins.htmx import HTMXRequest
from sqlalchemy.ext.asyncio import AsyncSession

from admin_ui.listing import PAGE_SIZE, Pages, page_number
from admin_ui.rendering import render
from app.schemas.pagination import Pagination
from app.services.audit_log import AuditLog
from tenants.permissions import needs
from tenants.scope import Access, OrgScope


@get("/audit-log", opt=needs(Access.ADMIN), include_in_schema=False)
async def audit_log_page(request: HTMXRequest, db_session: AsyncSession, org_scope: OrgScope) -> Any:
    page = page_number(request.query_params.get("page"))
    entries, total = await AuditLog(db_session, org_scope).page(page=page, limit=PAGE_SIZE)
    pages = Pages(Pagination.of(page=page, limit=PAGE_SIZE, total=total), "/audit-log", {})
    return render(request, "audit_log.html", entries=entries, pages=pages)
