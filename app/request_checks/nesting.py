"""JSON bodies may nest at most MAX_DEPTH arrays and objects deep.

The decoders recurse once per level, so a few kilobytes of `[[[[...` would exhaust Python's recursion
limit inside the framework's decoding (a 500). No body we read nests deeper than a few levels, so a body
past the limit is refused as a 400 before any decoder sees it. The common body has fewer brackets than the
limit and is passed after two byte counts; only one with more is measured. A JSON text inside another
encoding (a form field) is held to the same limit under its own name.
"""

from __future__ import annotations

import re

from app.errors import InvalidRequest

MAX_DEPTH = 32
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.S)
_NOT_A_BRACKET = bytes(byte for byte in range(256) if byte not in b"[]{}")


def refuse_deep_nesting(body: bytes, field: str = "body") -> None:
    if body.count(b"[") + body.count(b"{") <= MAX_DEPTH:
        return
    if _depth_exceeds(_STRING.sub(b"", body).translate(None, _NOT_A_BRACKET), MAX_DEPTH):
        raise InvalidRequest(field, f"must not nest arrays and objects more than {MAX_DEPTH} levels deep")


def _depth_exceeds(brackets: bytes, limit: int) -> bool:
    """Each pass removes the innermost empty pairs, so a nesting of depth d is gone after d passes.
    Unbalanced leftovers stop changing: that is malformed JSON, which the decoder itself reports."""
    for _ in range(limit):
        shorter = brackets.replace(b"[]", b"").replace(b"{}", b"")
        if shorter == brackets:
            return False
        brackets = shorter
    return bool(brackets) and brackets.replace(b"[]", b"").replace(b"{}", b"") != brackets
