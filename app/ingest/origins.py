"""Browser origins as projects allow them: validated and normalized when saved, matched per request.

An origin is scheme + lowercase host + port, with the scheme's default port dropped. A non-ASCII host is
written as browsers send it in the Origin header: UTS 46 / IDNA 2008 (`faß.de` is `xn--fa-hia.de`, not
IDNA 2003's `fass.de`, a different domain). An allowed entry may start with `*.` to admit every subdomain
(not the apex) of a registrable domain; never of a public suffix (`*.co.uk`, `*.github.io`), whose
subdomains belong to strangers. The Public Suffix List is the package's bundled copy: no network.
"""

from __future__ import annotations

from functools import cache, lru_cache
from urllib.parse import urlsplit

import idna
from publicsuffixlist import PublicSuffixList

from app.errors import InvalidRequest

DEFAULT_PORTS = {"http": 80, "https": 443}
MAX_ORIGINS = 100


def normalize_origin(entry: str, *, field: str = "allowed_origins", allow_wildcard: bool = True) -> str:
    """The canonical form of an origin entry; raises InvalidRequest naming what is wrong."""
    text = entry.strip()
    if not text or len(text) > 300:
        raise InvalidRequest(field, f"{entry!r} must be an origin such as https://example.com")
    if "://" not in text:
        raise InvalidRequest(field, f"{entry!r} needs a scheme: write https://{text}")
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        raise InvalidRequest(field, f"{entry!r} is not a valid origin") from None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS:
        raise InvalidRequest(field, f"{entry!r} must use http or https")
    if parts.path not in ("", "/") or parts.query or parts.fragment or "?" in text or "#" in text:
        raise InvalidRequest(field, f"{entry!r} must not have a path, query or fragment")
    if parts.username or parts.password:
        raise InvalidRequest(field, f"{entry!r} must not contain credentials")
    host = (parts.hostname or "").lower()
    if not host:
        raise InvalidRequest(field, f"{entry!r} has no host")
    wildcard = host.startswith("*.")
    if wildcard:
        if not allow_wildcard:
            raise InvalidRequest(field, f"{entry!r} must not contain a wildcard")
        host = host[2:]
    host = _ascii_host(host, entry, field)
    if wildcard and ("." not in host or _public_suffixes().is_public(host)):
        raise InvalidRequest(
            field, f"{entry!r}: a wildcard needs a domain below it, e.g. https://*.example.com"
        )
    if ":" in host:  # IPv6 literal
        host = f"[{host}]"
    netloc = ("*." if wildcard else "") + host
    if port is not None and port != DEFAULT_PORTS[scheme]:
        netloc += f":{port}"
    return f"{scheme}://{netloc}"


def _ascii_host(host: str, entry: str, field: str) -> str:
    if ":" in host:
        return host
    if "*" in host or any(c in host for c in " /\\@"):
        raise InvalidRequest(field, f"{entry!r} has an invalid host")
    if host.isascii():
        return host
    try:
        return idna.encode(host, uts46=True).decode("ascii")
    except (idna.IDNAError, UnicodeError):
        raise InvalidRequest(field, f"{entry!r} has an invalid host") from None


@cache
def _public_suffixes() -> PublicSuffixList:
    return PublicSuffixList()


def normalize_origins(entries: list[str], *, field: str = "allowed_origins") -> list[str]:
    """Normalized, de-duplicated, in the order given."""
    if len(entries) > MAX_ORIGINS:
        raise InvalidRequest(field, f"at most {MAX_ORIGINS} origins")
    seen: dict[str, None] = {}
    for entry in entries:
        seen[normalize_origin(entry, field=field)] = None
    return list(seen)


@lru_cache(maxsize=4096)
def request_origin(header: str) -> str | None:
    """The normalized form of an Origin header, or None when it is not an http(s) origin.

    Cached: a site's visitors send the same few Origin headers, and every public request asks."""
    try:
        return normalize_origin(header, field="Origin", allow_wildcard=False)
    except InvalidRequest:
        return None


def origin_allowed(origin: str, allowed: frozenset[str]) -> bool:
    """`origin` is normalized; `allowed` holds normalized entries, wildcards included."""
    if origin in allowed:
        return True
    scheme, _, rest = origin.partition("://")
    host, sep, port = rest.partition(":") if not rest.startswith("[") else (rest, "", "")
    labels = host.split(".")
    for index in range(1, len(labels) - 1):
        candidate = f"{scheme}://*.{'.'.join(labels[index:])}{sep}{port}"
        if candidate in allowed:
            return True
    return False
