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
from admin_ui.pending_sign_in import SECOND_STEP, begin_second_step
from admin_ui.rendering import go_to, render
from admin_ui.sessions import ROTATE, derived_secret
from admin_ui.sign_in_record import SIGN_IN, session_entry
from admin_ui.two_factor_gate import SETUP_ALLOWED
from app.config import Settings
from app.db.models import User
from app.errors import InvalidRequest
from app.services.email_verification import sign_up_confirming
from app.services.invitation_mail import accept, link_secret
from tenants.accounts import authenticate, first_membership
from tenants.invitations import open_invitation
from tenants.languages import preferred_language
from tenants.passwords import MIN_PASSWORD_LENGTH
from tenants.permissions import needs
from tenants.scope import Access
from tenants.second_factors import factors_of
from tenants.sign_in_reach import SignIn
from tenants.single_sign_on import password_refused

PUBLIC = {"exclude_from_auth": True}
HOME = "/projects"
SSO_ONLY = "Your organization signs in with single sign-on: use “Sign in with SSO”."


@dataclass
class SignupForm:
    org_name: str = ""
    email: str = ""
    password: str = ""


@dataclass
class LoginForm:
    email: str = ""
    password: str = ""
    next: str = ""
    """Where to go after signing in: a console path (an assistant's consent page sends members here)."""


def local_path(path: str | None) -> str | None:
    """Only a path on this server: never another host (`//host`, `/\\host`) a link could smuggle in."""
    if path and path.startswith("/") and not path.startswith(("//", "/\\")) and "\\" not in path:
        return path
    return None


@dataclass
class InvitationForm:
    password: str = ""


def sign_in(request: HTMXRequest, user: User, org_id: Any, how: SignIn) -> None:
    """A fresh session id at every sign-in, so a planted session cookie is worth nothing. `how` says
    which of the member's organizations the session counts for (tenants/sign_in_reach.py)."""
    settings: Settings = request.app.state.settings
    stamp = session_stamp(derived_secret(settings, SESSION_STAMP_PURPOSE), user.password_hash)
    request.set_session(
        {
            "user_id": str(user.id),
            "org_id": str(org_id),
            "stamp": stamp,
            SIGN_IN: session_entry(how),
            ROTATE: True,
        }
    )


async def sign_in_or_second_step(
    request: HTMXRequest, db_session: AsyncSession, user: User, org_id: Any, next_path: str
) -> Response[Any]:
    """After a right password (or a reset link): signed in, unless the account has a second factor,
    which is asked first."""
    if (await factors_of(db_session, user.id)).any:
        begin_second_step(request, user.id, org_id, next_path)
        return go_to(request, SECOND_STEP)
    sign_in(request, user, org_id, SignIn())
    return go_to(request, next_path)


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
        sign_in(request, created.user, created.organization.id, SignIn())
        return go_to(request, HOME)

    @get("/login", opt=PUBLIC)
    async def login_page(self, request: HTMXRequest, next: str | None = None) -> Any:
        return render(request, "login.html", values={"next": local_path(next) or ""}, errors={})

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
        if await password_refused(db_session, membership):
            return render(
                request, "login.html", status_code=403, values=form_values(data), errors={"form": SSO_ONLY}
            )
        await throttle.succeeded(data.email, client)
        return await sign_in_or_second_step(
            request, db_session, user, membership.org_id, local_path(data.next) or HOME
        )

    @post("/logout", opt={**needs(Access.WRITE), SETUP_ALLOWED: True})
    async def logout(self, request: HTMXRequest) -> Response[Any]:
        request.clear_session()
        return go_to(request, "/login")

    @get("/invitations/{secret:str}", opt=PUBLIC)
    async def invitation_page(self, request: HTMXRequest, db_session: AsyncSession, secret: str) -> Any:
        invitation = await open_invitation(db_session, link_secret(request.app.state.settings, secret)[0])
        return render(
            request, "invitation.html", invitation=invitation, errors={}, min_password=MIN_PASSWORD_LENGTH
        )

    @post("/invitations/{secret:str}", opt=PUBLIC)
    async def accept(
        self, request: HTMXRequest, db_session: AsyncSession, secret: str, data: Form[InvitationForm]
    ) -> Any:
        """An existing account joins with its password, so guesses here count as failed logins."""
        invitation = await open_invitation(db_session, link_secret(request.app.state.settings, secret)[0])
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
            user, membership = await accept(db_session, request.app.state.settings, secret, data.password)
        except InvalidRequest as exc:
            return render(
                request,
                "invitation.html",
                status_code=400,
                invitation=invitation,
                errors=field_error(exc),
                min_password=MIN_PASSWORD_LENGTH,
            )
        if await password_refused(db_session, membership):
            return go_to(request, "/login/sso")
        return await sign_in_or_second_step(request, db_session, user, membership.org_id, HOME)
