"""Live streams (Server-Sent Events) of conversations: how many one server process holds, and how soon a
team message reaches the streams through two nodes behind HAProxy.

Held: one process (uvicorn with uvloop and httptools, PostgreSQL, no Redis: LISTEN/NOTIFY) is sent
HELD streams over PEOPLE identified people's conversations (HELD / PEOPLE tabs each); its resident size
is read before and after, and one team message must still reach every stream of its conversation.
Latency: two `hearken run` nodes and HAProxy (deploy/haproxy.cfg) on PostgreSQL and Redis hold
LATENCY_STREAMS streams, LATENCY_TABS per conversation, opened through HAProxy (so spread over both
nodes); MESSAGES team messages are posted one after another, each to a random conversation through
HAProxy, and the time from the post to the event's arrival is taken at every stream of that
conversation. The client is asyncio over raw sockets (one process, a few kilobytes per stream).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import resource
import statistics
import tempfile
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.config import build_db_config
from app.db.identity_secret import user_signature
from tests import databases
from tests.bench import seed
from tests.bench.servers import Server, start
from tests.cluster import Balancer, Node, node_env
from tests.services import REDIS_URL, reachable

HELD = int(os.environ.get("BENCH_LIVE_STREAMS", "5000"))
PEOPLE = max(1, HELD // 10)
LATENCY_STREAMS = int(os.environ.get("BENCH_LIVE_LATENCY_STREAMS", "1000"))
LATENCY_TABS = 4
MESSAGES = int(os.environ.get("BENCH_LIVE_MESSAGES", "200"))
OPENING = 100
"""Streams being opened at once by the client."""
LIMITS = {
    "HEARKEN_LIVE_STREAMS_PER_PROJECT": "100000",
    "HEARKEN_LIVE_STREAMS_PER_PROCESS": "100000",
    "HEARKEN_RATE_LIMIT_CLIENT": "1000000000/60",
    "HEARKEN_RATE_LIMIT_PROJECT": "1000000000/60",
}


@dataclass
class Stream:
    """One open stream: what arrived (message id -> monotonic time)."""

    conversation: str
    arrivals: dict[int, float] = field(default_factory=dict)
    opened: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None


@dataclass
class Site:
    """The project, its people and their conversations, as the bench set them up."""

    base: str
    project_id: str
    project_key: str
    token: str
    secret: str
    conversations: dict[str, str] = field(default_factory=dict)
    """person -> conversation id"""

    def identity(self, person: str) -> dict[str, str]:
        return {"project_key": self.project_key, "user": person, "sig": user_signature(self.secret, person)}


def _call(method: str, url: str, body: Any = None, headers: dict[str, str] | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers={
        "Content-Type": "application/json", "Origin": seed.ORIGIN, **(headers or {})})  # fmt: skip
    with urllib.request.urlopen(request, timeout=30) as answer:
        text = answer.read()
    return json.loads(text) if text else None


def set_up_site(base: str, project_id: str, project_key: str, token: str, people: int) -> Site:
    """An identity secret, and for each person one identified feedback item: its conversation."""
    auth = {"X-API-Key": token}
    secret = _call("POST", f"{base}/api/v1/projects/{project_id}/identity-secret", headers=auth)["secret"]
    site = Site(base, project_id, project_key, token, secret)
    for number in range(people):
        person = f"person-{number}"
        _call("POST", f"{base}/api/v1/feedback/submit", {
            "project_key": project_key, "message": f"Feedback from {person}",
            "submitted_by": person, "user_signature": user_signature(secret, person)})  # fmt: skip
        listed = _call("GET", f"{base}/api/v1/conversations?{urlencode(site.identity(person))}")
        site.conversations[person] = listed["conversations"][0]["id"]
    return site


async def open_stream(base: str, path: str, stream: Stream) -> None:
    """GET `path` as an EventSource would and note each message event's arrival until cancelled."""
    parts = urlsplit(base)
    reader, writer = await asyncio.open_connection(parts.hostname, parts.port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: {parts.netloc}\r\nAccept: text/event-stream\r\n"
                 f"Origin: {seed.ORIGIN}\r\n\r\n".encode())  # fmt: skip
    head = await reader.readuntil(b"\r\n\r\n")
    if not head.startswith(b"HTTP/1.1 200"):
        raise RuntimeError(f"stream refused: {head[:200]!r}")
    stream.opened.set()
    event_id = None
    try:
        while True:
            line = await reader.readline()
            if not line:
                return
            if line.startswith(b"id: "):
                event_id = int(line[4:].split(b"\r")[0])
            elif line.strip(b"\r\n") == b"" and event_id is not None:
                stream.arrivals.setdefault(event_id, time.monotonic())
                event_id = None
    finally:
        writer.close()


