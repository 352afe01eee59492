"""GET /members: the organization's members, whose user_id a feedback item's assignee takes."""

from __future__ import annotations

from litestar import get

from app.dependencies import provide
from app.errors import error_responses
from app.schemas.member import MemberList, MemberOut
from app.timestamps import iso_z
from tenants.members import Members


@get(
    "/members",
    summary="The organization's members, oldest first",
    tags=["Members"],
    responses=error_responses(401),
    dependencies={"members": provide(Members)},
)
async def list_members(members: Members) -> MemberList:
    """Each member's user_id, email, role and when they joined: the user_id is what a feedback item's
    assignee takes."""
    return MemberList(
        members=[MemberOut(str(m.user_id), m.email, m.role, iso_z(m.joined_at)) for m in await members.list()]
    )
