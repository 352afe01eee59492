"""What an application leaves behind when it shuts down: no open database connection."""

from __future__ import annotations

from litestar import Litestar
from litestar.testing import AsyncTestClient
from sqlalchemy.ext.asyncio import AsyncEngine

from app.config import Settings
from app.db.config import build_db_config
from app.main import create_app
from tests.factories import Tenant


async def test_shutdown_closes_the_pooled_database_connections(settings: Settings, tenant: Tenant) -> None:
    # Another config made first, as migrations or a second app in the same process do: advanced-alchemy
    # then gives the app's config a suffixed state key, and its own lifespan no longer disposes the engine.
    build_db_config(settings)
    app: Litestar = create_app(settings)
    engine: AsyncEngine = app.state.database_engine
    async with AsyncTestClient(app=app) as client:
        response = await client.get(f"/api/v1/projects/{tenant.project_id}/ratings", headers=tenant.headers)
        assert response.status_code == 200
        assert engine.sync_engine.pool.checkedin() >= 1  # the request's connection, back in the pool
    assert engine.sync_engine.pool.checkedin() == 0