def stream_path(site: Site, person: str) -> str:
    query = urlencode(site.identity(person))
    return f"/api/v1/conversations/{site.conversations[person]}/events?{query}"


async def open_streams(base: str, site: Site, tabs: int) -> list[Stream]:
    """`tabs` streams for each person, OPENING at a time; returns once all are open."""
    streams: list[Stream] = []
    gate = asyncio.Semaphore(OPENING)

    async def one(stream: Stream, path: str) -> None:
        async with gate:
            opening = asyncio.ensure_future(open_stream(base, path, stream))
            waiting = asyncio.ensure_future(stream.opened.wait())
            await asyncio.wait((opening, waiting), return_when=asyncio.FIRST_COMPLETED)
            if opening.done():
                opening.result()  # raises why it failed
            stream.task = opening

    jobs = []
    for person in site.conversations:
        for _ in range(tabs):
            stream = Stream(site.conversations[person])
            streams.append(stream)
            jobs.append(one(stream, stream_path(site, person)))
    await asyncio.gather(*jobs)
    return streams


async def team_message(site: Site, conversation: str) -> tuple[int, float]:
    """Post a team message; its id and when the post was sent."""
    sent = time.monotonic()
    answer = await asyncio.to_thread(
        _call, "POST", f"{site.base}/api/v1/projects/{site.project_id}/conversations/{conversation}/messages",
        {"message": "An answer from the team"}, {"X-API-Key": site.token})  # fmt: skip
    return int(answer["id"]), sent


async def arrival_delays(
    site: Site, streams: list[Stream], messages: int, seconds: float = 10, posts: list[float] | None = None
) -> list[float]:
    """Seconds from each post to its arrival at each stream of its conversation (and in `posts`, how
    long each post took to be answered)."""
    by_conversation: dict[str, list[Stream]] = {}
    for stream in streams:
        by_conversation.setdefault(stream.conversation, []).append(stream)
    rng = random.Random(7)
    delays: list[float] = []
    for _ in range(messages):
        conversation = rng.choice(list(by_conversation))
        message_id, sent = await team_message(site, conversation)
        if posts is not None:
            posts.append(time.monotonic() - sent)
        deadline = time.monotonic() + seconds
        targets = by_conversation[conversation]
        while any(message_id not in s.arrivals for s in targets) and time.monotonic() < deadline:
            await asyncio.sleep(0.005)
        missing = sum(message_id not in s.arrivals for s in targets)
        if missing:
            raise RuntimeError(f"{missing} of {len(targets)} streams did not get message {message_id}")
        delays.extend(s.arrivals[message_id] - sent for s in targets)
    return delays


