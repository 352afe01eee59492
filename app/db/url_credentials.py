"""A URL as it may be shown to someone who must not learn the credentials inside it.

Webhook receivers often authenticate by the URL alone: a user name and password (`https://user:pw@...`),
a query parameter (`?token=...`), or a secret path (Slack's `/services/T.../B.../<secret>`, a token as a
path segment). `masked_url` keeps what tells people which receiver it is (scheme, host, port, the
ordinary path segments, the names of the query parameters) and replaces the rest with `***`. Owners and
admins see the full URL where they manage it; read tokens, members below admin and the audit log see
this form.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlsplit, urlunsplit

MASK = "***"
_SECRET_LOOKING = re.compile(r"^(?=.*[A-Za-z])(?=.*[0-9])[A-Za-z0-9_\-.~%]{16,}$")
"""A path segment that looks generated: 16 or more URL-safe characters with letters and digits."""
_SECRET_PATHS = ("/services/",)
"""Paths whose every segment after this one is a credential (Slack's incoming webhooks)."""


def masked_url(url: str) -> str:
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return MASK
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    netloc = host if port is None else f"{host}:{port}"
    if parts.username is not None or parts.password is not None:
        netloc = f"{MASK}@{netloc}" if parts.password is None else f"{MASK}:{MASK}@{netloc}"
    query = "&".join(f"{name}={MASK}" for name, _ in parse_qsl(parts.query, keep_blank_values=True))
    return urlunsplit((parts.scheme, netloc, _masked_path(parts.path), query, MASK if parts.fragment else ""))


def _masked_path(path: str) -> str:
    for prefix in _SECRET_PATHS:
        if path.startswith(prefix) and len(path) > len(prefix):
            segments = path[len(prefix) :].split("/")
            return prefix + "/".join(MASK if segment else "" for segment in segments)
    return "/".join(MASK if _SECRET_LOOKING.match(segment) else segment for segment in path.split("/"))
