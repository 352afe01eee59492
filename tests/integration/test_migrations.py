"""Migrations that carry data: 0003 totals the day counters that a database already holds; 0008 counts
the ratings again by version and reason; 0018 seals webhook secrets (and opens them again downgrading);
0029 leaves the single sign-on domains claimed before it unproven."""

from __future__ import annotations

import asyncio
import re
from datetime import UTC, date, datetime

import pytest
import sqlalchemy as sa
from advanced_alchemy.alembic.commands import AlembicCommands
from advanced_alchemy.types import GUID, JsonB
from sqlalchemy import insert, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from uuid_utils.compat import uuid7

from app.config import Settings, get_settings
from app.db.config import build_db_config
from app.db.models import (
    ALL_PATHS,
    FeedbackItem,
    Project,
    Rating,
    RatingTotal,
    RatingType,
    SsoDomain,
    TrackerIntegration,
    WebhookEndpoint,
)
from app.db.secret_box import WEBHOOK_SECRETS, secret_box
from app.db.transactions import unit_of_work
from app.services.rating_stats import RatingStatistics
from app.webhooks.signing import new_secret
from tenants.scope import operator_scope
from tests.factories import Tenant

# rating_counters as 0002 and 0003 have it: before versions and reasons were counted
OLD_COUNTERS = sa.table(
    "rating_counters",
    sa.column("project_id", GUID(length=16)),
    sa.column("day", sa.Date()),
    *(sa.column(name) for name in ("rating_type", "path", "scale", "value", "count")),
)

# webhook_endpoints as 0004 to 0017 have it: the secret in plain text
OLD_ENDPOINTS = sa.table(
    "webhook_endpoints",
    sa.column("id", GUID(length=16)),
    sa.column("org_id", GUID(length=16)),
    *(sa.column(name) for name in ("url", "description", "format", "enabled", "secret")),
    sa.column("events", JsonB),
    sa.column("project_ids", JsonB),
    sa.column("created_at", sa.DateTime(timezone=True)),
    sa.column("updated_at", sa.DateTime(timezone=True)),
)

# ratings as 0003 has them: the columns the ORM model has had since
OLD_RATINGS = sa.table(
    "ratings",
    *(sa.column(name, Rating.__table__.c[name].type) for name in (
        "id", "project_id", "rating_type", "value", "path", "version", "metadata", "archived",
        "created_at", "updated_at",
    )),
)  # fmt: skip

DAY_COUNTERS = [
    (ALL_PATHS, date(2026, 5, 1), 9, 3),
    (ALL_PATHS, date(2026, 5, 2), 9, 4),
    (ALL_PATHS, date(2026, 5, 2), 3, 1),
    ("/a", date(2026, 5, 1), 9, 3),
    ("/a", date(2026, 5, 2), 9, 4),
    ("/b", date(2026, 5, 2), 3, 1),
]


def _alembic(settings: Settings) -> AlembicCommands:
    return AlembicCommands(sqlalchemy_config=build_db_config(settings))


async def test_rating_totals_are_summed_from_existing_day_counters(
    settings: Settings, session_maker: async_sessionmaker[AsyncSession], tenant: Tenant
) -> None:
    project_id = tenant.project.id
    await asyncio.to_thread(_alembic(settings).downgrade, "0002")
    try:
        async with unit_of_work(session_maker) as session:
            rows = [
                {"project_id": project_id, "rating_type": "nps", "path": path, "day": day,
                 "scale": 0, "value": value, "count": count}
                for path, day, value, count in DAY_COUNTERS
            ]  # fmt: skip
            await session.execute(insert(OLD_COUNTERS), rows)
            await session.commit()
        await asyncio.to_thread(_alembic(settings).upgrade, "0003")
        async with unit_of_work(session_maker) as session:
            totals = (
                await session.execute(
                    select(RatingTotal.path, RatingTotal.value, RatingTotal.count).where(
                        RatingTotal.project_id == project_id
                    )
                )
            ).tuples()
            assert sorted(totals) == [(ALL_PATHS, 3, 1), (ALL_PATHS, 9, 7), ("/a", 9, 7), ("/b", 3, 1)]
    finally:
        await asyncio.to_thread(_alembic(settings).upgrade, "head")


