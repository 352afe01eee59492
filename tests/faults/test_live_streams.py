"""Live streams of a conversation across two `hearken run` nodes: a team message posted on one node
reaches a person's stream held by the other, through Redis pub/sub (behind HAProxy) or PostgreSQL
LISTEN/NOTIFY (no Redis). With the test's own Redis stopped mid-stream, the streams read the database on
a timer instead: nothing is lost, and a stream reopened with `Last-Event-ID` resumes after it."""

from __future__ import annotations

import json
import queue
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlencode

import httpx

from app.db.identity_secret import user_signature
from tests.cluster import Node, PrivateRedis, cluster, node_env, wait_for
from tests.faults.conftest import ORIGIN, Tenant
from tests.faults.test_cluster_faults import UNLIMITED
from tests.local_http import local_http

ARRIVES_WITHIN = 2.0
"""A message on the other side, with the bus up (the promise of live conversations)."""
ARRIVES_WITHOUT_BUS_WITHIN = 8.0
"""With Redis gone: noticed, then read on the streams' timer."""


class Stream:
    """An EventSource-like reader of one stream in a thread: message events land in `events`."""

    def __init__(self, url: str, headers: dict[str, str] | None = None) -> None:
        self.events: queue.Queue[tuple[int, dict[str, str]]] = queue.Queue()
        self.opened = threading.Event()
        self.status = 0
        self._client = httpx.Client(timeout=httpx.Timeout(5, read=60))
        self._thread = threading.Thread(target=self._read, args=(url, headers or {}), daemon=True)
        self._thread.start()
        assert self.opened.wait(15), "the stream did not open"
        assert self.status == 200

    def _read(self, url: str, headers: dict[str, str]) -> None:
        event_id = None
        try:
            with self._client.stream("GET", url, headers={"Origin": ORIGIN, **headers}) as answer:
                self.status = answer.status_code
                self.opened.set()
                for line in answer.iter_lines():
                    if line.startswith("id: "):
                        event_id = int(line[4:])
                    elif line.startswith("data: ") and event_id is not None:
                        self.events.put((event_id, json.loads(line[6:])))
                        event_id = None
        except httpx.HTTPError:
            pass
        finally:
            self.opened.set()

    def next(self, seconds: float) -> tuple[int, dict[str, str]]:
        try:
            return self.events.get(timeout=seconds)
        except queue.Empty:
            raise AssertionError(f"no message within {seconds} s") from None

    def close(self) -> None:
        self._client.close()
        self._thread.join(10)


@contextmanager
def streams(*opened: Stream) -> Iterator[tuple[Stream, ...]]:
    try:
        yield opened
    finally:
        for stream in opened:
            stream.close()


class Conversation:
    """A person's conversation made through the API: their signed feedback, and the team's answers."""

    def __init__(self, base: str, tenant: Tenant, person: str = "ada") -> None:
        self.tenant = tenant
        api = {"X-API-Key": tenant.token}
        project = f"/api/v1/projects/{tenant.project_key}"
        secret = local_http.post(base + project + "/identity-secret", headers=api).json()["secret"]
        self.identity = urlencode(
            {"project_key": tenant.project_key, "user": person, "sig": user_signature(secret, person)}
        )
        sent = local_http.post(base + "/api/v1/feedback/submit", headers={"Origin": ORIGIN}, json={
            "project_key": tenant.project_key, "message": "The export is empty",
            "submitted_by": person, "user_signature": user_signature(secret, person)})  # fmt: skip
        assert sent.status_code == 200, sent.text
        listed = local_http.get(base + f"/api/v1/conversations?{self.identity}", headers={"Origin": ORIGIN})
        self.id = listed.json()["conversations"][0]["id"]
        self.messages = f"{project}/conversations/{self.id}/messages"

    def events(self, base: str) -> str:
        return f"{base}/api/v1/conversations/{self.id}/events?{self.identity}"

    def team_says(self, base: str, text: str) -> int:
        answer = local_http.post(
            base + self.messages, headers={"X-API-Key": self.tenant.token}, json={"message": text}
        )
        assert answer.status_code == 201, answer.text
        return int(answer.json()["id"])


def test_streams_follow_messages_across_nodes_through_redis_and_lose_nothing_while_it_is_down(
    database_url: str, redis_server: PrivateRedis, tenant: Tenant, tmp_path: Path
) -> None:
    env = node_env(database_url, redis_server.url, **UNLIMITED)
    with cluster(env, tmp_path) as balancer:
        first, second = balancer.nodes
        talk = Conversation(first.url, tenant)
        with streams(Stream(talk.events(first.url)), Stream(talk.events(balancer.url))) as (held, proxied):
            sent = talk.team_says(second.url, "Fixed, please try again")
            started = time.monotonic()
            arrived = held.next(ARRIVES_WITHIN)
            assert time.monotonic() - started < ARRIVES_WITHIN
            assert arrived[0] == sent and arrived[1]["from"] == "team"
            assert proxied.next(ARRIVES_WITHIN) == arrived

            redis_server.stop()
            while_down = [talk.team_says(second.url, f"Redis is down {n}") for n in range(2)]
            assert [held.next(ARRIVES_WITHOUT_BUS_WITHIN)[0] for _ in while_down] == while_down
            assert [proxied.next(ARRIVES_WITHOUT_BUS_WITHIN)[0] for _ in while_down] == while_down

            redis_server.start()
            wait_for(
                lambda: local_http.get(second.url + "/readyz").json()["status"] == "ready", 15, "Redis back"
            )
            after = talk.team_says(second.url, "Redis is back")
            assert held.next(ARRIVES_WITHOUT_BUS_WITHIN)[0] == after
        missed = talk.team_says(first.url, "While your tab was closed")
        # An EventSource reconnecting through HAProxy: everything after the last id it saw, and no more.
        with streams(Stream(talk.events(balancer.url), {"Last-Event-ID": str(while_down[-1])})) as (back,):
            assert [back.next(ARRIVES_WITHIN)[0] for _ in range(2)] == [after, missed]
            assert back.events.empty()


def test_streams_follow_messages_across_nodes_through_postgres_without_redis(
    database_url: str, tenant: Tenant, tmp_path: Path
) -> None:
    env = node_env(database_url, "", **UNLIMITED)
    first, second = Node(env, tmp_path / "node1.log"), Node(env, tmp_path / "node2.log")
    try:
        first.launch(), second.launch()
        first.wait_until_up(), second.wait_until_up()
        talk = Conversation(first.url, tenant)
        with streams(Stream(talk.events(first.url))) as (held,):
            sent = [talk.team_says(second.url, f"From the other node {n}") for n in range(2)]
            started = time.monotonic()
            assert [held.next(ARRIVES_WITHIN)[0] for _ in sent] == sent
            assert time.monotonic() - started < ARRIVES_WITHIN
    finally:
        first.stop()
        second.stop()
