"""Your account: the language of your mail; change your password, or log out every other session (a
lost laptop, a shared computer). The last two ask for the current password, counted like a sign-in, and
both end every other session while keeping this one (with a fresh id)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from litestar import Controller, get, post
from litestar.plugins.htmx import HTMXRequest
from sqlalchemy.ext.asyncio import AsyncSession

from admin_ui.console_user import ConsoleUser
from admin_ui.controllers.auth import sign_in, too_many
from admin_ui.forms import Form, field_error
from admin_ui.login_throttle import login_client, login_throttle
from admin_ui.rendering import go_to, render
from app.errors import InvalidRequest
from app.mail.languages import LANGUAGE_NAMES
from tenants.accounts import change_password, rehash_password, set_language
from tenants.models import Role, User
from tenants.passwords import MIN_PASSWORD_LENGTH

ANY_MEMBER = {"min_role": Role.MEMBER}
NOTICES = {
    "password": "Your password was changed.",
    "sessions": "Every other session was logged out.",
    "language": "Your mail will be written in the language you chose.",
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


class AccountController(Controller):
    path = "/account"
    include_in_schema = False

    @get("/")
    async def account_page(self, request: HTMXRequest, done: str = "") -> Any:
        return _page(request, notice=NOTICES.get(done, ""))

    @post("/password", opt=ANY_MEMBER)
    async def change_password(
        self, request: HTMXRequest, db_session: AsyncSession, me: ConsoleUser, data: Form[PasswordForm]
    ) -> Any:
        async def change() -> User:
            return await change_password(db_session, me.user_id, data.current_password, data.new_password)

        return await _with_current_password(request, me, "password", change)

    @post("/sessions", opt=ANY_MEMBER)
    async def log_out_other_sessions(
        self, request: HTMXRequest, db_session: AsyncSession, me: ConsoleUser, data: Form[OtherSessionsForm]
    ) -> Any:
        async def rehash() -> User:
            return await rehash_password(db_session, me.user_id, data.password)

        return await _with_current_password(request, me, "sessions", rehash, field="password")

    @post("/language", opt=ANY_MEMBER)
    async def change_language(
        self, request: HTMXRequest, db_session: AsyncSession, me: ConsoleUser, data: Form[LanguageForm]
    ) -> Any:
        try:
            await set_language(db_session, me.user_id, data.language)
        except InvalidRequest as exc:
            return _page(request, status_code=400, form="language", errors=field_error(exc))
        return go_to(request, "/account?done=language")


async def _with_current_password(
    request: HTMXRequest,
    me: ConsoleUser,
    form: str,
    action: Callable[[], Awaitable[User]],
    *,
    field: str = "current_password",
) -> Any:
    """The form's field holding the current password is `field`; its errors are shown beside it."""
    throttle, client = login_throttle(request), login_client(request)
    if wait := await throttle.reserve_password_check(me.email, client):
        return _page(request, status_code=429, form=form, errors={field: too_many(wait)})
    try:
        user = await action()
    except InvalidRequest as exc:
        errors = field_error(exc)
        if "current_password" in errors:
            errors = {field: errors["current_password"]}
        return _page(request, status_code=400, form=form, errors=errors)
    await throttle.succeeded(me.email, client)
    sign_in(request, user, me.org_id)
    # the session id changes, and with it the CSRF token: the page is loaded afresh
    return go_to(request, f"/account?done={form}")


def _page(
    request: HTMXRequest,
    *,
    status_code: int = 200,
    form: str = "",
    errors: dict[str, str] | None = None,
    notice: str = "",
) -> Any:
    return render(
        request,
        "account.html",
        status_code=status_code,
        form=form,
        errors=errors or {},
        notice=notice,
        min_password=MIN_PASSWORD_LENGTH,
        languages=LANGUAGE_NAMES,
    )
