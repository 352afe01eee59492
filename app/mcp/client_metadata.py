"""What an assistant may register about itself: the redirect URIs that app/mcp/redirect_uris.py allows,
and bounded sizes, since registration is open to anyone and the registration is stored whole.

A redirect URI outside the rules is left out rather than failing the registration when others remain
(RFC 7591 lets the server register less than asked, and the answer lists what it kept): an assistant may
offer several (Cursor sends a `cursor://` one beside an https and a loopback one) and use the one kept.
"""

from __future__ import annotations

from typing import Any

from mcp.server.auth.provider import RegistrationError
from pydantic import AnyUrl

from app.db.models.oauth_client import CLIENT_NAME_MAX_LENGTH
from app.mcp.redirect_uris import redirect_uri_refused

REDIRECT_URIS_MAX = 10
LIST_MAX_ITEMS = 20
"""Items in any other list or object (contacts, grant types, a key set's keys, a key's members)."""
STRING_MAX_LENGTH = 1000
"""Characters in any other string (a URI, a contact, a software id, a key's parameter)."""
FIELD_NAME_MAX_LENGTH = 100


def allowed_redirect_uris(uris: list[AnyUrl]) -> list[AnyUrl]:
    """Those of `uris` the rules allow, in order; RFC 7591's `invalid_redirect_uri` when there are none,
    too many, or none is allowed (naming why the first is not)."""
    if not uris or len(uris) > REDIRECT_URIS_MAX:
        raise RegistrationError(
            "invalid_redirect_uri", f"redirect_uris: from 1 to {REDIRECT_URIS_MAX} redirect URIs"
        )
    allowed = [uri for uri in uris if not redirect_uri_refused(str(uri))]
    if not allowed:
        why = redirect_uri_refused(str(uris[0]))
        raise RegistrationError("invalid_redirect_uri", f"redirect_uris[0]: the URI {why}")
    return allowed


def check_sizes(registration: dict[str, Any]) -> None:
    """RFC 7591's `invalid_client_metadata`, naming the field, for a name, string or list too long."""
    if len(registration.get("client_name") or "") > CLIENT_NAME_MAX_LENGTH:
        raise RegistrationError(
            "invalid_client_metadata", f"client_name: at most {CLIENT_NAME_MAX_LENGTH} characters"
        )
    for field, value in registration.items():
        if why := _oversized(field, value):
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
