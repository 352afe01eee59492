"""An identity provider's SAML metadata fetched from the URL an admin gives. The server fetches what an
admin of any tenant names, so the webhooks' rule holds: in production only https, and only hosts whose
every address is public (unless HEARKEN_WEBHOOK_ALLOW_PRIVATE); no redirects, five seconds, a size cap."""

from __future__ import annotations

from urllib.parse import urlsplit

import httpx

from app.config import Settings
from app.integrations.saml_service_provider import MAX_METADATA_BYTES, SamlFailure
from app.outgoing_tls import tls_context
from app.webhooks.urls import NonPublicAddress, check_public

TIMEOUT = httpx.Timeout(5.0)
MAX_URL_LENGTH = 2000


async def fetched_metadata(url: str, settings: Settings) -> str:
    parts = urlsplit(url)
    allowed = ("https",) if settings.is_production else ("http", "https")
    if len(url) > MAX_URL_LENGTH or parts.scheme not in allowed or not parts.hostname:
        raise SamlFailure(
            f"must be an absolute {' or '.join(allowed)} URL of at most {MAX_URL_LENGTH} characters"
        )
    if parts.username or parts.password:
        raise SamlFailure("must carry no user name or password")
    if not settings.webhooks_reach_private_addresses:
        try:
            await check_public(parts.hostname, parts.port or (443 if parts.scheme == "https" else 80))
        except NonPublicAddress as exc:
            raise SamlFailure(f"{exc}; Hearken fetches metadata only from public addresses") from None
    client = httpx.AsyncClient(timeout=TIMEOUT, verify=tls_context(), trust_env=False)
    accept = {"Accept": "application/samlmetadata+xml"}
    try:
        async with client, client.stream("GET", url, headers=accept) as answer:
            if answer.status_code != 200:
                raise SamlFailure(f"the metadata URL answered {answer.status_code}")
            body = bytearray()
            async for chunk in answer.aiter_bytes():
                body += chunk
                if len(body) > MAX_METADATA_BYTES:
                    raise SamlFailure(f"the metadata is larger than {MAX_METADATA_BYTES // 1024} KiB")
    except httpx.HTTPError as exc:
        raise SamlFailure(f"the metadata URL cannot be reached ({exc.__class__.__name__})") from None
    try:
        return bytes(body).decode("utf-8")
    except UnicodeDecodeError:
        raise SamlFailure("the metadata is not UTF-8 text") from None
