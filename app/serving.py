"""The wrapper around the whole application that every HTTP request passes: its request id (taken or
made, echoed in `X-Request-ID`, present in every log line of the request), its metrics and its access
log line.

A plain ASGI wrapper, kept cheap because it runs on the public submit path: per request one id, two
clock reads, one dict lookup of the request's series (by method, route template and status) and three
increments in it. Access lines of the public submissions, widget files, preflights and probes are
written at DEBUG only (they are most of the traffic); every other request gets an INFO line.

A long answer may go on here, outside the application: a live stream starts its answer through the
application (its checks run under the deadline, the middleware adds its headers) and then hands itself
over in the scope (`app/operations/continued.py`), so that what it holds for its hours open is this
wrapper's frame and itself, not the framework's request, middleware frames and the deadline's task.
"""

from __future__ import annotations

import logging
from bisect import bisect_left
from time import perf_counter
from typing import Any

from litestar.types import ASGIApp, Message, Receive, Scope, Send

from app.operations.continued import CONTINUED, Continuation
from app.operations.deadline import within_deadline
from app.operations.metrics import LATENCY_BUCKETS, REQUEST_STATS, SUBMISSION_ENDPOINTS, RequestSeries
from app.operations.request_ids import REQUEST_ID, request_id_of

access_log = logging.getLogger("hearken.access")

UNMATCHED = "unmatched"
"""The route label of a request no route answered (404, 405): never the raw path."""
QUIET_PREFIXES = ("/static/", "/healthz", "/readyz", "/metrics")
QUIET_READS = frozenset({"/api/v1/surveys/active", "/api/v1/surveys/{survey_id}/definition"})
"""What the survey widget reads on visitors' page views: counted in the metrics, logged only at DEBUG
like the submissions (a line per page view of every customer's site would drown the log)."""
QUIET_WRITES = frozenset(
    {
        ("POST", "/api/v1/portal/{project_key}/ideas"),
        ("PUT", "/api/v1/portal/{project_key}/ideas/{idea_id}/vote"),
        ("DELETE", "/api/v1/portal/{project_key}/ideas/{idea_id}/vote"),
        ("POST", "/api/v1/portal/{project_key}/ideas/{idea_id}/comments"),
        ("POST", "/p/{project_key}/suggest"),
        ("POST", "/p/{project_key}/ideas/{idea_id}/vote"),
        ("POST", "/p/{project_key}/ideas/{idea_id}/comments"),
    }
)
"""What visitors of an ideas portal (the public pages or a customer's app) send, voting, suggesting and
commenting: logged at DEBUG like the widgets' submissions, for the same reason."""
WITHOUT_DEADLINE = frozenset({"/api/v1/rating/submit", "/api/v1/ratings", "/healthz"})
"""Paths served without the per-request deadline task: ratings have a deadline per batch, and a task per
request would cost the public submit path (feedback and contact submissions are not hot: they keep it).
Survey responses (SURVEY_RESPONSES, below) are stored in batches with a deadline too."""
SURVEY_RESPONSES = ("/api/v1/surveys/", "/responses/submit")
"""The start and end of the survey response submit path (the survey's id between them)."""


def serving(app: ASGIApp) -> ASGIApp:
    known: dict[tuple[str, str, int], tuple[RequestSeries, bool]] = {}

    async def serve(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await app(scope, receive, send)
            return
        request_id = request_id_of(scope["headers"])  # type: ignore[arg-type]
        reset = REQUEST_ID.set(request_id)
        echoed = (b"x-request-id", request_id.encode())
        status = 500

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"].append(echoed)  # type: ignore[union-attr]
            await send(message)

        started = perf_counter()
        scope[CONTINUED] = None  # type: ignore[typeddict-unknown-key]
        try:
            path = scope["path"]
            if path in WITHOUT_DEADLINE or (
                path.startswith(SURVEY_RESPONSES[0]) and path.endswith(SURVEY_RESPONSES[1])
            ):
                await app(scope, receive, send_with_id)
            else:
                await within_deadline(app, scope, receive, send_with_id)
            continuation: Continuation | None = scope.pop(CONTINUED, None)  # type: ignore[typeddict-item]
            if continuation is not None:
                # The framework's per-request state (parsed headers, connection caches, the request's
                # session, closed by now) is not needed for the body: let it go for the stream's hours.
                scope["state"] = {}  # type: ignore[typeddict-unknown-key]
                await continuation(receive, send)
        finally:
            elapsed = perf_counter() - started
            key = (scope["method"], scope.get("path_template", UNMATCHED), status)  # type: ignore[typeddict-item]
            found = known.get(key)
            if found is None:
                found = known[key] = _series(*key)
            series, loud = found
            series[0] += 1
            series[1] += elapsed
            series[2 + bisect_left(LATENCY_BUCKETS, elapsed)] += 1
            if loud or access_log.isEnabledFor(logging.DEBUG):
                _log_access(scope, status, elapsed, loud)
            REQUEST_ID.reset(reset)

    return serve


def _series(method: str, route: str, status: int) -> tuple[RequestSeries, bool]:
    """Where requests of this route and status are counted, and whether their access line is INFO."""
    quiet = (
        (method == "POST" and route in SUBMISSION_ENDPOINTS)
        or (method == "GET" and route in QUIET_READS)
        or (method, route) in QUIET_WRITES
        or route.startswith(QUIET_PREFIXES)
        or method == "OPTIONS"
    )
    return REQUEST_STATS.series(method, route, status), not quiet


def _log_access(scope: Scope, status: int, elapsed: float, loud: bool) -> None:
    fields: dict[str, Any] = {
        "method": scope["method"],  # type: ignore[typeddict-item]
        "route": scope.get("path_template", UNMATCHED),
        "status": status,
        "duration_ms": round(elapsed * 1000, 2),
    }
    org_id = getattr(scope.get("auth"), "org_id", None)
    if org_id is not None:
        fields["org_id"] = str(org_id)
    access_log.log(logging.INFO if loud else logging.DEBUG, "request", extra=fields)
