"""Signing in through the organization's identity provider: "Sign in with SSO" asks the email, finds the
organization that claimed its domain and sends the browser to its provider; the callback checks the
state, trades the code (with the PKCE verifier) for an ID token, checks it and signs the member in,
creating the account and membership at a first sign-in.

What the callback must find again (state, nonce, PKCE verifier, organization) waits in the console
session for ten minutes and is used once. Each callback is counted by the login throttle against the
email typed, like a password check: failures wait, a sign-in clears the count.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass
from typing import Annotated, Any
from uuid import UUID

from litestar import Controller, get, post
from litestar.params import Parameter
from litestar.plugins.htmx import HTMXRequest
from litestar.response import Redirect
from sqlalchemy.ext.asyncio import AsyncSession

from admin_ui.controllers.auth import HOME, PUBLIC, sign_in, too_many
from admin_ui.controllers.saml_service import open_ticket, service_provider
from admin_ui.controllers.sso_settings import redirect_uri
from admin_ui.forms import Form
from admin_ui.login_throttle import login_client, login_throttle
from admin_ui.rendering import render
from admin_ui.saml_request_ids import new_request_id
from app.config import Settings
from app.db.actor import current_actor
from app.db.models import SsoConnection
from app.db.models.sso_connection import OPENID_CONNECT, SAML
from app.db.secret_box import SSO_CLIENT_SECRETS, secret_box
from app.errors import InvalidRequest
from app.integrations.openid_connect import OpenIdClient, SsoFailure
from app.integrations.saml_service_provider import SamlFailure, sign_in_request
from tenants.organizations import normalize_email
from tenants.sign_in_reach import SignIn
from tenants.single_sign_on import (
    NotAMember,
    claims_domain,
    connection_for_email,
    connection_of,
    member_signing_in,
)

PENDING = "sso_pending"
SAML_PENDING = "saml_pending"
PENDING_SECONDS = 600
NO_ORGANIZATION = (
    "No organization signs in with single sign-on at this address's domain. Log in with your password."
)
START_AGAIN = "This sign-in is not valid any more. Start again."


@dataclass
class SsoStartForm:
    email: str = ""


def _refused(request: HTMXRequest, message: str, *, status_code: int = 400, email: str = "") -> Any:
    return render(
        request, "sso_login.html", status_code=status_code, values={"email": email}, errors={"form": message}
    )


def verified_email(claims: dict[str, Any]) -> str:
    """The address the provider vouches for. `email_verified` must be true when the provider sends it;
    a provider that never sends it (Microsoft Entra ID, for one) is trusted for the addresses of the
    organization's own domains, which its directory manages."""
    email = claims.get("email")
    if not isinstance(email, str) or not email:
        raise SsoFailure("the provider sent no email address; allow the email scope")
    if "email_verified" in claims and claims["email_verified"] not in (True, "true"):
        raise SsoFailure("the provider has not verified this email address")
    return email


