"""Assistants connected by OAuth: registering a client, a member's consent, the code exchange, rotating
refresh tokens, and the organization's list of connected apps with "Disconnect".

Every secret handed out (consent request, code, access and refresh token) is 256 random bits stored only
as its SHA-256 digest, as organization tokens are. A connected app is bound to one organization and acts
with the consenting member's current role there; a member who leaves takes their apps' access along.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

from sqlalchemy import delete, exists, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import ConnectedApp, Membership, OAuthAuthorization, OAuthClient, User
from app.db.models.oauth_client import CLIENT_NAME_MAX_LENGTH
from app.errors import Forbidden, NotFound
from app.timestamps import utc_now
from tenants.scope import OrgScope, OrgScoped, app_actor
from tenants.sign_in_reach import SignIn, reach_of
from tenants.token_format import token_digest

ACCESS_PREFIX = "oaa_"
REFRESH_PREFIX = "oar_"
ACCESS_PATTERN = re.compile(r"^oaa_[A-Za-z0-9_-]{43}$")
ACCESS_LIFETIME = timedelta(hours=1)
REFRESH_LIFETIME = timedelta(days=30)
"""A refresh token unused for this long is worth nothing; each refresh starts the period again."""
CONSENT_LIFETIME = timedelta(minutes=10)
"""From the assistant's authorization request to its code exchange, consent included."""
UNCONNECTED_CLIENT_LIFETIME = timedelta(days=1)
"""Registration is open to anyone (assistants register themselves), so a client that has not been connected
this long after registering, and has no authorization request still running, is deleted."""
UNCONNECTED_CLIENTS_MAX = 10_000
"""Clients never connected that may be kept at once: past it registration waits for the purge, so that
registrations from many addresses cannot fill the disk within UNCONNECTED_CLIENT_LIFETIME."""


def new_secret(prefix: str = "") -> str:
    return prefix + secrets.token_urlsafe(32)


@dataclass(frozen=True)
class IssuedTokens:
    access_token: str
    refresh_token: str
    expires_in: int


def client_name(name: str | None, fallback: str) -> str:
    name = " ".join((name or "").split())[:CLIENT_NAME_MAX_LENGTH]
    return name or fallback


async def register_client(
    session: AsyncSession, client_id: UUID, name: str | None, registration: dict[str, Any]
) -> OAuthClient:
    client = OAuthClient(
        id=client_id, name=client_name(name, f"App {str(client_id)[-6:]}"), registration=registration
    )
    session.add(client)
    await session.flush()
    return client


async def unconnected_clients(session: AsyncSession) -> int:
    """Registered clients that no member has connected (yet)."""
    never_connected = ~exists().where(ConnectedApp.client_id == OAuthClient.id)
    return await session.scalar(select(func.count()).select_from(OAuthClient).where(never_connected)) or 0


async def find_client(session: AsyncSession, client_id: str) -> OAuthClient | None:
    try:
        ident = UUID(client_id)
    except ValueError:
        return None
    return await session.get(OAuthClient, ident)


async def begin_authorization(
    session: AsyncSession,
    client: OAuthClient,
    *,
    redirect_uri: str,
    redirect_uri_provided_explicitly: bool,
    code_challenge: str,
    state: str | None,
    resource: str | None,
) -> str:
    """Store the request; the returned secret names it in the consent page's address."""
    secret = new_secret()
    session.add(
        OAuthAuthorization(
            request_digest=token_digest(secret),
            client_id=client.id,
            redirect_uri=redirect_uri,
            redirect_uri_provided_explicitly=redirect_uri_provided_explicitly,
            code_challenge=code_challenge,
            state=state,
            resource=resource,
            expires_at=utc_now() + CONSENT_LIFETIME,
        )
    )
    await session.flush()
    return secret


async def pending_authorization(
    session: AsyncSession, secret: str
) -> tuple[OAuthAuthorization, OAuthClient] | None:
    """The request awaiting consent, or None when unknown, expired or already answered."""
    row = (
        await session.execute(
            select(OAuthAuthorization, OAuthClient)
            .join(OAuthClient, OAuthClient.id == OAuthAuthorization.client_id)
            .where(
                OAuthAuthorization.request_digest == token_digest(secret),
                OAuthAuthorization.code_digest.is_(None),
                OAuthAuthorization.expires_at > utc_now(),
            )
        )
    ).first()
    return None if row is None else (row[0], row[1])


async def approve(
    session: AsyncSession, authorization: OAuthAuthorization, org_id: UUID, user_id: UUID, sign_in: SignIn
) -> str:
    """The member consented for `org_id`; returns the one-time code. Checked: they are a member there,
    and the sign-in they consented from meets that organization's sign-in policy (tenants/sign_in_reach.py),
    so a session another organization's provider signed in cannot hand an app to this one."""
    reach = await reach_of(session, user_id, sign_in)
    if not reach.allows(org_id):
        if any(o.org_id == org_id for o in reach.out_of_reach):
            raise Forbidden("sign in to that organization as it requires before connecting an app to it")
        raise NotFound("you are not a member of that organization")
    code = new_secret()
    authorization.code_digest = token_digest(code)
    authorization.org_id = org_id
    authorization.user_id = user_id
    await session.flush()
    return code


async def acting_member(session: AsyncSession, user_id: UUID, client_id: UUID) -> str:
    """Who the audit log names for what the OAuth endpoints do to a connected app (its code exchange, its
    own revocation): the member who consented, through the app, as its tool calls are recorded."""
    email = await session.scalar(select(User.email).where(User.id == user_id))
    name = await session.scalar(select(OAuthClient.name).where(OAuthClient.id == client_id))
    return app_actor(email or str(user_id), name or f"app {client_id}")


