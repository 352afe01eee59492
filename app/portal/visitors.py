"""A portal request's project (and its services as the portal uses them), language and person, found once
per request."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

from litestar import Request
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.config import Settings
from app.db.identity_secret import identity_box
from app.db.models import Project
from app.dependencies import Service, build
from app.errors import NotFound, Unauthorized
from app.ideas.identity import COOKIE, person_of_visit, user_from_signature, user_from_token, visit_token
from app.ideas.people import Person
from app.schemas.portal import PortalSettings, portal_of
from tenants.languages import LANGUAGES, preferred_language
from tenants.scope import widget_scope

NO_PORTAL = "no portal at this address"


async def portal_project(session: AsyncSession, project_key: str) -> tuple[Project, PortalSettings]:
    """The project whose portal this is: 404 for an unknown key or a portal that is off."""
    try:
        key = UUID(project_key)
    except ValueError:
        raise NotFound(NO_PORTAL) from None
    project = await session.scalar(select(Project).where(Project.key == key))
    portal = portal_of(project) if project is not None else None
    if project is None or portal is None or not portal.enabled:
        raise NotFound(NO_PORTAL)
    return project, portal


def portal_service(
    service: type[Service], session: AsyncSession, project: Project, settings: Settings
) -> Service:
    """A service of the portal's project (its ideas, its changelog), in the widget scope of the project's
    organization: the portal acts for its visitors, not for a member."""
    return build(service, session, widget_scope(project.org_id), project, settings)


def language_of(request: Request[Any, Any, Any]) -> str:
    """?lang= when it names a language the portal speaks, else the browser's first such language."""
    asked = (request.query_params.get("lang") or "").lower()
    if asked in LANGUAGES:
        return asked
    return preferred_language(request.headers.get("accept-language"))


def identity_secret(settings: Settings, project: Project) -> str | None:
    if project.sealed_identity_secret is None:
        return None
    return identity_box(settings.secret_key).open(project.sealed_identity_secret)


def presented_person(request: Request[Any, Any, Any], settings: Settings, project: Project) -> Person | None:
    """The person the request names by the customer's app (a token, or a signed user id), or None when
    it names none; a request that names one wrongly is refused (401), never taken as anonymous."""
    query = request.query_params
    bearer = request.headers.get("authorization", "")
    token = query.get("token") or (bearer[7:].strip() if bearer[:7].lower() == "bearer " else None)
    user, sig = query.get("user"), query.get("sig")
    if not token and not (user or sig):
        return None
    secret = identity_secret(settings, project)
    person = (
        user_from_token(secret, token)
        if token
        else user_from_signature(secret, user, sig, query.get("name") or "")
    )
    if person is None:
        raise Unauthorized(
            "identity: the token or user signature does not match the project's identity secret"
        )
    return person


@dataclass
class Visitor:
    person: Person | None
    visit: str | None
    """The visit token to remember the person by (set as the cookie, repeated in forms)."""
    fresh: bool = False
    """The person arrived with this request: the cookie is to be set."""


def visitor_of(
    request: Request[Any, Any, Any],
    settings: Settings,
    project: Project,
    language: str,
    form_visit: str | None = None,
) -> Visitor:
    """Who is visiting: named in this request, or remembered by the visit token of the form (a POST) or of
    the cookie (a GET). A POST counts a person only by its form's visit token, so another site cannot
    vote in someone's name by posting a form to the portal."""
    try:
        person = presented_person(request, settings, project)
    except Unauthorized:
        person = None
    if person is not None:
        person = Person(person.key, person.name, person.email, language)
        return Visitor(person, visit_token(settings, project, person), fresh=True)
    token = form_visit if request.method == "POST" else (form_visit or request.cookies.get(COOKIE))
    remembered = person_of_visit(settings, project, token)
    return Visitor(remembered, token if remembered else None)
