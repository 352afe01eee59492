"""The consent page of an AI assistant connecting by OAuth: "Allow {client} to read and change feedback
of {organization}?". A member of several organizations chooses one first, among those whose sign-in
policy this session meets (tenants/sign_in_reach.py: signed in through that organization's provider where
it requires single sign-on, with a second factor where it requires one); the others are named, with how
to reach them. The answer is checked the same way again. Allow sends the assistant's browser back with a
one-time code, Deny with access_denied; the assistant then holds tokens bound to that organization and
acting with the member's role (tenants/connected_apps.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlencode, urlsplit, urlunsplit
from uuid import UUID

from litestar import Controller, Response, get, post
from litestar.exceptions import NotAuthorizedException
from litestar.plugins.htmx import HTMXRequest
from litestar.response import Redirect
from sqlalchemy.ext.asyncio import AsyncSession

from admin_ui.console_user import ConsoleUser, session_member
from admin_ui.controllers.auth import PUBLIC
from admin_ui.forms import Form
from admin_ui.rendering import render
from admin_ui.security_headers import CONTENT_SECURITY_POLICY
from app.db.models import OAuthAuthorization
from app.errors import Forbidden
from tenants.connected_apps import approve, deny, pending_authorization
from tenants.permissions import needs
from tenants.scope import Access
from tenants.sign_in_reach import MemberOrganization, reach_of


@dataclass
class ConsentForm:
    decision: str = ""
    org_id: str = ""


class ConnectController(Controller):
    path = "/connect"
    include_in_schema = False

    @get("/{secret:str}", opt=PUBLIC)
    async def consent_page(
        self, request: HTMXRequest, db_session: AsyncSession, secret: str, org: str | None = None
    ) -> Any:
        """Public so that a signed-out member is sent to log in and brought back here."""
        try:
            me = await session_member(request)
        except NotAuthorizedException:
            return Redirect(f"/login?{urlencode({'next': f'/connect/{secret}'})}", status_code=303)
        pending = await pending_authorization(db_session, secret)
        if pending is None:
            return _expired(request)
        authorization, client = pending
        reach = await reach_of(db_session, me.user_id, me.signed_in)
        response = render(
            request,
            "connect.html",
            client_name=client.name,
            redirect_host=urlsplit(authorization.redirect_uri).netloc or authorization.redirect_uri,
            organizations=reach.reached,
            out_of_reach=reach.out_of_reach,
            chosen=_chosen(reach.reached, org),
            secret=secret,
        )
        response.headers["Content-Security-Policy"] = _allowing_redirect_to(authorization)
        return response

    @post("/{secret:str}", opt=needs(Access.READ))
    async def answer(
        self,
        request: HTMXRequest,
        db_session: AsyncSession,
        me: ConsoleUser,
        secret: str,
        data: Form[ConsentForm],
    ) -> Any:
        pending = await pending_authorization(db_session, secret)
        if pending is None:
            return _expired(request)
        authorization, _ = pending
        if data.decision == "allow":
            try:
                org_id = UUID(data.org_id)
            except ValueError:
                return _expired(request)
            try:
                code = await approve(db_session, authorization, org_id, me.user_id, me.signed_in)
            except Forbidden:
                return _not_signed_in(request)
            answer = {"code": code}
        else:
            await deny(db_session, authorization)
            answer = {"error": "access_denied", "error_description": "the member denied the request"}
        if authorization.state is not None:
            answer["state"] = authorization.state
        response: Response[Any] = Redirect(_with_query(authorization.redirect_uri, answer), status_code=303)
        response.headers["Content-Security-Policy"] = _allowing_redirect_to(authorization)
        return response


def _chosen(organizations: list[MemberOrganization], org: str | None) -> MemberOrganization | None:
    """The organization asked for, if this session reaches it; with none asked for, the only one."""
    if org is None:
        return organizations[0] if len(organizations) == 1 else None
    return next((o for o in organizations if str(o.org_id) == org), None)


def _not_signed_in(request: HTMXRequest) -> Any:
    return render(
        request,
        "error.html",
        status_code=403,
        title="Sign in to that organization first",
        message=(
            "This session does not meet that organization's sign-in policy (single sign-on, two-factor "
            "authentication). Log out, sign in as it requires, and connect again from your assistant."
        ),
    )


def _expired(request: HTMXRequest) -> Any:
    return render(
        request,
        "error.html",
        status_code=404,
        title="This connection request has expired",
        message="Start connecting again from your assistant: requests are valid for ten minutes and once.",
    )


def _with_query(uri: str, params: dict[str, str]) -> str:
    parts = urlsplit(uri)
    query = "&".join(filter(None, [parts.query, urlencode(params, quote_via=quote)]))
    return urlunsplit(parts._replace(query=query))


def _allowing_redirect_to(authorization: OAuthAuthorization) -> str:
    """The console's CSP, with the assistant's redirect target allowed as where the form may lead:
    browsers apply form-action to the redirect that follows the post."""
    parts = urlsplit(authorization.redirect_uri)
    target = f"{parts.scheme}://{parts.netloc}" if parts.netloc else f"{parts.scheme}:"
    return CONTENT_SECURITY_POLICY.replace("form-action 'self'", f"form-action 'self' {target}")
