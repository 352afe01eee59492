"""Encrypts secrets at rest: integration credentials (Stripe signing secrets, Mintlify API keys), webhook
endpoints' signing secrets, single sign-on client secrets and mail waiting to be sent.

The Fernet key is derived from HEARKEN_SECRET_KEY with HKDF and a purpose label, so a database dump
alone reveals no credential, and the key is never the one that signs sessions or CSRF tokens.
"""

from __future__ import annotations

import base64
from functools import cache

from cryptography.fernet import Fernet, InvalidToken
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

PURPOSE = b"hearken integration credentials v1"
WEBHOOK_SECRETS = b"hearken webhook signing secrets v1"
"""The label of webhook endpoints' secrets, the app's and the migration that sealed the older ones."""
SSO_CLIENT_SECRETS = b"hearken sso client secrets v1"


class SecretBox:
    def __init__(self, secret_key: str, purpose: bytes = PURPOSE) -> None:
        derived = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=purpose).derive(
            secret_key.encode()
        )
        self._fernet = Fernet(base64.urlsafe_b64encode(derived))

    def seal(self, plain: str) -> str:
        return self._fernet.encrypt(plain.encode()).decode("ascii")

    def open(self, sealed: str) -> str | None:
        """The plain text, or None when it was sealed under another HEARKEN_SECRET_KEY."""
        try:
            return self._fernet.decrypt(sealed.encode("ascii")).decode()
        except InvalidToken:
            return None


@cache
def secret_box(secret_key: str, purpose: bytes = PURPOSE) -> SecretBox:
    """One box per key and purpose label: what one purpose sealed, another cannot open."""
    return SecretBox(secret_key, purpose)
