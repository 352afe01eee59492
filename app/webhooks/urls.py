"""Which URLs webhooks may be sent to: http(s) with a host (https only in production), and in
production no host that resolves to a loopback, private, link-local, multicast or otherwise non-public
address.

An IPv6 address that carries an IPv4 address (IPv4-mapped and -compatible, SIIT, NAT64 `64:ff9b::/96`,
6to4 `2002::/16`, Teredo, ISATAP) is judged by that IPv4 address, since a translator or tunnel delivers
the request there: `64:ff9b::7f00:1` is 127.0.0.1. The local-use NAT64 prefix `64:ff9b:1::/48` places the
IPv4 address where each network chooses, so it is refused whole.

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
NOT_PUBLIC = "resolves to a loopback, private, link-local or multicast address"


class NonPublicAddress(OSError):
    """The host resolves (also) to an address webhooks may not reach."""


LOCAL_NAT64 = ipaddress.IPv6Network("64:ff9b:1::/48")
NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
SIIT = ipaddress.IPv6Network("::ffff:0:0:0/96")
COMPATIBLE = ipaddress.IPv6Network("::/96")
ISATAP_IDS = (0x00005EFE, 0x02005EFE)
"""The upper half of an ISATAP interface id; the lower half is the IPv4 address."""


def is_public(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address):
        if ip in LOCAL_NAT64:
            return False
        embedded = embedded_ipv4(ip)
        if embedded:
            return all(_is_public_ip(v4) for v4 in embedded)
    return _is_public_ip(ip)


def _is_public_ip(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    return ip.is_global and not ip.is_multicast


def embedded_ipv4(ip: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses an IPv6 address hands its traffic to (both ends of a Teredo address)."""
    low32 = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    if ip.ipv4_mapped is not None:
        return [ip.ipv4_mapped]
    if ip.sixtofour is not None:
        return [ip.sixtofour]
    if ip.teredo is not None:
        return list(ip.teredo)
    if ip in NAT64 or ip in SIIT or (ip in COMPATIBLE and int(ip) > 1):
        return [low32]
    if (int(ip) >> 32) & 0xFFFFFFFF in ISATAP_IDS:
        return [low32]
    return []


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
