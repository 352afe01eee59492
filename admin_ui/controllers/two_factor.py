"""Second factors on "Your account": "Set up authenticator app" (a QR code, then a code from the app),
"Add a passkey" (the browser's WebAuthn dialog, driven by /static/console/passkeys.js), "Recovery codes".

Setting up or adding asks for the current password, and turning a factor off or making new recovery codes
asks for the password or a code from the authenticator: a stolen session alone can neither lock the owner
out nor plant a factor of its own. Each check is counted like a sign-in. Fresh recovery codes are shown
once, on the page after the change, and kept sealed in the session only until then."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

import msgspec
import segno
from litestar import Controller, Response, get, post
from litestar.plugins.htmx import HTMXRequest
from sqlalchemy.ext.asyncio import AsyncSession

from admin_ui.console_user import ConsoleUser
from admin_ui.controllers.account import account_page
from admin_ui.controllers.auth import too_many
from admin_ui.forms import Form, field_error
from admin_ui.login_throttle import login_client, login_throttle
from admin_ui.passkey_challenges import PasskeyChallenges
from admin_ui.rendering import go_to, json_error, render
from admin_ui.sign_in_record import note_second_factor
from admin_ui.two_factor_gate import SETUP_ALLOWED
from app.config import Settings
from app.db.secret_box import secret_box
from app.errors import InvalidRequest
from app.services import sign_in_changes
from tenants import passkeys
from tenants.permissions import needs
from tenants.scope import Access
from tenants.second_factors import (
    confirm_identity,
    pending_seed,
    provisioning_uri,
    start_authenticator,
)

ANY_MEMBER = needs(Access.WRITE)
FRESH_CODES = "fresh_recovery_codes"
_CODES_PURPOSE = b"hearken recovery codes shown once v1"
WRONG_CONFIRMATION = "Does not match your password or a current code from your authenticator app"


@dataclass
class ConfirmationForm:
    confirmation: str = ""


@dataclass
class CodeForm:
    code: str = ""


@dataclass
class RemovePasskeyForm:
    passkey: str = ""
    confirmation: str = ""


class PasskeyStart(msgspec.Struct):
    name: str = ""
    confirmation: str = ""


class PasskeyFinish(msgspec.Struct):
    handle: str
    credential: dict[str, Any]


def qr_svg(uri: str) -> str:
    """The otpauth address as a QR code, an SVG data URI (the console's CSP allows data: images)."""
    return str(segno.make(uri, error="m").svg_data_uri(scale=5, dark="#111", light="#fff"))


def keep_fresh_codes(request: HTMXRequest, codes: list[str]) -> None:
    if codes:
        box = secret_box(request.app.state.settings.secret_key, _CODES_PURPOSE)
        request.session[FRESH_CODES] = box.seal(" ".join(codes))


async def identity_error(
    request: HTMXRequest, db_session: AsyncSession, me: ConsoleUser, given: str
) -> str | None:
    """None when `given` is the password or a current authenticator code; else what to show."""
    throttle, client = login_throttle(request), login_client(request)
    if wait := await throttle.reserve_password_check(me.email, client):
        return too_many(wait)
    settings: Settings = request.app.state.settings
    if not await confirm_identity(db_session, settings.secret_key, me.user_id, given):
        return WRONG_CONFIRMATION
    await throttle.succeeded(me.email, client)
    return None


class TwoFactorController(Controller):
    path = "/account"
    include_in_schema = False
    opt = {SETUP_ALLOWED: True}

    @post("/authenticator", opt=ANY_MEMBER)
    async def start(
        self, request: HTMXRequest, db_session: AsyncSession, me: ConsoleUser, data: Form[ConfirmationForm]
    ) -> Any:
        if error := await identity_error(request, db_session, me, data.confirmation):
            errors = {"authenticator_password": error}
            return await account_page(request, db_session, me, status_code=400, errors=errors)
        try:
            await start_authenticator(db_session, request.app.state.settings.secret_key, me.user_id)
        except InvalidRequest as exc:
            return await account_page(request, db_session, me, status_code=400, errors=field_error(exc))
        return go_to(request, "/account/authenticator")

    @get("/authenticator")
    async def setup_page(self, request: HTMXRequest, db_session: AsyncSession, me: ConsoleUser) -> Any:
        return await self._setup(request, db_session, me)

    async def _setup(
        self,
        request: HTMXRequest,
        db_session: AsyncSession,
        me: ConsoleUser,
        *,
        status_code: int = 200,
        errors: dict[str, str] | None = None,
    ) -> Any:
        seed = await pending_seed(db_session, request.app.state.settings.secret_key, me.user_id)
        if seed is None:
            return go_to(request, "/account")
        return render(
            request,
            "authenticator.html",
            status_code=status_code,
            qr=qr_svg(provisioning_uri(seed, me.email)),
            seed=" ".join(seed[i : i + 4] for i in range(0, len(seed), 4)),
            errors=errors or {},
        )

    @post("/authenticator/confirm", opt=ANY_MEMBER)
    async def confirm(
        self, request: HTMXRequest, db_session: AsyncSession, me: ConsoleUser, data: Form[CodeForm]
    ) -> Any:
        try:
            codes = await sign_in_changes.confirm_authenticator(
                db_session, request.app.state.settings, me.user_id, data.code
            )
        except InvalidRequest as exc:
            return await self._setup(request, db_session, me, status_code=400, errors=field_error(exc))
        note_second_factor(request)
        keep_fresh_codes(request, codes)
        return go_to(request, "/account/recovery-codes" if codes else "/account?done=authenticator")

    @post("/authenticator/off", opt=ANY_MEMBER)
    async def turn_off(
        self, request: HTMXRequest, db_session: AsyncSession, me: ConsoleUser, data: Form[ConfirmationForm]
    ) -> Any:
        if error := await identity_error(request, db_session, me, data.confirmation):
            errors = {"authenticator_off": error}
            return await account_page(request, db_session, me, status_code=400, errors=errors)
        await sign_in_changes.turn_off_authenticator(db_session, request.app.state.settings, me.user_id)
        return go_to(request, "/account?done=authenticator_off")

    @post("/recovery-codes", opt=ANY_MEMBER)
    async def new_codes(
        self, request: HTMXRequest, db_session: AsyncSession, me: ConsoleUser, data: Form[ConfirmationForm]
    ) -> Any:
        if error := await identity_error(request, db_session, me, data.confirmation):
            errors = {"recovery_confirmation": error}
            return await account_page(request, db_session, me, status_code=400, errors=errors)
        codes = await sign_in_changes.new_recovery_codes(db_session, request.app.state.settings, me.user_id)
        keep_fresh_codes(request, codes)
        return go_to(request, "/account/recovery-codes")

    @get("/recovery-codes")
    async def show_codes(self, request: HTMXRequest) -> Any:
        """The codes just made, once: a reload shows them no more."""
        sealed = request.session.pop(FRESH_CODES, None)
        box = secret_box(request.app.state.settings.secret_key, _CODES_PURPOSE)
        plain = box.open(sealed) if isinstance(sealed, str) else None
        if plain is None:
            return go_to(request, "/account")
        return render(request, "recovery_codes.html", codes=plain.split())

    @post("/passkeys/options", opt=ANY_MEMBER)
    async def passkey_options(
        self, request: HTMXRequest, db_session: AsyncSession, me: ConsoleUser, data: PasskeyStart
    ) -> Response[Any]:
        """Step one of "Add a passkey": the password again, then the options for the browser."""
        try:
            name = passkeys.check_name(data.name)
        except InvalidRequest as exc:
            return json_error(400, exc.field, exc.details)
        if error := await identity_error(request, db_session, me, data.confirmation):
            return json_error(429 if error.startswith("Too many") else 400, "confirmation", error)
        rp = passkeys.relying_party(request.app.state.settings.base_url)
        existing = await passkeys.credential_ids(db_session, me.user_id)
        options, challenge = passkeys.registration_options(rp, me.user_id, me.email, existing)
        handle = await PasskeyChallenges.of(request).keep(challenge, user_id=me.user_id, name=name)
        return Response({"handle": handle, "options": msgspec.json.decode(options)})

    @post("/passkeys", opt=ANY_MEMBER)
    async def add_passkey(
        self, request: HTMXRequest, db_session: AsyncSession, me: ConsoleUser, data: PasskeyFinish
    ) -> Response[Any]:
        kept = await PasskeyChallenges.of(request).take(data.handle)
        if kept is None or kept.user_id != me.user_id:
            return json_error(400, "handle", "this passkey request expired; try again")
        settings: Settings = request.app.state.settings
        rp = passkeys.relying_party(settings.base_url)
        try:
            registration = passkeys.verify_registration(rp, data.credential, kept.challenge, kept.name)
            codes = await sign_in_changes.add_passkey(db_session, settings, me.user_id, registration)
        except InvalidRequest as exc:
            return json_error(400, exc.field, exc.details)
        note_second_factor(request)
        keep_fresh_codes(request, codes)
        return Response({"redirect": "/account/recovery-codes" if codes else "/account?done=passkey"})

    @post("/passkeys/remove", opt=ANY_MEMBER)
    async def remove_passkey(
        self, request: HTMXRequest, db_session: AsyncSession, me: ConsoleUser, data: Form[RemovePasskeyForm]
    ) -> Any:
        if error := await identity_error(request, db_session, me, data.confirmation):
            errors = {"passkey_confirmation": error}
            return await account_page(request, db_session, me, status_code=400, errors=errors)
        try:
            passkey_id = UUID(data.passkey)
        except ValueError:
            errors = {"passkey": "Choose one of your passkeys"}
            return await account_page(request, db_session, me, status_code=400, errors=errors)
        await sign_in_changes.remove_passkey(db_session, request.app.state.settings, me.user_id, passkey_id)
        return go_to(request, "/account?done=passkey_removed")
