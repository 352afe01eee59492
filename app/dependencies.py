"""Dependencies the API and the console share: the services of the request's organization and project,
built the same way for both (from the request's `OrgScope`) so that the console cannot do what the API
would refuse. Every organization service is built by `build`, and `provide(Service)` is its dependency:
a new service needs no provider of its own."""

from __future__ import annotations

import inspect
from typing import Any, TypeVar

from litestar import Request
from litestar.di import Provide
from sqlalchemy.ext.asyncio import AsyncSession

from app.config import Settings
from app.db.models import Project
from app.services.projects import ProjectScoped
from tenants.scope import OrgScope, OrgScoped

Service = TypeVar("Service", bound=OrgScoped)


def request_settings(request: Request[Any, Any, Any]) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def build(
    service: type[Service],
    session: AsyncSession,
    scope: OrgScope,
    project: Project | None = None,
    settings: Settings | None = None,
) -> Service:
    """The one way to construct an organization service: `(session, scope[, project][, settings])`, the
    project when it is `ProjectScoped`, the settings when its constructor takes `settings`."""
    arguments: list[Any] = [session, scope]
    if issubclass(service, ProjectScoped):
        arguments.append(project)
    if "settings" in inspect.signature(service).parameters:
        arguments.append(settings)
    return service(*arguments)


def provide(service: type[OrgScoped]) -> Provide:
    """The dependency that builds `service` for a request: in the request's session and scope, with the
    project the path names when it is `ProjectScoped`, and with the app's settings."""
    if issubclass(service, ProjectScoped):

        async def of_project(
            request: Request[Any, Any, Any], db_session: AsyncSession, org_scope: OrgScope, project: Project
        ) -> Any:
            return build(service, db_session, org_scope, project, request_settings(request))

        return Provide(of_project)

    async def of_organization(
        request: Request[Any, Any, Any], db_session: AsyncSession, org_scope: OrgScope
    ) -> Any:
        return build(service, db_session, org_scope, settings=request_settings(request))

    return Provide(of_organization)
