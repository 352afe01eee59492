"""Which URLs webhooks may be sent to: http(s) with a host (https only in production), and in
production no host that resolves to a loopback, private, link-local or otherwise non-public address.

The address rule is checked when an endpoint is saved and again on every connection (`PublicOnlyBackend`):
DNS can change between the two, and a name that pointed outside can later point inside (rebinding).
The connection goes to an address that was checked, so a second lookup cannot slip in another one.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
import typing
from urllib.parse import urlsplit

import httpcore

from app.config import Settings
from app.errors import InvalidRequest

MAX_URL_LENGTH = 2048


class NonPublicAddress(httpcore.ConnectError):
    """The host resolves (also) to an address webhooks may not reach."""


def is_public(address: str) -> bool:
    return ipaddress.ip_address(address.split("%", 1)[0]).is_global


async def public_addresses(host: str, port: int) -> list[str]:
    """The host's addresses, all of them public; NonPublicAddress if any is not (or none resolve)."""
    try:
        infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError:
        raise NonPublicAddress(f"{host} does not resolve") from None
    addresses = list(dict.fromkeys(str(info[4][0]) for info in infos))
    if not addresses or not all(is_public(address) for address in addresses):
        raise NonPublicAddress(f"{host} resolves to a loopback, private or link-local address")
    return addresses


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
    if not settings.webhooks_reach_private_addresses:
        try:
            await public_addresses(parts.hostname, port or 443)
        except NonPublicAddress as exc:
            raise InvalidRequest("url", f"{exc}; webhooks may only reach public addresses") from None
    return url


class PublicOnlyBackend(httpcore.AnyIOBackend):
    """httpcore's network backend, connecting only to public addresses, and to one it has checked. TLS
    still names and verifies the URL's host: httpcore takes the server name from the request, not from
    the address connected to."""

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: typing.Iterable[typing.Any] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        addresses = await public_addresses(host, port)
        return await super().connect_tcp(
            addresses[0], port, timeout=timeout, local_address=local_address, socket_options=socket_options
        )
