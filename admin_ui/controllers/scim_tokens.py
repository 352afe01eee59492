"""SCIM tokens, on the Single sign-on page: "Create SCIM token" shows the new token once; "Revoke" stops
it at once. Owners only: a SCIM token can make anyone an owner or take the owner role away."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from litestar import Controller, post
from litestar.plugins.htmx import HTMXRequest

from admin_ui.controllers.sso_settings import SsoSettingsController
from admin_ui.rendering import go_to
from app.dependencies import provide
from tenants.permissions import CONFIRMED_EMAIL, needs
from tenants.scim_tokens import ScimTokens
from tenants.scope import Access
from tenants.single_sign_on import SsoConnections

OWNER = needs(Access.OWNER)
OWNER_CONFIRMED = {**OWNER, CONFIRMED_EMAIL: True}
"""Creating a token needs a confirmed address too, as API tokens do."""


class ScimTokenController(Controller):
    path = "/settings/sso/scim-tokens"
    include_in_schema = False
    dependencies = {"connections": provide(SsoConnections), "scim_tokens": provide(ScimTokens)}

    @post("/", opt=OWNER_CONFIRMED)
    async def create(self, request: HTMXRequest, connections: SsoConnections, scim_tokens: ScimTokens) -> Any:
        """The page again, with the new token: it is shown this once and stored only as its digest."""
        issued = await scim_tokens.create()
        connection = await connections.get()
        values = await SsoSettingsController._saved_values(connections)
        return await SsoSettingsController._page(
            request, connections, values, {}, connection is not None, scim_issued=issued.token
        )

    @post("/{token_id:uuid}/revoke", opt=OWNER)
    async def revoke(self, request: HTMXRequest, scim_tokens: ScimTokens, token_id: UUID) -> Any:
        await scim_tokens.revoke(token_id)
        return go_to(request, "/settings/sso?saved=scim_revoked")
