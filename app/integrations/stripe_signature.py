"""Verifies the Stripe-Signature header the way Stripe documents it.

`t=<unix seconds>,v1=<hex>[,v1=<hex>...]` (other schemes ignored); each v1 is an HMAC-SHA256 of
"{t}.{raw body}" keyed by the endpoint's signing secret; the delivery is accepted when any v1 matches
(Stripe sends several while a secret is being rolled) and t is at most 300 s old.

Written on the standard library rather than the `stripe` package: that package decodes the body as
UTF-8 first (a non-UTF-8 body would raise something other than its verification error) and costs every
worker half a second and several megabytes to import, for these few lines. The tests sign with the
`stripe` package, so both sides of the convention are checked against each other.
"""

from __future__ import annotations

import hashlib
import hmac
import time

from app.errors import InvalidSignature

TOLERANCE_SECONDS = 300


def verify_stripe_signature(
    body: bytes, header: str | None, secret: str, *, now: float | None = None
) -> None:
    """Raise InvalidSignature unless `header` signs `body` with `secret` within the tolerance."""
    if not header:
        raise InvalidSignature("Stripe-Signature: the header is missing")
    timestamp, signatures = _parse(header)
    signed = str(timestamp).encode() + b"." + body
    expected = hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest().encode()
    # Every candidate is compared, so the time taken does not tell which one matched.
    matches = [hmac.compare_digest(expected, candidate) for candidate in signatures]
    if not any(matches):
        raise InvalidSignature("Stripe-Signature: no v1 signature matches this body and signing secret")
    if timestamp < (time.time() if now is None else now) - TOLERANCE_SECONDS:
        raise InvalidSignature(f"Stripe-Signature: the timestamp is older than {TOLERANCE_SECONDS} seconds")


def _parse(header: str) -> tuple[int, list[bytes]]:
    timestamps, signatures = [], []
    for part in header.split(","):
        name, _, value = part.strip().partition("=")
        if name == "t":
            timestamps.append(value)
        elif name == "v1":
            signatures.append(value.encode("utf-8", "replace"))
    if len(timestamps) != 1 or not timestamps[0].isascii() or not timestamps[0].isdigit():
        raise InvalidSignature("Stripe-Signature: needs exactly one t=<unix seconds>")
    if not signatures:
        raise InvalidSignature("Stripe-Signature: needs at least one v1=<signature>")
    return int(timestamps[0]), signatures
