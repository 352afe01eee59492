"""Failures of a tool call as MCP tool errors (`isError`), in the REST API's words: the same `error` code
and `details` sentence the API would answer, never a stack trace."""

from __future__ import annotations

import logging
import re
from typing import Any

import mcp_types as types
import msgspec
from advanced_alchemy.exceptions import NotFoundError as RepositoryNotFound
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm.exc import StaleDataError

from app.errors import (
    DELETED_MEANWHILE,
    OUTAGES,
    ApiError,
    RateLimited,
    database_unavailable,
    msgspec_violation,
)

logger = logging.getLogger("hearken.mcp")

_MISSING = re.compile(r"^Object missing required field `([^`]+)`$")
_UNKNOWN = re.compile(r"^Object contains unknown field `([^`]+)`$")


def error_result(error: str, details: str, **extra: Any) -> types.CallToolResult:
    body = {"error": error, "details": details, **extra}
    return types.CallToolResult(
        content=[types.TextContent(text=msgspec.json.encode(body).decode())],
        structured_content=body,
        is_error=True,
    )


def tool_error_body(exc: Exception) -> tuple[str, str]:
    """The API's error code and details for what a tool raised."""
    if isinstance(exc, RateLimited):
        return exc.code, exc.details
    if isinstance(exc, ApiError):
        return exc.code, exc.details
    if isinstance(exc, msgspec.ValidationError):
        return "invalid_request", argument_details(exc)
    if isinstance(exc, StaleDataError):
        return DELETED_MEANWHILE.code, DELETED_MEANWHILE.details
    if isinstance(exc, RepositoryNotFound):
        return "not_found", "no such resource"
    if isinstance(exc, OUTAGES) or (isinstance(exc, DBAPIError) and database_unavailable(exc)):
        logger.warning("tool call failed on an outage: %s", type(exc).__name__)
        return "unavailable", "the service is unavailable for a moment; nothing was changed, try again"
    logger.exception("tool call failed")
    return "internal_error", "the server failed to handle the call"


def argument_details(exc: msgspec.ValidationError) -> str:
    """msgspec's "Expected `int` <= 100 - at `$.limit`" as the API says it: "limit: Expected ..."."""
    text, field = msgspec_violation(exc)
    if missing := _MISSING.match(text):
        return f"{_join(field, missing.group(1))}: is required"
    if unknown := _UNKNOWN.match(text):
        return f"{_join(field, unknown.group(1))}: is not a known argument"
    return f"{field}: {text}" if field else f"arguments: {text}"


def _join(parent: str | None, name: str) -> str:
    return f"{parent}.{name}" if parent else name
