"""What an assistant may register about itself: redirect URIs by the rules of app/mcp/redirect_uris.py,
and bounded sizes, since registration is open to anyone and the registration is stored whole."""

from __future__ import annotations

from typing import Any

from mcp.server.auth.provider import RegistrationError

from app.db.models.oauth_client import CLIENT_NAME_MAX_LENGTH
from app.mcp.redirect_uris import redirect_uri_refused

REDIRECT_URIS_MAX = 10
LIST_MAX_ITEMS = 20
"""Items in any other list or object (contacts, grant types, a key set's keys, a key's members)."""
STRING_MAX_LENGTH = 1000
FIELD_NAME_MAX_LENGTH = 100
"""Characters in any other string (a URI, a contact, a software id, a key's parameter)."""


def check_registration(registration: dict[str, Any]) -> None:
    """Raise RFC 7591's `invalid_redirect_uri` or `invalid_client_metadata`, naming the field."""
    uris = registration.get("redirect_uris") or []
    if len(uris) > REDIRECT_URIS_MAX:
        raise RegistrationError(
            "invalid_redirect_uri", f"redirect_uris: at most {REDIRECT_URIS_MAX} redirect URIs"
        )
    for index, uri in enumerate(uris):
        if why := redirect_uri_refused(uri):
            raise RegistrationError("invalid_redirect_uri", f"redirect_uris[{index}]: the URI {why}")
    if len(registration.get("client_name") or "") > CLIENT_NAME_MAX_LENGTH:
        raise RegistrationError(
            "invalid_client_metadata", f"client_name: at most {CLIENT_NAME_MAX_LENGTH} characters"
        )
    for field, value in registration.items():
        if field != "redirect_uris" and (why := _oversized(field, value)):
            raise RegistrationError("invalid_client_metadata", why)


def _oversized(path: str, value: Any) -> str | None:
    """Why `value` (at `path`) is too large to keep, or None; strings and collections at any depth."""
    if isinstance(value, str):
        return f"{path}: at most {STRING_MAX_LENGTH} characters" if len(value) > STRING_MAX_LENGTH else None
    if isinstance(value, list | dict) and len(value) > LIST_MAX_ITEMS:
        return f"{path}: at most {LIST_MAX_ITEMS} items"
    if isinstance(value, dict) and any(len(key) > FIELD_NAME_MAX_LENGTH for key in value):
        return f"{path}: a member's name is longer than {FIELD_NAME_MAX_LENGTH} characters"
    items = enumerate(value) if isinstance(value, list) else value.items() if isinstance(value, dict) else ()
    for key, item in items:
        if why := _oversized(f"{path}[{key}]" if isinstance(key, int) else f"{path}.{key}", item):
            return why
    return None
