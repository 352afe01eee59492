"""Two `hearken run` nodes behind HAProxy (deploy/haproxy.cfg) on a PostgreSQL and a Redis of the
test's own, through the faults of a real deployment. Conditions are polled with deadlines, never slept
for: the deadlines are the promises (503 within 10 s, recovery within 5 s). A frozen service (SIGSTOP:
its port accepts connections, nothing is answered) is continued on the way out whatever happened; the
frozen tests print the times they measured (`pytest -rP`)."""

from __future__ import annotations

import re
import signal
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

from tests.cluster import Balancer, PrivatePostgres, PrivateRedis, cluster, node_env, wait_for
from tests.faults.conftest import Load, Tenant, hearken_cli, stored_marks, timed
from tests.local_http import local_http

CSRF_FIELD = re.compile(r'name="_csrf_token" value="([^"]+)"')
UNLIMITED = {"HEARKEN_RATE_LIMIT_CLIENT": "100000000/60", "HEARKEN_RATE_LIMIT_PROJECT": "100000000/60"}


def sign_up(client: httpx.Client) -> None:
    """A new organization's owner, signed in to the console on `client`."""
    page = client.get("/signup")
    form = {
        "_csrf_token": CSRF_FIELD.search(page.text).group(1),  # type: ignore[union-attr]
        "org_name": "Cluster",
        "email": "someone@cluster.example",
        "password": "a long enough password",
    }
    assert client.post("/signup", data=form).status_code in (200, 302, 303)


def test_two_nodes_share_sessions_rate_limits_and_cache_invalidation(
    database_url: str, redis_server: PrivateRedis, tenant: Tenant, tmp_path: Path
) -> None:
    env = node_env(database_url, redis_server.url, HEARKEN_RATE_LIMIT_CLIENT="4/60")
    with cluster(env, tmp_path) as balancer, httpx.Client(base_url=balancer.url) as client:
        # A console session made on one node is honoured by the other (round robin, no stickiness).
        sign_up(client)
        for _ in range(4):
            assert client.get("/projects").status_code == 200

        # One budget for the client, whichever node counts it.
        body = {"project_key": tenant.project_key, "value": True, "path": "/p"}
        visitor = {"Origin": "https://site.example", "X-Forwarded-For": "203.0.113.7"}
        statuses = [
            client.post("/api/v1/rating/submit", json=body, headers=visitor).status_code for _ in range(6)
        ]
        assert statuses == [204] * 4 + [429] * 2

        # A token revoked by an operator stops working on every node at once.
        api = {"X-API-Key": tenant.token}
        assert [client.get("/api/v1/projects", headers=api).status_code for _ in range(2)] == [200, 200]
        hearken_cli(env, "tokens", "revoke", "--id", tenant.token_id)
        assert [client.get("/api/v1/projects", headers=api).status_code for _ in range(2)] == [401, 401]


def test_kill_9_of_a_node_under_load_loses_no_acknowledged_submission(
    database_url: str, redis_server: PrivateRedis, tenant: Tenant, tmp_path: Path
) -> None:
    env = node_env(database_url, redis_server.url, **UNLIMITED)
    with cluster(env, tmp_path) as balancer, Load(balancer.url, tenant.project_key) as load:
        load.wait_for_answers(200)
        balancer.nodes[0].signal(signal.SIGKILL)
        killed = time.monotonic()
        wait_for(
            lambda: sum(a.status == 204 for a in load.since(killed + 2)) >= 100, 20, "the other node serves"
        )
    assert load.acknowledged() <= stored_marks(database_url)
    assert not [a for a in load.answers if a.status == 500]


def test_sigterm_under_load_answers_what_it_acknowledged_and_exits_0(
    database_url: str, redis_server: PrivateRedis, tenant: Tenant, tmp_path: Path
) -> None:
    env = node_env(database_url, redis_server.url, **UNLIMITED)
    with cluster(env, tmp_path) as balancer, Load(balancer.url, tenant.project_key) as load:
        load.wait_for_answers(200)
        assert balancer.nodes[0].signal(signal.SIGTERM) == 0
        load.wait_for_answers(100)
    assert load.acknowledged() <= stored_marks(database_url)
    assert not [a for a in load.answers if a.status == 500]


