"""Console errors are pages, not JSON: signed-out visitors go to the login page, another organization's
objects are simply not found, and an htmx swap gets a short message in the page's alert region.

An error page carries the console's security headers and no form: no CSRF token and no logout button,
so nothing secret is reflected into a page an attacker can provoke at will."""

from __future__ import annotations

from typing import Any

from litestar import MediaType, Request, Response
from litestar.exceptions import (
    HTTPException,
    NotAuthorizedException,
    PermissionDeniedException,
    ValidationException,
)
from litestar.plugins.htmx import ClientRedirect, HTMXTemplate
from litestar.response import Redirect
from litestar.types import ExceptionHandlersMap
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm.exc import StaleDataError

from admin_ui.rendering import wants_fragment
from admin_ui.security_headers import with_console_headers
from app.errors import (
    DELETED_MEANWHILE,
    OUTAGES,
    ApiError,
    RateLimited,
    database_unavailable,
    logger,
    validation_details,
)

TITLES = {
    400: "That request could not be used",
    403: "Not allowed",
    404: "Not found",
    405: "Not allowed",
    429: "Too many attempts",
    500: "Something went wrong",
    503: "Temporarily unavailable",
}


def error_page(request: Request[Any, Any, Any], status: int, message: str) -> Response[Any]:
    context = {
        "me": request.scope.get("user"),
        "status": status,
        "title": TITLES.get(status, "Error"),
        "message": message,
        "bare": True,
    }
    if wants_fragment(request):
        return with_console_headers(
            HTMXTemplate(
                template_name="partials/_error.html",
                context=context,
                status_code=status,
                re_target="#alerts",
                re_swap="innerHTML",
                media_type=MediaType.HTML,
            )
        )
    return with_console_headers(
        HTMXTemplate(
            template_name="error.html", context=context, status_code=status, media_type=MediaType.HTML
        )
    )


def _signed_out(request: Request[Any, Any, Any], _: NotAuthorizedException) -> Response[Any]:
    if wants_fragment(request):
        return with_console_headers(ClientRedirect("/login"))
    return with_console_headers(Redirect("/login", status_code=303))


def _api_error(request: Request[Any, Any, Any], exc: ApiError) -> Response[Any]:
    if isinstance(exc, RateLimited):
        return error_page(request, 429, exc.details)
    return error_page(request, exc.status_code, exc.details)


def _deleted_meanwhile(request: Request[Any, Any, Any], _: StaleDataError) -> Response[Any]:
    return _api_error(request, DELETED_MEANWHILE)


def _http_error(request: Request[Any, Any, Any], exc: HTTPException) -> Response[Any]:
    if isinstance(exc, PermissionDeniedException) and "CSRF" in str(exc.detail):
        return error_page(
            request,
            403,
            "This form's security token was missing or did not match. Reload the page and try again.",
        )
    if exc.status_code >= 500:
        logger.error("console error: %s", exc.detail)
        return error_page(request, 500, "The server failed to handle the request.")
    if exc.status_code == 404:
        return error_page(request, 404, "There is nothing at this address.")
    return error_page(request, exc.status_code, str(exc.detail))


def _validation_error(request: Request[Any, Any, Any], exc: ValidationException) -> Response[Any]:
    return error_page(request, 400, validation_details(exc))


def _outage(request: Request[Any, Any, Any], exc: Exception) -> Response[Any]:
    """The database or Redis (where sessions live) not answering: a page that says to come back, with
    the same 503 and Retry-After the API gives."""
    if isinstance(exc, DBAPIError) and not database_unavailable(exc):
        return _unexpected(request, exc)
    logger.error("console unavailable: %s", type(exc).__name__)
    page = error_page(request, 503, "Hearken cannot reach its storage just now. Try again in a moment.")
    page.headers["Retry-After"] = "5"
    return page


def _unexpected(request: Request[Any, Any, Any], exc: Exception) -> Response[Any]:
    logger.exception("unhandled console error", exc_info=exc)
    return error_page(request, 500, "The server failed to handle the request.")


CONSOLE_EXCEPTION_HANDLERS: ExceptionHandlersMap = {
    NotAuthorizedException: _signed_out,
    ApiError: _api_error,
    HTTPException: _http_error,
    ValidationException: _validation_error,
    StaleDataError: _deleted_meanwhile,
    DBAPIError: _outage,
    **dict.fromkeys(OUTAGES, _outage),
    Exception: _unexpected,
}
