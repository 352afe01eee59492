"""Verifies the Standard Webhooks signature Polar sends, keyed the way Polar's own SDK keys it.

Polar signs `"{webhook-id}.{webhook-timestamp}.{body}"` with HMAC-SHA256 and sends `webhook-signature:
v1,<base64>` (several, space-separated, while a secret is rolled). Its SDK's `validate_event` hands
the `standardwebhooks` verifier the base64 of the secret string as shown in Polar's dashboard, so the
HMAC key is that string's UTF-8 bytes (not a base64 decoding of it). The verifier also refuses a
timestamp more than 5 minutes away from now.

The verifier raises more than its own error on hostile input (a body that is not UTF-8, a signature
without its comma, bad base64): every one of those is the same 400.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping

from standardwebhooks.webhooks import Webhook, WebhookVerificationError

from app.errors import InvalidSignature

HEADERS = ("webhook-id", "webhook-timestamp", "webhook-signature")


def verify_polar_signature(body: bytes, headers: Mapping[str, str], secret: str) -> str:
    """The delivery's `webhook-id` once `headers` sign `body` with `secret`; InvalidSignature otherwise."""
    signed = {name: headers.get(name) or "" for name in HEADERS}
    missing = [name for name, value in signed.items() if not value]
    if missing:
        raise InvalidSignature(f"{missing[0]}: the Standard Webhooks header is missing")
    webhook = Webhook(base64.b64encode(secret.encode()).decode())
    try:
        webhook.verify(body, signed, json_parse=False)
    except WebhookVerificationError as exc:
        raise InvalidSignature(f"webhook-signature: {str(exc).lower()}") from None
    except ValueError:  # not UTF-8, a signature without "v1,", base64 that does not decode
        raise InvalidSignature("webhook-signature: not a Standard Webhooks signature of this body") from None
    return signed["webhook-id"]
