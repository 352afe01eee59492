"""Notifications: on each project, every member chooses how they hear about new feedback and new contact
messages (every item, a daily digest, or off); and the links notification mails carry (unsubscribing,
and a reporter's confirmation)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from litestar import Controller, Router, get, post
from litestar.plugins.htmx import HTMXRequest
from sqlalchemy.ext.asyncio import AsyncSession

from admin_ui.console_errors import CONSOLE_EXCEPTION_HANDLERS
from admin_ui.console_user import ConsoleUser
from admin_ui.controllers.reporter_confirmation import ReporterConfirmationController
from admin_ui.forms import Form, field_error
from admin_ui.rendering import go_to, render
from admin_ui.security_headers import add_security_headers
from app.config import Settings
from app.db.models import Project
from app.errors import InvalidRequest
from app.notifications.choices import choice_of, choose
from app.notifications.unsubscribe import read_link, unsubscribe
from tenants.permissions import needs
from tenants.scope import Access

FREQUENCIES = (("each", "Every item"), ("daily", "Daily digest"), ("off", "Off"))


@dataclass
class ChoiceForm:
    feedback: str = ""
    contact: str = ""
    alerts: str = ""


class NotificationsController(Controller):
    path = "/projects/{project_id:str}/notifications"
    include_in_schema = False

    @get("/")
    async def notifications_page(
        self,
        request: HTMXRequest,
        db_session: AsyncSession,
        me: ConsoleUser,
        project: Project,
        done: str = "",
    ) -> Any:
        choice = await choice_of(db_session, me.org_id, project.id, me.user_id)
        values = {"feedback": choice.feedback, "contact": choice.contact, "alerts": choice.alerts}
        return _page(request, project, values, notice="Saved." if done else "")

    @post("/", opt=needs(Access.WRITE))
    async def save(
        self,
        request: HTMXRequest,
        db_session: AsyncSession,
        me: ConsoleUser,
        project: Project,
        data: Form[ChoiceForm],
    ) -> Any:
        try:
            await choose(
                db_session,
                me.org_id,
                project.id,
                me.user_id,
                feedback=data.feedback,
                contact=data.contact,
                alerts=data.alerts or None,
            )
        except InvalidRequest as exc:
            return _page(request, project, vars(data), status_code=400, errors=field_error(exc))
        return go_to(request, f"/projects/{project.id}/notifications?done=1")


def _page(
    request: HTMXRequest,
    project: Project,
    values: dict[str, str],
    *,
    status_code: int = 200,
    errors: dict[str, str] | None = None,
    notice: str = "",
) -> Any:
    return render(
        request,
        "notifications.html",
        status_code=status_code,
        project=project,
        values=values,
        errors=errors or {},
        notice=notice,
        frequencies=FREQUENCIES,
    )


class UnsubscribeController(Controller):
    """No session and no CSRF token: mail programs post here by themselves (RFC 8058), and the link's
    signature is what authorizes the change. Opening the link only asks; the POST unsubscribes."""

    path = "/notifications/unsubscribe"
    include_in_schema = False

    @get("/{token:str}")
    async def unsubscribe_page(self, request: HTMXRequest, token: str) -> Any:
        settings: Settings = request.app.state.settings
        read_link(settings, token)
        return render(
            request, "unsubscribe.html", bare=True, done=False, kind=read_link(settings, token).kind
        )

    @post("/{token:str}", status_code=200)
    async def unsubscribe(self, request: HTMXRequest, db_session: AsyncSession, token: str) -> Any:
        settings: Settings = request.app.state.settings
        link = read_link(settings, token)
        await unsubscribe(db_session, link)
        return render(request, "unsubscribe.html", bare=True, done=True, kind=link.kind)


def mail_links_router() -> Router:
    """The pages of the links notification mails carry: unsubscribing, and a reporter confirming."""
    return Router(
        path="/",
        route_handlers=[UnsubscribeController, ReporterConfirmationController],
        exception_handlers=CONSOLE_EXCEPTION_HANDLERS,
        after_request=add_security_headers,
        request_class=HTMXRequest,
        include_in_schema=False,
    )
