"""The authorization endpoint (GET or POST /authorize): the `mcp` package's, behind a check that sends the
browser nowhere until the client and its redirect URI are known.

An unknown client, a missing redirect_uri, one the client did not register exactly, or one our rules no
longer allow (app/mcp/redirect_uris.py; a client registered before them) is answered with a page
of our own (400), never a redirect: the address was not the client's to name. Only then does the
package check the rest (PKCE, response type) and send its errors, as OAuth asks, to that redirect URI.
"""

from __future__ import annotations

from mcp.server.auth.handlers.authorize import AuthorizationHandler
from mcp.server.auth.routes import AUTHORIZATION_PATH
from mcp.server.transport_security import DEFAULT_MAX_REQUEST_BODY_SIZE, RequestBodyLimitMiddleware
from mcp.shared.auth import InvalidRedirectUriError
from pydantic import AnyUrl, TypeAdapter, ValidationError
from starlette.datastructures import FormData, QueryParams
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route, request_response

from app.mcp.oauth_provider import HearkenOAuthProvider
from app.mcp.redirect_uris import redirect_uri_refused

PAGE_TITLE = "This connection request cannot be used"
PAGE_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; form-action 'self'; frame-ancestors 'none'; "
    "base-uri 'none'; object-src 'none'",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}
_URL = TypeAdapter(AnyUrl)


class CheckedAuthorization(AuthorizationHandler):
    async def handle(self, request: Request) -> Response:
        params = request.query_params if request.method == "GET" else await request.form()
        if why := await self.refused(params):
            return _refusal_page(request, why)
        return await super().handle(request)  # the form read above is kept by the request

    async def refused(self, params: QueryParams | FormData) -> str | None:
        """Why the request may not lead anywhere, in words for the member; None when its client and
        redirect URI are known."""
        client_id = params.get("client_id")
        client = await self.provider.get_client(client_id) if isinstance(client_id, str) else None
        if client is None:
            return "The assistant asking to connect is not registered with this server."
        uri = params.get("redirect_uri")
        if not isinstance(uri, str) or not uri:
            return "The request does not say where to send you back (it has no redirect_uri)."
        try:
            registered = client.validate_redirect_uri(_URL.validate_python(uri))
        except (ValidationError, InvalidRedirectUriError):
            return "The address it asks to send you back to is not one the assistant registered."
        if redirect_uri_refused(str(registered)):
            return "The address it asks to send you back to is not allowed on this server."
        return None


def authorization_route(provider: HearkenOAuthProvider) -> Route:
    """The package's route, with our check in front (and the package's body limit around both)."""
    handler = CheckedAuthorization(provider)
    return Route(
        AUTHORIZATION_PATH,
        endpoint=RequestBodyLimitMiddleware(request_response(handler.handle), DEFAULT_MAX_REQUEST_BODY_SIZE),
        methods=["GET", "POST"],
    )


def _refusal_page(request: Request, why: str) -> Response:
    """The console's error page, in its bare form (no sign-in, no form)."""
    engine = request.scope["litestar_app"].template_engine
    message = f"{why} Start connecting again from your assistant; if this keeps happening, tell its maker."
    page = engine.get_template("error.html").render(bare=True, title=PAGE_TITLE, message=message)
    return HTMLResponse(page, status_code=400, headers=PAGE_HEADERS)