async def deny(session: AsyncSession, authorization: OAuthAuthorization) -> None:
    await session.delete(authorization)
    await session.flush()


async def find_code(session: AsyncSession, client_id: UUID, code: str) -> OAuthAuthorization | None:
    return await session.scalar(
        select(OAuthAuthorization).where(
            OAuthAuthorization.code_digest == token_digest(code),
            OAuthAuthorization.client_id == client_id,
            OAuthAuthorization.expires_at > utc_now(),
        )
    )


async def exchange_code(session: AsyncSession, authorization: OAuthAuthorization) -> IssuedTokens | None:
    """The code is spent (its row deleted) and the app is connected with fresh tokens; None when a
    concurrent exchange spent it first."""
    assert authorization.org_id is not None and authorization.user_id is not None
    spent = await session.execute(
        delete(OAuthAuthorization).where(
            OAuthAuthorization.id == authorization.id, OAuthAuthorization.code_digest.is_not(None)
        )
    )
    if spent.rowcount != 1:  # type: ignore[attr-defined]
        return None
    app = ConnectedApp(
        org_id=authorization.org_id, client_id=authorization.client_id, user_id=authorization.user_id
    )
    issued = _new_tokens(app)
    session.add(app)
    await session.flush()
    return issued


@dataclass(frozen=True)
class Purged:
    authorizations: int
    clients: int


async def purge_stale(session: AsyncSession) -> Purged:
    """Delete the authorization requests and codes past their lifetime (answered or not) and the
    registered clients that never got a token within UNCONNECTED_CLIENT_LIFETIME; connected apps and their
    clients stay until they are disconnected."""
    now = utc_now()
    authorizations = await session.execute(
        delete(OAuthAuthorization).where(OAuthAuthorization.expires_at <= now)
    )
    clients = await session.execute(
        delete(OAuthClient).where(
            OAuthClient.created_at < now - UNCONNECTED_CLIENT_LIFETIME,
            ~exists().where(ConnectedApp.client_id == OAuthClient.id),
            ~exists().where(OAuthAuthorization.client_id == OAuthClient.id),
        )
    )
    return Purged(authorizations.rowcount, clients.rowcount)  # type: ignore[attr-defined]


async def find_refresh(session: AsyncSession, client_id: UUID, refresh_token: str) -> ConnectedApp | None:
    return await session.scalar(
        select(ConnectedApp).where(
            ConnectedApp.refresh_digest == token_digest(refresh_token),
            ConnectedApp.client_id == client_id,
            ConnectedApp.revoked_at.is_(None),
            ConnectedApp.refresh_expires_at > utc_now(),
        )
    )


async def find_by_token(session: AsyncSession, token: str) -> ConnectedApp | None:
    digest = token_digest(token)
    return await session.scalar(
        select(ConnectedApp).where(
            (ConnectedApp.access_digest == digest) | (ConnectedApp.refresh_digest == digest)
        )
    )


async def rotate(session: AsyncSession, app: ConnectedApp) -> IssuedTokens:
    """New access and refresh tokens; the old ones stop working on the next call on every node."""
    issued = _new_tokens(app)
    await session.flush()
    return issued


async def revoke(session: AsyncSession, app: ConnectedApp) -> None:
    if app.revoked_at is None:
        app.revoked_at = utc_now()
        await session.flush()


def _new_tokens(app: ConnectedApp) -> IssuedTokens:
    access, refresh = new_secret(ACCESS_PREFIX), new_secret(REFRESH_PREFIX)
    now = utc_now()
    app.access_digest, app.access_expires_at = token_digest(access), now + ACCESS_LIFETIME
    app.refresh_digest, app.refresh_expires_at = token_digest(refresh), now + REFRESH_LIFETIME
    return IssuedTokens(access, refresh, int(ACCESS_LIFETIME.total_seconds()))


@dataclass(frozen=True)
class ConnectedAppRow:
    id: UUID
    client_name: str
    member_email: str
    connected_at: datetime
    last_used_at: datetime | None


class ConnectedApps(OrgScoped):
    """The apps connected to one organization, for its API tokens page; every query is filtered by it."""

    def __init__(self, session: AsyncSession, scope: OrgScope) -> None:
        super().__init__(session, scope)
        self.org_id = scope.org_id

    async def list(self) -> list[ConnectedAppRow]:
        rows = await self.session.execute(
            select(
                ConnectedApp.id,
                OAuthClient.name,
                User.email,
                ConnectedApp.created_at,
                ConnectedApp.last_used_at,
            )
            .join(OAuthClient, OAuthClient.id == ConnectedApp.client_id)
            .join(User, User.id == ConnectedApp.user_id)
            .join(Membership, (Membership.user_id == User.id) & (Membership.org_id == ConnectedApp.org_id))
            .where(ConnectedApp.org_id == self.org_id, ConnectedApp.revoked_at.is_(None))
            .order_by(ConnectedApp.created_at.desc(), ConnectedApp.id.desc())
        )
        return [ConnectedAppRow(*row) for row in rows.tuples()]

    async def disconnect(self, app_id: UUID) -> None:
        """Revoke the app's tokens: its next call is refused on every node."""
        app = await self.session.scalar(
            select(ConnectedApp).where(ConnectedApp.id == app_id, ConnectedApp.org_id == self.org_id)
        )
        if app is None:
            raise NotFound("no such connected app in this organization")
        await revoke(self.session, app)
