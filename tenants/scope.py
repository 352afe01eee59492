"""The organization scope: who is acting, for which organization. Every org-scoped service takes one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

from litestar import Request

from app.errors import Unauthorized


@dataclass(frozen=True, slots=True)
class OrgScope:
    org_id: UUID
    actor: str
    """Who acts, as recorded in histories: a token's display prefix or a user's email."""
    can_write: bool


async def provide_org_scope(request: Request[Any, Any, Any]) -> OrgScope:
    """The scope the authentication middleware resolved; there is no other way to get one in a handler."""
    scope = request.scope.get("auth")
    if not isinstance(scope, OrgScope):
        raise Unauthorized("authentication is required")
    return scope
