"""Verifies GitHub's `X-Hub-Signature-256` header: `sha256=` and the hex HMAC-SHA256 of the raw body
keyed by the webhook's secret, compared in constant time (as GitHub's webhook documentation asks).
The standard library does it in a few lines; no package is needed."""

from __future__ import annotations

import hashlib
import hmac

from app.errors import Unauthorized

PREFIX = "sha256="


def verify_github_signature(body: bytes, header: str | None, secret: str) -> None:
    """Raise Unauthorized unless `header` signs `body` with `secret`."""
    if not header:
        raise Unauthorized("X-Hub-Signature-256: the header is missing")
    if not header.startswith(PREFIX):
        raise Unauthorized("X-Hub-Signature-256: expected sha256=<hex digest>")
    expected = PREFIX + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    if not hmac.compare_digest(expected.encode(), header.encode("utf-8", "replace")):
        raise Unauthorized("X-Hub-Signature-256: the signature does not match this body and secret")
