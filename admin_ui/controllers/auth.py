"""Sign up, log in, log out, accept an invitation; `/` sends each visitor where they belong."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from litestar import Controller, Response, get, post
from litestar.plugins.htmx import HTMXRequest
from litestar.response import Redirect
from sqlalchemy.ext.asyncio import AsyncSession

from admin_ui.console_user import SESSION_STAMP_PURPOSE, session_stamp
from admin_ui.forms import Form, field_error, form_values
from admin_ui.login_throttle import login_client, login_throttle
from admin_ui.rendering import go_to, render
from admin_ui.sessions import ROTATE, derived_secret
from app.config import Settings
from app.errors import InvalidRequest
from app.mail.languages import preferred_language
from app.services.email_verification import sign_up_confirming
from tenants.accounts import authenticate, first_membership
from tenants.invitations import accept_invitation, open_invitation
from tenants.models import User
from tenants.passwords import MIN_PASSWORD_LENGTH
from tenants.permissions import needs
from tenants.scope import Access

PUBLIC = {"exclude_from_auth": True}
HOME = "/projects"


@dataclass
class SignupForm:
    org_name: str = ""
    email: str = ""
    password: str = ""


@dataclass
class LoginForm:
    email: str = ""
    password: str = ""


@dataclass
class InvitationForm:
    password: str = ""


def sign_in(request: HTMXRequest, user: User, org_id: Any) -> None:
    """A fresh session id at every sign-in, so a planted session cookie is worth nothing."""
    settings: Settings = request.app.state.settings
    stamp = session_stamp(derived_secret(settings, SESSION_STAMP_PURPOSE), user.password_hash)
    request.set_session({"user_id": str(user.id), "org_id": str(org_id), "stamp": stamp, ROTATE: True})


def too_many(seconds: int, what: str = "failed attempts") -> str:
    later = f"{seconds} seconds" if seconds < 90 else f"about {round(seconds / 60)} minutes"
    return f"Too many {what}. Try again in {later}."


class AuthController(Controller):
    include_in_schema = False

    @get("/", name="console:home")
    async def home(self) -> Redirect:
        return Redirect(HOME)

    @get("/signup", opt=PUBLIC)
    async def signup_page(self, request: HTMXRequest) -> Any:
        return render(request, "signup.html", values={}, errors={}, min_password=MIN_PASSWORD_LENGTH)

    @post("/signup", opt=PUBLIC)
    async def signup(self, request: HTMXRequest, db_session: AsyncSession, data: Form[SignupForm]) -> Any:
        if wait := await login_throttle(request).reserve_signup(login_client(request)):
            return render(
                request,
                "signup.html",
                status_code=429,
                values=form_values(data),
                errors={"form": too_many(wait, "sign-ups from your network")},
                min_password=MIN_PASSWORD_LENGTH,
            )
        try:
            created = await sign_up_confirming(
                db_session,
                request.app.state.settings,
                org_name=data.org_name,
                email=data.email,
                password=data.password,
                language=preferred_language(request.headers.get("accept-language")),
            )
        except InvalidRequest as exc:
            errors = field_error(exc)
            if "name" in errors:
                errors = {"org_name": errors["name"]}
            return render(
                request,
                "signup.html",
                status_code=400,
                values=form_values(data),
                errors=errors,
                min_password=MIN_PASSWORD_LENGTH,
            )
        sign_in(request, created.user, created.organization.id)
        return go_to(request, HOME)

    @get("/login", opt=PUBLIC)
    async def login_page(self, request: HTMXRequest) -> Any:
        return render(request, "login.html", values={}, errors={})

    @post("/login", opt=PUBLIC)
    async def login(self, request: HTMXRequest, db_session: AsyncSession, data: Form[LoginForm]) -> Any:
        throttle, client = login_throttle(request), login_client(request)
        if wait := await throttle.reserve_password_check(data.email, client):
            return render(
                request,
                "login.html",
                status_code=429,
                values=form_values(data),
                errors={"form": too_many(wait)},
            )
        user = await authenticate(db_session, data.email, data.password)
        membership = await first_membership(db_session, user) if user else None
        if user is None or membership is None:
            message = "That email and password do not match an account."
            if user is not None:
                message = "This account is not a member of any organization any more."
            return render(
                request, "login.html", status_code=400, values=form_values(data), errors={"form": message}
            )
        await throttle.succeeded(data.email, client)
        sign_in(request, user, membership.org_id)
        return go_to(request, HOME)

    @post("/logout", opt=needs(Access.WRITE))
    async def logout(self, request: HTMXRequest) -> Response[Any]:
        request.clear_session()
        return go_to(request, "/login")

    @get("/invitations/{secret:str}", opt=PUBLIC)
    async def invitation_page(self, request: HTMXRequest, db_session: AsyncSession, secret: str) -> Any:
        invitation = await open_invitation(db_session, secret)
        return render(
            request, "invitation.html", invitation=invitation, errors={}, min_password=MIN_PASSWORD_LENGTH
        )

    @post("/invitations/{secret:str}", opt=PUBLIC)
    async def accept(
        self, request: HTMXRequest, db_session: AsyncSession, secret: str, data: Form[InvitationForm]
    ) -> Any:
        """An existing account joins with its password, so guesses here count as failed logins."""
        invitation = await open_invitation(db_session, secret)
        throttle, client, email = login_throttle(request), login_client(request), invitation.record.email
        if invitation.has_account and (wait := await throttle.reserve_password_check(email, client)):
            return render(
                request,
                "invitation.html",
                status_code=429,
                invitation=invitation,
                errors={"password": too_many(wait)},
                min_password=MIN_PASSWORD_LENGTH,
            )
        try:
            user, membership = await accept_invitation(db_session, secret, data.password)
        except InvalidRequest as exc:
            return render(
                request,
                "invitation.html",
                status_code=400,
                invitation=invitation,
                errors=field_error(exc),
                min_password=MIN_PASSWORD_LENGTH,
            )
        sign_in(request, user, membership.org_id)
        return go_to(request, HOME)
