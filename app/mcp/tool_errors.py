"""Failures of a tool call as MCP tool errors (`isError`), in the REST API's words: the same `error` code
and `details` sentence the API would answer, never a stack trace."""

from __future__ import annotations

import re
from typing import Any

import mcp_types as types
import msgspec

from app.errors import ErrorKind, classify, missing_field, msgspec_violation

_UNKNOWN = re.compile(r"^Object contains unknown field `([^`]+)`$")

TOOL_WORDS = {
    ErrorKind.OUTAGE: "the service is unavailable for a moment; nothing was changed, try again",
    ErrorKind.FAULT: "the server failed to handle the call",
}
"""An assistant's own sentences for what the API words for an HTTP client."""


def error_result(error: str, details: str, **extra: Any) -> types.CallToolResult:
    body = {"error": error, "details": details, **extra}
    return types.CallToolResult(
        content=[types.TextContent(text=msgspec.json.encode(body).decode())],
        structured_content=body,
        is_error=True,
    )


def tool_error_body(exc: Exception) -> tuple[str, str]:
    """The API's error code and details for what a tool raised; arguments refused by msgspec are named
    as the tool's arguments."""
    if isinstance(exc, msgspec.ValidationError):
        return "invalid_request", argument_details(exc)
    answer = classify(exc)
    return answer.error, TOOL_WORDS.get(answer.kind, answer.details)


def argument_details(exc: msgspec.ValidationError) -> str:
    """msgspec's "Expected `int` <= 100 - at `$.limit`" as the API says it: "limit: Expected ..."."""
    text, field = msgspec_violation(exc)
    if (missing := missing_field(text)) is not None:
        return f"{_join(field, missing)}: is required"
    if unknown := _UNKNOWN.match(text):
        return f"{_join(field, unknown.group(1))}: is not a known argument"
    return f"{field}: {text}" if field else f"arguments: {text}"


def _join(parent: str | None, name: str) -> str:
    return f"{parent}.{name}" if parent else name
