"""The ids of SAML authentication requests, made so that the assertion consumer service can tell one of
this server's own, recent requests for the organization from anything else without looking anything up
(the identity provider's post comes from another site, so the browser sends no session cookie with it,
and any node may receive it): a random part, the moment it expires, and an HMAC of both and the
organization. The response must answer such an id (`InResponseTo`); which browser started it is checked
after, in that browser's session."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from uuid import UUID

from admin_ui.sessions import derived_secret
from app.config import Settings

PURPOSE = "saml request ids"
LIFETIME_SECONDS = 600


def new_request_id(settings: Settings, org_id: UUID) -> str:
    """An xsd:ID (it starts with "_"), 77 characters."""
    body = f"_{secrets.token_hex(16)}-{int(time.time()) + LIFETIME_SECONDS}"
    return f"{body}-{_mac(settings, org_id, body)}"


def is_current_request_id(settings: Settings, org_id: UUID, request_id: str) -> bool:
    body, _, mac = request_id.rpartition("-")
    _, _, until = body.rpartition("-")
    if not body or not until.isdigit() or int(until) < time.time():
        return False
    return hmac.compare_digest(mac, _mac(settings, org_id, body))


def _mac(settings: Settings, org_id: UUID, body: str) -> str:
    key = derived_secret(settings, PURPOSE).encode()
    return hmac.new(key, f"{org_id}|{body}".encode(), hashlib.sha256).hexdigest()[:32]
