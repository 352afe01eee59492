"""A member's connected app (an assistant connected by OAuth), arranged as rows: the SCIM tests need one
that works before the member is turned off, not the OAuth dance that makes it."""

from __future__ import annotations

from uuid import UUID, uuid4

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import ConnectedApp, OAuthClient
from app.db.transactions import unit_of_work
from app.timestamps import utc_now
from tenants.connected_apps import ACCESS_LIFETIME, ACCESS_PREFIX, REFRESH_LIFETIME, new_secret
from tenants.token_format import token_digest


async def connect_app(session_maker: async_sessionmaker[AsyncSession], org_id: UUID, user_id: UUID) -> str:
    """The access token of a new app the member connected to the organization."""
    access = new_secret(ACCESS_PREFIX)
    async with unit_of_work(session_maker) as session:
        client = OAuthClient(id=uuid4(), name="Assistant", registration={})
        session.add(client)
        await session.flush()
        session.add(
            ConnectedApp(
                org_id=org_id,
                client_id=client.id,
                user_id=user_id,
                access_digest=token_digest(access),
                access_expires_at=utc_now() + ACCESS_LIFETIME,
                refresh_digest=token_digest(new_secret()),
                refresh_expires_at=utc_now() + REFRESH_LIFETIME,
            )
        )
    return access
