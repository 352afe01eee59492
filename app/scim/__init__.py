"""SCIM 2.0 provisioning at /scim/v2 (RFC 7643, 7644): an organization's identity provider creates,
changes and turns off its members with the organization's `scim_` token. The domain rules are in
`tenants/scim_directory.py`; this package is HTTP only: the token, the filters, PATCH and the SCIM
shapes of resources, lists and errors."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from litestar import Litestar, Router, route
from litestar.di import Provide
from litestar.enums import HttpMethod
from sqlalchemy.ext.asyncio import AsyncSession

from app.config import Settings
from app.errors import NotFound
from app.request_checks.call_budget import CallBudget
from app.scim.authentication import ScimAuthentication
from app.scim.discovery import (
    get_resource_type,
    get_schema,
    list_resource_types,
    list_schemas,
    service_provider_config,
)
from app.scim.errors import SCIM_EXCEPTION_HANDLERS
from app.scim.groups import GroupController
from app.scim.users import UserController, search_everything
from tenants.scim_directory import ScimDirectory
from tenants.scope import OrgScope, provide_org_scope

SCIM_CALL_STORE = "scim_calls"


@route("/{rest:path}", http_method=list(HttpMethod))
async def unknown_path(rest: str) -> None:
    """Any other path under /scim/v2 is a SCIM 404, not the API's."""
    raise NotFound(f"no such SCIM endpoint: {rest!r:.80}")


async def provide_directory(db_session: AsyncSession, org_scope: OrgScope) -> ScimDirectory:
    return ScimDirectory(db_session, org_scope)


scim_router = Router(
    path="/scim/v2",
    route_handlers=[
        UserController,
        GroupController,
        service_provider_config,
        list_schemas,
        get_schema,
        list_resource_types,
        get_resource_type,
        search_everything,
        unknown_path,
    ],
    middleware=[ScimAuthentication],
    exception_handlers=SCIM_EXCEPTION_HANDLERS,
    dependencies={"org_scope": Provide(provide_org_scope), "directory": Provide(provide_directory)},
    include_in_schema=False,  # SCIM describes itself: /scim/v2/Schemas, ResourceTypes, ServiceProviderConfig
)


@asynccontextmanager
async def scim_budget(app: Litestar) -> AsyncIterator[None]:
    """The budget of SCIM requests per token, shared through Redis when there is one."""
    settings: Settings = app.state.settings
    app.state.scim_budget = CallBudget(
        settings.rate_limit_scim,
        app.state.redis,
        f"{settings.redis_prefix}scim-calls:",
        app.stores.get(SCIM_CALL_STORE),
    )
    yield
