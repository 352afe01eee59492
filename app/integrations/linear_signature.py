"""Verifies Linear's webhook signature as Linear documents it: `Linear-Signature` is the hex
HMAC-SHA256 of the raw body keyed by the webhook's secret (compared in constant time), and the body's
`webhookTimestamp` (milliseconds) must be within a minute of now, so a captured delivery cannot be
replayed later. The standard library does it; no package is needed."""

from __future__ import annotations

import hashlib
import hmac
import time

import msgspec

from app.errors import Unauthorized

TOLERANCE_SECONDS = 60


class _Stamped(msgspec.Struct):
    webhookTimestamp: int


def verify_linear_signature(
    body: bytes, header: str | None, secret: str, *, now: float | None = None
) -> None:
    """Raise Unauthorized unless `header` signs `body` with `secret` and the body is fresh."""
    if not header:
        raise Unauthorized("Linear-Signature: the header is missing")
    expected = hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    if not hmac.compare_digest(expected.encode(), header.strip().lower().encode("utf-8", "replace")):
        raise Unauthorized("Linear-Signature: the signature does not match this body and secret")
    try:
        stamp = msgspec.json.decode(body, type=_Stamped).webhookTimestamp
    except (msgspec.DecodeError, RecursionError):
        raise Unauthorized("Linear-Signature: the body carries no webhookTimestamp") from None
    moment = time.time() if now is None else now
    if abs(moment - stamp / 1000) > TOLERANCE_SECONDS:
        raise Unauthorized(
            f"Linear-Signature: webhookTimestamp is more than {TOLERANCE_SECONDS} seconds away"
        )
