"""An organization that requires two-factor authentication sends each member without a factor to set one
up before anything else in the console: every page but their account's (where factors are set up) and
logging out answers with a redirect to it."""

from __future__ import annotations

from typing import Any

from litestar import Request, Response
from litestar.connection import ASGIConnection
from litestar.handlers import BaseRouteHandler
from litestar.plugins.htmx import ClientRedirect
from litestar.response import Redirect

from admin_ui.console_user import ConsoleUser
from admin_ui.rendering import wants_fragment
from admin_ui.security_headers import with_console_headers

SETUP_ALLOWED = "second_factor_setup"
"""A handler `opt` flag: open to a member who still has to set up a second factor."""
SETUP_PAGE = "/account?done=required"


class SecondFactorRequired(Exception):
    """The member must set up a second factor first."""


async def second_factor_gate(
    connection: ASGIConnection[Any, Any, Any, Any], handler: BaseRouteHandler
) -> None:
    if handler.opt.get("exclude_from_auth") or handler.opt.get(SETUP_ALLOWED):
        return
    user = connection.scope.get("user")
    if isinstance(user, ConsoleUser) and user.needs_second_factor:
        raise SecondFactorRequired


def to_setup(request: Request[Any, Any, Any], _: SecondFactorRequired) -> Response[Any]:
    if wants_fragment(request):
        return with_console_headers(ClientRedirect(SETUP_PAGE))
    return with_console_headers(Redirect(SETUP_PAGE, status_code=303))
