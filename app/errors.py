"""Every error leaves as `{"error": <code>, "details": <sentence>}`."""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import msgspec
from advanced_alchemy.exceptions import NotFoundError as RepositoryNotFound
from litestar import MediaType, Request, Response
from litestar.exceptions import HTTPException, SerializationException, ValidationException
from litestar.openapi.datastructures import ResponseSpec
from litestar.types import ExceptionHandlersMap
from redis.exceptions import RedisError
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.orm.exc import StaleDataError

logger = logging.getLogger("hearken")

CODES = {
    400: "invalid_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "payload_too_large",
    415: "unsupported_media_type",
    429: "rate_limited",
    500: "internal_error",
    502: "upstream_error",
    503: "unavailable",
}


class ErrorBody(msgspec.Struct):
    """The body of every error response."""

    error: str
    details: str


class RateLimitedBody(msgspec.Struct):
    error: str
    details: str
    retry_after: int


class ApiError(Exception):
    """A domain error with its HTTP status; raised anywhere below the HTTP layer."""

    status_code = 400
    code = "invalid_request"

    def __init__(self, details: str, *, headers: dict[str, str] | None = None) -> None:
        super().__init__(details)
        self.details = details
        self.headers = headers or {}

    def body(self) -> dict[str, Any]:
        return {"error": self.code, "details": self.details}


class InvalidRequest(ApiError):
    def __init__(self, field: str, rule: str) -> None:
        super().__init__(f"{field}: {rule}")
        self.field = field


def msgspec_violation(exc: msgspec.ValidationError) -> tuple[str, str | None]:
    """msgspec's "Expected `int` <= 100 - at `$.limit`" as (rule, field): ("Expected `int` <= 100",
    "limit"); a field inside a list reads "labels[0]"; None when the message names no field or names the
    whole body. Every place that words a msgspec refusal reads it here."""
    text = str(exc)
    rule, at, location = text.rpartition(" - at `$")
    if not at:
        return text, None
    return rule, location.rstrip("`").removeprefix(".") or None


class Unauthorized(ApiError):
    status_code = 401
    code = "unauthorized"


class Forbidden(ApiError):
    status_code = 403
    code = "forbidden"


class OriginNotAllowed(ApiError):
    status_code = 403
    code = "origin_not_allowed"


class NotFound(ApiError):
    status_code = 404
    code = "not_found"


class Conflict(ApiError):
    """The request is sound but the resource is already in the state it would create."""

    status_code = 409
    code = "conflict"


class PayloadTooLarge(ApiError):
    status_code = 413
    code = "payload_too_large"


class UnsupportedMediaType(ApiError):
    status_code = 415
    code = "unsupported_media_type"


class TooManyStreams(ApiError):
    """A live stream beyond one of the limits on open streams; `details` names the limit."""

    status_code = 429
    code = "too_many_streams"

    def __init__(self, details: str) -> None:
        super().__init__(details, headers={"Retry-After": "30"})


class RateLimited(ApiError):
    status_code = 429
    code = "rate_limited"

    def __init__(self, retry_after: int, spent: str | None = None) -> None:
        """`spent` names the budget when it is not the requests' own, as in "attachments: ..."."""
        self.retry_after = max(1, retry_after)
        super().__init__(
            f"{spent or 'too many requests'}; retry after {self.retry_after} seconds",
            headers={"Retry-After": str(self.retry_after)},
        )

    def body(self) -> dict[str, Any]:
        return {**super().body(), "retry_after": self.retry_after}


class InvalidSignature(ApiError):
    """A signed delivery whose signature is missing, malformed, wrong or too old."""

    code = "invalid_signature"


class UpstreamError(ApiError):
    """A third-party service refused or failed a request made on the caller's behalf."""

    status_code = 502
    code = "upstream_error"


class Unavailable(ApiError):
    status_code = 503
    code = "unavailable"


class ErrorKind(StrEnum):
    """What a failure is to the caller; each way in may word the last three in its own voice."""

    REFUSAL = "refusal"
    """The request cannot be served as sent: `details` tell the caller why, on every way in."""
    NOTHING_HERE = "nothing_here"
    """No route or no row at that address."""
    OUTAGE = "outage"
    """The database or Redis not answering for a moment."""
    FAULT = "fault"
    """A fault of ours, logged; the caller learns nothing of it."""


@dataclass(frozen=True, slots=True)
class ErrorClass:
    """How an exception is answered: the API's status, `error` code, `details` and headers."""

    kind: ErrorKind
    status: int
    error: str
    details: str
    headers: Mapping[str, str] = field(default_factory=dict)
    retry_after: int | None = None

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"error": self.error, "details": self.details}
        if self.retry_after is not None:
            body["retry_after"] = self.retry_after
        return body


def _of_status(
    kind: ErrorKind, status: int, details: str, headers: Mapping[str, str] | None = None
) -> ErrorClass:
    error = CODES.get(status, "invalid_request" if status < 500 else "internal_error")
    return ErrorClass(kind, status, error, details, headers or {})


DELETED_MEANWHILE = NotFound("it was deleted while this request was changing it")
"""What a change to a row deleted meanwhile answers (SQLAlchemy's StaleDataError: the UPDATE matched no
row): a PATCH racing a DELETE is 404 like one that came after it, on every route and every way in."""