async def test_counters_are_rebuilt_by_version_and_reason_from_the_ratings(
    settings: Settings, session_maker: async_sessionmaker[AsyncSession], tenant: Tenant
) -> None:
    project = tenant.project
    await asyncio.to_thread(_alembic(settings).downgrade, "0003")
    ratings = [  # (value, version, metadata, archived, day)
        (0, "2.4", {"reason": "inaccurate"}, False, 3),
        (0, "2.4", {"reason": "inaccurate"}, False, 4),
        (0, "2.4", {"reason": "other"}, True, 4),
        (1, "2.4", None, False, 5),
        (1, "2.3", None, False, 1),
        (0, "2.3", {"reason": 5}, False, 2),
        (1, None, None, False, 2),
    ]
    try:
        async with unit_of_work(session_maker) as session:
            for value, version, metadata, archived, day in ratings:
                moment = datetime(2026, 5, day, 15, tzinfo=UTC)
                await session.execute(
                    insert(OLD_RATINGS),
                    {"id": uuid7(), "project_id": project.id, "rating_type": "helpful", "value": value,
                     "path": "/a", "version": version, "metadata": metadata, "archived": archived,
                     "created_at": moment, "updated_at": moment},
                )  # fmt: skip
            await session.commit()
    finally:
        await asyncio.to_thread(_alembic(settings).upgrade, "head")
    async with unit_of_work(session_maker) as session:
        statistics = RatingStatistics(session, operator_scope(tenant.org_id), project)
        everything = await statistics.stats(RatingType.HELPFUL)
        assert (everything.total, everything.reasons) == (6, {"inaccurate": 2})  # type: ignore[union-attr]
        versions = (await statistics.versions(RatingType.HELPFUL, "/a")).versions
        assert [(v.version, v.first_seen, v.total, v.reasons) for v in versions] == [  # type: ignore[union-attr]
            ("2.3", "2026-05-01", 2, {}),
            ("2.4", "2026-05-03", 3, {"inaccurate": 2}),
        ]


