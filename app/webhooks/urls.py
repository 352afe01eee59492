"""Which URLs webhooks may be sent to: http(s) with a host (https only in production), and in
production no host that resolves to a loopback, private, link-local or otherwise non-public address.

The address rule is checked when an endpoint is saved and again on every connection
(`PublicOnlyResolver`): DNS can change between the two, and a name that pointed outside can later point
inside (rebinding). The connection goes to the addresses that were checked, not to a second lookup's.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from urllib.parse import urlsplit

from aiohttp import BasicAuth
from aiohttp.abc import AbstractResolver, ResolveResult
from aiohttp.resolver import ThreadedResolver
from yarl import URL

from app.config import Settings
from app.errors import InvalidRequest

MAX_URL_LENGTH = 2048
NOT_PUBLIC = "resolves to a loopback, private or link-local address"


class NonPublicAddress(OSError):
    """The host resolves (also) to an address webhooks may not reach."""


def is_public(address: str) -> bool:
    return ipaddress.ip_address(address.split("%", 1)[0]).is_global


def literal_address(host: str) -> str | None:
    """The host when it is an IP address itself (no lookup happens for those)."""
    try:
        return str(ipaddress.ip_address(host.strip("[]")))
    except ValueError:
        return None


async def check_public(host: str, port: int) -> None:
    """NonPublicAddress unless every address of the host is public (and it has one)."""
    if (address := literal_address(host)) is not None:
        addresses = [address]
    else:
        try:
            infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except OSError:
            raise NonPublicAddress(f"{host} does not resolve") from None
        addresses = [str(info[4][0]) for info in infos]
    if not addresses or not all(is_public(address) for address in addresses):
        raise NonPublicAddress(f"{host} {NOT_PUBLIC}")


async def checked_url(url: str, settings: Settings) -> str:
    """The URL as it is stored, or InvalidRequest naming `url` and the rule it breaks."""
    url = url.strip()
    if not url or len(url) > MAX_URL_LENGTH or any(ord(char) < 33 or ord(char) == 127 for char in url):
        raise InvalidRequest("url", f"must be an absolute http(s) URL of at most {MAX_URL_LENGTH} characters")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise InvalidRequest("url", "is not a valid URL") from None
    allowed = ("https",) if settings.is_production else ("http", "https")
    if parts.scheme not in allowed or not parts.hostname:
        raise InvalidRequest("url", f"must be an absolute {' or '.join(allowed)} URL with a host")
    if not sendable(url):
        raise InvalidRequest(
            "url", "has a host name, user name or password no request can carry (write them in ASCII)"
        )
    if not settings.webhooks_reach_private_addresses:
        try:
            await check_public(parts.hostname, port or 443)
        except NonPublicAddress as exc:
            raise InvalidRequest("url", f"{exc}; webhooks may only reach public addresses") from None
    return url


def sendable(url: str) -> bool:
    """Whether the HTTP client can turn the URL into a request: an internationalized host name must
    encode (IDNA), and a user name and password, sent as Basic authentication, must be Latin-1."""
    try:
        target = URL(url)
        target.raw_host  # noqa: B018  (encodes the host)
        credentials = BasicAuth.from_url(target)
        if credentials is not None:
            credentials.encode()
    except ValueError:  # UnicodeError is one
        return False
    return True


class PublicOnlyResolver(AbstractResolver):
    """The connector's resolver: a host any of whose addresses is not public gets none."""

    def __init__(self) -> None:
        self._resolver = ThreadedResolver()

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[ResolveResult]:
        results = await self._resolver.resolve(host, port, family)
        if not results or not all(is_public(result["host"]) for result in results):
            raise NonPublicAddress(f"{host} {NOT_PUBLIC}")
        return results

    async def close(self) -> None:
        await self._resolver.close()
