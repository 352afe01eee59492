"""The id of the request being served, in a context variable that every log line of the request reads.

A caller's `X-Request-ID` is kept when it is short and made of safe characters (so a log line cannot be
forged through it); otherwise an id is made: a random prefix per process and a counter, unique across
processes and cheaper than a UUID on the hot path.
"""

from __future__ import annotations

import itertools
import re
import secrets
from contextvars import ContextVar

HEADER = b"x-request-id"
SAFE_ID = re.compile(rb"[A-Za-z0-9._:-]{1,64}")

REQUEST_ID: ContextVar[str | None] = ContextVar("hearken_request_id", default=None)

_PREFIX = secrets.token_hex(4)
_SERIAL = itertools.count(1)


def request_id_of(headers: list[tuple[bytes, bytes]]) -> str:
    """The caller's id when it is acceptable, else a new one."""
    for name, value in headers:
        if name == HEADER:
            if SAFE_ID.fullmatch(value):
                return value.decode()
            break
    return f"{_PREFIX}-{next(_SERIAL):x}"
