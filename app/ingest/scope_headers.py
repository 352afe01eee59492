"""One request header, read straight from the ASGI scope's raw list.

Litestar's `request.headers` builds a case-insensitive multidict of every header the first time it is
read, which costs more than all of a public submit's own checks; the hot paths read the one they need.
"""

from __future__ import annotations

from litestar.types import Scope


def first_header(scope: Scope, name: bytes) -> str | None:
    """The first value of header `name` (lower-case, as ASGI gives names), decoded as latin-1."""
    for key, value in scope["headers"]:
        if key == name:
            return value.decode("latin-1")
    return None
