"""Origins are compared the way browsers write them (UTS 46 / IDNA 2008), and a wildcard may not cover a
whole public suffix, where every subdomain belongs to a different owner."""

from __future__ import annotations

import pytest

from app.errors import InvalidRequest
from app.ingest import normalize_origin, origin_allowed, request_origin


def test_non_ascii_hosts_are_encoded_as_browsers_send_them() -> None:
    assert normalize_origin("https://faß.de") == "https://xn--fa-hia.de"
    assert normalize_origin("https://BÜCHER.example") == "https://xn--bcher-kva.example"
    allowed = frozenset({normalize_origin("https://faß.de")})
    assert origin_allowed(request_origin("https://xn--fa-hia.de") or "", allowed)
    assert not origin_allowed(request_origin("https://fass.de") or "", allowed)


def test_an_invalid_international_host_is_refused() -> None:
    with pytest.raises(InvalidRequest, match="invalid host"):
        normalize_origin("https://a\u200db.example")


@pytest.mark.parametrize(
    "entry", ["https://*.github.io", "https://*.co.uk", "https://*.com", "http://*.blogspot.com"]
)
def test_a_wildcard_over_a_public_suffix_is_refused(entry: str) -> None:
    with pytest.raises(InvalidRequest, match="a wildcard needs a domain below it"):
        normalize_origin(entry)


@pytest.mark.parametrize(
    ("entry", "normalized"),
    [
        ("https://*.example.co.uk", "https://*.example.co.uk"),
        ("https://*.docs.github.io", "https://*.docs.github.io"),
        ("https://*.Example.org:8443", "https://*.example.org:8443"),
    ],
)
def test_a_wildcard_below_a_registrable_domain_is_kept(entry: str, normalized: str) -> None:
    assert normalize_origin(entry) == normalized
