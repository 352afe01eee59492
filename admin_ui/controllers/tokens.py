"""Settings → API tokens: create (the value shown once), list, revoke (kept, disabled), delete; and the
assistants connected by OAuth ("Connected apps"), each with "Disconnect"."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

from litestar import Controller, get, post
from litestar.plugins.htmx import HTMXRequest

from admin_ui.console_user import ConsoleUser
from admin_ui.forms import Form, field_error, form_values
from admin_ui.rendering import render
from app.db.models import TokenScope
from app.dependencies import provide
from app.errors import InvalidRequest
from tenants.access_tokens import AccessTokens
from tenants.connected_apps import ConnectedApps
from tenants.permissions import CONFIRMED_EMAIL


@dataclass
class TokenForm:
    label: str = ""
    scope: str = TokenScope.WRITE.value


class TokensController(Controller):
    path = "/settings/tokens"
    include_in_schema = False
    dependencies = {
        "access_tokens": provide(AccessTokens),
        "connected_apps": provide(ConnectedApps),
    }

    async def _page(
        self,
        request: HTMXRequest,
        access_tokens: AccessTokens,
        connected_apps: ConnectedApps,
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
            tokens=await access_tokens.list(),
            apps=await connected_apps.list(),
            scopes=[s.value for s in TokenScope],
            **context,
        )

    @get("/")
    async def tokens(
        self,
        request: HTMXRequest,
        access_tokens: AccessTokens,
        connected_apps: ConnectedApps,
        me: ConsoleUser,
    ) -> Any:
        return await self._page(request, access_tokens, connected_apps)

    @post("/", opt={CONFIRMED_EMAIL: True})
    async def create(
        self,
        request: HTMXRequest,
        access_tokens: AccessTokens,
        connected_apps: ConnectedApps,
        me: ConsoleUser,
        data: Form[TokenForm],
    ) -> Any:
        try:
            issued = await access_tokens.create(label=data.label, scope=data.scope, created_by=me.user_id)
        except InvalidRequest as exc:
            return await self._page(
                request,
                access_tokens,
                connected_apps,
                status_code=400,
                errors=field_error(exc),
                values=form_values(data),
            )
        return await self._page(request, access_tokens, connected_apps, issued=issued)

    @post("/{token_id:uuid}/revoke")
    async def revoke(
        self,
        request: HTMXRequest,
        access_tokens: AccessTokens,
        connected_apps: ConnectedApps,
        me: ConsoleUser,
        token_id: UUID,
    ) -> Any:
        await access_tokens.revoke(token_id)
        return await self._page(request, access_tokens, connected_apps)

    @post("/{token_id:uuid}/delete")
    async def delete(
        self,
        request: HTMXRequest,
        access_tokens: AccessTokens,
        connected_apps: ConnectedApps,
        me: ConsoleUser,
        token_id: UUID,
    ) -> Any:
        await access_tokens.delete(token_id)
        return await self._page(request, access_tokens, connected_apps)

    @post("/apps/{app_id:uuid}/disconnect")
    async def disconnect(
        self,
        request: HTMXRequest,
        access_tokens: AccessTokens,
        connected_apps: ConnectedApps,
        me: ConsoleUser,
        app_id: UUID,
    ) -> Any:
        """The app's tokens stop working on its next call, on every server process."""
        await connected_apps.disconnect(app_id)
        return await self._page(request, access_tokens, connected_apps)
