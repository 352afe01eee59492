"""Page globs of a survey's trigger, matched against the pathname: `*` stays within one path segment,
`**` crosses segments; every other character is itself. The widget's loader matches the same way."""

from __future__ import annotations

import re
from functools import lru_cache

GLOB_MAX_LENGTH = 512


def glob_problem(glob: str) -> str | None:
    """Why `glob` is not a page glob, or None."""
    if not glob.startswith("/"):
        return "must start with /"
    if len(glob) > GLOB_MAX_LENGTH:
        return f"must be at most {GLOB_MAX_LENGTH} characters"
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in glob):
        return "must not contain control characters"
    if "***" in glob:
        return "* matches within a segment and ** across segments; *** means nothing"
    return None


@lru_cache(maxsize=1024)
def glob_pattern(glob: str) -> re.Pattern[str]:
    parts = re.split(r"(\*\*|\*)", glob)
    body = "".join(".*" if p == "**" else "[^/]*" if p == "*" else re.escape(p) for p in parts)
    return re.compile(f"^{body}$")


def page_matches(path: str, pages: list[str], exclude_pages: list[str]) -> bool:
    """Whether a trigger with these globs shows on `path` (no pages: every page)."""
    if any(glob_pattern(glob).match(path) for glob in exclude_pages):
        return False
    return not pages or any(glob_pattern(glob).match(path) for glob in pages)
