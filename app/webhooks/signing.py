"""Endpoint secrets and signatures, as the Standard Webhooks convention defines them, so that any
receiver library that implements it verifies our requests.

Secrets are stored sealed (app.db.secret_box). After a rotation the replaced secret keeps signing for
ROTATION_OVERLAP: each request then carries both signatures, space separated, as the convention allows,
so a receiver that still has the old secret and one that has the new one both accept it.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from datetime import datetime, timedelta

from app.db.models import WebhookEndpoint
from app.db.secret_box import WEBHOOK_SECRETS, SecretBox, secret_box

SECRET_PREFIX = "whsec_"
ROTATION_OVERLAP = timedelta(hours=24)


class SecretUnreadable(Exception):
    """The endpoint's secret was sealed under another HEARKEN_SECRET_KEY: it must be rotated."""


def webhook_box(secret_key: str) -> SecretBox:
    return secret_box(secret_key, WEBHOOK_SECRETS)


def new_secret() -> str:
    """whsec_ and the base64 of 32 random bytes."""
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(32)).decode()


def signing_secrets(box: SecretBox, endpoint: WebhookEndpoint, now: datetime) -> list[str]:
    """The secrets a request is signed with now: the current one, and the replaced one during its overlap."""
    current = box.open(endpoint.sealed_secret)
    if current is None:
        raise SecretUnreadable
    keys = [current]
    expires = endpoint.previous_secret_expires_at
    if endpoint.sealed_previous_secret and expires is not None and now < expires:
        previous = box.open(endpoint.sealed_previous_secret)
        if previous is not None:
            keys.append(previous)
    return keys


def signature(secret: str, webhook_id: str, timestamp: int, body: bytes) -> str:
    """One signature: v1, and the base64 HMAC-SHA256 of "{id}.{timestamp}.{body}" keyed by the decoded
    part of the secret after its prefix."""
    key = base64.b64decode(secret.removeprefix(SECRET_PREFIX))
    signed = f"{webhook_id}.{timestamp}.".encode() + body
    return "v1," + base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()


def signature_header(keys: list[str], webhook_id: str, timestamp: int, body: bytes) -> str:
    """The `webhook-signature` header: one signature per secret, space separated, the newest first."""
    return " ".join(signature(key, webhook_id, timestamp, body) for key in keys)
