"""Sending one webhook delivery: the outbox handler of kind "webhook".

Each attempt is one POST with a 10 s limit, redirects not followed, and at most the first KiB of the
answer read. A 2xx is success; anything else (another status, no answer, a refused address) is a
failed attempt, retried after the configured delays. Every attempt is kept with what the receiver
answered. The endpoint's secret and the body never reach the log.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Sequence

import httpcore
import httpx
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.models import WebhookAttempt, WebhookDelivery, WebhookEndpoint, WebhookFormat
from app.outbox import ClaimedJob, Outcome
from app.webhooks.events import TEST_EVENT, WEBHOOK_JOB
from app.webhooks.signing import signature
from app.webhooks.slack import slack_text
from app.webhooks.urls import PublicOnlyBackend

TIMEOUT_SECONDS = 10.0
RESPONSE_BYTES = 1024
USER_AGENT = "Hearken-Webhooks/1"

# httpx logs every request's URL at INFO; a webhook URL can be a credential (a Slack URL is one).
logging.getLogger("httpx").setLevel(logging.WARNING)


def webhook_client(settings: Settings) -> httpx.AsyncClient:
    """One client per process (its connections are reused). No proxies from the environment, no
    redirects; in production without the private-address allowance, connections to public addresses only."""
    transport = httpx.AsyncHTTPTransport(trust_env=False)
    if not settings.webhooks_reach_private_addresses:
        # httpx's transport takes no network backend, but the httpcore pool inside it does.
        transport._pool = httpcore.AsyncConnectionPool(
            ssl_context=httpx.create_ssl_context(), max_connections=100, network_backend=PublicOnlyBackend()
        )
    return httpx.AsyncClient(
        transport=transport, follow_redirects=False, trust_env=False, timeout=TIMEOUT_SECONDS
    )


class WebhookSender:
    kind = WEBHOOK_JOB

    def __init__(
        self, session_maker: async_sessionmaker[AsyncSession], settings: Settings, client: httpx.AsyncClient
    ) -> None:
        self._session_maker = session_maker
        self._client = client
        self._delays = settings.webhook_retry_schedule

    @property
    def retry_delays(self) -> Sequence[float]:
        return self._delays

    async def run(self, job: ClaimedJob) -> Outcome:
        async with self._session_maker() as session:
            row = (
                await session.execute(
                    select(WebhookDelivery, WebhookEndpoint)
                    .join(WebhookEndpoint, WebhookEndpoint.id == WebhookDelivery.endpoint_id)
                    .where(WebhookDelivery.id == job.id)
                )
            ).first()
        if row is None:
            return Outcome(ok=False, error="the endpoint was deleted", final=True)
        delivery, endpoint = row.tuple()
        if not endpoint.enabled and delivery.event_type != TEST_EVENT:
            return Outcome(ok=False, error="the endpoint is disabled", final=True)
        return await self._post(delivery, endpoint)

    async def _post(self, delivery: WebhookDelivery, endpoint: WebhookEndpoint) -> Outcome:
        body, headers = request_of(delivery, endpoint)
        started = time.monotonic()
        status: int | None = None
        answer = b""
        try:
            async with asyncio.timeout(TIMEOUT_SECONDS):
                async with self._client.stream(
                    "POST", endpoint.url, content=body, headers=headers
                ) as response:
                    status = response.status_code
                    answer = await first_bytes(response, RESPONSE_BYTES)
            error = None if 200 <= status < 300 else answer_error(status)
        except TimeoutError:
            error = f"no answer within {TIMEOUT_SECONDS:.0f} s"
        except httpx.HTTPError as exc:
            error = connection_error(exc)
        attempt = WebhookAttempt(
            delivery_id=delivery.id,
            status_code=status,
            error=error,
            duration_ms=round((time.monotonic() - started) * 1000),
            response_body=answer.decode("utf-8", "replace"),
        )
        return Outcome(ok=error is None, error=error, records=[attempt])


def request_of(delivery: WebhookDelivery, endpoint: WebhookEndpoint) -> tuple[bytes, dict[str, str]]:
    """The body and headers of an attempt: the stored event, signed with this attempt's timestamp; or
    for a Slack endpoint, the event as Slack text, unsigned."""
    headers = {"Content-Type": "application/json", "User-Agent": USER_AGENT, "Accept-Encoding": "identity"}
    if endpoint.format == WebhookFormat.SLACK:
        return json.dumps({"text": slack_text(json.loads(delivery.body))}).encode(), headers
    body = delivery.body.encode()
    timestamp = int(time.time())
    webhook_id = str(delivery.id)
    headers["webhook-id"] = webhook_id
    headers["webhook-timestamp"] = str(timestamp)
    headers["webhook-signature"] = signature(endpoint.secret, webhook_id, timestamp, body)
    return body, headers


async def first_bytes(response: httpx.Response, limit: int) -> bytes:
    """Read no more of the answer than `limit` bytes; the rest is never downloaded."""
    kept = b""
    async for chunk in response.aiter_raw():
        kept += chunk
        if len(kept) >= limit:
            break
    return kept[:limit]


def answer_error(status: int) -> str:
    if 300 <= status < 400:
        return f"the receiver answered {status}, a redirect (redirects are not followed)"
    return f"the receiver answered {status}"


def connection_error(exc: httpx.HTTPError) -> str:
    """Words for a failed connection; the URL is left out (it may carry credentials)."""
    reason = str(exc) or type(exc).__name__
    return f"{type(exc).__name__}: {reason}"[:500]
