"""Settings → API tokens: create (the value shown once), list, revoke (kept, disabled), delete."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

from litestar import Controller, get, post
from litestar.plugins.htmx import HTMXRequest
from sqlalchemy.ext.asyncio import AsyncSession

from admin_ui.console_user import ConsoleUser
from admin_ui.forms import Form, field_error, form_values
from admin_ui.rendering import render
from app.errors import InvalidRequest
from tenants.access_tokens import AccessTokens
from tenants.models import TokenScope
from tenants.permissions import CONFIRMED_EMAIL


@dataclass
class TokenForm:
    label: str = ""
    scope: str = TokenScope.WRITE.value


class TokensController(Controller):
    path = "/settings/tokens"
    include_in_schema = False

    async def _page(
        self,
        request: HTMXRequest,
        session: AsyncSession,
        me: ConsoleUser,
        *,
        status_code: int = 200,
        **context: Any,
    ) -> Any:
        context.setdefault("errors", {})
        context.setdefault("values", {"scope": TokenScope.WRITE.value})
        return render(
            request,
            "tokens.html",
            fragment="partials/_tokens.html",
            status_code=status_code,
            tokens=await AccessTokens(session, request.auth).list(),
            scopes=[s.value for s in TokenScope],
            **context,
        )

    @get("/")
    async def tokens(self, request: HTMXRequest, db_session: AsyncSession, me: ConsoleUser) -> Any:
        return await self._page(request, db_session, me)

    @post("/", opt={CONFIRMED_EMAIL: True})
    async def create(
        self, request: HTMXRequest, db_session: AsyncSession, me: ConsoleUser, data: Form[TokenForm]
    ) -> Any:
        try:
            issued = await AccessTokens(db_session, request.auth).create(
                label=data.label, scope=data.scope, created_by=me.user_id
            )
        except InvalidRequest as exc:
            return await self._page(
                request, db_session, me, status_code=400, errors=field_error(exc), values=form_values(data)
            )
        return await self._page(request, db_session, me, issued=issued)

    @post("/{token_id:uuid}/revoke")
    async def revoke(
        self, request: HTMXRequest, db_session: AsyncSession, me: ConsoleUser, token_id: UUID
    ) -> Any:
        await AccessTokens(db_session, request.auth).revoke(token_id)
        return await self._page(request, db_session, me)

    @post("/{token_id:uuid}/delete")
    async def delete(
        self, request: HTMXRequest, db_session: AsyncSession, me: ConsoleUser, token_id: UUID
    ) -> Any:
        await AccessTokens(db_session, request.auth).delete(token_id)
        return await self._page(request, db_session, me)
