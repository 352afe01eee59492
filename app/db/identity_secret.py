"""A project's identity secret: what its backend signs user ids with, so that a submission's
`submitted_by` can be trusted to be the user the site signed in.

The secret is `ids_` and 43 URL-safe characters (32 random bytes); it is stored sealed by its own
secret box purpose and shown once. A signature is the lower-case hex HMAC-SHA256 of the user id
(UTF-8), keyed by the whole secret string (UTF-8): a one-liner in any backend language.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from app.db.secret_box import SecretBox, secret_box

PREFIX = "ids_"
PURPOSE = b"hearken identity secrets v1"


def new_identity_secret() -> str:
    return PREFIX + secrets.token_urlsafe(32)


def identity_box(secret_key: str) -> SecretBox:
    """The box identity secrets are sealed in: it opens nothing sealed for another purpose."""
    return secret_box(secret_key, PURPOSE)


def user_signature(secret: str, user_id: str) -> str:
    return hmac.new(secret.encode(), user_id.encode(), hashlib.sha256).hexdigest()


def signature_matches(secret: str, user_id: str, signature: str) -> bool:
    """Compared in constant time, so that the answer's timing tells nothing about the right signature."""
    return hmac.compare_digest(user_signature(secret, user_id).encode(), signature.encode())
