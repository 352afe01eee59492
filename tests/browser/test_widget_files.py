"""The widget files as the server serves them: type, CORS, caching, compression, and the size budget
(as served, gzipped; each file self-contained)."""

from __future__ import annotations

import gzip

import httpx
import pytest

from tests.browser.harness import LiveServer
from tests.local_http import local_http

BUDGETS = {
    "helpful": 3 * 1024,
    "star": 3 * 1024,
    "nps": 3 * 1024,
    "contact": 5 * 1024,
    "feedback": 5 * 1024,
    # the survey loader is on every page of a site; the renderer is fetched only when a survey shows
    "survey": 1536,
    "survey-renderer": 6 * 1024,
    # the feedback widget's Messages view, fetched when an identified person opens it
    "feedback-messages": 3 * 1024,
}
GLOBALS = {
    "survey": "window.Hearken",
    "survey-renderer": "HearkenSurveyRenderer",
    "feedback-messages": "HearkenFeedbackMessages",
}
"""The global object each file publishes: Hearken<Name> unless named here."""


def raw_get(url: str, **headers: str) -> tuple[httpx.Response, bytes]:
    """The response and its body exactly as sent on the wire (not decompressed)."""
    with httpx.Client() as client, client.stream("GET", url, headers=headers) as response:
        return response, b"".join(response.iter_raw())


@pytest.mark.parametrize("name", sorted(BUDGETS))
def test_widget_is_served_gzipped_within_budget_with_cors_and_cache_headers(
    live_server: LiveServer, name: str
) -> None:
    url = f"{live_server.base_url}/static/widgets/v1/{name}.js"
    response, wire = raw_get(url, **{"Accept-Encoding": "gzip"})
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/javascript")
    assert response.headers["access-control-allow-origin"] == "*"
    assert "max-age=" in response.headers["cache-control"]
    assert response.headers["etag"]
    assert response.headers["content-encoding"] == "gzip"
    assert "accept-encoding" in response.headers["vary"].lower()
    assert len(wire) <= BUDGETS[name], f"{name}.js is {len(wire)} bytes gzipped, budget {BUDGETS[name]}"

    source = gzip.decompress(wire).decode()
    for forbidden in ("eval(", "new Function", "innerHTML", "style=", "import(", "<style"):
        assert forbidden not in source, f"{name}.js contains {forbidden!r}"
    assert GLOBALS.get(name, "Hearken" + name.capitalize()) in source


@pytest.mark.parametrize("name", sorted(BUDGETS))
def test_brotli_when_accepted_and_304_when_unchanged(live_server: LiveServer, name: str) -> None:
    url = f"{live_server.base_url}/static/widgets/v1/{name}.js"
    response, _ = raw_get(url, **{"Accept-Encoding": "br, gzip"})
    assert response.headers["content-encoding"] == "br"
    etag = response.headers["etag"]
    again = local_http.get(url, headers={"If-None-Match": etag, "Accept-Encoding": "gzip"})
    assert again.status_code == 304
    assert again.content == b""
    assert again.headers["etag"] == etag
    assert again.headers["access-control-allow-origin"] == "*"
    changed = local_http.get(url, headers={"If-None-Match": 'W/"something-else"'})
    assert changed.status_code == 200 and changed.content


def test_unknown_widget_and_escapes_are_not_found(live_server: LiveServer) -> None:
    base = f"{live_server.base_url}/static/widgets/v1"
    assert local_http.get(f"{base}/nope.js").status_code == 404
    assert local_http.get(f"{base}/../src/helpful.js").status_code == 404
    assert local_http.get(f"{base}/%2e%2e/src/helpful.js").status_code == 404


def test_small_public_answers_are_not_compressed(live_server: LiveServer) -> None:
    response = local_http.post(
        f"{live_server.base_url}/api/v1/rating/submit",
        json={"project_key": "not-a-uuid", "value": True, "path": "/"},
        headers={"Accept-Encoding": "gzip, br"},
    )
    assert response.status_code == 400
    assert "content-encoding" not in response.headers