def test_postgres_stopped_under_load_answers_503_then_recovers_without_restart(
    database_url: str, postgres: PrivatePostgres, redis_server: PrivateRedis, tenant: Tenant, tmp_path: Path
) -> None:
    env = node_env(database_url, redis_server.url, **UNLIMITED)
    with cluster(env, tmp_path) as balancer, Load(balancer.url, tenant.project_key) as load:
        load.wait_for_answers(200)
        stopped = time.monotonic()
        postgres.stop("fast")
        wait_for(
            lambda: any(a.status == 503 and a.error == "unavailable" for a in load.since(stopped)),
            10,
            "503 unavailable after PostgreSQL stopped",
        )
        load.wait_for_answers(50)
        postgres.start()
        started = time.monotonic()
        recovered = wait_for(
            lambda: any(a.status == 204 for a in load.since(started)), 5, "submissions stored again"
        )
        load.wait_for_answers(100)
        api = local_http.get(balancer.url + "/api/v1/projects", headers={"X-API-Key": tenant.token})
    during = load.since(stopped)
    assert not [a for a in during if a.status == 500 or a.status is None]
    assert max(a.seconds for a in during) < 10
    assert {a.error for a in during if a.status != 204} <= {"unavailable"}
    assert recovered < 5
    assert api.status_code == 200
    assert load.acknowledged() <= stored_marks(database_url)


def test_redis_stopped_submissions_go_on_and_readiness_says_so(
    database_url: str, redis_server: PrivateRedis, tenant: Tenant, tmp_path: Path
) -> None:
    env = node_env(database_url, redis_server.url, **UNLIMITED)
    with cluster(env, tmp_path) as balancer, Load(balancer.url, tenant.project_key) as load:
        nodes = balancer.nodes
        load.wait_for_answers(100)
        redis_server.stop()
        stopped = time.monotonic()
        wait_for(
            lambda: sum(a.status == 204 for a in load.since(stopped + 1)) >= 100, 15, "stored without Redis"
        )
        for node in nodes:
            ready = local_http.get(node.url + "/readyz", timeout=10).json()
            assert ready["status"] == "degraded"
            assert ready["checks"]["redis"] == "unavailable"
        redis_server.start()
        for node in nodes:
            wait_for(
                lambda node=node: (
                    local_http.get(node.url + "/readyz", timeout=10).json()["status"] == "ready"
                ),
                10,
                "readiness once Redis is back",
            )
        returned = time.monotonic()
        load.wait_for_answers(100)
        api = local_http.get(balancer.url + "/api/v1/projects", headers={"X-API-Key": tenant.token})
    assert api.status_code == 200
    assert not [a for a in load.answers if a.status != 204]
    assert any(a.status == 204 for a in load.since(returned))
    assert load.acknowledged() <= stored_marks(database_url)


def all_at_once(
    balancer: Balancer, api: dict[str, str], console: httpx.Client
) -> list[tuple[httpx.Response, float]]:
    """An API read, a console page and each node's readiness, asked together, with how long each took."""
    asks: list[Callable[[], httpx.Response]] = [
        lambda: local_http.get(balancer.url + "/api/v1/projects", headers=api, timeout=30),
        lambda: console.get("/projects"),
        *(lambda n=node: local_http.get(n.url + "/readyz", timeout=30) for node in balancer.nodes),
    ]
    with ThreadPoolExecutor() as pool:
        return list(pool.map(timed, asks))


