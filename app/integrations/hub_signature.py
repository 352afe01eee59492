"""Verifies a `sha256=<hex HMAC-SHA256 of the raw body>` signature header, keyed by the webhook's secret
and compared in constant time: GitHub sends it as `X-Hub-Signature-256`, Jira Cloud as
`X-Hub-Signature`. The standard library does it in a few lines; no package is needed."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping

from app.errors import Unauthorized

PREFIX = "sha256="


def verify_hub_signature(header_name: str, body: bytes, headers: Mapping[str, str], secret: str) -> None:
    """Raise Unauthorized unless the header signs `body` with `secret`."""
    header = headers.get(header_name.lower())
    if not header:
        raise Unauthorized(f"{header_name}: the header is missing")
    if not header.startswith(PREFIX):
        raise Unauthorized(f"{header_name}: expected sha256=<hex digest>")
    expected = PREFIX + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    if not hmac.compare_digest(expected.encode(), header.encode("utf-8", "replace")):
        raise Unauthorized(f"{header_name}: the signature does not match this body and secret")
