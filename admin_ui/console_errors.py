"""Console errors are pages, not JSON: signed-out visitors go to the login page, another organization's
objects are simply not found, and an htmx swap gets a short message in the page's alert region.

An error page carries the console's security headers and no form: no CSRF token and no logout button,
so nothing secret is reflected into a page an attacker can provoke at will."""

from __future__ import annotations

from typing import Any

from litestar import MediaType, Request, Response
from litestar.exceptions import NotAuthorizedException, PermissionDeniedException
from litestar.plugins.htmx import ClientRedirect, HTMXTemplate
from litestar.response import Redirect
from litestar.types import ExceptionHandlersMap

from admin_ui.rendering import wants_fragment
from admin_ui.security_headers import with_console_headers
from app.errors import CLASSIFIED, ErrorKind, classify

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


CONSOLE_WORDS = {
    ErrorKind.NOTHING_HERE: "There is nothing at this address.",
    ErrorKind.OUTAGE: "Hearken cannot reach its storage just now. Try again in a moment.",
    ErrorKind.FAULT: "The server failed to handle the request.",
}
"""The console's own sentences where the API's words are not for a person; refusals keep the API's."""

BAD_CSRF_TOKEN = "This form's security token was missing or did not match. Reload the page and try again."


def _page(request: Request[Any, Any, Any], exc: Exception) -> Response[Any]:
    """The API's answer as a page: same status and headers (Retry-After in an outage), in words a person
    reads."""
    answer = classify(exc, request)
    message = CONSOLE_WORDS.get(answer.kind, answer.details)
    if isinstance(exc, PermissionDeniedException) and "CSRF" in str(exc.detail):
        message = BAD_CSRF_TOKEN
    page = error_page(request, answer.status, message)
    page.headers.update(answer.headers)
    return page


CONSOLE_EXCEPTION_HANDLERS: ExceptionHandlersMap = {
    **dict.fromkeys(CLASSIFIED, _page),
    NotAuthorizedException: _signed_out,
}