def test_postgres_frozen_under_load_answers_503_within_10_s_then_recovers_without_restart(
    database_url: str,
    postgres: PrivatePostgres,
    redis_server: PrivateRedis,
    tenant: Tenant,
    tmp_path: Path,
) -> None:
    env = node_env(database_url, redis_server.url, **UNLIMITED)
    api = {"X-API-Key": tenant.token}
    with (
        cluster(env, tmp_path) as balancer,
        httpx.Client(base_url=balancer.url, timeout=30) as console,
        Load(balancer.url, tenant.project_key) as load,
    ):
        sign_up(console)
        load.wait_for_answers(200)
        with postgres.frozen():
            frozen = time.monotonic()
            first_503 = wait_for(
                lambda: any(a.status == 503 and a.error == "unavailable" for a in load.since(frozen)),
                10,
                "503 unavailable after PostgreSQL froze",
            )
            read, page, *readiness = all_at_once(balancer, api, console)
        thawed = time.monotonic()
        recovered = wait_for(
            lambda: any(a.status == 204 for a in load.since(thawed)), 5, "submissions stored again"
        )
        load.wait_for_answers(100)
        after = [
            local_http.get(balancer.url + "/api/v1/projects", headers=api, timeout=10).status_code,
            console.get("/projects").status_code,
        ]
    during = load.since(frozen)
    slowest = max(a.seconds for a in during)
    print(f"first 503 {first_503:.2f} s after the freeze, slowest answer {slowest:.2f} s, stored again "
          f"{recovered:.2f} s after the thaw")  # fmt: skip
    assert not [a for a in during if a.status == 500 or a.status is None]
    assert slowest < 10
    assert {a.error for a in during if a.status != 204} <= {"unavailable"}
    for response, seconds in [read, page, *readiness]:
        assert (response.status_code, seconds < 10) == (503, True)
    assert read[0].json()["error"] == "unavailable"
    assert "unavailable" in page[0].text  # a page, or the deadline's JSON when the query itself hung
    assert after == [200, 200]
    assert load.acknowledged() <= stored_marks(database_url)


def test_redis_frozen_submissions_go_on_with_per_process_limits_and_readiness_says_so(
    database_url: str,
    redis_server: PrivateRedis,
    tenant: Tenant,
    tmp_path: Path,
) -> None:
    env = node_env(database_url, redis_server.url, **{**UNLIMITED, "HEARKEN_RATE_LIMIT_CLIENT": "4/60"})
    visitor = {"Origin": "https://site.example", "X-Forwarded-For": "203.0.113.7"}
    api = {"X-API-Key": tenant.token}

    def submit_times(url: str, times: int, headers: dict[str, str]) -> list[int]:
        body = {"project_key": tenant.project_key, "value": True, "path": "/p"}
        return [
            local_http.post(url + "/api/v1/rating/submit", json=body, headers=headers, timeout=30).status_code
            for _ in range(times)
        ]

    with (
        cluster(env, tmp_path) as balancer,
        httpx.Client(base_url=balancer.url, timeout=30) as console,
        Load(balancer.url, tenant.project_key, spread_clients=True) as load,
    ):
        sign_up(console)
        load.wait_for_answers(100)
        with redis_server.frozen():
            frozen = time.monotonic()
            wait_for(
                lambda: sum(a.status == 204 for a in load.since(frozen + 3)) >= 100, 20, "stored while frozen"
            )
            # Each process counts the visitor's budget on its own.
            spent = [submit_times(node.url, 6, visitor) for node in balancer.nodes]
            # An API read (tokens read from PostgreSQL), a console page (its session is in Redis: 503)
            # and each node's readiness.
            read, page, *readiness = all_at_once(balancer, api, console)
        thawed = time.monotonic()
        recovered = wait_for(
            lambda: all(
                local_http.get(n.url + "/readyz", timeout=10).json()["status"] == "ready"
                for n in balancer.nodes
            ),
            5,
            "readiness once Redis thawed",
        )
        load.wait_for_answers(100)
        # Shared again: another visitor (the first one's hits sent to the frozen Redis count there too).
        shared = submit_times(balancer.url, 6, {**visitor, "X-Forwarded-For": "203.0.113.8"})
    slowest = max(a.seconds for a in load.since(frozen))
    print(f"slowest answer while frozen {slowest:.2f} s, ready again {recovered:.2f} s after the thaw")
    assert not [a for a in load.answers if a.status != 204]
    assert slowest < 10
    assert spent == [[204] * 4 + [429] * 2] * 2
    for response, seconds in readiness:
        assert (response.status_code, seconds < 10) == (200, True)
        assert (response.json()["status"], response.json()["checks"]["redis"]) == ("degraded", "unavailable")
    assert (read[0].status_code, read[1] < 10) == (200, True)
    assert (page[0].status_code, page[1] < 10) == (503, True)
    assert "Temporarily unavailable" in page[0].text
    assert shared == [204] * 4 + [429] * 2
    assert any(a.status == 204 for a in load.since(thawed))
    assert load.acknowledged() <= stored_marks(database_url)
