"""Where an assistant's browser may be sent back to (OAuth 2.1, RFC 8252 for native apps).

Registration is open to anyone, so a redirect URI is the one thing that must not become a way to send a
member's browser somewhere harmful with this server's name on the link. Allowed: https to any host; http
only to this machine (127.0.0.0/8, [::1], localhost; any port), where a native app listens; and a
private-use scheme named after a domain the app controls, reversed (`com.example.app:/callback`), which
RFC 8252 asks of native apps and which keeps out the schemes browsers and systems handle themselves
(`javascript:`, `data:`, `file:`, `mailto:`, `ms-settings:`, ...). Never a fragment, a `*` or user
information. The authorization endpoint sends the browser only to a URI registered exactly.
"""

from __future__ import annotations

import ipaddress
import re
from urllib.parse import urlsplit

REDIRECT_URI_MAX_LENGTH = 1000
PRIVATE_USE_SCHEME = re.compile(r"^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+$")
"""A reverse domain name: at least one period, as RFC 8252 asks (a scheme without one is refused)."""


def redirect_uri_refused(uri: str) -> str | None:
    """Why an assistant's browser may not be sent to `uri`, or None when it may."""
    if len(uri) > REDIRECT_URI_MAX_LENGTH:
        return f"is longer than {REDIRECT_URI_MAX_LENGTH} characters"
    if "#" in uri:
        return "must not have a fragment"
    if "*" in uri:
        return "must not have a wildcard"
    try:
        parts = urlsplit(uri)
        host = parts.hostname
    except ValueError:
        return "is not a valid URI"
    if "@" in parts.netloc:
        return "must not have user information"
    scheme = parts.scheme.lower()
    if scheme == "https":
        return None if host else "must name a host"
    if scheme == "http":
        return None if _loopback(host) else "must use https, or http only to 127.0.0.1, [::1] or localhost"
    if PRIVATE_USE_SCHEME.match(scheme):
        return None if parts.path or parts.netloc else "must have a path"
    return (
        f"has the scheme {scheme or 'none'!r}: use https, http to a loopback address, or a "
        "reverse-domain scheme like com.example.app:"
    )


def _loopback(host: str | None) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host or "").is_loopback
    except ValueError:
        return False
