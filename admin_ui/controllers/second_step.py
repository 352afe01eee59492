"""The second step of a sign-in, and signing in with a passkey alone.

After a right password, an account with a second factor gives a code from its authenticator app, one of
its recovery codes, or one of its passkeys. "Sign in with a passkey" on the login page needs no password:
the browser offers the passkeys it holds for this site, and one that verifies its user (PIN, biometrics)
is the whole sign-in. Every try is reserved in the login throttle before it is checked."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec
from litestar import Controller, Response, get, post
from litestar.plugins.htmx import HTMXRequest
from sqlalchemy.ext.asyncio import AsyncSession

from admin_ui.controllers.auth import HOME, PUBLIC, SSO_ONLY, local_path, sign_in, too_many
from admin_ui.forms import Form
from admin_ui.login_throttle import login_client, login_throttle
from admin_ui.passkey_challenges import PasskeyChallenges
from admin_ui.pending_sign_in import PendingSignIn, pending_sign_in
from admin_ui.rendering import go_to, json_error, render
from app.config import Settings
from app.db.models import User
from app.services.sign_in_changes import use_recovery_code
from tenants import passkeys
from tenants.accounts import first_membership
from tenants.second_factors import TOTP_CODE, check_authenticator_code, factors_of, normalized_code
from tenants.sign_in_reach import SignIn
from tenants.single_sign_on import password_refused

WRONG_CODE = "That code is not right. Try the code your app shows now, or a recovery code."
EXPIRED = "Your sign-in took too long or was not started here. Sign in again."


@dataclass
class SecondStepForm:
    code: str = ""


class PasskeyAnswer(msgspec.Struct):
    handle: str
    credential: dict[str, Any]
    next: str = ""


class SecondStepController(Controller):
    include_in_schema = False

    @get("/login/second-step", opt=PUBLIC)
    async def page(self, request: HTMXRequest, db_session: AsyncSession) -> Any:
        pending = pending_sign_in(request)
        if pending is None:
            return go_to(request, "/login")
        return await _page(request, db_session, pending)

    @post("/login/second-step", opt=PUBLIC)
    async def check_code(
        self, request: HTMXRequest, db_session: AsyncSession, data: Form[SecondStepForm]
    ) -> Any:
        pending = pending_sign_in(request)
        user = None if pending is None else await db_session.get(User, pending.user_id)
        if pending is None or user is None:
            return render(request, "login.html", status_code=400, values={}, errors={"form": EXPIRED})
        throttle, client = login_throttle(request), login_client(request)
        if wait := await throttle.reserve_second_factor(user.email, client):
            return await _page(request, db_session, pending, status_code=429, error=too_many(wait))
        settings: Settings = request.app.state.settings
        if TOTP_CODE.match(normalized_code(data.code)):
            right = await check_authenticator_code(db_session, settings.secret_key, user.id, data.code)
        else:
            right = await use_recovery_code(db_session, settings, user.id, data.code)
        if not right:
            return await _page(request, db_session, pending, status_code=400, error=WRONG_CODE)
        await throttle.second_factor_succeeded(user.email, client)
        sign_in(request, user, pending.org_id, SignIn(second_factor=True))
        return go_to(request, pending.next or HOME)

    @post("/login/passkey/options", opt=PUBLIC)
    async def passkey_options(self, request: HTMXRequest, db_session: AsyncSession) -> Response[Any]:
        """Within a second step, the account's own passkeys; on the login page, any of this site's."""
        pending = pending_sign_in(request)
        allowed = None
        if pending is not None:
            allowed = await passkeys.credential_ids(db_session, pending.user_id)
            if not allowed:
                return json_error(400, "passkey", "this account has no passkey; use a code instead")
        rp = passkeys.relying_party(request.app.state.settings.base_url)
        options, challenge = passkeys.authentication_options(rp, allowed)
        user_id = None if pending is None else pending.user_id
        handle = await PasskeyChallenges.of(request).keep(challenge, user_id=user_id)
        return Response({"handle": handle, "options": msgspec.json.decode(options)})

    @post("/login/passkey", opt=PUBLIC)
    async def passkey_sign_in(
        self, request: HTMXRequest, db_session: AsyncSession, data: PasskeyAnswer
    ) -> Response[Any]:
        kept = await PasskeyChallenges.of(request).take(data.handle)
        if kept is None:
            return json_error(400, "handle", "this passkey request expired; try again")
        pending = pending_sign_in(request)
        if kept.user_id is not None and (pending is None or pending.user_id != kept.user_id):
            return json_error(400, "handle", EXPIRED)
        throttle, client = login_throttle(request), login_client(request)
        user = None if kept.user_id is None else await db_session.get(User, kept.user_id)
        if kept.user_id is not None and user is None:
            return json_error(400, "handle", EXPIRED)
        if user is not None:
            wait = await throttle.reserve_second_factor(user.email, client)
        else:
            wait = await throttle.reserve_passkey_sign_in(client)
        if wait:
            return json_error(429, "credential", too_many(wait))
        rp = passkeys.relying_party(request.app.state.settings.base_url)
        passkey = await passkeys.verify_assertion(
            db_session, rp, data.credential, kept.challenge, user_id=kept.user_id
        )
        if passkey is None:
            return json_error(400, "credential", "this passkey could not be checked; try again")
        if user is not None and pending is not None:
            await throttle.second_factor_succeeded(user.email, client)
            sign_in(request, user, pending.org_id, SignIn(second_factor=True))
            return Response({"redirect": pending.next or HOME})
        user = await db_session.get_one(User, passkey.user_id)
        membership = await first_membership(db_session, user)
        if membership is None:
            return json_error(400, "credential", "this account is not a member of any organization any more")
        if await password_refused(db_session, membership):
            return json_error(403, "credential", SSO_ONLY)
        await throttle.passkey_sign_in_succeeded(client)
        sign_in(request, user, membership.org_id, SignIn(second_factor=True))
        return Response({"redirect": local_path(data.next) or HOME})


async def _page(
    request: HTMXRequest,
    db_session: AsyncSession,
    pending: PendingSignIn,
    *,
    status_code: int = 200,
    error: str = "",
) -> Any:
    factors = await factors_of(db_session, pending.user_id)
    return render(
        request,
        "second_step.html",
        status_code=status_code,
        factors=factors,
        errors={"code": error} if error else {},
    )
