"""Who is asking over SCIM: an organization's `scim_` token as a Bearer token, looked up on every request
(a revoked token is refused at once on every node), then one request spent from that token's budget."""

from __future__ import annotations

from typing import Any

from litestar.connection import ASGIConnection
from litestar.middleware import AbstractAuthenticationMiddleware, AuthenticationResult

from app.db.actor import current_actor
from app.db.transactions import unit_of_work
from app.errors import RateLimited, Unauthorized
from app.request_checks.call_budget import CallBudget
from tenants.scim_tokens import scim_scope

CHALLENGE = {"WWW-Authenticate": 'Bearer realm="scim"'}


class ScimAuthentication(AbstractAuthenticationMiddleware):
    async def authenticate_request(
        self, connection: ASGIConnection[Any, Any, Any, Any]
    ) -> AuthenticationResult:
        scheme, _, token = connection.headers.get("authorization", "").partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise Unauthorized("Authorization: a Bearer SCIM token is required", headers=CHALLENGE)
        async with unit_of_work(connection.app.state.session_maker) as session:
            found = await scim_scope(session, token.strip())
        if found is None:
            raise Unauthorized(
                "Authorization: the SCIM token (scim_ and 43 URL-safe characters) is unknown or revoked",
                headers=CHALLENGE,
            )
        scope, token_id = found
        budget: CallBudget = connection.app.state.scim_budget
        if wait := await budget.spend(str(token_id)):
            raise RateLimited(wait, "too many SCIM requests with this token")
        current_actor.set(scope.actor)
        return AuthenticationResult(user=token_id, auth=scope)
