"""The ideas portal under load, on PostgreSQL (2 workers, Redis): the portal's list page and JSON list
with 10,000 ideas and 1,000,000 votes, vote submits beside rating submits in the same run, and the
page's weight.

Seeding: 10,000 ideas and 1,000,000 votes (skewed: a few ideas hold most votes, as on a real board) are
written by INSERT ... SELECT over generate_series, then each idea's kept vote count is set from a
recount, as the application keeps it. List: one wrk connection after a warm-up, p50 and p99. Votes: each
request is a new (person, idea) pair among 4,000 people signed with the project's identity secret and
the 200 most voted ideas (so every vote inserts a row and moves a kept count under contention), against
rating submits, alternated round by round at CONNECTIONS. Weight: the list page's HTML, CSS and script
(the suggest page's only script) each gzipped, summed.
"""

from __future__ import annotations

import asyncio
import gzip
import statistics
import time
import urllib.request
from collections.abc import Callable
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.config import build_db_config
from app.db.identity_secret import identity_box, user_signature
from app.db.models import Project
from app.db.transactions import unit_of_work
from app.schemas.portal import PortalPatch, apply_portal
from app.services.projects import Projects
from tenants.scope import operator_scope
from tests import databases
from tests.bench import seed
from tests.bench.load import LoadResult, get_script, wrk
from tests.bench.servers import Server, start

IDEAS = 10_000
VOTES = 1_000_000
PEOPLE = 4_000
VOTED_IDEAS = 200
CONNECTIONS = 64
LATENCY_CONNECTIONS = 8
SECRET_KEY = "bench-secret"


async def _seed(session_maker: async_sessionmaker[AsyncSession], project: Project) -> tuple[str, list[str]]:
    """The portal on, an identity secret, IDEAS ideas and VOTES votes; returns the secret and the ids of
    the most voted ideas."""
    async with unit_of_work(session_maker) as session:
        await session.execute(text("SET LOCAL statement_timeout = 0"))  # a bulk load, not a request
        found = await session.get(Project, project.id)
        assert found is not None
        apply_portal(found, PortalPatch(enabled=True, title="Bench ideas", auto_approve=True))
        secret = await Projects(session, operator_scope(found.org_id)).rotate_identity_secret(
            found, identity_box(SECRET_KEY)
        )
        params = {"pid": project.id, "ideas": IDEAS, "votes": VOTES}
        await session.execute(
            text(
                "INSERT INTO ideas (id, project_id, title, body, status, vote_count, comment_count, "
                "demand_count, pinned, spam, author_key, author_name, author_language, created_at, "
                "updated_at) SELECT gen_random_uuid(), :pid, 'Idea number ' || g, "
                "'What idea ' || g || ' would change', "
                "(ARRAY['open','open','open','planned','in_progress','done','declined'])[1 + g % 7], "
                "0, 0, 0, "
                "false, false, 'u:author-' || g, 'Author ' || g, 'en', "
                "now() - make_interval(mins => g), now() FROM generate_series(1, :ideas) g"
            ),
            params,
        )
        await session.execute(
            text(
                "CREATE TEMP TABLE bench_ideas ON COMMIT DROP AS SELECT id, "
                "(row_number() OVER (ORDER BY id) - 1)::int AS n FROM ideas WHERE project_id = :pid"
            ),
            params,
        )
        await session.execute(
            text(
                "INSERT INTO idea_votes (idea_id, voter_key, project_id, name, email, language, created_at) "
                "SELECT b.id, 'u:seed-' || v.g, :pid, '', NULL, 'en', now() "
                "FROM (SELECT g, floor(:ideas * power(random(), 3))::int AS n "
                "FROM generate_series(1, :votes) g) v JOIN bench_ideas b USING (n)"
            ),
            params,
        )
        await session.execute(
            text(
                "UPDATE ideas SET vote_count = c.count FROM (SELECT idea_id, count(*) FROM idea_votes "
                "WHERE project_id = :pid GROUP BY idea_id) c WHERE ideas.id = c.idea_id"
            ),
            params,
        )
        top = await session.scalars(
            text(
                "SELECT id::text FROM ideas WHERE project_id = :pid AND status <> 'declined' "
                "ORDER BY vote_count DESC LIMIT :n"
            ),
            {"pid": project.id, "n": VOTED_IDEAS},
        )
        ideas = list(top)
        await session.commit()
    return secret, ideas


def _vote_script(project_key: str, secret: str, ideas: list[str]) -> str:
    """PUT .../vote for a new (person, idea) pair each request; each wrk thread starts elsewhere."""
    signatures = ",".join(f'"{user_signature(secret, f"bench-{u}")}"' for u in range(PEOPLE))
    idea_ids = ",".join(f'"{idea}"' for idea in ideas)
    return f"""
wrk.method = "PUT"
local sigs = {{{signatures}}}
local ideas = {{{idea_ids}}}
local threads = 0
function setup(thread)
  thread:set("offset", threads * {len(ideas) * 1009})
  threads = threads + 1
end
function init(args)
  n = offset or 0
end
request = function()
  n = n + 1
  local i = n % {len(ideas)}
  local u = math.floor(n / {len(ideas)}) % {PEOPLE}
  local path = "/api/v1/portal/{project_key}/ideas/" .. ideas[i + 1]
    .. "/vote?user=bench-" .. u .. "&sig=" .. sigs[u + 1]
  return wrk.format(nil, path)
end
"""


