"""What the running configuration lets out: the OpenAPI document only where it is wanted (off by default
in production), and no SQL parameters (visitor text, emails) in database error messages and logs."""

from __future__ import annotations

from dataclasses import replace

import pytest
from litestar.testing import AsyncTestClient
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from app.config import Settings
from app.db.config import build_db_config
from app.main import create_app

PRODUCTION_KEY = "Zq3v9Hk2mW8xR4tY7uP1sD6fG0jL5nB2cV8bN4mQ1wE"


@pytest.mark.parametrize(
    ("environ", "served"),
    [
        ({}, True),
        ({"HEARKEN_ENV": "production", "HEARKEN_SECRET_KEY": PRODUCTION_KEY}, False),
        ({"HEARKEN_ENV": "production", "HEARKEN_SECRET_KEY": PRODUCTION_KEY, "HEARKEN_OPENAPI": "on"}, True),
        ({"HEARKEN_OPENAPI": "off"}, False),
    ],
)
async def test_the_openapi_document_is_served_only_where_configured(
    settings: Settings, environ: dict[str, str], served: bool
) -> None:
    configured = Settings.from_env(environ)
    app = create_app(
        replace(settings, env=configured.env, secret_key=configured.secret_key, openapi=configured.openapi)
    )
    async with AsyncTestClient(app=app) as client:
        response = await client.get("/schema/openapi.json")
    assert (response.status_code == 200) is served, response.status_code


def test_a_bad_openapi_setting_is_refused() -> None:
    with pytest.raises(ValueError, match="HEARKEN_OPENAPI"):
        Settings.from_env({"HEARKEN_OPENAPI": "maybe"})


async def test_database_errors_do_not_carry_sql_parameters(settings: Settings) -> None:
    engine = build_db_config(settings).get_engine()
    try:
        async with engine.connect() as connection:
            with pytest.raises(DBAPIError) as raised:
                await connection.execute(
                    text("select note from no_such_table where note = :note"),
                    {"note": "visitor@secret.example"},
                )
    finally:
        await engine.dispose()
    assert "visitor@secret.example" not in str(raised.value)
