"""The client address: the socket peer, or the right-most untrusted X-Forwarded-For hop behind a proxy."""

from __future__ import annotations

import ipaddress
from typing import Any

import pytest

from app.ingest import client_address

PROXIES = (ipaddress.ip_network("10.0.0.0/8"), ipaddress.ip_network("::1/128"))


def _scope(peer: str, *forwarded: str) -> Any:
    return {"client": (peer, 4321), "headers": [(b"x-forwarded-for", value.encode()) for value in forwarded]}


@pytest.mark.parametrize(
    ("scope", "expected"),
    [
        (_scope("198.51.100.4"), "198.51.100.4"),
        (_scope("198.51.100.4", "203.0.113.9"), "198.51.100.4"),  # peer is not a trusted proxy
        (_scope("10.1.2.3", "203.0.113.9"), "203.0.113.9"),
        (_scope("10.1.2.3", "1.1.1.1, 203.0.113.9, 10.0.0.7"), "203.0.113.9"),  # spoofed left part ignored
        (_scope("10.1.2.3", "1.1.1.1", "203.0.113.9"), "203.0.113.9"),  # several headers, in order
        (_scope("10.1.2.3"), "10.1.2.3"),
        (_scope("10.1.2.3", "10.0.0.8, 10.0.0.9"), "10.0.0.8"),  # all trusted: the left-most
        (_scope("::1", "2001:db8::5"), "2001:db8::5"),
        (_scope("10.1.2.3", "garbage"), "garbage"),
    ],
)
def test_client_address(scope: Any, expected: str) -> None:
    assert client_address(scope, PROXIES) == expected


def test_without_trusted_proxies_the_header_is_ignored() -> None:
    assert client_address(_scope("10.1.2.3", "203.0.113.9"), ()) == "10.1.2.3"
