"""What operators and their tools ask a process: /healthz, /readyz, /metrics (open only to the allowed
networks), the request id echoed and carried by every log line of its request, and one JSON object per
log line."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from dataclasses import replace
from uuid import uuid4

import httpx
import pytest
from litestar import Litestar
from litestar.routes import HTTPRoute
from litestar.testing import AsyncTestClient

from app.config import Settings
from app.main import create_app
from app.operations.json_logs import JsonFormatter
from app.operations.metrics import REGISTRY
from tests.factories import Tenant
from tests.integration.public.conftest import ALLOWED, valid_bodies
from tests.integration.public.servers import running_server, server_env
from tests.local_http import local_http
from tests.server_processes import free_port

RATING = "/api/v1/rating/submit"
REQUESTS = "hearken_http_request_duration_seconds_count"


class JsonLines(logging.Handler):
    """The log lines as the service writes them, parsed back."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.setFormatter(JsonFormatter())
        self.lines: list[dict[str, object]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(json.loads(self.format(record)))


@pytest.fixture
def log_lines() -> Iterator[JsonLines]:
    handler = JsonLines()
    root = logging.getLogger()
    root.addHandler(handler)
    access = logging.getLogger("hearken.access")
    level = access.level
    access.setLevel(logging.DEBUG)
    yield handler
    root.removeHandler(handler)
    access.setLevel(level)


async def test_health_and_readiness(client: AsyncTestClient[Litestar]) -> None:
    assert (await client.get("/healthz")).json() == {"status": "ok"}
    ready = await client.get("/readyz")
    assert ready.status_code == 200
    assert ready.json() == {
        "status": "ready",
        "checks": {"database": "ok", "redis": "not_configured", "insights": "off"},
    }


async def test_readiness_says_when_redis_is_away_and_fails_without_the_database(settings: Settings) -> None:
    away = replace(settings, redis_url=f"redis://127.0.0.1:{free_port()}/0")
    async with AsyncTestClient(app=create_app(away)) as client:
        ready = await client.get("/readyz")
    assert ready.status_code == 200
    assert ready.json()["status"] == "degraded"
    assert ready.json()["checks"] == {"database": "ok", "redis": "unavailable", "insights": "off"}
    assert "per process" in ready.json()["details"]

    if settings.is_sqlite:
        return
    down = replace(settings, database_url=settings.database_url.replace(":5432/", f":{free_port()}/"))
    async with AsyncTestClient(app=create_app(down)) as client:
        ready = await client.get("/readyz")
    assert ready.status_code == 503
    assert ready.json()["checks"]["database"] == "unavailable"


async def test_request_ids_are_echoed_and_in_every_log_line_of_their_request(
    client: AsyncTestClient[Litestar], tenant: Tenant, log_lines: JsonLines
) -> None:
    mine = await client.get("/api/v1/projects", headers={**tenant.headers, "X-Request-ID": "trace-42.a_b:c"})
    assert mine.headers["x-request-id"] == "trace-42.a_b:c"
    made = [
        (await client.get("/api/v1/projects", headers={**tenant.headers, "X-Request-ID": unsafe})).headers[
            "x-request-id"
        ]
        for unsafe in ("with space", "x" * 65, 'quote"', "")
    ]
    assert len(set(made)) == 4
    assert not {"with space", "x" * 65, 'quote"'} & set(made)
    assert all(1 <= len(value) <= 64 for value in made)

    await client.post(RATING, json={"project_key": tenant.project_key}, headers={"X-Request-ID": "bad-body"})
    lines = [line for line in log_lines.lines if line.get("request_id") == "trace-42.a_b:c"]
    assert lines and all(line["logger"] == "hearken.access" for line in lines)
    (access,) = lines
    assert access["route"] == "/api/v1/projects"
    assert access["status"] == 200
    assert access["org_id"] == str(tenant.org_id)
    assert isinstance(access["duration_ms"], float)
    assert {"timestamp", "level", "event"} <= set(access)
    public = [line for line in log_lines.lines if line.get("request_id") == "bad-body"]
    assert [(line["level"], line["status"]) for line in public] == [("debug", 400)]


async def test_every_route_is_counted_by_its_template(
    app: Litestar, client: AsyncTestClient[Litestar]
) -> None:
    templates = {route.path_format for route in app.routes}
    for route in app.routes:
        if not isinstance(route, HTTPRoute):
            continue
        ids = {name: str(uuid4()) for name in route.path_parameters}
        for method in sorted(route.methods - {"HEAD", "OPTIONS"}):
            if route.path_format.startswith("/static"):
                continue
            await client.request(method, route.path_format.format(**ids))
    await client.get(f"/no/such/{uuid4()}")
    routes = {
        sample.labels["route"]
        for metric in REGISTRY.collect()
        if metric.name == "hearken_http_request_duration_seconds"
        for sample in metric.samples
        if "route" in sample.labels
    }
    assert "unmatched" in routes
    assert routes - {"unmatched"} <= {template for template in templates}


async def test_metrics_are_open_only_to_the_allowed_networks(database_url: str, tenant: Tenant) -> None:
    if not database_url.startswith("sqlite"):
        pytest.skip("three server processes; what they count does not depend on the database")
    body = valid_bodies(tenant.project_key)[RATING]
    with running_server(server_env(database_url)) as base:
        async with httpx.AsyncClient(base_url=base) as client:
            assert (await client.post(RATING, json=body, headers={"Origin": ALLOWED})).status_code == 204
            assert (
                await client.post(RATING, json=body, headers={"Origin": "https://evil.example"})
            ).status_code == 403
            await client.get("/api/v1/projects", headers=tenant.headers)
            scraped = await client.get("/metrics")
    assert scraped.status_code == 200
    assert scraped.headers["content-type"].startswith("text/plain")
    text = scraped.text
    for expected in (
        f'{REQUESTS}{{method="POST",route="/api/v1/rating/submit",status="204"}} 1.0',
        f'{REQUESTS}{{method="GET",route="/api/v1/projects",status="200"}} 1.0',
        'hearken_public_submissions_total{endpoint="rating",outcome="stored"} 1.0',
        'hearken_public_submissions_total{endpoint="rating",outcome="origin_not_allowed"} 1.0',
        "hearken_group_commit_batch_size_count 1.0",
        "hearken_group_commit_seconds_count 1.0",
        "hearken_db_pool_connections_in_use",
    ):
        assert expected in text, expected
    assert str(tenant.project_id) not in text

    with running_server(server_env(database_url, HEARKEN_METRICS_ALLOW="10.0.0.0/8")) as base:
        refused = local_http.get(base + "/metrics")
        # Behind a trusted proxy the client it names counts, not the proxy's own address.
    assert refused.status_code == 404
    env = server_env(database_url, HEARKEN_METRICS_ALLOW="10.0.0.0/8", HEARKEN_TRUSTED_PROXIES="127.0.0.1")
    with running_server(env) as base:
        assert local_http.get(base + "/metrics", headers={"X-Forwarded-For": "10.1.2.3"}).status_code == 200
        assert (
            local_http.get(base + "/metrics", headers={"X-Forwarded-For": "203.0.113.5"}).status_code == 404
        )
