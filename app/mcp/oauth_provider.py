"""The `mcp` package's OAuth authorization server, backed by our tables (tenants/connected_apps.py).

The package does the protocol: metadata, dynamic client registration, the authorization request's checks
(registered redirect URI, PKCE with S256 only), the token endpoint (code verifier, redirect URI, expiry,
client authentication) and revocation. This provider stores and finds what it hands out, and keeps of a
registration only what our rules allow (app/mcp/client_metadata.py). A confidential client's secret is not
stored: it is an HMAC of the client id under the server's key, so the table holds nothing a thief could
replay.
"""

from __future__ import annotations

import hashlib
import hmac
from uuid import UUID

from mcp.server.auth.provider import (
    AccessToken,
    AuthorizationCode,
    AuthorizationParams,
    RefreshToken,
    TokenError,
)
from mcp.shared.auth import OAuthClientInformationFull, OAuthToken
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.actor import current_actor
from app.db.models import ConnectedApp, OAuthAuthorization
from app.db.transactions import unit_of_work
from app.mcp.client_metadata import allowed_redirect_uris, check_sizes
from tenants import connected_apps

CONSENT_PATH = "/connect"
"""The console page where a member allows or denies an authorization request."""


class HearkenCode(AuthorizationCode):
    authorization_id: UUID


class HearkenRefresh(RefreshToken):
    app_id: UUID


class HearkenAccess(AccessToken):
    app_id: UUID


class HearkenOAuthProvider:
    def __init__(
        self, session_maker: async_sessionmaker[AsyncSession], base_url: str, secret_key: str
    ) -> None:
        self.session_maker = session_maker
        self.base_url = base_url
        self._key = hashlib.sha256(f"oauth-client-secret|{secret_key}".encode()).digest()

    def _client_secret(self, client_id: str) -> str:
        return hmac.new(self._key, client_id.encode(), hashlib.sha256).hexdigest()

    async def get_client(self, client_id: str) -> OAuthClientInformationFull | None:
        async with self.session_maker() as session:
            client = await connected_apps.find_client(session, client_id)
        if client is None:
            return None
        info = OAuthClientInformationFull.model_validate({**client.registration, "client_id": client_id})
        if info.token_endpoint_auth_method not in (None, "none"):
            info.client_secret = self._client_secret(client_id)
        return info

    async def register_client(self, client_info: OAuthClientInformationFull) -> None:
        client_info.redirect_uris = allowed_redirect_uris(client_info.redirect_uris or [])
        registration = client_info.model_dump(mode="json", exclude={"client_id", "client_secret"})
        check_sizes(registration)
        async with unit_of_work(self.session_maker) as session:
            await connected_apps.register_client(
                session, UUID(client_info.client_id), client_info.client_name, registration
            )
        if client_info.client_secret is not None:  # the answer carries the derived secret, never stored
            client_info.client_secret = self._client_secret(client_info.client_id)

    async def authorize(self, client: OAuthClientInformationFull, params: AuthorizationParams) -> str:
        async with unit_of_work(self.session_maker) as session:
            found = await connected_apps.find_client(session, client.client_id or "")
            assert found is not None  # the handler looked it up just before
            secret = await connected_apps.begin_authorization(
                session,
                found,
                redirect_uri=str(params.redirect_uri),
                redirect_uri_provided_explicitly=params.redirect_uri_provided_explicitly,
                code_challenge=params.code_challenge,
                state=params.state,
                resource=params.resource,
            )
        return f"{self.base_url}{CONSENT_PATH}/{secret}"

    async def load_authorization_code(
        self, client: OAuthClientInformationFull, authorization_code: str
    ) -> HearkenCode | None:
        async with self.session_maker() as session:
            row = await connected_apps.find_code(session, UUID(client.client_id or ""), authorization_code)
        if row is None:
            return None
        return HearkenCode(
            code=authorization_code,
            scopes=[],
            expires_at=row.expires_at.timestamp(),
            client_id=str(row.client_id),
            code_challenge=row.code_challenge,
            redirect_uri=row.redirect_uri,  # type: ignore[arg-type]
            redirect_uri_provided_explicitly=row.redirect_uri_provided_explicitly,
            resource=row.resource,
            subject=str(row.user_id),
            authorization_id=row.id,
        )

    async def exchange_authorization_code(
        self, client: OAuthClientInformationFull, authorization_code: HearkenCode
    ) -> OAuthToken:
        async with unit_of_work(self.session_maker) as session:
            row = await session.get(OAuthAuthorization, authorization_code.authorization_id)
            if row is not None and row.user_id is not None:
                current_actor.set(await connected_apps.acting_member(session, row.user_id, row.client_id))
            issued = await connected_apps.exchange_code(session, row) if row is not None else None
            if issued is None:  # spent by a concurrent exchange
                raise TokenError("invalid_grant", "authorization code has already been used")
        return _token(issued)

    async def load_refresh_token(
        self, client: OAuthClientInformationFull, refresh_token: str
    ) -> HearkenRefresh | None:
        async with self.session_maker() as session:
            app = await connected_apps.find_refresh(session, UUID(client.client_id or ""), refresh_token)
        if app is None:
            return None
        return HearkenRefresh(
            token=refresh_token,
            client_id=str(app.client_id),
            scopes=[],
            expires_at=int(app.refresh_expires_at.timestamp()),
            app_id=app.id,
        )

    async def exchange_refresh_token(
        self, client: OAuthClientInformationFull, refresh_token: HearkenRefresh, scopes: list[str]
    ) -> OAuthToken:
        async with unit_of_work(self.session_maker) as session:
            app = await connected_apps.find_refresh(
                session, UUID(client.client_id or ""), refresh_token.token
            )
            if app is None:  # rotated by a concurrent refresh
                raise TokenError("invalid_grant", "refresh token has already been used")
            issued = await connected_apps.rotate(session, app)
        return _token(issued)

    async def load_access_token(self, token: str) -> HearkenAccess | None:
        async with self.session_maker() as session:
            app = await connected_apps.find_by_token(session, token)
        if app is None:
            return None
        return HearkenAccess(token=token, client_id=str(app.client_id), scopes=[], app_id=app.id)

    async def revoke_token(self, token: HearkenAccess | HearkenRefresh) -> None:
        async with unit_of_work(self.session_maker) as session:
            app = await session.get(ConnectedApp, token.app_id)
            if app is not None:
                current_actor.set(await connected_apps.acting_member(session, app.user_id, app.client_id))
                await connected_apps.revoke(session, app)


def _token(issued: connected_apps.IssuedTokens) -> OAuthToken:
    return OAuthToken(
        access_token=issued.access_token, expires_in=issued.expires_in, refresh_token=issued.refresh_token
    )
