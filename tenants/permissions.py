"""What a scope may do, decided in one place for the API and the console.

A scope carries one access level. A route needs READ for GET, HEAD and OPTIONS; anything else needs the
level its router names for changes (the API: WRITE, so a read token may only read; the console: ADMIN,
so members read and admins configure), unless the handler names its own with `needs(...)` (any member may
triage feedback; only owners manage members). Services ask the same question with `require(scope, ...)`.
"""

from __future__ import annotations

from typing import Any

from litestar.connection import ASGIConnection
from litestar.exceptions import NotAuthorizedException
from litestar.handlers import BaseRouteHandler

from app.db.models import Role
from app.errors import Forbidden
from tenants.scope import ROLE_ACCESS, Access, OrgScope

READ_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
NEEDS = "needs"
CHANGES_NEED = "changes_need"
CONFIRMED_EMAIL = "confirmed_email"
"""A handler `opt` flag: the acting member must have confirmed their address (inviting, creating tokens:
what a throwaway sign-up could abuse)."""


ACCESS_HOLDERS = {
    Access.READ: "a member",
    Access.WRITE: "a member",
    Access.ADMIN: "an owner or admin",
    Access.OWNER: "an owner",
}


def needs(access: Access) -> dict[str, Access]:
    """A handler's `opt`: the access it needs, whatever its method."""
    return {NEEDS: access}


def changes_need(access: Access) -> dict[str, Access]:
    """A router's `opt`: the access its changing methods need unless a handler says otherwise."""
    return {CHANGES_NEED: access}


def required_access(method: str, opt: dict[str, Any]) -> Access:
    needed: Access | None = opt.get(NEEDS)
    if needed is not None:
        return needed
    return Access.READ if method in READ_METHODS else opt.get(CHANGES_NEED, Access.ADMIN)


async def access_guard(connection: ASGIConnection[Any, Any, Any, Any], handler: BaseRouteHandler) -> None:
    """The one permission guard of the API and the console routers."""
    if handler.opt.get("exclude_from_auth"):
        return
    scope = connection.scope.get("auth")
    if not isinstance(scope, OrgScope):
        raise NotAuthorizedException("sign in first")
    require(scope, required_access(connection.scope.get("method", "GET"), handler.opt))
    if handler.opt.get(CONFIRMED_EMAIL) and not scope.confirmed:
        raise Forbidden("confirm your email address first: follow the link we mailed to you")


def require(scope: OrgScope, needed: Access) -> None:
    """Refuse (403) unless `scope` has `needed`, in words its holder understands."""
    if scope.access >= needed:
        return
    if scope.user_id is None:
        raise Forbidden("this token has read scope; POST, PATCH and DELETE need a write token")
    role = next((role for role, level in ROLE_ACCESS.items() if level == scope.access), Role.MEMBER)
    raise Forbidden(f"only {ACCESS_HOLDERS[needed]} can do this; your role is {role.value}")