def close_streams(streams: list[Stream]) -> None:
    for stream in streams:
        if stream.task is not None:
            stream.task.cancel()


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def _held_part(record: Callable[..., None], url: str, tenant: tuple[str, Any]) -> dict[str, Any]:
    token, project = tenant
    env = {"HEARKEN_DATABASE_URL": url, "HEARKEN_SECRET_KEY": "bench-secret-for-the-live-streams-bench",
           "HEARKEN_EMBEDDINGS": "off", "HEARKEN_LIVE_STREAMS_PER_PERSON": "100", **LIMITS}  # fmt: skip
    server: Server = start("app.main:create_app", workers=1, env=env, ready_path="/healthz")
    try:
        site = await asyncio.to_thread(
            set_up_site, server.url, str(project.id), str(project.key), token, PEOPLE
        )
        before = server.worker_rss_mb()[0]
        started = time.monotonic()
        streams = await open_streams(server.url, site, HELD // PEOPLE)
        opening = time.monotonic() - started
        await asyncio.sleep(2)
        after = server.worker_rss_mb()[0]
        delays = await arrival_delays(site, streams, 5)
        close_streams(streams)
    finally:
        server.stop()
    growth = after - before
    per_stream_kb = growth * 1024 / len(streams)
    record(f"live streams held by one process (PostgreSQL, {len(streams):,} streams)",
           f"RSS {before:.0f} -> {after:.0f} MB (+{growth:.0f} MB, {per_stream_kb:.1f} KB a stream); "
           f"opened in {opening:.1f} s; a message still reaches its streams in {max(delays) * 1000:.0f} ms",
           "(aim: 5,000 streams, growth <= 100 MB)")  # fmt: skip
    return {"streams": len(streams), "rss_before_mb": before, "rss_after_mb": after,
            "growth_mb": growth, "kb_per_stream": per_stream_kb, "open_seconds": opening}  # fmt: skip


async def _latency_part(record: Callable[..., None], url: str, tenant: tuple[str, Any]) -> dict[str, Any]:
    token, project = tenant
    prefix = f"hearken-bench-live-{os.getpid()}:"
    env = node_env(url, REDIS_URL, HEARKEN_REDIS_PREFIX=prefix, HEARKEN_LOG_LEVEL="warning", **LIMITS)
    folder = Path(tempfile.mkdtemp(prefix="hearken-bench-live-"))
    first, second = Node(env, folder / "node1.log"), Node(env, folder / "node2.log")
    balancer = Balancer((first, second))
    try:
        first.launch(), second.launch()
        first.wait_until_up(), second.wait_until_up()
        balancer.start()
        people = LATENCY_STREAMS // LATENCY_TABS
        # the people of the held part: their conversations exist, the secret is rotated anew
        site = await asyncio.to_thread(set_up_site, balancer.url, str(project.id), str(project.key), token, 0)
        site.conversations = {}
        for number in range(people):
            person = f"person-{number}"
            listed = await asyncio.to_thread(
                _call, "GET", f"{balancer.url}/api/v1/conversations?{urlencode(site.identity(person))}"
            )
            site.conversations[person] = listed["conversations"][0]["id"]
        streams = await open_streams(balancer.url, site, LATENCY_TABS)
        await asyncio.sleep(1)
        posts: list[float] = []
        delays = await arrival_delays(site, streams, MESSAGES, posts=posts)
        close_streams(streams)
    finally:
        balancer.stop()
        first.stop()
        second.stop()
    p50, p99 = _percentile(delays, 0.5) * 1000, _percentile(delays, 0.99) * 1000
    record(f"live: team message to its streams, {len(streams):,} streams on 2 nodes behind HAProxy (Redis)",
           f"p50 {p50:.0f} ms, p99 {p99:.0f} ms, max {max(delays) * 1000:.0f} ms over {len(delays):,} "
           f"arrivals of {MESSAGES} messages (the post itself answered in p50 "
           f"{statistics.median(posts) * 1000:.0f} ms)", "(aim: p99 <= 500 ms)")  # fmt: skip
    return {"streams": len(streams), "messages": MESSAGES, "arrivals": len(delays),
            "p50_ms": p50, "p99_ms": p99, "max_ms": max(delays) * 1000,
            "post_p50_ms": statistics.median(posts) * 1000}  # fmt: skip


def live_part(record: Callable[..., None]) -> dict[str, Any]:
    if not (reachable("127.0.0.1", 5432) and reachable("127.0.0.1", 6379)):
        raise SystemExit("BENCH_ONLY=live needs PostgreSQL and Redis on 127.0.0.1")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 2 * HELD + 1000)), hard))
    url = databases.postgres_create()

    async def run() -> dict[str, Any]:
        config = build_db_config(Settings(database_url=url, secret_key="bench"))
        maker: async_sessionmaker[AsyncSession] = config.create_session_maker()
        token, projects = await seed.tenant(maker)
        await config.get_engine().dispose()
        tenant = (token, projects[0])
        held = await _held_part(record, url, tenant)
        latency = await _latency_part(record, url, tenant)
        return {"held": held, "latency": latency}

    try:
        return asyncio.run(run())
    finally:
        databases.postgres_drop(url)
