"""The shape of an organization access token and how it is stored."""

from __future__ import annotations

import hashlib
import re
import secrets

TOKEN_PREFIX = "oat_"
TOKEN_PATTERN = re.compile(r"^oat_[A-Za-z0-9_-]{43}$")
DISPLAY_PREFIX_LENGTH = 12


def new_token() -> str:
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def token_digest(token: str) -> str:
    """A 256-bit random token needs no slow hash: SHA-256 is enough and costs microseconds."""
    return hashlib.sha256(token.encode()).hexdigest()


def display_prefix(token: str) -> str:
    return token[:DISPLAY_PREFIX_LENGTH]
