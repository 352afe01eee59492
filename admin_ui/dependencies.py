"""What console handlers receive: the signed-in user, the same Projects service the API uses, and the
project a path names. Another organization's project is simply not found here (404, not 403)."""

from __future__ import annotations

from typing import Any

from litestar import Request
from litestar.exceptions import NotAuthorizedException

from admin_ui.console_user import ConsoleUser
from app.db.models import Project
from app.errors import Forbidden, InvalidRequest, NotFound
from app.services.projects import Projects

NOT_FOUND = "no project with this id in your organization"


async def provide_console_user(request: Request[Any, Any, Any]) -> ConsoleUser:
    user = request.scope.get("user")
    if not isinstance(user, ConsoleUser):
        raise NotAuthorizedException("sign in first")
    return user


async def provide_console_project(project_id: str, projects: Projects) -> Project:
    try:
        return await projects.get(project_id)
    except (Forbidden, InvalidRequest, NotFound):
        raise NotFound(NOT_FOUND) from None
