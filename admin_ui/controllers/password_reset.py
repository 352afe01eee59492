"""Forgot password: ask for a link by email, then set a new password with it.

Asking gives the same page, status and work whether or not the address has an account, and is limited
per address and per client. The link works once, for 60 minutes; using it ends every other session of the
account and signs in this browser, after the second step when the account has a second factor (a mailbox
alone is one factor). Without SMTP the link is written to the server's log only: showing it here would let
anyone set anyone's password."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from litestar import Controller, get, post
from litestar.plugins.htmx import HTMXRequest
from sqlalchemy.ext.asyncio import AsyncSession

from admin_ui.controllers.auth import HOME, PUBLIC, sign_in_or_second_step, too_many
from admin_ui.forms import Form, field_error, form_values
from admin_ui.login_throttle import login_client, login_throttle
from admin_ui.rendering import go_to, render
from app.config import Settings
from app.errors import InvalidRequest
from app.services.password_reset_mail import mail_password_reset
from tenants.accounts import first_membership
from tenants.password_resets import open_reset, reset_password
from tenants.passwords import MIN_PASSWORD_LENGTH
from tenants.single_sign_on import password_refused

SENT = (
    "If an account uses that email, a link to set a new password is on its way. "
    "It works once, for 60 minutes."
)


@dataclass
class ForgotForm:
    email: str = ""


@dataclass
class NewPasswordForm:
    new_password: str = ""


class PasswordResetController(Controller):
    path = "/password"
    include_in_schema = False

    @get("/forgot", opt=PUBLIC)
    async def forgot_page(self, request: HTMXRequest) -> Any:
        return render(request, "password_forgot.html", values={}, errors={}, notice="")

    @post("/forgot", opt=PUBLIC)
    async def send_link(self, request: HTMXRequest, db_session: AsyncSession, data: Form[ForgotForm]) -> Any:
        if wait := await login_throttle(request).reserve_password_reset(data.email, login_client(request)):
            errors = {"form": too_many(wait, "requests for this email or from your network")}
            return render(
                request, "password_forgot.html", status_code=429, values=form_values(data), errors=errors
            )
        settings: Settings = request.app.state.settings
        try:
            await mail_password_reset(db_session, settings, data.email)
        except InvalidRequest as exc:
            return render(
                request,
                "password_forgot.html",
                status_code=400,
                values=form_values(data),
                errors=field_error(exc),
                notice="",
            )
        return render(request, "password_forgot.html", values={}, errors={}, notice=SENT)

    @get("/reset/{secret:str}", opt=PUBLIC)
    async def reset_page(self, request: HTMXRequest, db_session: AsyncSession, secret: str) -> Any:
        _, user = await open_reset(db_session, secret)
        return _reset_page(request, user.email)

    @post("/reset/{secret:str}", opt=PUBLIC)
    async def set_password(
        self, request: HTMXRequest, db_session: AsyncSession, secret: str, data: Form[NewPasswordForm]
    ) -> Any:
        _, user = await open_reset(db_session, secret)
        try:
            user = await reset_password(db_session, secret, data.new_password)
        except InvalidRequest as exc:
            errors = {"new_password": next(iter(field_error(exc).values()))}
            return _reset_page(request, user.email, status_code=400, errors=errors)
        membership = await first_membership(db_session, user)
        if membership is None:
            return go_to(request, "/login")
        if await password_refused(db_session, membership):
            return go_to(request, "/login/sso")
        return await sign_in_or_second_step(request, db_session, user, membership.org_id, HOME)


def _reset_page(
    request: HTMXRequest, email: str, *, status_code: int = 200, errors: dict[str, str] | None = None
) -> Any:
    return render(
        request,
        "password_reset.html",
        status_code=status_code,
        email=email,
        errors=errors or {},
        min_password=MIN_PASSWORD_LENGTH,
    )