def _get(server: Server, path: str, gzipped: bool = False) -> bytes:
    request = urllib.request.Request(server.url + path, headers={"Accept-Encoding": "identity"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        body: bytes = answer.read()
    return gzip.compress(body, 9) if gzipped else body


def _latency(
    record: Callable[..., None], server: Server, path: str, name: str, seconds: int
) -> dict[str, Any]:
    script = get_script(path, {})
    wrk(server.url + path, script=script, connections=1, seconds=1)  # warm-up of each worker
    result = wrk(server.url + path, script=script, connections=1, seconds=seconds)
    if result.non_2xx or result.errors:
        raise SystemExit(f"GET {path} failed: {result}")
    record(
        f"{name} ({IDEAS:,} ideas, {VOTES:,} votes, wrk 1 connection)",
        f"p50 {result.p50_ms:.2f} ms, p99 {result.p99_ms:.2f} ms, {result.rps:,.0f} req/s",
        "(aim p50 <= 30 ms)",
    )
    return {"p50_ms": result.p50_ms, "p99_ms": result.p99_ms, "rps": result.rps}


def _submits(
    record: Callable[..., None], scripts: dict[str, tuple[str, str]], rounds: int, seconds: int
) -> dict[str, Any]:
    for url, script in scripts.values():
        wrk(url, script=script, connections=CONNECTIONS, seconds=2)  # warm-up
    runs: dict[str, list[LoadResult]] = {name: [] for name in scripts}
    for round_ in range(rounds):
        for name in list(scripts) if round_ % 2 == 0 else list(reversed(scripts)):
            url, script = scripts[name]
            result = wrk(url, script=script, connections=CONNECTIONS, seconds=seconds)
            if result.non_2xx:
                raise SystemExit(f"{name} submit failed: {result}")
            runs[name].append(result)
    latency = {
        name: wrk(url, script=script, connections=LATENCY_CONNECTIONS, seconds=seconds)
        for name, (url, script) in scripts.items()
    }
    figures = {
        name: {
            "rps": statistics.median(run.rps for run in runs[name]),
            "p99_ms_at_c64": statistics.median(run.p99_ms for run in runs[name]),
            "p50_ms": latency[name].p50_ms,
            "p99_ms": latency[name].p99_ms,
        }
        for name in scripts
    }
    ratio = figures["vote"]["rps"] / figures["rating"]["rps"]
    record(
        f"PostgreSQL, 2 workers: rating / vote submit (c={CONNECTIONS}, median of {rounds} rounds)",
        f"{figures['rating']['rps']:,.0f} / {figures['vote']['rps']:,.0f} req/s, "
        f"vote = {ratio:.0%} of rating; "
        f"p99 {figures['rating']['p99_ms_at_c64']:.1f} / {figures['vote']['p99_ms_at_c64']:.1f} ms",
    )
    for name in scripts:
        record(
            f"PostgreSQL, 2 workers: {name} submit latency (c={LATENCY_CONNECTIONS})",
            f"p50 {figures[name]['p50_ms']:.2f} ms, p99 {figures[name]['p99_ms']:.2f} ms",
        )
    figures["ratio"] = ratio
    return figures


def ideas_part(
    record: Callable[..., None],
    app_env: Callable[[str, bool], dict[str, str]],
    rating_script: Callable[[str], str],
    rounds: int,
    seconds: int,
) -> dict[str, Any]:
    url = databases.postgres_create()
    config = build_db_config(Settings(database_url=url, secret_key=SECRET_KEY))
    session_maker = config.create_session_maker()
    figures: dict[str, Any] = {}
    try:
        _, (small, large, _) = asyncio.run(seed.tenant(session_maker))
        started = time.monotonic()
        secret, ideas = asyncio.run(_seed(session_maker, large))
        databases.analyze(url)
        record(
            f"seeded {IDEAS:,} ideas and {VOTES:,} votes (INSERT ... SELECT)",
            f"{time.monotonic() - started:.0f} s",
        )
        env = {**app_env(url, True), "HEARKEN_SECRET_KEY": SECRET_KEY}
        server = start("app.main:create_app", workers=2, env=env)
        try:
            base = f"/p/{large.key}"
            figures["list_page"] = _latency(record, server, base, "portal list page (top)", seconds)
            figures["list_new"] = _latency(
                record, server, f"{base}?sort=new", "portal list page (new)", seconds
            )
            figures["list_trending"] = _latency(
                record, server, f"{base}?sort=trending", "portal list page (trending)", seconds
            )
            figures["list_json"] = _latency(
                record, server, f"/api/v1/portal/{large.key}/ideas", "portal JSON list (top)", seconds
            )
            page = _get(server, base, gzipped=True)
            css = _get(server, "/static/portal/portal.css", gzipped=True)
            script = _get(server, "/static/portal/portal.js", gzipped=True)
            total = len(page) + len(css) + len(script)
            figures["weight"] = {"html": len(page), "css": len(css), "js": len(script), "total": total}
            record(
                "portal page weight, gzip (list HTML + CSS + script)",
                f"{len(page):,} + {len(css):,} + {len(script):,} = {total:,} bytes ({total / 1024:.1f} KiB)",
                "(aim <= 30 KiB)",
            )
            figures["submit"] = _submits(
                record,
                {
                    "rating": (server.url + "/api/v1/rating/submit", rating_script(str(small.key))),
                    "vote": (server.url + "/", _vote_script(str(large.key), secret, ideas)),
                },
                rounds,
                seconds,
            )
        finally:
            server.stop()
    finally:
        asyncio.run(config.get_engine().dispose())
        databases.postgres_drop(url)
    return figures
