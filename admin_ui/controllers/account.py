"""Your account: the language of your mail; your email address (confirmed again by a mailed link); change
your password, or log out every other session (a lost laptop, a shared computer). Changing the address
or the password, and logging out other sessions, ask for the current password, counted like a sign-in;
the last two end every other session while keeping this one (with a fresh id). Second factors are set up
and turned off from this page too (`admin_ui/controllers/two_factor.py`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from litestar import Controller, get, post
from litestar.plugins.htmx import HTMXRequest
from sqlalchemy.ext.asyncio import AsyncSession

from admin_ui.console_user import ConsoleUser
from admin_ui.controllers.auth import sign_in, too_many
from admin_ui.forms import Form, field_error, form_values
from admin_ui.login_throttle import login_client, login_throttle
from admin_ui.rendering import go_to, render
from admin_ui.two_factor_gate import SETUP_ALLOWED
from app.config import Settings
from app.db.models import User
from app.errors import InvalidRequest
from app.services.email_verification import change_address, confirm, send_confirmation_again
from tenants.accounts import change_password, rehash_password, set_language
from tenants.languages import LANGUAGE_NAMES
from tenants.passkeys import list_passkeys
from tenants.passwords import MIN_PASSWORD_LENGTH
from tenants.permissions import needs
from tenants.scope import Access
from tenants.second_factors import factors_of

ANY_MEMBER = needs(Access.WRITE)
NOTICES = {
    "password": "Your password was changed.",
    "sessions": "Every other session was logged out.",
    "language": "Your mail will be written in the language you chose.",
    "email": "Your email address was changed.",
    "confirm": "We mailed you a new link to confirm your address.",
    "confirmed": "Your email address is confirmed.",
    "required": "Your organization requires two-factor authentication: set up an authenticator app or "
    "add a passkey to go on.",
    "authenticator": "Your authenticator app is set up.",
    "authenticator_off": "Your authenticator app was turned off.",
    "passkey": "Your passkey was added.",
    "passkey_removed": "The passkey was removed.",
}


@dataclass
class PasswordForm:
    current_password: str = ""
    new_password: str = ""


@dataclass
class OtherSessionsForm:
    password: str = ""


@dataclass
class LanguageForm:
    language: str = ""


@dataclass
class EmailForm:
    new_email: str = ""
    email_password: str = ""


class AccountController(Controller):
    path = "/account"
    include_in_schema = False
    opt = {SETUP_ALLOWED: True}

    @get("/")
    async def page(
        self, request: HTMXRequest, db_session: AsyncSession, me: ConsoleUser, done: str = ""
    ) -> Any:
        return await account_page(request, db_session, me, notice=NOTICES.get(done, ""))

    @post("/password", opt=ANY_MEMBER)
    async def change_password(
        self, request: HTMXRequest, db_session: AsyncSession, me: ConsoleUser, data: Form[PasswordForm]
    ) -> Any:
        async def change() -> User:
            return await change_password(db_session, me.user_id, data.current_password, data.new_password)

        return await _with_current_password(request, db_session, me, "password", change)

    @post("/sessions", opt=ANY_MEMBER)
    async def log_out_other_sessions(
        self, request: HTMXRequest, db_session: AsyncSession, me: ConsoleUser, data: Form[OtherSessionsForm]
    ) -> Any:
        async def rehash() -> User:
            return await rehash_password(db_session, me.user_id, data.password)

        return await _with_current_password(request, db_session, me, "sessions", rehash, field="password")

    @post("/language", opt=ANY_MEMBER)
    async def change_language(
        self, request: HTMXRequest, db_session: AsyncSession, me: ConsoleUser, data: Form[LanguageForm]
    ) -> Any:
        try:
            await set_language(db_session, me.user_id, data.language)
        except InvalidRequest as exc:
            return await account_page(
                request, db_session, me, status_code=400, form="language", errors=field_error(exc)
            )
        return go_to(request, "/account?done=language")

    @post("/email", opt=ANY_MEMBER)
    async def change_email(
        self, request: HTMXRequest, db_session: AsyncSession, me: ConsoleUser, data: Form[EmailForm]
    ) -> Any:
        """Re-confirmed when mail is sent; the password is checked and counted like a sign-in."""
        throttle, client = login_throttle(request), login_client(request)
        if wait := await throttle.reserve_password_check(me.email, client):
            errors = {"email_password": too_many(wait)}
            return await account_page(request, db_session, me, status_code=429, form="email", errors=errors)
        settings: Settings = request.app.state.settings
        try:
            await change_address(db_session, settings, me.user_id, data.email_password, data.new_email)
        except InvalidRequest as exc:
            field = {"current_password": "email_password", "email": "new_email"}.get(exc.field, exc.field)
            message = next(iter(field_error(exc).values()))
            return await account_page(
                request,
                db_session,
                me,
                status_code=400,
                form="email",
                errors={field: message},
                values=form_values(data),
            )
        await throttle.succeeded(me.email, client)
        return go_to(request, "/account?done=email")

    @post("/confirmation", opt=ANY_MEMBER)
    async def send_confirmation(self, request: HTMXRequest, db_session: AsyncSession, me: ConsoleUser) -> Any:
        """Limited like reset mails: three, then a growing wait (nobody's mailbox is flooded through us)."""
        if wait := await login_throttle(request).reserve_confirmation(str(me.user_id)):
            errors = {"form": too_many(wait, "confirmation mails")}
            return await account_page(request, db_session, me, status_code=429, errors=errors)
        await send_confirmation_again(db_session, request.app.state.settings, me.user_id)
        return go_to(request, "/account?done=confirm")

    @get("/confirm/{token:str}", opt={"exclude_from_auth": True})
    async def confirm_email(self, request: HTMXRequest, db_session: AsyncSession, token: str) -> Any:
        """Public: the link may be opened in a browser that is not signed in; it proves itself."""
        await confirm(db_session, request.app.state.settings, token)
        return go_to(request, "/account?done=confirmed")


async def _with_current_password(
    request: HTMXRequest,
    db_session: AsyncSession,
    me: ConsoleUser,
    form: str,
    action: Callable[[], Awaitable[User]],
    *,
    field: str = "current_password",
) -> Any:
    """The form's field holding the current password is `field`; its errors are shown beside it."""
    throttle, client = login_throttle(request), login_client(request)
    if wait := await throttle.reserve_password_check(me.email, client):
        errors = {field: too_many(wait)}
        return await account_page(request, db_session, me, status_code=429, form=form, errors=errors)
    try:
        user = await action()
    except InvalidRequest as exc:
        errors = field_error(exc)
        if "current_password" in errors:
            errors = {field: errors["current_password"]}
        return await account_page(request, db_session, me, status_code=400, form=form, errors=errors)
    await throttle.succeeded(me.email, client)
    sign_in(request, user, me.org_id, me.signed_in)
    # the session id changes, and with it the CSRF token: the page is loaded afresh
    return go_to(request, f"/account?done={form}")


async def account_page(
    request: HTMXRequest,
    db_session: AsyncSession,
    me: ConsoleUser,
    *,
    status_code: int = 200,
    form: str = "",
    errors: dict[str, str] | None = None,
    notice: str = "",
    values: dict[str, str] | None = None,
) -> Any:
    """The whole page, with what the account has of second factors."""
    return render(
        request,
        "account.html",
        status_code=status_code,
        form=form,
        errors=errors or {},
        notice=notice,
        min_password=MIN_PASSWORD_LENGTH,
        languages=LANGUAGE_NAMES,
        values=values or {},
        factors=await factors_of(db_session, me.user_id),
        passkeys=await list_passkeys(db_session, me.user_id),
    )
