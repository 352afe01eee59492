"""HEARKEN_DNS_RESOLVER: the DNS server that looks up the TXT records proving single sign-on domains."""

from __future__ import annotations

import pytest

from app.config import Settings


@pytest.mark.parametrize(
    ("text", "resolver"),
    [
        ("", None),
        ("127.0.0.1:5353", ("127.0.0.1", 5353)),
        ("10.0.0.2", ("10.0.0.2", 53)),
        ("[::1]:5353", ("::1", 5353)),
        ("2001:db8::53", ("2001:db8::53", 53)),
    ],
)
def test_an_address_and_port_or_the_systems_resolvers(text: str, resolver: tuple[str, int] | None) -> None:
    assert Settings.from_env({"HEARKEN_DNS_RESOLVER": text}).dns_resolver == resolver


@pytest.mark.parametrize("text", ["dns.example:53", "127.0.0.1:0", "127.0.0.1:dns", "[::1]:70000"])
def test_anything_else_stops_the_start_naming_the_variable(text: str) -> None:
    with pytest.raises(ValueError, match="HEARKEN_DNS_RESOLVER"):
        Settings.from_env({"HEARKEN_DNS_RESOLVER": text})
