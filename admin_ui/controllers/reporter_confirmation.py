"""The link of a reporter's confirmation mail: opening it shows the project and a "Confirm" button, and
only the button's POST confirms the address (a mail scanner that opens links changes nothing). No
session and no CSRF token: the link's signature is what authorizes it."""

from __future__ import annotations

from typing import Any

from litestar import Controller, get, post
from litestar.plugins.htmx import HTMXRequest
from sqlalchemy.ext.asyncio import AsyncSession

from admin_ui.rendering import render
from app.config import Settings
from app.notifications.reporter_confirmation import address_of_link, confirm, project_name_of


class ReporterConfirmationController(Controller):
    path = "/notifications/confirm"
    include_in_schema = False

    @get("/{token:str}")
    async def confirmation_page(self, request: HTMXRequest, db_session: AsyncSession, token: str) -> Any:
        settings: Settings = request.app.state.settings
        row = await address_of_link(db_session, settings, token)
        project = await project_name_of(db_session, row)
        return render(request, "confirm_reporter.html", bare=True, done=False, project=project)

    @post("/{token:str}", status_code=200)
    async def confirm_address(self, request: HTMXRequest, db_session: AsyncSession, token: str) -> Any:
        settings: Settings = request.app.state.settings
        row = await address_of_link(db_session, settings, token)
        confirm(row)
        project = await project_name_of(db_session, row)
        return render(request, "confirm_reporter.html", bare=True, done=True, project=project)
