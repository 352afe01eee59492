"""A `hearken run` node on Redis Sentinel (`redis+sentinel://`): the Redis primary is killed under a load
of submissions and console page views; the sentinels promote the replica and the node follows it. The
times measured are printed (`pytest -rP`)."""

from __future__ import annotations

import shutil
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest

from tests.cluster import Node, node_env, wait_for
from tests.faults.conftest import Load, Tenant, stored_marks
from tests.faults.test_cluster_faults import UNLIMITED, sign_up
from tests.local_http import local_http
from tests.redis_sentinels import SentinelGroup, sentinel_programs_missing
from tests.services import services_required

BACK_WITHIN_SECONDS = 5.0
"""After the promotion, how soon the console and the shared Redis must be back."""


@pytest.fixture
def sentinels(tmp_path: Path) -> Iterator[SentinelGroup]:
    if missing := sentinel_programs_missing():
        message = f"needs {', '.join(missing)} (apt-get install redis-sentinel)"
        if services_required():
            pytest.fail(message)
        pytest.skip(message)
    group = SentinelGroup(tmp_path / "redis")
    try:
        yield group.start()
    finally:
        group.stop()
        shutil.rmtree(tmp_path / "redis", ignore_errors=True)


@dataclass
class PageViews:
    """A signed-in member reloading the projects page, each answer's status kept with its time."""

    console: httpx.Client
    views: list[tuple[float, int | None]] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event)

    @contextmanager
    def running(self) -> Iterator[PageViews]:
        worker = threading.Thread(target=self._run, daemon=True)
        worker.start()
        try:
            yield self
        finally:
            self._stop.set()
            worker.join(timeout=30)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                status: int | None = self.console.get("/projects").status_code
            except httpx.HTTPError:
                status = None
            self.views.append((time.monotonic(), status))
            time.sleep(0.05)

    def since(self, moment: float) -> list[int | None]:
        return [status for at, status in self.views if at >= moment]


def script_calls(group: SentinelGroup) -> int:
    """Budget checks the promoted replica ran itself (as a replica it only applied their effects)."""
    with group.replica.client() as client:
        return int(client.info("commandstats").get("cmdstat_evalsha", {}).get("calls", 0))


@pytest.mark.slow
def test_redis_primary_killed_under_load_submissions_and_console_sessions_go_on(
    database_url: str, sentinels: SentinelGroup, tenant: Tenant, tmp_path: Path
) -> None:
    env = node_env(database_url, sentinels.url, **UNLIMITED)
    node = Node(env, tmp_path / "node.log").start()
    try:
        with (
            httpx.Client(base_url=node.url, timeout=30) as console,
            Load(node.url, tenant.project_key) as load,
        ):
            sign_up(console)
            with PageViews(console).running() as pages:
                load.wait_for_answers(200)
                with sentinels.primary.client() as primary:
                    assert primary.wait(1, 2000) == 1  # the session is on the replica too
                sentinels.primary.kill()
                killed = time.monotonic()
                wait_for(
                    lambda: sentinels.sentinels[0].primary_port_now() == sentinels.replica.port,
                    15,
                    "the sentinels promote the replica",
                )
                promoted = time.monotonic()
                wait_for(lambda: pages.since(promoted)[-1:] == [200], BACK_WITHIN_SECONDS, "console pages")
                shared = wait_for(
                    lambda: (
                        local_http.get(node.url + "/readyz", timeout=10).json()["checks"]["redis"] == "ok"
                        and script_calls(sentinels) > 0
                    ),
                    BACK_WITHIN_SECONDS,
                    "the budgets counted on the new primary",
                )
                load.wait_for_answers(200)
                back = time.monotonic()
                pages_before = len(pages.views)
                wait_for(lambda: len(pages.views) > pages_before + 10, 10, "more page views")
        statuses = pages.since(killed)
        failed = [at for at, status in pages.views if at >= killed and status != 200]
        pages_back = (max(failed) if failed else killed) - killed
    finally:
        node.stop()
    print(
        f"promoted {promoted - killed:.2f} s after the kill; console pages failed until "
        f"{pages_back:.2f} s after it; budgets shared again {shared:.2f} s after the promotion; "
        f"{len(load.answers)} submissions, {len(load.acknowledged())} acknowledged"
    )
    assert load.acknowledged() <= stored_marks(database_url)
    assert not [a for a in load.answers if a.status not in (204, 503)]
    assert sum(a.status == 204 for a in load.since(killed)) >= 200
    assert set(statuses) <= {200, 503}  # never a sign-in page: the session outlived its primary
    assert set(pages.since(back)) == {200}
