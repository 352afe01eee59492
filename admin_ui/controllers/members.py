"""Members and roles: everyone sees who is in the organization; only an owner invites, changes roles
and removes members. An invitation is mailed, and its link shown once to copy (the only way it reaches
anyone when the server has no SMTP); sending it again makes a new link good for another 7 days."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

from litestar import Controller, get, post
from litestar.di import Provide
from litestar.plugins.htmx import HTMXRequest
from sqlalchemy.ext.asyncio import AsyncSession

from admin_ui.console_user import ConsoleUser
from admin_ui.forms import Form, field_error, form_values
from admin_ui.rendering import go_to, render
from app.config import Settings
from app.db.models import Role
from app.dependencies import provide
from app.errors import InvalidRequest
from app.services.feedback_items import unassign_member
from app.services.invitation_mail import Inviter, invitation_link, invite, invite_again
from app.timestamps import utc_now
from tenants.invitations import Invitations, IssuedInvitation
from tenants.members import Members
from tenants.permissions import CONFIRMED_EMAIL, needs
from tenants.scope import Access, OrgScope

OWNER_ONLY = needs(Access.OWNER)
INVITING = {**OWNER_ONLY, CONFIRMED_EMAIL: True}


@dataclass
class InviteForm:
    email: str = ""
    role: str = Role.MEMBER.value


@dataclass
class RoleForm:
    role: str = ""


def inviter(me: ConsoleUser, scope: OrgScope) -> Inviter:
    return Inviter(me.user_id, me.email, me.language, scope, me.org_name)


@dataclass
class MembersPage:
    """The members page and what it lists, so that a handler shows it again (changed, or with the refusal
    beside its field) in one call."""

    request: HTMXRequest
    members: Members
    invitations: Invitations
    me: ConsoleUser

    async def show(self, *, status_code: int = 200, **context: Any) -> Any:
        context.setdefault("errors", {})
        context.setdefault("values", {"role": Role.MEMBER.value})
        return render(
            self.request,
            "members.html",
            fragment="partials/_members.html",
            status_code=status_code,
            members=await self.members.list(),
            invitations=await self.invitations.pending() if self.me.is_owner else [],
            now=utc_now(),
            roles=[r.value for r in Role],
            **context,
        )

    async def issued(self, issued: IssuedInvitation) -> Any:
        """The page after an invitation is sent (again): its link, and whether it was mailed."""
        settings: Settings = self.request.app.state.settings
        return await self.show(
            invitation_link=invitation_link(settings, issued),
            invited=issued.record,
            mailed=settings.sends_mail,
        )


class MembersController(Controller):
    path = "/members"
    include_in_schema = False
    dependencies = {
        "members": provide(Members),
        "invitations": provide(Invitations),
        "page": Provide(MembersPage, sync_to_thread=False),
    }

    @get("/")
    async def members(self, page: MembersPage) -> Any:
        return await page.show()

    @post("/invitations", opt=INVITING)
    async def invite(
        self,
        request: HTMXRequest,
        db_session: AsyncSession,
        me: ConsoleUser,
        page: MembersPage,
        data: Form[InviteForm],
    ) -> Any:
        settings: Settings = request.app.state.settings
        try:
            issued = await invite(
                db_session, settings, inviter(me, request.auth), email=data.email, role=data.role
            )
        except InvalidRequest as exc:
            return await page.show(status_code=400, errors=field_error(exc), values=form_values(data))
        return await page.issued(issued)

    @post("/invitations/{invitation_id:uuid}/resend", opt=INVITING)
    async def resend_invitation(
        self,
        request: HTMXRequest,
        db_session: AsyncSession,
        me: ConsoleUser,
        page: MembersPage,
        invitation_id: UUID,
    ) -> Any:
        settings: Settings = request.app.state.settings
        issued = await invite_again(db_session, settings, inviter(me, request.auth), invitation_id)
        return await page.issued(issued)

    @post("/invitations/{invitation_id:uuid}/cancel", opt=OWNER_ONLY)
    async def cancel_invitation(
        self,
        invitations: Invitations,
        page: MembersPage,
        invitation_id: UUID,
    ) -> Any:
        await invitations.cancel(invitation_id)
        return await page.show()

    @post("/{membership_id:uuid}/role", opt=OWNER_ONLY)
    async def change_role(
        self,
        members: Members,
        page: MembersPage,
        membership_id: UUID,
        data: Form[RoleForm],
    ) -> Any:
        try:
            await members.change_role(membership_id, data.role)
        except InvalidRequest as exc:
            return await page.show(
                status_code=400, member_errors={str(membership_id): field_error(exc)["role"]}
            )
        return await page.show()

    @post("/{membership_id:uuid}/remove", opt=OWNER_ONLY)
    async def remove(
        self,
        request: HTMXRequest,
        db_session: AsyncSession,
        members: Members,
        me: ConsoleUser,
        page: MembersPage,
        membership_id: UUID,
    ) -> Any:
        user_id = (await members.get(membership_id)).user_id
        leaving = user_id == me.user_id
        try:
            await members.remove(membership_id)
            await unassign_member(db_session, request.auth, user_id)
        except InvalidRequest as exc:
            return await page.show(
                status_code=400, member_errors={str(membership_id): field_error(exc)["role"]}
            )
        if leaving:
            request.clear_session()
            return go_to(request, "/login")
        return await page.show()