class SsoLoginController(Controller):
    path = "/login/sso"
    include_in_schema = False

    @get("/", opt=PUBLIC)
    async def page(self, request: HTMXRequest) -> Any:
        return render(request, "sso_login.html", values={}, errors={})

    @post("/", opt=PUBLIC)
    async def start(self, request: HTMXRequest, db_session: AsyncSession, data: Form[SsoStartForm]) -> Any:
        email = data.email.strip()
        connection = await connection_for_email(db_session, email)
        if connection is None:
            return render(
                request,
                "sso_login.html",
                status_code=400,
                values={"email": email},
                errors={"email": NO_ORGANIZATION},
            )
        if connection.protocol == SAML:
            return await self._start_saml(request, connection, email)
        settings: Settings = request.app.state.settings
        client: OpenIdClient = request.app.state.openid_client
        try:
            sent = await client.authorization(
                connection.issuer, connection.client_id, redirect_uri(settings), email
            )
        except SsoFailure as exc:
            return _refused(
                request, f"Your identity provider cannot be reached now: {exc}.", status_code=502, email=email
            )
        pending = {
            "state": sent.state,
            "nonce": sent.nonce,
            "verifier": sent.code_verifier,
            "org_id": str(connection.org_id),
            "email": email,
            "until": time.time() + PENDING_SECONDS,
        }
        request.set_session({**(request.session or {}), PENDING: pending})
        # A page that moves on by itself rather than a redirect: the console's CSP lets forms lead only
        # to this server (browsers hold the redirect after a post to form-action too), and the
        # provider is known only once the address is typed.
        return render(request, "sso_redirect.html", url=sent.url)

    @staticmethod
    async def _start_saml(request: HTMXRequest, connection: SsoConnection, email: str) -> Any:
        """An authentication request by the HTTP-Redirect binding; its id waits in the session, so that
        only the browser that started the sign-in can finish it."""
        settings: Settings = request.app.state.settings
        request_id = new_request_id(settings, connection.org_id)
        sp = service_provider(settings, connection.org_id)
        try:
            sent = await sign_in_request(sp, connection.saml_metadata or "", request_id)
        except SamlFailure as exc:
            return _refused(
                request, f"Single sign-on is not set up right: {exc}.", status_code=502, email=email
            )
        pending = {
            "request_id": sent.request_id,
            "org_id": str(connection.org_id),
            "email": email,
            "until": time.time() + PENDING_SECONDS,
        }
        request.set_session({**(request.session or {}), SAML_PENDING: pending})
        return render(request, "sso_redirect.html", url=sent.url)

    @get("/saml", opt=PUBLIC)
    async def saml_finish(self, request: HTMXRequest, db_session: AsyncSession, ticket: str = "") -> Any:
        """Where the assertion consumer service sends the browser once the response checked out."""
        settings: Settings = request.app.state.settings
        pending = (request.session or {}).get(SAML_PENDING)
        vouched = open_ticket(settings, ticket[:2000])
        if (
            not isinstance(pending, dict)
            or vouched is None
            or vouched["request_id"] != pending["request_id"]
            or vouched["org_id"] != pending["org_id"]
        ):
            return _refused(request, START_AGAIN)
        request.set_session({**request.session, SAML_PENDING: None})
        email, signed_in_as = pending["email"], vouched["email"]
        throttle, client_network = login_throttle(request), login_client(request)
        if wait := await throttle.reserve_password_check(email, client_network):
            return _refused(request, too_many(wait), status_code=429, email=email)
        org_id = UUID(pending["org_id"])
        connection = await connection_of(db_session, org_id)
        if connection is None or connection.protocol != SAML:
            return _refused(
                request, "Single sign-on over SAML is off for this organization now.", email=email
            )
        return await _member_signed_in(request, db_session, org_id, signed_in_as, email)

    @get("/callback", opt=PUBLIC)
    async def callback(
        self,
        request: HTMXRequest,
        db_session: AsyncSession,
        returned_state: Annotated[str | None, Parameter(query="state")] = None,
        code: str | None = None,
        error: str | None = None,
        iss: str | None = None,
    ) -> Any:
        pending = (request.session or {}).get(PENDING)
        state = returned_state or ""
        if not isinstance(pending, dict) or not secrets.compare_digest(state, pending["state"]):
            return _refused(request, START_AGAIN)
        # used once; the session itself stays, so the CSRF token of the page answered here stays good
        request.set_session({**request.session, PENDING: None})
        email = pending["email"]
        if pending["until"] < time.time():
            return _refused(request, START_AGAIN, email=email)
        throttle, client_network = login_throttle(request), login_client(request)
        if wait := await throttle.reserve_password_check(email, client_network):
            return _refused(request, too_many(wait), status_code=429, email=email)
        org_id = UUID(pending["org_id"])
        connection = await connection_of(db_session, org_id)
        if connection is None or connection.protocol != OPENID_CONNECT:
            return _refused(request, "Single sign-on is off for this organization now.", email=email)
        if error or not code:
            return _refused(
                request,
                f"Your identity provider did not sign you in ({(error or 'no code')[:100]}).",
                email=email,
            )
        if iss is not None and iss != connection.issuer:
            return _refused(request, "The answer came from another identity provider.", email=email)
        settings: Settings = request.app.state.settings
        secret = secret_box(settings.secret_key, SSO_CLIENT_SECRETS).open(connection.sealed_client_secret)
        if secret is None:
            return _refused(
                request, "The client secret cannot be read: an admin must enter it again.", email=email
            )
        openid: OpenIdClient = request.app.state.openid_client
        try:
            claims = await openid.verified_claims(
                issuer=connection.issuer,
                client_id=connection.client_id,
                client_secret=secret,
                redirect_uri=redirect_uri(settings),
                code=code,
                code_verifier=pending["verifier"],
                nonce=pending["nonce"],
            )
            signed_in_as = verified_email(claims)
        except SsoFailure as exc:
            return _refused(request, f"Single sign-on failed: {exc}.", email=email)
        return await _member_signed_in(request, db_session, org_id, signed_in_as, email)


async def _member_signed_in(
    request: HTMXRequest, db_session: AsyncSession, org_id: UUID, signed_in_as: str, email: str
) -> Any:
    """The provider vouched for `signed_in_as`: signed in as that member of the organization (created at
    a first sign-in), for that organization only, when the address is at one of its proven domains."""
    if not await claims_domain(db_session, org_id, signed_in_as):
        return _refused(
            request, f"{signed_in_as} is not at one of this organization's email domains.", email=email
        )
    current_actor.set(f"{normalize_email(signed_in_as)} (single sign-on)")
    try:
        user, _ = await member_signing_in(db_session, org_id, signed_in_as)
    except NotAMember:
        message = f"{signed_in_as} has an account outside this organization: ask an admin to invite you."
        return _refused(request, message, status_code=403, email=email)
    except InvalidRequest:
        return _refused(request, f"{signed_in_as} cannot be used as an account's address.", email=email)
    await login_throttle(request).succeeded(email, login_client(request))
    sign_in(request, user, org_id, SignIn(only_org_id=org_id))
    return Redirect(HOME, status_code=303)
