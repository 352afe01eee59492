"""HEARKEN_DATABASE_REPLICA_URLS, HEARKEN_DATABASE_REPLICA_MAX_LAG and redis+sentinel:// URLs: what is
accepted, and that a mistake stops the start with a message naming the variable (never the URL)."""

from __future__ import annotations

import pytest

from app.config import Settings
from app.db.redis_connection import SentinelAddress, connect_redis

PRIMARY = "postgresql+psycopg://hearken@db1/hearken"


def settings(**env: str) -> Settings:
    return Settings.from_env({"HEARKEN_DATABASE_URL": PRIMARY, "HEARKEN_SECRET_KEY": "k", **env})


def test_replicas_take_the_primarys_driver_and_the_lag_bound_defaults_to_5_seconds() -> None:
    configured = settings(
        HEARKEN_DATABASE_REPLICA_URLS="postgresql://hearken@db2/hearken, postgres://hearken:pw@db3:5433/hearken"
    )
    assert configured.database_replica_urls == (
        "postgresql+psycopg://hearken@db2/hearken",
        "postgresql+psycopg://hearken:pw@db3:5433/hearken",
    )
    assert configured.database_replica_max_lag == 5.0
    assert "pw" not in repr(configured)
    assert settings(HEARKEN_DATABASE_REPLICA_MAX_LAG="0.5").database_replica_max_lag == 0.5
    assert settings().database_replica_urls == ()


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"HEARKEN_DATABASE_REPLICA_URLS": "mysql://secret@db2/x"}, "HEARKEN_DATABASE_REPLICA_URLS"),
        ({"HEARKEN_DATABASE_REPLICA_MAX_LAG": "soon"}, "HEARKEN_DATABASE_REPLICA_MAX_LAG"),
        ({"HEARKEN_DATABASE_REPLICA_MAX_LAG": "0"}, "HEARKEN_DATABASE_REPLICA_MAX_LAG"),
        (
            {"HEARKEN_DATABASE_URL": "sqlite+aiosqlite:///x.db", "HEARKEN_DATABASE_REPLICA_URLS": PRIMARY},
            "needs a PostgreSQL",
        ),
    ],
)
def test_a_wrong_replica_setting_stops_the_start(env: dict[str, str], message: str) -> None:
    with pytest.raises(ValueError, match=message) as refused:
        settings(**env)
    assert "secret" not in str(refused.value)


def test_a_sentinel_url_names_the_sentinels_the_service_and_the_database() -> None:
    address = SentinelAddress.parse("redis+sentinel://:pw@10.0.0.1:26379,[::1]:26380,sentinel3/hearken/2")
    assert address.sentinels == (("10.0.0.1", 26379), ("::1", 26380), ("sentinel3", 26379))
    assert (address.service_name, address.db, address.password) == ("hearken", 2, "pw")
    assert SentinelAddress.parse("redis+sentinel://s1:26379/hearken").db == 0


@pytest.mark.parametrize(
    "url", ["redis+sentinel://s1:26379", "redis+sentinel:///hearken", "redis+sentinel://s1:x/hearken"]
)
def test_a_wrong_sentinel_url_is_refused(url: str) -> None:
    with pytest.raises(ValueError, match="Sentinel URL"):
        connect_redis(url)