async def test_webhook_secrets_are_sealed_and_opened_again_by_the_downgrade(
    settings: Settings,
    session_maker: async_sessionmaker[AsyncSession],
    tenant: Tenant,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The migration seals with the server's HEARKEN_SECRET_KEY, the key the application opens with."""
    monkeypatch.setenv("HEARKEN_SECRET_KEY", settings.secret_key)
    get_settings.cache_clear()
    secret, ident = new_secret(), uuid7()
    moment = datetime(2026, 5, 1, tzinfo=UTC)
    await asyncio.to_thread(_alembic(settings).downgrade, "0017")
    try:
        async with unit_of_work(session_maker) as session:
            await session.execute(
                insert(OLD_ENDPOINTS).values(
                    id=ident, org_id=tenant.org_id, url="http://127.0.0.1:9/in", description="",
                    format="standard", enabled=True, secret=secret, events=[], project_ids=[],
                    created_at=moment, updated_at=moment,
                )
            )  # fmt: skip
            await session.commit()
        await asyncio.to_thread(_alembic(settings).upgrade, "0018")
        async with unit_of_work(session_maker) as session:
            sealed = await session.scalar(
                select(WebhookEndpoint.sealed_secret).where(WebhookEndpoint.id == ident)
            )
            assert sealed is not None and secret.removeprefix("whsec_") not in sealed
            assert secret_box(settings.secret_key, WEBHOOK_SECRETS).open(sealed) == secret
        await asyncio.to_thread(_alembic(settings).downgrade, "0017")
        async with unit_of_work(session_maker) as session:
            plain = await session.scalar(select(OLD_ENDPOINTS.c.secret).where(OLD_ENDPOINTS.c.id == ident))
            assert plain == secret
    finally:
        await asyncio.to_thread(_alembic(settings).upgrade, "head")
        get_settings.cache_clear()


async def test_rows_kept_across_verified_users_are_unverified(
    settings: Settings, session_maker: async_sessionmaker[AsyncSession], tenant: Tenant
) -> None:
    await asyncio.to_thread(_alembic(settings).downgrade, "0018")
    old_feedback = sa.table(
        "feedback_items",
        *(sa.column(name, FeedbackItem.__table__.c[name].type) for name in (
            "id", "project_id", "message", "status", "type", "source", "submitted_by", "archived",
            "created_at", "updated_at",
        )),
    )  # fmt: skip
    moment = datetime(2026, 5, 1, tzinfo=UTC)
    try:
        async with unit_of_work(session_maker) as session:
            await session.execute(
                insert(old_feedback),
                {"id": uuid7(), "project_id": tenant.project.id, "message": "kept", "status": "New",
                 "type": "Bug", "source": "Widget", "submitted_by": "user_1", "archived": False,
                 "created_at": moment, "updated_at": moment},
            )  # fmt: skip
            await session.commit()
    finally:
        await asyncio.to_thread(_alembic(settings).upgrade, "head")
    async with unit_of_work(session_maker) as session:
        rows = (
            await session.execute(select(FeedbackItem.message, FeedbackItem.submitted_by_verified))
        ).tuples()
        assert list(rows) == [("kept", False)]
        project = await session.get(Project, tenant.project.id)
        assert project is not None and project.require_verified_users is False


async def test_single_sign_on_domains_claimed_before_are_unproven(
    settings: Settings, session_maker: async_sessionmaker[AsyncSession], tenant: Tenant
) -> None:
    """0029: a domain claimed before proofs existed gets a token of its own and stays unproven, so it
    sends nobody to the provider until its admins publish the record and verify it; downgrading keeps it."""
    old_domains = sa.table(
        "sso_domains",
        *(sa.column(name, SsoDomain.__table__.c[name].type) for name in (
            "id", "org_id", "domain", "created_at", "updated_at",
        )),
    )  # fmt: skip
    moment = datetime(2026, 5, 1, tzinfo=UTC)
    await asyncio.to_thread(_alembic(settings).downgrade, "0028")
    try:
        async with unit_of_work(session_maker) as session:
            await session.execute(
                insert(old_domains),
                {"id": uuid7(), "org_id": tenant.org_id, "domain": "claimed.example",
                 "created_at": moment, "updated_at": moment},
            )  # fmt: skip
            await session.commit()
        await asyncio.to_thread(_alembic(settings).upgrade, "0029")
        async with unit_of_work(session_maker) as session:
            claim = await session.scalar(select(SsoDomain))
            assert claim is not None and claim.verified_at is None
            assert re.fullmatch(r"[0-9a-f]{32}", claim.verification_token)
        await asyncio.to_thread(_alembic(settings).downgrade, "0028")
        async with unit_of_work(session_maker) as session:
            assert (await session.execute(select(old_domains.c.domain))).scalars().all() == [
                "claimed.example"
            ]
    finally:
        await asyncio.to_thread(_alembic(settings).upgrade, "head")


async def test_github_and_linear_integrations_move_into_one_table_and_back(
    settings: Settings, session_maker: async_sessionmaker[AsyncSession], tenant: Tenant
) -> None:
    """0032: the rows keep their ids (the webhook URLs in GitHub and Linear name them) and their sealed
    token, key and secret, which the application opens as before; the downgrade gives them back."""
    box = secret_box(settings.secret_key)
    moment = datetime(2026, 11, 1, tzinfo=UTC)
    old = {
        "github": ("github_integrations", "repository", "acme/widgets", "sealed_token"),
        "linear": ("linear_integrations", "team_id", "9cfb482a", "sealed_api_key"),
    }
    tables = {
        tracker: sa.table(
            name,
            *(sa.column(c, GUID(length=16)) for c in ("id", "project_id")),
            *(sa.column(c) for c in (setting, credential, "sealed_webhook_secret")),
            *(sa.column(c, sa.DateTime(timezone=True)) for c in ("created_at", "updated_at")),
        )
        for tracker, (name, setting, _value, credential) in old.items()
    }
    ids = {tracker: uuid7() for tracker in old}
    await asyncio.to_thread(_alembic(settings).downgrade, "0028")
    try:
        async with unit_of_work(session_maker) as session:
            for tracker, (_name, setting, value, credential) in old.items():
                await session.execute(
                    insert(tables[tracker]).values(
                        id=ids[tracker], project_id=tenant.project.id, **{setting: value},
                        **{credential: box.seal(f"{tracker}-credential")},
                        sealed_webhook_secret=box.seal(f"{tracker}-secret"),
                        created_at=moment, updated_at=moment,
                    )
                )  # fmt: skip
            await session.commit()
        await asyncio.to_thread(_alembic(settings).upgrade, "0032")
        async with unit_of_work(session_maker) as session:
            rows = {row.tracker: row for row in await session.scalars(select(TrackerIntegration))}
        assert set(rows) == set(old)
        for tracker, (_name, setting, value, _credential) in old.items():
            row = rows[tracker]
            assert (row.id, row.project_id, row.settings) == (
                ids[tracker],
                tenant.project.id,
                {setting: value},
            )
            assert box.open(row.sealed_credential) == f"{tracker}-credential"
            assert box.open(row.sealed_webhook_secret) == f"{tracker}-secret"
        await asyncio.to_thread(_alembic(settings).downgrade, "0028")
        async with unit_of_work(session_maker) as session:
            for tracker, (_name, setting, value, credential) in old.items():
                table = tables[tracker]
                back = (await session.execute(select(table))).mappings().one()
                assert (back["id"], back[setting]) == (ids[tracker], value)
                assert box.open(back[credential]) == f"{tracker}-credential"
    finally:
        await asyncio.to_thread(_alembic(settings).upgrade, "head")
