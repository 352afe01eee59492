"""The organization scope: for which organization, who acts, and what they may do. Every service that
touches an organization's data takes one and filters by its `org_id` in SQL.

Scopes are made here and nowhere else: from an API token, from a console member's role, and for the
operator (the command line, the demo, background imports) and the public widgets.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Any
from uuid import UUID

from litestar import Request
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Role
from app.errors import Unauthorized


class Access(IntEnum):
    """Ordered: each level may do what the levels below it may."""

    READ = 1
    WRITE = 2
    """Triage: change feedback items, archive messages and ratings."""
    ADMIN = 3
    """Configure the organization's projects, origins, webhooks and integrations."""
    OWNER = 4
    """Manage members and invitations."""


ROLE_ACCESS = {Role.MEMBER: Access.WRITE, Role.ADMIN: Access.ADMIN, Role.OWNER: Access.OWNER}

WIDGET_ACTOR = "widget"


@dataclass(frozen=True, slots=True)
class OrgScope:
    org_id: UUID
    actor: str
    """Who acts, as recorded in histories: a token's display prefix, a user's email, "cli", "widget"."""
    access: Access
    user_id: UUID | None = None
    """The console member acting; None for tokens, the operator and the widgets."""
    confirmed: bool = True
    """The acting member's email address is confirmed (or mail is not sent at all); always true for
    tokens, the operator and the widgets."""


class OrgScoped:
    """Base of every organization service: built from the request's session and scope, so each query it
    writes has the organization at hand (`self.scope.org_id`). Services of one project derive from
    `ProjectScoped` (`app/services/projects.py`); a service that needs the settings takes them last."""

    def __init__(self, session: AsyncSession, scope: OrgScope) -> None:
        self.session = session
        self.scope = scope


def token_scope(org_id: UUID, prefix: str, *, can_write: bool) -> OrgScope:
    """A read token may only read; a write token may change everything the API offers, as an admin may in
    the console (members and tokens are managed in the console only)."""
    return OrgScope(org_id=org_id, actor=f"token {prefix}", access=Access.ADMIN if can_write else Access.READ)


def member_scope(org_id: UUID, user_id: UUID, email: str, role: str, *, confirmed: bool = True) -> OrgScope:
    """Members triage, admins also configure, owners also manage members."""
    return OrgScope(
        org_id=org_id, actor=email, access=ROLE_ACCESS[Role(role)], user_id=user_id, confirmed=confirmed
    )


def app_actor(email: str, client_name: str) -> str:
    """How the audit log names what an assistant connected by OAuth does: the member, through the app."""
    return f"{email} via {client_name}"[:320]


def app_scope(org_id: UUID, user_id: UUID, email: str, role: str, client_name: str) -> OrgScope:
    """An assistant connected by OAuth acts for the member who consented, with their role, and is recorded
    as that member through that app."""
    return OrgScope(
        org_id=org_id,
        actor=app_actor(email, client_name),
        access=ROLE_ACCESS[Role(role)],
        user_id=user_id,
    )


def operator_scope(org_id: UUID, actor: str = "cli") -> OrgScope:
    """Whoever runs the server: the command line, the demo page's setup, background imports."""
    return OrgScope(org_id=org_id, actor=actor, access=Access.OWNER)


def widget_scope(org_id: UUID) -> OrgScope:
    """A visitor's submission through a public endpoint, already admitted by the ingest gate."""
    return OrgScope(org_id=org_id, actor=WIDGET_ACTOR, access=Access.WRITE)


async def provide_org_scope(request: Request[Any, Any, Any]) -> OrgScope:
    """The scope the authentication middleware resolved; there is no other way to get one in a handler."""
    scope = request.scope.get("auth")
    if not isinstance(scope, OrgScope):
        raise Unauthorized("authentication is required")
    return scope
