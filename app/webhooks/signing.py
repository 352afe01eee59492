"""Endpoint secrets and signatures, as the Standard Webhooks convention defines them, so that any
receiver library that implements it verifies our requests."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

SECRET_PREFIX = "whsec_"


def new_secret() -> str:
    """whsec_ and the base64 of 32 random bytes."""
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(32)).decode()


def signature(secret: str, webhook_id: str, timestamp: int, body: bytes) -> str:
    """The `webhook-signature` header: v1, and the base64 HMAC-SHA256 of "{id}.{timestamp}.{body}"
    keyed by the decoded part of the secret after its prefix."""
    key = base64.b64decode(secret.removeprefix(SECRET_PREFIX))
    signed = f"{webhook_id}.{timestamp}.".encode() + body
    return "v1," + base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
