"""Who is asking: the socket peer, or the client a trusted proxy names in X-Forwarded-For.

A proxy is trusted only when its address is in HEARKEN_TRUSTED_PROXIES; otherwise the header is ignored,
since any client can send one.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence

from litestar.types import Scope

TrustedProxies = Sequence[ipaddress.IPv4Network | ipaddress.IPv6Network]


def client_address(scope: Scope, trusted_proxies: TrustedProxies) -> str:
    """The right-most address not in `trusted_proxies`, walking from the peer back through the hops
    the trusted proxies appended. Entries further left were written by the client and prove nothing."""
    peer = scope["client"][0] if scope.get("client") else ""
    if not trusted_proxies or not _trusted(peer, trusted_proxies):
        return peer
    forwarded = [
        hop.strip()
        for name, value in scope["headers"]
        if name == b"x-forwarded-for"
        for hop in value.decode("latin-1").split(",")
    ]
    address = peer
    for hop in reversed(forwarded):
        address = hop
        if not _trusted(hop, trusted_proxies):
            break
    return address


def _trusted(address: str, trusted_proxies: TrustedProxies) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in trusted_proxies)


def client_network(address: str) -> str:
    """The unit a budget counts: an IPv4 address, or an IPv6 client's /64 (the smallest network a host is
    given; it can use every address in it). Anything else (a test client's name) as it is."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return address