NO_SUCH_RESOURCE = _of_status(ErrorKind.NOTHING_HERE, 404, "no such resource")
UNAVAILABLE = _of_status(
    ErrorKind.OUTAGE, 503, "the service is unavailable; try again shortly", {"Retry-After": "5"}
)
SERVER_FAULT = _of_status(ErrorKind.FAULT, 500, "the server failed to handle the request")

OUTAGES: tuple[type[Exception], ...] = (PoolTimeout, TimeoutError, RedisError)
"""No free database connection in time, a statement past its deadline, Redis not answering (console
sessions live there): the service is unavailable for a moment, not broken."""


def classify(exc: Exception, request: Request[Any, Any, Any] | None = None) -> ErrorClass:
    """The one reading of what went wrong, for the API, the console and MCP alike; it logs what an
    operator must see. The request, when there is one, holds the words of its route's body limit."""
    if isinstance(exc, StaleDataError):
        exc = DELETED_MEANWHILE
    if isinstance(exc, ApiError):
        retry_after = exc.retry_after if isinstance(exc, RateLimited) else None
        return ErrorClass(ErrorKind.REFUSAL, exc.status_code, exc.code, exc.details, exc.headers, retry_after)
    if isinstance(exc, ValidationException):
        return _of_status(ErrorKind.REFUSAL, 400, validation_details(exc))
    if isinstance(exc, HTTPException):
        return _framework_refusal(exc, request)
    if isinstance(exc, RepositoryNotFound):
        return NO_SUCH_RESOURCE
    if isinstance(exc, OUTAGES) or (isinstance(exc, DBAPIError) and database_unavailable(exc)):
        cause = exc.orig if isinstance(exc, DBAPIError) else exc
        logger.error("unavailable: %s", type(cause).__name__)
        return UNAVAILABLE
    logger.error("unhandled error", exc_info=exc)
    return SERVER_FAULT


def _framework_refusal(exc: HTTPException, request: Request[Any, Any, Any] | None) -> ErrorClass:
    status = exc.status_code
    if status == 404:
        return NO_SUCH_RESOURCE
    if status == 405:
        return _of_status(ErrorKind.REFUSAL, 405, "this method is not allowed on this path", exc.headers)
    if status == 413:
        handler = request.scope.get("route_handler") if request is not None else None
        details = handler.opt.get(TOO_LARGE_DETAILS) if handler is not None else None
        return _of_status(ErrorKind.REFUSAL, 413, details or "request body is larger than 64 KiB")
    if status == 400 and isinstance(exc.__cause__, SerializationException):
        return _of_status(ErrorKind.REFUSAL, 400, f"body: {exc.detail}")
    if status >= 500:
        logger.error("server error: %s", exc.detail)
        return SERVER_FAULT
    return _of_status(ErrorKind.REFUSAL, status, str(exc.detail), exc.headers)


def database_unavailable(exc: DBAPIError) -> bool:
    """The database could not be reached or dropped the connection: an outage, not a broken query."""
    return isinstance(exc, OperationalError | InterfaceError) or exc.connection_invalidated


def validation_details(exc: ValidationException) -> str:
    """Name the field: Litestar puts the failing keys and messages in `extra`."""
    problems = exc.extra if isinstance(exc.extra, list) else []
    parts = []
    for problem in problems:
        if not isinstance(problem, dict):
            continue
        message = str(problem.get("message", "is invalid"))
        key = problem.get("key")
        if key == "data":  # the body as a whole; "'data'" is msgspec's word for it being absent
            key, message = "body", ("a JSON object is required" if message == "'data'" else message)
        if (name := missing_field(message)) is not None:
            key, message = (name if key in (None, "body") else f"{key}.{name}"), "is required"
        if key and not message.startswith("JSON is malformed"):
            parts.append(f"{key}: {message}")
        else:
            parts.append(f"body: {message}")
    return "; ".join(parts) or "body: the request could not be read"


_MISSING_FIELD = re.compile(r"^Object missing required field `([^`]+)`")


def missing_field(rule: str) -> str | None:
    """The field msgspec's "Object missing required field `title`" names, else None."""
    missing = _MISSING_FIELD.match(rule)
    return missing.group(1) if missing else None


TOO_LARGE_DETAILS = "too_large_details"
"""Route opt: what a 413 from the framework's body limit says on a route with a limit of its own."""


def _answer(request: Request[Any, Any, Any], exc: Exception) -> Response[Any]:
    answer = classify(exc, request)
    return Response(
        answer.body(), status_code=answer.status, media_type=MediaType.JSON, headers=dict(answer.headers)
    )


CLASSIFIED: tuple[type[Exception], ...] = (
    ApiError,
    ValidationException,
    HTTPException,
    RepositoryNotFound,
    StaleDataError,
    DBAPIError,
    *OUTAGES,
    Exception,
)
"""What `classify` tells apart; a router's own handlers name them all, so none of the application's
handlers (merged key by key) can stand in for the router's."""

EXCEPTION_HANDLERS: ExceptionHandlersMap = dict.fromkeys(CLASSIFIED, _answer)


def error_responses(*statuses: int) -> dict[int, ResponseSpec]:
    """OpenAPI descriptions of the error bodies a route can answer with."""
    specs = {}
    for status in statuses:
        body = RateLimitedBody if status == 429 else ErrorBody
        specs[status] = ResponseSpec(data_container=body, description=CODES[status])
    return specs
