"""Sending one webhook delivery: the outbox handler of kind "webhook".

Each attempt is one POST with a 10 s limit, redirects not followed, and at most the first KiB of the
answer read. A 2xx is success; anything else (another status, no answer, a refused address) is a
failed attempt, retried after the configured delays. Every attempt is kept with what the receiver
answered. The endpoint's secret and the body never reach the log.

Tenants share the dispatcher's webhook slots, so each process bounds what one organization can use: at
most PER_ORGANIZATION deliveries of an organization, and PER_ENDPOINT to one endpoint, are attempted at
once; the others wait their turn, and one that waited WAIT_SECONDS is handed back unattempted (no
attempt counted, due again after NOT_NOW_SECONDS) well before its lease ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator, Sequence
from urllib.parse import urlsplit

import aiohttp
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.models import WebhookAttempt, WebhookDelivery, WebhookEndpoint, WebhookFormat
from app.db.secret_box import SecretBox
from app.outbox import ClaimedJob, Outcome, not_now
from app.timestamps import utc_now
from app.webhooks.bounds import KeyedLimit
from app.webhooks.events import TEST_EVENT, WEBHOOK_JOB
from app.webhooks.signing import SecretUnreadable, signature_header, signing_secrets, webhook_box
from app.webhooks.slack import slack_text
from app.webhooks.urls import NOT_PUBLIC, PublicOnlyResolver, is_public, literal_address

TIMEOUT_SECONDS = 10.0
SHARE = 32
"""Deliveries one process attempts at once, every organization together."""
PER_ORGANIZATION = 8
PER_ENDPOINT = 4
WAIT_SECONDS = 20.0
NOT_NOW_SECONDS = 1.0
RESPONSE_BYTES = 1024
USER_AGENT = "Hearken-Webhooks/1"


def webhook_client(settings: Settings) -> aiohttp.ClientSession:
    """One client per process (its connections are reused); aiohttp because an attempt costs a tenth of
    the CPU it costs with httpx. No proxies from the environment, answers not decompressed; in
    production without the private-address allowance, names resolve to public addresses only."""
    connector = aiohttp.TCPConnector(
        limit=100, resolver=None if settings.webhooks_reach_private_addresses else PublicOnlyResolver()
    )
    return aiohttp.ClientSession(
        connector=connector,
        timeout=aiohttp.ClientTimeout(total=TIMEOUT_SECONDS),
        auto_decompress=False,
        trust_env=False,
    )


class WebhookSender:
    kind = WEBHOOK_JOB
    share = SHARE

    def __init__(
        self,
        session_maker: async_sessionmaker[AsyncSession],
        settings: Settings,
        client: aiohttp.ClientSession,
    ) -> None:
        self._session_maker = session_maker
        self._client = client
        self._delays = settings.webhook_retry_schedule
        self._public_only = not settings.webhooks_reach_private_addresses
        self._box = webhook_box(settings.secret_key)
        self._per_org = KeyedLimit(PER_ORGANIZATION)
        self._per_endpoint = KeyedLimit(PER_ENDPOINT)

    @property
    def retry_delays(self) -> Sequence[float]:
        return self._delays

    async def run(self, jobs: Sequence[ClaimedJob]) -> AsyncIterator[tuple[ClaimedJob, Outcome]]:
        async with self._session_maker() as session:
            rows = await session.execute(
                select(WebhookDelivery, WebhookEndpoint)
                .join(WebhookEndpoint, WebhookEndpoint.id == WebhookDelivery.endpoint_id)
                .where(WebhookDelivery.id.in_([job.id for job in jobs]))
            )
            found = {delivery.id: (delivery, endpoint) for delivery, endpoint in rows.tuples()}
        posts = []
        for job in jobs:
            if job.id not in found:
                yield job, Outcome(ok=False, error="the endpoint was deleted", final=True)
                continue
            delivery, endpoint = found[job.id]
            if not endpoint.enabled and delivery.event_type != TEST_EVENT:
                yield job, Outcome(ok=False, error="the endpoint is disabled", final=True)
                continue
            posts.append(asyncio.create_task(self._bounded_post(job, delivery, endpoint)))
        try:
            for attempt in asyncio.as_completed(posts):
                yield await attempt
        finally:
            for post in posts:
                post.cancel()

    async def _bounded_post(
        self, job: ClaimedJob, delivery: WebhookDelivery, endpoint: WebhookEndpoint
    ) -> tuple[ClaimedJob, Outcome]:
        """The attempt, once its organization and its endpoint have a free place (or handed back)."""
        async with contextlib.AsyncExitStack() as places:
            try:
                async with asyncio.timeout(WAIT_SECONDS):
                    await places.enter_async_context(self._per_org.hold(endpoint.org_id))
                    await places.enter_async_context(self._per_endpoint.hold(endpoint.id))
            except TimeoutError:
                return job, not_now(NOT_NOW_SECONDS)
            return await self._post(job, delivery, endpoint)

    async def _post(
        self, job: ClaimedJob, delivery: WebhookDelivery, endpoint: WebhookEndpoint
    ) -> tuple[ClaimedJob, Outcome]:
        started = time.monotonic()
        status: int | None = None
        answer = b""
        try:
            body, headers = request_of(delivery, endpoint, self._box)
            self._check_literal_address(endpoint.url)
            async with asyncio.timeout(TIMEOUT_SECONDS):
                async with self._client.post(
                    endpoint.url, data=body, headers=headers, allow_redirects=False
                ) as response:
                    status = response.status
                    answer = await first_bytes(response, RESPONSE_BYTES)
            error = None if 200 <= status < 300 else answer_error(status)
        except TimeoutError:
            error = f"no answer within {TIMEOUT_SECONDS:.0f} s"
        except (aiohttp.ClientError, OSError) as exc:
            error = connection_error(exc)
        except SecretUnreadable:
            error = "the endpoint's secret was sealed under another HEARKEN_SECRET_KEY; rotate the secret"
        except ValueError as exc:  # a URL saved before a rule refused it: this delivery fails, not the batch
            error = f"the URL cannot be sent a request ({type(exc).__name__})"
        attempt = WebhookAttempt(
            delivery_id=delivery.id,
            status_code=status,
            error=error,
            duration_ms=round((time.monotonic() - started) * 1000),
            response_body=answer.decode("utf-8", "replace"),
        )
        return job, Outcome(ok=error is None, error=error, records=[attempt])

    def _check_literal_address(self, url: str) -> None:
        """An IP address in the URL is connected to without a lookup, so the resolver cannot refuse it."""
        host = urlsplit(url).hostname or ""
        if self._public_only and (address := literal_address(host)) is not None and not is_public(address):
            raise OSError(f"{host} {NOT_PUBLIC}")


def request_of(
    delivery: WebhookDelivery, endpoint: WebhookEndpoint, box: SecretBox
) -> tuple[bytes, dict[str, str]]:
    """The body and headers of an attempt: the stored event, signed with this attempt's timestamp (by
    the endpoint's secret, and by the one it replaced while their overlap lasts); or for a Slack
    endpoint, the event as Slack text, unsigned."""
    headers = {"Content-Type": "application/json", "User-Agent": USER_AGENT, "Accept-Encoding": "identity"}
    if endpoint.format == WebhookFormat.SLACK:
        return json.dumps({"text": slack_text(json.loads(delivery.body))}).encode(), headers
    body = delivery.body.encode()
    timestamp = int(time.time())
    webhook_id = str(delivery.id)
    headers["webhook-id"] = webhook_id
    headers["webhook-timestamp"] = str(timestamp)
    keys = signing_secrets(box, endpoint, utc_now())
    headers["webhook-signature"] = signature_header(keys, webhook_id, timestamp, body)
    return body, headers


async def first_bytes(response: aiohttp.ClientResponse, limit: int) -> bytes:
    """Read no more of the answer than `limit` bytes; the connection of an answer not read to its end
    is closed, so the rest is never downloaded."""
    kept = b""
    while len(kept) < limit and (chunk := await response.content.read(limit - len(kept))):
        kept += chunk
    return kept


def answer_error(status: int) -> str:
    if 300 <= status < 400:
        return f"the receiver answered {status}, a redirect (redirects are not followed)"
    return f"the receiver answered {status}"


def connection_error(exc: Exception) -> str:
    """Words for a failed connection, without the URL's path and query (they may carry credentials)."""
    if isinstance(exc, aiohttp.ClientConnectorError):
        reason = str(exc.os_error) or type(exc.os_error).__name__
        return f"could not connect to {exc.host}:{exc.port}: {reason}"[:500]
    return f"{type(exc).__name__}: {exc}"[:500]
