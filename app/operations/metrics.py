"""The service's Prometheus metrics, one registry per process (scrape each `hearken run` process).

Updated where the work happens: requests by the serving wrapper, group commits by ingest, outbox
attempts (webhook deliveries, mail) by the dispatcher; the pool and Redis gauges are read when /metrics
is scraped. Keep label values few and fixed: route templates, never paths.

Requests are counted in plain lists (RequestSeries) rather than prometheus-client's metric objects,
whose every increment takes a lock: the public submit path is the hottest there is, and one event loop
needs no lock. The collector turns them into the histogram and the submissions counter when scraped.
"""

from __future__ import annotations

from collections.abc import Iterator

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.core import CounterMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.registry import Collector

REGISTRY = CollectorRegistry(auto_describe=True)

LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
BATCH_SIZE = Histogram(
    "hearken_group_commit_batch_size",
    "Ratings written per group commit",
    buckets=(1, 2, 5, 10, 20, 50, 100, 200, 500, 1000),
    registry=REGISTRY,
)
COMMIT_SECONDS = Histogram(
    "hearken_group_commit_seconds",
    "Time to write and commit one group commit batch",
    buckets=LATENCY_BUCKETS,
    registry=REGISTRY,
)
OUTBOX_ATTEMPTS = Counter(
    "hearken_outbox_attempts_total",
    "Attempts at outbox jobs by kind (webhook, mail) and result: delivered, retry (failed, tried again "
    "later) or failed (given up)",
    ["kind", "result"],
    registry=REGISTRY,
)
SPAM_SUBMISSIONS = Counter(
    "hearken_spam_submissions_total",
    "Public submissions stored as spam, by endpoint (feedback, contact) and reason (honeypot, too_fast)",
    ["endpoint", "reason"],
    registry=REGISTRY,
)
POOL_IN_USE = Gauge(
    "hearken_db_pool_connections_in_use", "Database connections checked out of the pool", registry=REGISTRY
)
POOL_SIZE = Gauge(
    "hearken_db_pool_connections_open", "Database connections held by the pool", registry=REGISTRY
)
REPLICA_LAG = Gauge(
    "hearken_db_replica_lag_seconds",
    "How far each read replica was behind the primary at its last check (-1: it did not answer)",
    ["replica"],
    registry=REGISTRY,
)
REPLICA_SERVING = Gauge(
    "hearken_db_replica_serving",
    "1 while a read replica serves this process's reads, 0 while it is left out (away, lagging)",
    ["replica"],
    registry=REGISTRY,
)
REDIS_SHARED = Gauge(
    "hearken_redis_shared",
    "1 while Redis answers (shared rate limits and caches), 0 while the process runs on its own limits",
    registry=REGISTRY,
)

SUBMISSION_ENDPOINTS = {
    "/api/v1/rating/submit": "rating",
    "/api/v1/ratings": "ratings",
    "/api/v1/feedback/submit": "feedback",
    "/api/v1/contact/submit": "contact",
    "/api/v1/surveys/{survey_id}/responses/submit": "survey_response",
}
"""The public submission routes by their template, and the endpoint label each is counted under."""
SUBMISSION_OUTCOMES = {
    200: "stored",
    201: "stored",
    204: "stored",
    400: "invalid",
    403: "origin_not_allowed",
    404: "unknown_project",
    413: "too_large",
    415: "invalid",
    429: "rate_limited",
    503: "unavailable",
}
"""The outcome of a public submission from its status."""


RequestSeries = list[float]
"""One (method, route, status): the request count, the seconds summed, then a count per latency bucket
(the last one past every bound)."""


class RequestStats(Collector):
    def __init__(self) -> None:
        self._series: dict[tuple[str, str, int], RequestSeries] = {}

    def answered(self) -> float:
        """Requests answered by this process so far, of every route and status."""
        return sum(series[0] for series in list(self._series.values()))

    def series(self, method: str, route: str, status: int) -> RequestSeries:
        """The series to count requests of this route and status in (see record)."""
        return self._series.setdefault((method, route, status), [0.0] * (len(LATENCY_BUCKETS) + 3))

    def collect(self) -> Iterator[Metric]:
        requests = HistogramMetricFamily(
            "hearken_http_request_duration_seconds",
            "HTTP requests by method, route template and status, with their latency (_count is the "
            "number of requests)",
            labels=["method", "route", "status"],
        )
        submissions = CounterMetricFamily(
            "hearken_public_submissions",
            "Public submissions by endpoint and outcome: stored, or the reason they were refused",
            labels=["endpoint", "outcome"],
        )
        outcomes: dict[tuple[str, str], float] = {}
        for (method, route, status), series in list(self._series.items()):
            cumulative, buckets = 0.0, []
            for bound, count in zip((*LATENCY_BUCKETS, float("inf")), series[2:], strict=True):
                cumulative += count
                buckets.append((str(bound) if bound != float("inf") else "+Inf", cumulative))
            requests.add_metric([method, route, str(status)], buckets, series[1])
            endpoint = SUBMISSION_ENDPOINTS.get(route) if method == "POST" else None
            if endpoint is not None:
                key = (endpoint, SUBMISSION_OUTCOMES.get(status, "failed"))
                outcomes[key] = outcomes.get(key, 0.0) + series[0]
        for (endpoint, outcome), count in outcomes.items():
            submissions.add_metric([endpoint, outcome], count)
        yield requests
        yield submissions


REQUEST_STATS = RequestStats()
REGISTRY.register(REQUEST_STATS)
