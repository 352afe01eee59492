"""Permission guards: a read-scoped token may only read (POST, PATCH, PUT and DELETE need a write token)."""

from __future__ import annotations

from litestar.connection import ASGIConnection
from litestar.handlers import BaseRouteHandler

from app.errors import Forbidden
from tenants.scope import OrgScope

READ_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


async def writes_need_write_scope(connection: ASGIConnection, _: BaseRouteHandler) -> None:
    scope = connection.scope.get("auth")
    if connection.scope.get("method", "GET") in READ_METHODS:
        return
    if not isinstance(scope, OrgScope) or not scope.can_write:
        raise Forbidden("this token has read scope; POST, PATCH and DELETE need a write token")
