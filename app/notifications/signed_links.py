"""Links that are signed, not stored: an HMAC-SHA256 of the link's payload, keyed by a key derived from
HEARKEN_SECRET_KEY for the link's purpose, so a link of one kind never passes for another."""

from __future__ import annotations

import base64
import hashlib
import hmac

from app.config import Settings


def signature(settings: Settings, purpose: bytes, payload: str) -> str:
    key = hmac.new(settings.secret_key.encode(), purpose, hashlib.sha256).digest()
    digest = hmac.new(key, payload.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def is_signed(settings: Settings, purpose: bytes, payload: str, given: str) -> bool:
    return hmac.compare_digest(given.encode(), signature(settings, purpose, payload).encode())
