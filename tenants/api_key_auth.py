"""X-API-Key authentication for the REST API: the token resolves to its organization scope here, once."""

from __future__ import annotations

from litestar.connection import ASGIConnection
from litestar.middleware import AbstractAuthenticationMiddleware, AuthenticationResult

from app.db.actor import current_actor
from app.errors import Unauthorized
from tenants.scope import token_scope
from tenants.token_directory import TokenDirectory
from tenants.token_format import TOKEN_PATTERN, token_digest


class ApiKeyAuthentication(AbstractAuthenticationMiddleware):
    async def authenticate_request(self, connection: ASGIConnection) -> AuthenticationResult:
        token = connection.headers.get("x-api-key")
        if not token:
            raise Unauthorized("X-API-Key header is missing")
        if not TOKEN_PATTERN.match(token):
            raise Unauthorized("X-API-Key must be oat_ followed by 43 URL-safe characters")
        directory: TokenDirectory = connection.app.state.token_directory
        grant = await directory.lookup(token_digest(token))
        if grant is None:
            raise Unauthorized("X-API-Key is unknown or revoked")
        scope = token_scope(grant.org_id, grant.prefix, can_write=grant.can_write)
        current_actor.set(scope.actor)
        return AuthenticationResult(user=grant, auth=scope)
