"""Alerts on a synthetic year: one project's hourly answers on four pages and its star ratings, with daily
and weekly swings, feedback in five themes, and injected episodes of known start: a page's helpful share
falling (0.8 to 0.45 for three days), negative answers surging (+5 an hour for six hours) and a theme
surging (+5 items an hour for six hours). The real check runs at every hour of a fixed clock over the
counters (and the themes through the insights service), as the periodic loop would; an episode starts at
a random minute, so the check meets it at any phase of its hour, as the loop (about once an hour per
project, at whatever minute its last check was) does.

Printed: the share of injected episodes that opened an alert of their kind and subject, alerts that no
episode explains per project-month, the median hours from an episode's start to its alert (per kind), and
the check's cost per project (ms and queries). Seeds: BENCH_ALERT_SEEDS (TUNED_SEED is the one the
windows and thresholds were chosen on), days: BENCH_ALERT_DAYS. An alert counts for an episode when it
opens between the episode's start and two days after its end; an alert that opens outside every
episode's window (quiet noise) is a false one."""

from __future__ import annotations

import asyncio
import math
import os
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import event, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from uuid_utils.compat import uuid7

from app.alerts.checks import check_project
from app.config import Settings
from app.db.config import build_db_config
from app.db.models import Alert, FeedbackEmbedding, FeedbackItem, Project, Theme
from app.db.transactions import unit_of_work
from tests import databases
from tests.alert_counts import count_answers
from tests.factories import make_tenant

START = datetime(2026, 1, 1, tzinfo=UTC)
PAGES = {"/docs/install": 0.8, "/docs/api": 0.72, "/docs/faq": 0.85, "/guide/start": 0.78}
PAGE_RATE = 1.5
"""Helpful answers per page per hour at the daily mean."""
STAR_RATE = 4.0
THEMES = 5
THEME_RATE = 0.5
"""Items per theme per day."""
SURGE = 5
EPISODE_HOURS = 6
DROP_DAYS = 3
WARM_UP = timedelta(days=35)
HOUR = timedelta(hours=1)
TUNED_SEED = 1
"""The seed the thresholds and windows were chosen on; the others only report."""


@dataclass
class Episode:
    kind: str
    subject: str
    start: datetime
    end: datetime
    alerted_at: datetime | None = None


def swing(moment: datetime) -> float:
    """Daily and weekly seasonality around 1: busiest mid-afternoon UTC, quieter at weekends."""
    daily = 1 + 0.6 * math.sin(2 * math.pi * (moment.hour - 9) / 24)
    return daily * (0.6 if moment.weekday() >= 5 else 1.15)


def poisson(rng: random.Random, rate: float) -> int:
    limit, k, product = math.exp(-rate), 0, rng.random()
    while product > limit:
        k += 1
        product *= rng.random()
    return k


def episodes_of(rng: random.Random, days: int) -> list[Episode]:
    """About two episodes of each kind a month, after the warm-up, never overlapping."""
    found: list[Episode] = []
    moment = START + WARM_UP
    end = START + timedelta(days=days)
    kinds = ["rating_drop", "negative_spike", "theme_surge"]
    while True:
        moment += timedelta(days=rng.uniform(4, 8), hours=rng.randrange(24))
        kind = rng.choice(kinds)
        length = timedelta(days=DROP_DAYS) if kind == "rating_drop" else timedelta(hours=EPISODE_HOURS)
        if moment + length + timedelta(days=3) > end:
            return found
        subject = (
            rng.choice(list(PAGES)) if kind == "rating_drop" else "theme 0" if kind == "theme_surge" else ""
        )
        start = moment.replace(minute=rng.randrange(60))
        found.append(Episode(kind, subject, start, start + length))
        moment += length


async def simulate(url: str, seed: int, days: int) -> dict[str, Any]:
    rng = random.Random(seed)
    settings = Settings(database_url=url, secret_key="bench", embeddings="off", periodic_jobs=False)
    config = build_db_config(settings)
    session_maker: async_sessionmaker[AsyncSession] = config.create_session_maker()
    engine = config.get_engine()
    queries = [0]

    @event.listens_for(engine.sync_engine, "before_cursor_execute")
    def counted(*_: Any) -> None:
        queries[0] += 1

    tenant = await make_tenant(session_maker, name=f"Alerts bench {seed}")
    pid = tenant.project.id
    async with unit_of_work(session_maker) as session:
        themes = [
            Theme(id=uuid7(), project_id=pid, label=f"theme {i}", keywords=[f"k{i}"]) for i in range(THEMES)
        ]
        session.add_all(themes)
    episodes = episodes_of(rng, days)
    costs: list[tuple[float, int]] = []
    moment = START
    while moment < START + timedelta(days=days):
        active = [e for e in episodes if e.start < moment + HOUR and moment < e.end]
        async with unit_of_work(session_maker) as session:
            await _one_hour(session, rng, pid, themes, moment, active)
        moment += timedelta(hours=1)
        if moment < START + WARM_UP:
            continue
        before = queries[0]
        started = time.perf_counter()
        async with unit_of_work(session_maker) as session:
            project = await session.get_one(Project, pid)
            await check_project(session, project, moment)
        costs.append(((time.perf_counter() - started) * 1000, queries[0] - before))
    async with session_maker() as session:
        alerts = list(await session.scalars(select(Alert).where(Alert.project_id == pid)))
    await engine.dispose()
    return _score(alerts, episodes, themes, days, costs)


