"""The organization's "Require two-factor authentication" setting, on the Members page for owners and
admins. Turned on, every member without a second factor is sent to set one up at their next request."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from litestar import Controller, post
from litestar.plugins.htmx import HTMXRequest
from sqlalchemy.ext.asyncio import AsyncSession

from admin_ui.forms import Form
from admin_ui.rendering import go_to
from app.services.sign_in_changes import set_require_two_factor
from tenants.permissions import needs
from tenants.scope import Access, OrgScope


@dataclass
class TwoFactorPolicyForm:
    require_two_factor: str = ""
    """"on" when the box is ticked; a cleared box sends nothing."""


class SignInPolicyController(Controller):
    path = "/members/two-factor"
    include_in_schema = False

    @post("/", opt=needs(Access.ADMIN))
    async def save(
        self,
        request: HTMXRequest,
        db_session: AsyncSession,
        org_scope: OrgScope,
        data: Form[TwoFactorPolicyForm],
    ) -> Any:
        await set_require_two_factor(db_session, org_scope, data.require_two_factor == "on")
        return go_to(request, "/members")
