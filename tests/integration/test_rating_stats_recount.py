"""Property check: after random inserts and archives across paths, types, days, versions and reasons, every
statistics answer (counters plus partial-day row counts), reason counts and per-version statistics included,
equals a plain recount of the rating rows. Seeded, so a failure replays exactly."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec
import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.models import Rating, RatingType
from app.db.transactions import unit_of_work
from app.ingest import NewRating, RatingInput, add_ratings, archive_rating
from app.ingest.batches import RatingBatches, rating_batches
from app.services.rating_stats import RatingStatistics
from tenants.scope import operator_scope
from tests.factories import Tenant
from tests.rating_clock import rate_at

FIRST_DAY = datetime(2026, 6, 1, tzinfo=UTC)
DAYS = 9
PATHS = ("/a", "/b", "/c/d", None)
VERSIONS = ("1.0", "1.1", "2.0", None)
# what a helpful rating's metadata may hold: counted reasons, and values that are not counted as one
METADATA = (
    None,
    {"reason": "inaccurate"},
    {"reason": "hard_to_understand", "seats": 3},
    {"reason": "other"},
    {"reason": "x" * 65},
    {"reason": 7},
    {"reason": ""},
    {"plan": "pro"},
)


def counted(metadata: dict[str, Any] | None) -> str | None:
    """The reason a recount counts: a string of 1 to 64 characters."""
    reason = (metadata or {}).get("reason")
    return reason if isinstance(reason, str) and 0 < len(reason) <= 64 else None


def random_moment(rng: random.Random) -> datetime:
    day = FIRST_DAY + timedelta(days=rng.randrange(DAYS))
    if rng.random() < 0.15:
        return day  # exactly midnight: the edge between counter days
    return day + timedelta(microseconds=rng.randrange(86_400_000_000))


def random_input(rng: random.Random) -> RatingInput:
    rating_type = rng.choice(list(RatingType))
    path, version = rng.choice(PATHS), rng.choice(VERSIONS)
    if rating_type == RatingType.HELPFUL:
        value = rng.randint(0, 1)
        metadata = rng.choice(METADATA) if value == 0 or rng.random() < 0.2 else None
        return RatingInput(
            rating_type=rating_type, value=value, path=path, version=version, custom_data=metadata
        )
    if rating_type == RatingType.STAR:
        max_stars = rng.choice((3, 5, 5, 7))
        return RatingInput(
            rating_type=rating_type,
            value=rng.randint(1, max_stars),
            max_stars=max_stars,
            path=path,
            version=version,
        )
    metadata = rng.choice((None, {"reason": "other"}))  # not a helpful rating: never counted as a reason
    return RatingInput(
        rating_type=rating_type, value=rng.randint(0, 10), path=path, version=version, custom_data=metadata
    )


def random_bound(rng: random.Random) -> datetime | None:
    choice = rng.random()
    if choice < 0.2:
        return None
    if choice < 0.5:
        return FIRST_DAY + timedelta(days=rng.randrange(-1, DAYS + 2))
    return random_moment(rng)


def recount(
    rows: list[Rating],
    rating_type: str,
    path: str | None,
    since: datetime | None,
    until: datetime | None,
    version: str | None = None,
) -> dict[str, Any]:
    """The statistics figures computed directly from the rows that match."""
    chosen = [
        r
        for r in rows
        if r.rating_type == rating_type
        and not r.archived
        and (path is None or r.path == path)
        and (since is None or r.created_at >= since)
        and (until is None or r.created_at < until)
        and (version is None or r.version == version)
    ]
    values = [r.value for r in chosen]
    total = len(values)
    if rating_type == RatingType.HELPFUL:
        yes = values.count(1)
        given = [counted(r.custom_data) for r in chosen if r.value == 0 and counted(r.custom_data)]
        reasons = sorted(
            {reason: given.count(reason) for reason in given}.items(), key=lambda rn: (-rn[1], rn[0])
        )
        return {
            "total": total,
            "helpful": yes,
            "not_helpful": total - yes,
            "percentage": round(100 * yes / total, 1) if total else 0.0,
            "reasons": dict(reasons),
        }
    if rating_type == RatingType.STAR:
        top = max((r.max_stars or 0 for r in chosen), default=5)
        return {
            "total": total,
            "average": round(sum(values) / total, 2) if total else 0.0,
            "distribution": {str(star): values.count(star) for star in range(1, top + 1)},
        }
    promoters = sum(v >= 9 for v in values)
    detractors = sum(v <= 6 for v in values)
    score = round(100 * (promoters - detractors) / total) if total else 0
    category = (
        "excellent"
        if score >= 70
        else "great"
        if score >= 50
        else "good"
        if score >= 30
        else "needs_improvement"
    )
    return {
        "total": total,
        "score": score,
        "promoters": promoters,
        "passives": total - promoters - detractors,
        "detractors": detractors,
        "distribution": {str(v): values.count(v) for v in range(11)},
        "category": category if score >= 0 else "critical",
    }


async def populate(
    session: AsyncSession,
    batches: RatingBatches,
    tenant: Tenant,
    rng: random.Random,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Inserts go through both write paths: the API's (add_ratings) and the group commit's batches."""
    stored: list[NewRating] = []
    for _ in range(90):
        rate_at(monkeypatch, random_moment(rng))
        batch = [(tenant.project.id, random_input(rng)) for _ in range(rng.choice((1, 1, 3, 8)))]
        if rng.random() < 0.5:
            stored += await add_ratings(session, batch)
            await session.commit()
        else:
            stored += await batches.write(batch)
    for rating in rng.sample(stored, len(stored) // 4):
        await archive_rating(session, rating)
        if rng.random() < 0.3:
            await archive_rating(session, rating)  # twice: counted once
        await session.commit()


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_every_answer_equals_a_recount(
    settings: Settings,
    session_maker: async_sessionmaker[AsyncSession],
    tenant: Tenant,
    monkeypatch: pytest.MonkeyPatch,
    seed: int,
) -> None:
    rng = random.Random(seed)
    project = tenant.project
    async with unit_of_work(session_maker) as session:
        batches = rating_batches(settings)
        await populate(session, batches, tenant, rng, monkeypatch)
        await batches.close()
        rows = list(await session.scalars(select(Rating).where(Rating.project_id == project.id)))
        assert any(r.archived for r in rows)
        statistics = RatingStatistics(session, operator_scope(tenant.org_id), project)
        bounds = [(None, None)] + [(random_bound(rng), random_bound(rng)) for _ in range(30)]
        for since, until in bounds:  # (None, None) reads the all-time totals; the rest, day counters
            if since and until and until < since:
                since, until = until, since
            for rating_type in RatingType:
                for path in PATHS:
                    stats = await statistics.stats(rating_type, path, since, until)
                    answer = msgspec.structs.asdict(stats)
                    assert answer == recount(rows, rating_type, path, since, until), (since, until, path)
                    if rating_type == RatingType.HELPFUL:  # most given first, as the recount orders them
                        assert list(answer["reasons"]) == list(
                            recount(rows, rating_type, path, since, until)["reasons"]
                        )

        for rating_type in RatingType:
            for path in PATHS:
                versions = (await statistics.versions(rating_type, path)).versions
                expected = []
                for version in VERSIONS[:-1]:
                    counted_rows = [
                        r
                        for r in rows
                        if (r.rating_type, r.version) == (rating_type, version)
                        and not r.archived
                        and (path is None or r.path == path)
                    ]
                    if counted_rows:
                        first = min(r.created_at for r in counted_rows).date().isoformat()
                        figures = recount(rows, rating_type, path, None, None, version)
                        expected.append({"version": version, "first_seen": first, **figures})
                expected.sort(key=lambda entry: (entry["first_seen"], entry["version"]))
                assert [msgspec.structs.asdict(v) for v in versions] == expected, (rating_type, path)

        for rating_type in RatingType:
            for path in PATHS:
                assert (
                    await statistics.counted_total(rating_type, path)
                    == recount(rows, rating_type, path, None, None)["total"]
                )
            yes = recount(rows, RatingType.HELPFUL, "/a", None, None)["helpful"]
            assert await statistics.counted_total(RatingType.HELPFUL, "/a", value=1) == yes


@pytest.mark.parametrize("interval", ["day", "week"])
async def test_series_points_equal_recounts(
    settings: Settings,
    session_maker: async_sessionmaker[AsyncSession],
    tenant: Tenant,
    monkeypatch: pytest.MonkeyPatch,
    interval: str,
) -> None:
    rng = random.Random(interval)
    project = tenant.project
    step = timedelta(days=7 if interval == "week" else 1)
    async with unit_of_work(session_maker) as session:
        batches = rating_batches(settings)
        await populate(session, batches, tenant, rng, monkeypatch)
        await batches.close()
        rows = list(await session.scalars(select(Rating).where(Rating.project_id == project.id)))
        statistics = RatingStatistics(session, operator_scope(tenant.org_id), project)
        for _ in range(6):
            since = random_moment(rng) - timedelta(days=3)
            until = since + timedelta(days=rng.randrange(1, 20), seconds=rng.randrange(86_400))
            for rating_type in RatingType:
                path = rng.choice(PATHS)
                series = await statistics.series(rating_type, path, since, until, interval)  # type: ignore[arg-type]
                assert series.points
                for point in series.points:
                    start = datetime.fromisoformat(point.start)
                    assert start.weekday() == 0 or interval == "day"
                    fields = msgspec.structs.asdict(point)
                    del fields["start"]
                    expected = recount(rows, rating_type, path, max(start, since), min(start + step, until))
                    assert fields == expected, (point.start, since, until, path)
                covered = sum(p.total for p in series.points)
                assert covered == recount(rows, rating_type, path, since, until)["total"]