async def _one_hour(
    session: AsyncSession,
    rng: random.Random,
    pid: Any,
    themes: list[Theme],
    moment: datetime,
    active: list[Episode],
) -> None:
    """The hour from `moment`: its answers, counted at `moment` (a check at the hour's end sees them),
    and its feedback items at their minutes. An episode starts at its own minute: within its first and
    last hour only the minutes it covers have its answers and items."""
    level = swing(moment)

    def during(kind: str, minute: int, subject: str | None = None) -> bool:
        at = moment + timedelta(minutes=minute)
        return any(e.kind == kind and subject in (None, e.subject) and e.start <= at < e.end for e in active)

    for path, share in PAGES.items():
        total = poisson(rng, PAGE_RATE * level)
        minutes = [rng.randrange(60) for _ in range(total)]
        yes = sum(rng.random() < (0.45 if during("rating_drop", m, path) else share) for m in minutes)
        await count_answers(
            session, pid, moment, {("helpful", 1): yes, ("helpful", 0): total - yes}, path=path
        )
    counts: dict[tuple[str, int], int] = {}
    for _ in range(poisson(rng, STAR_RATE * level)):
        value = rng.choices([5, 4, 3, 2, 1], [0.5, 0.25, 0.13, 0.06, 0.06])[0]
        counts[("star", value)] = counts.get(("star", value), 0) + 1
    extra = [m for m in range(60) if during("negative_spike", m)]
    if extra:
        counts[("star", 1)] = counts.get(("star", 1), 0) + poisson(rng, SURGE * len(extra) / 60)
    await count_answers(session, pid, moment, counts, scale=5)
    surging = [m for m in range(60) if during("theme_surge", m)]
    for index, theme in enumerate(themes):
        minutes = [rng.randrange(60) for _ in range(poisson(rng, THEME_RATE / 24 * level))]
        if index == 0 and surging:
            minutes += [rng.choice(surging) for _ in range(poisson(rng, SURGE * len(surging) / 60))]
        for minute in minutes:
            at = moment + timedelta(minutes=minute, seconds=rng.randrange(60))
            item = FeedbackItem(id=uuid7(), project_id=pid, message=f"{theme.label} says", created_at=at)
            session.add(item)
            await session.flush()
            session.add(FeedbackEmbedding(id=item.id, project_id=pid, theme_id=theme.id))


def _matches(alert: Alert, episode: Episode, themes: list[Theme]) -> bool:
    if alert.kind != episode.kind:
        return False
    if episode.kind == "rating_drop":
        return alert.subject.get("path") == episode.subject
    if episode.kind == "theme_surge":
        return alert.subject.get("theme_id") == str(themes[0].id)
    return True


def _score(
    alerts: list[Alert],
    episodes: list[Episode],
    themes: list[Theme],
    days: int,
    costs: list[tuple[float, int]],
) -> dict[str, Any]:
    explained: set[Any] = set()
    for episode in episodes:
        for alert in sorted(alerts, key=lambda a: a.opened_at):
            if episode.start <= alert.opened_at <= episode.end + timedelta(days=2):
                explained.add(alert.id)  # not quiet noise: a page falling also spikes negative answers
                if _matches(alert, episode, themes):
                    episode.alerted_at = episode.alerted_at or alert.opened_at
    false = [a for a in alerts if a.id not in explained]
    months = (days - WARM_UP.days) / 30
    delays: dict[str, list[float]] = {}
    for episode in episodes:
        if episode.alerted_at is not None:
            delays.setdefault(episode.kind, []).append(
                (episode.alerted_at - episode.start).total_seconds() / 3600
            )
    return {
        "episodes": len(episodes),
        "detection_rate": round(sum(e.alerted_at is not None for e in episodes) / max(len(episodes), 1), 3),
        "false_per_month": round(len(false) / months, 3),
        "false_by_kind": {
            k: sum(a.kind == k for a in false) for k in ("rating_drop", "negative_spike", "theme_surge")
        },
        "median_delay_hours": {k: round(statistics.median(v), 1) for k, v in sorted(delays.items())},
        "surge_delays_hours": sorted(round(d, 1) for d in delays.get("theme_surge", [])),
        "check_ms_median": round(statistics.median(c[0] for c in costs), 2),
        "check_ms_p95": round(sorted(c[0] for c in costs)[int(len(costs) * 0.95)], 2),
        "check_queries_median": statistics.median(c[1] for c in costs),
    }


def alerts_part(record: Callable[..., None]) -> dict[str, Any]:
    seeds = [int(s) for s in os.environ.get("BENCH_ALERT_SEEDS", "1,2,3").split(",")]
    days = int(os.environ.get("BENCH_ALERT_DAYS", "365"))
    results = {}
    for seed in seeds:
        with tempfile.TemporaryDirectory() as folder:
            url = f"sqlite+aiosqlite:///{Path(folder) / 'alerts.db'}"
            databases.migrate(url)
            figures = asyncio.run(simulate(url, seed, days))
        results[str(seed)] = figures
        tuned = " (tuned on)" if seed == TUNED_SEED else ""
        record(f"alerts seed {seed}{tuned}: detection rate", str(figures["detection_rate"]), "(aim >= 0.9)")
        record(
            f"alerts seed {seed}: false alerts per project-month",
            str(figures["false_per_month"]),
            "(aim <= 0.5)",
        )
        record(
            f"alerts seed {seed}: median delay, hours",
            str(figures["median_delay_hours"]),
            "(surges aim <= 2)",
        )
        record(
            f"alerts seed {seed}: check per project",
            f"{figures['check_ms_median']} ms median, {figures['check_ms_p95']} ms p95, "
            f"{figures['check_queries_median']} queries",
        )
        print(seed, figures, flush=True)
    return results
