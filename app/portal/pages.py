"""The portal's pages at /p/{project_key}: the ideas (sort, filter, search), an idea with its votes,
comments and the team's response, "Suggest an idea" (similar ideas offered while typing, and before
sending without JavaScript), the roadmap, the changelog and its Atom feed, and the pages of the links
mail carries (confirming an address, unsubscribing).

Every page reads without JavaScript; the one script only offers similar ideas while typing. Pages are
sent with a strict Content-Security-Policy: scripts and styles from this server only (the project's
accent colour is one inline style allowed by its hash), and framing only with `?embed=true` by the
project's allowed origins. A form counts a person only by its visit token (app/ideas/identity.py).
"""

from __future__ import annotations

import base64
import hashlib
import html
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from jinja2 import Environment, FileSystemLoader, select_autoescape
from litestar import MediaType, Request, Response, Router, get, post
from litestar.datastructures import Cookie
from litestar.static_files import create_static_files_router
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.config import Settings
from app.db.ids import parse_uuid
from app.db.models import Idea, IdeaStatus, Project
from app.dependencies import request_settings
from app.errors import ApiError, InvalidRequest, NotFound
from app.ideas.identity import COOKIE, confirmation_token, person_of_confirmation, visit_token
from app.ideas.markdown import render_markdown
from app.ideas.notices import PortalUnsubscribe, opt_out, portal_title, read_unsubscribe
from app.ideas.people import Person
from app.ideas.service import Changelog, Ideas
from app.ideas.similar import similar_ideas
from app.ingest import spam_reason
from app.mail import Mail, queue_mail
from app.portal.texts import TEXTS
from app.portal.visitors import Visitor, language_of, portal_project, portal_service, visitor_of
from app.schemas.portal import PortalSettings
from app.timestamps import iso_z

HERE = Path(__file__).parent
STATIC = HERE.parent.parent / "static" / "portal"
TEMPLATES = Environment(
    loader=FileSystemLoader(HERE / "templates"),
    autoescape=select_autoescape(["html", "xml", "atom"]),
    trim_blocks=True,
    lstrip_blocks=True,
)
TEMPLATES.filters["markdown"] = render_markdown
SORTS = ("top", "new", "trending")
PAGE_SIZE = 20
ROADMAP = (IdeaStatus.PLANNED.value, IdeaStatus.IN_PROGRESS.value, IdeaStatus.DONE.value)
PUBLIC_STATUSES = ("open", "planned", "in_progress", "done", "declined")
TAGS_KEPT_SECONDS = 30.0
"""The list's tag filter shows the project's tags as this worker saw them at most this long ago."""
_project_tags: dict[Any, tuple[float, list[str]]] = {}
CONFIRMATION_INTERVAL = 600.0
"""At most one confirmation mail to an address per project in this many seconds (per worker)."""
CONFIRMATIONS_PER_HOUR = 30
"""And at most this many confirmation mails per project an hour (per worker): nobody can make a portal
mail many addresses."""
_asked: dict[tuple[Any, str], float] = {}
_project_asks: dict[Any, list[float]] = {}


def _may_ask(project_id: Any, address: str) -> bool:
    now = time.monotonic()
    if len(_asked) > 10_000:
        _asked.clear()
    recent = [t for t in _project_asks.get(project_id, []) if t > now - 3600]
    if (
        _asked.get((project_id, address), -1e9) > now - CONFIRMATION_INTERVAL
        or len(recent) >= CONFIRMATIONS_PER_HOUR
    ):
        return False
    _asked[(project_id, address)] = now
    _project_asks[project_id] = [*recent, now]
    return True


@dataclass
class Portal:
    """What every page of one request knows."""

    request: Request[Any, Any, Any]
    settings: Settings
    project: Project
    portal: PortalSettings
    language: str
    visitor: Visitor
    embed: bool
    lang_asked: bool
    extra: dict[str, str] = field(default_factory=dict)

    @property
    def base(self) -> str:
        return f"/p/{self.project.key}"

    @property
    def person(self) -> Person | None:
        return self.visitor.person

    def url(self, path: str = "", **params: Any) -> str:
        """A link within the portal that keeps the language asked for and the embedding (with the visit,
        as a framed page may have no cookies)."""
        query = {k: v for k, v in params.items() if v not in (None, "", 1) or (k == "page" and v != 1)}
        if self.lang_asked:
            query["lang"] = self.language
        if self.embed:
            query["embed"] = "true"
            if self.visitor.visit:
                query["visit"] = self.visitor.visit
        return f"{self.base}{path}" + (f"?{urlencode(query)}" if query else "")


async def portal_for(
    request: Request[Any, Any, Any], session: AsyncSession, project_key: str, form_visit: str | None = None
) -> Portal:
    settings = request_settings(request)
    project, portal = await portal_project(session, project_key)
    language = language_of(request)
    embed = request.query_params.get("embed") == "true"
    if embed and request.method == "GET":  # a framed page may have no cookies: its links carry the visit
        form_visit = request.query_params.get("visit")
    visitor = visitor_of(request, settings, project, language, form_visit)
    lang_asked = (request.query_params.get("lang") or "").lower() == language
    return Portal(request, settings, project, portal, language, visitor, embed, lang_asked)


def _style(portal: PortalSettings) -> str:
    return f":root{{--accent:{portal.accent_color}}}"


def _headers(page: Portal) -> dict[str, str]:
    digest = base64.b64encode(hashlib.sha256(_style(page.portal).encode()).digest()).decode()
    ancestors = (" ".join(page.project.allowed_origins) or "'none'") if page.embed else "'none'"
    policy = "; ".join(
        [
            "default-src 'none'",
            "script-src 'self'",
            f"style-src 'self' 'sha256-{digest}'",
            "img-src 'self' data:",
            "connect-src 'self'",
            "form-action 'self'",
            "base-uri 'none'",
            f"frame-ancestors {ancestors}",
        ]
    )
    headers = {
        "Content-Security-Policy": policy,
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "same-origin",
        "Cache-Control": "private, no-store",
        "Vary": "Accept-Language, Cookie",
        "Content-Language": page.language,
    }
    if not page.embed:
        headers["X-Frame-Options"] = "DENY"
    return headers


def _cookies(page: Portal) -> list[Cookie]:
    if not page.visitor.fresh or not page.visitor.visit:
        return []
    secure = page.embed or page.settings.base_url.startswith("https:")
    return [
        Cookie(
            key=COOKIE,
            value=page.visitor.visit,
            path=page.base,
            httponly=True,
            secure=secure,
            samesite="none" if page.embed and secure else "lax",
        )
    ]


def render(page: Portal, template: str, status_code: int = 200, **values: Any) -> Response[str]:
    page_html = TEMPLATES.get_template(template).render(
        p=page,
        t=TEXTS[page.language],
        title=portal_title(page.project),
        style=_style(page.portal),
        started=int(time.time() * 1000),
        **values,
    )
    return Response(
        page_html,
        status_code=status_code,
        media_type=MediaType.HTML,
        headers=_headers(page),
        cookies=_cookies(page),
    )


def redirect(page: Portal, path: str, **params: Any) -> Response[str]:
    return Response("", status_code=303, headers={"Location": page.url(path, **params), **_headers(page)})


def ideas_of(session: AsyncSession, page: Portal) -> Ideas:
    return portal_service(Ideas, session, page.project, page.settings)


def _int(value: str | None, default: int = 1) -> int:
    try:
        return max(1, min(int(value or default), 1_000_000))
    except ValueError:
        return default


@get("/p/{project_key:str}", include_in_schema=False)
async def portal_list(
    request: Request[Any, Any, Any], db_session: AsyncSession, project_key: str
) -> Response[str]:
    page = await portal_for(request, db_session, project_key)
    query = request.query_params
    sort = query.get("sort") if query.get("sort") in SORTS else "top"
    status = query.get("status") if query.get("status") in PUBLIC_STATUSES else None
    tag = (query.get("tag") or "")[:40] or None
    search = (query.get("q") or "")[:200] or None
    number = _int(query.get("page"))
    ideas = ideas_of(db_session, page)
    rows, total = await ideas.list(
        status=status, tag=tag, search=search, sort=sort, page=number, limit=PAGE_SIZE, viewer=page.person
    )  # type: ignore[arg-type]
    return render(
        page,
        "list.html",
        ideas=rows,
        tags=await ideas.tags_of(rows),
        voted=await ideas.voted(rows, page.person),
        all_tags=await _tags(ideas, page.project.id),
        sort=sort,
        status=status,
        tag=tag,
        search=search or "",
        number=number,
        pages=max(1, -(-total // PAGE_SIZE)),
        total=total,
        statuses=PUBLIC_STATUSES,
    )


async def _tags(ideas: Ideas, project_id: Any) -> list[str]:
    kept = _project_tags.get(project_id)
    if kept is None or kept[0] < time.monotonic():
        if len(_project_tags) > 1000:
            _project_tags.clear()
        kept = (time.monotonic() + TAGS_KEPT_SECONDS, await ideas.project_tags())
        _project_tags[project_id] = kept
    return kept[1]


@get("/p/{project_key:str}/ideas/{idea_id:str}", include_in_schema=False)
async def portal_idea(
    request: Request[Any, Any, Any], db_session: AsyncSession, project_key: str, idea_id: str
) -> Response[str]:
    page = await portal_for(request, db_session, project_key)
    ideas = ideas_of(db_session, page)
    idea = await ideas.get(parse_uuid(idea_id, "idea_id"), viewer=page.person, team=False)
    merged_into = await db_session.get(Idea, idea.merged_into_id) if idea.merged_into_id else None
    return render(
        page,
        "idea.html",
        idea=idea,
        tags=(await ideas.tags_of([idea]))[idea.id],
        voted=idea.id in await ideas.voted([idea], page.person),
        comments=await ideas.comments(idea, viewer=page.person),
        merged_into=merged_into,
    )


async def _posted_to_idea(
    request: Request[Any, Any, Any], db_session: AsyncSession, project_key: str, idea_id: str
) -> tuple[Any, Portal, Ideas, Idea]:
    """A form posted to an idea: the form, its page (the visit it names), the project's ideas and the
    idea as the visitor may see it."""
    form = await request.form()
    page = await portal_for(request, db_session, project_key, str(form.get("visit") or ""))
    ideas = ideas_of(db_session, page)
    return form, page, ideas, await ideas.get(parse_uuid(idea_id, "idea_id"), viewer=page.person, team=False)


@post("/p/{project_key:str}/ideas/{idea_id:str}/vote", include_in_schema=False, status_code=303)
async def portal_vote(
    request: Request[Any, Any, Any], db_session: AsyncSession, project_key: str, idea_id: str
) -> Response[str]:
    form, page, ideas, idea = await _posted_to_idea(request, db_session, project_key, idea_id)
    back = str(form.get("back") or "")
    if page.person is None:
        return redirect(page, f"/ideas/{idea.id}")
    if form.get("action") == "unvote":
        await ideas.unvote(idea, page.person)
    else:
        await ideas.vote(idea, page.person)
    return redirect(page, "" if back == "list" else f"/ideas/{idea.id}")


@post("/p/{project_key:str}/ideas/{idea_id:str}/comments", include_in_schema=False, status_code=303)
async def portal_comment(
    request: Request[Any, Any, Any], db_session: AsyncSession, project_key: str, idea_id: str
) -> Response[str]:
    form, page, ideas, idea = await _posted_to_idea(request, db_session, project_key, idea_id)
    body = str(form.get("body") or "").strip()
    if page.person is not None and body:
        parent = str(form.get("parent_id") or "") or None
        spam = spam_reason(str(form.get("website") or ""), _elapsed(form)) is not None
        await ideas.comment(
            idea,
            body[:5000],
            person=page.person,
            parent_id=parse_uuid(parent, "parent_id") if parent else None,
            spam=spam,
        )
    return redirect(page, f"/ideas/{idea.id}")


def _elapsed(form: Any) -> int | None:
    try:
        return int(time.time() * 1000) - int(str(form.get("started") or ""))
    except ValueError:
        return None


@get("/p/{project_key:str}/suggest", include_in_schema=False)
async def portal_suggest_form(
    request: Request[Any, Any, Any], db_session: AsyncSession, project_key: str
) -> Response[str]:
    page = await portal_for(request, db_session, project_key)
    return render(
        page, "suggest.html", errors={}, values={"title": "", "body": ""}, similar=[], checked=False
    )


@post("/p/{project_key:str}/suggest", include_in_schema=False, status_code=303)
async def portal_suggest(
    request: Request[Any, Any, Any], db_session: AsyncSession, project_key: str
) -> Response[str]:
    form = await request.form()
    page = await portal_for(request, db_session, project_key, str(form.get("visit") or ""))
    values = {"title": str(form.get("title") or "").strip(), "body": str(form.get("body") or "").strip()}
    t = TEXTS[page.language]
    errors = {}
    if not values["title"]:
        errors["title"] = t["required"]
    elif len(values["title"]) > 120 or "\n" in values["title"]:
        errors["title"] = t["too_long"]
    if len(values["body"]) > 5000:
        errors["body"] = t["too_long"]
    if page.person is None or errors:
        return render(page, "suggest.html", 400, errors=errors, values=values, similar=[], checked=False)
    if not form.get("checked"):
        found = await similar_ideas(
            db_session, page.project.org_id, page.project.id, f"{values['title']}\n{values['body']}"
        )
        if found:
            return render(page, "suggest.html", errors={}, values=values, similar=found, checked=True)
    spam = spam_reason(str(form.get("website") or ""), _elapsed(form)) is not None
    idea = await ideas_of(db_session, page).suggest(
        page.person, values["title"], values["body"], spam=spam, auto_approve=page.portal.auto_approve
    )
    return redirect(page, f"/ideas/{idea.id}")


@get("/p/{project_key:str}/similar", include_in_schema=False)
async def portal_similar(
    request: Request[Any, Any, Any], db_session: AsyncSession, project_key: str, text: str = ""
) -> Response[str]:
    """The similar ideas of a text being typed, as the fragment the suggest form shows."""
    page = await portal_for(request, db_session, project_key)
    found = await similar_ideas(db_session, page.project.org_id, page.project.id, text[:2000])
    return render(page, "_similar.html", similar=found)


@get("/p/{project_key:str}/roadmap", include_in_schema=False)
async def portal_roadmap(
    request: Request[Any, Any, Any], db_session: AsyncSession, project_key: str
) -> Response[str]:
    page = await portal_for(request, db_session, project_key)
    ideas = ideas_of(db_session, page)
    columns = {}
    for status in ROADMAP:
        rows, _ = await ideas.list(status=status, sort="top", limit=50, viewer=page.person)
        columns[status] = rows
    return render(page, "roadmap.html", columns=columns)


async def _published(
    db_session: AsyncSession, page: Portal, number: int, limit: int
) -> tuple[list[Any], dict[Any, list[Idea]], int]:
    changelog = portal_service(Changelog, db_session, page.project, page.settings)
    entries, total = await changelog.list(published_only=True, page=number, limit=limit)
    ids = await changelog.idea_ids_of(entries)
    wanted = {idea_id for values in ids.values() for idea_id in values}
    found = (
        {
            idea.id: idea
            for idea in await db_session.scalars(
                select(Idea).where(Idea.id.in_(wanted), Idea.status != "pending")
            )
        }
        if wanted
        else {}
    )
    shipped = {entry.id: [found[i] for i in ids[entry.id] if i in found] for entry in entries}
    return entries, shipped, total


@get("/p/{project_key:str}/changelog", include_in_schema=False)
async def portal_changelog_page(
    request: Request[Any, Any, Any], db_session: AsyncSession, project_key: str
) -> Response[str]:
    page = await portal_for(request, db_session, project_key)
    number = _int(request.query_params.get("page"))
    entries, shipped, total = await _published(db_session, page, number, PAGE_SIZE)
    return render(
        page,
        "changelog.html",
        entries=entries,
        shipped=shipped,
        number=number,
        pages=max(1, -(-total // PAGE_SIZE)),
    )


@get("/p/{project_key:str}/changelog.atom", include_in_schema=False)
async def portal_changelog_feed(
    request: Request[Any, Any, Any], db_session: AsyncSession, project_key: str
) -> Response[str]:
    page = await portal_for(request, db_session, project_key)
    entries, shipped, _ = await _published(db_session, page, 1, 50)
    base = page.settings.base_url.rstrip("/")
    content = {
        entry.id: str.__add__("", render_markdown(entry.body))
        + "".join(
            f'<p><a href="{base}{page.base}/ideas/{idea.id}">{html.escape(idea.title)}</a></p>'
            for idea in shipped[entry.id]
        )
        for entry in entries
    }
    xml = TEMPLATES.get_template("changelog.atom").render(
        content=content,
        p=page,
        title=portal_title(page.project),
        base=page.settings.base_url.rstrip("/"),
        entries=entries,
        shipped=shipped,
        updated=iso_z(entries[0].published_at) if entries else iso_z(page.project.created_at),
        iso=iso_z,
    )
    return Response(
        xml,
        media_type="application/atom+xml; charset=utf-8",
        headers={"Cache-Control": "public, max-age=300"},
    )


@post("/p/{project_key:str}/sign-in", include_in_schema=False)
async def portal_email_sign_in(
    request: Request[Any, Any, Any], db_session: AsyncSession, project_key: str
) -> Response[str]:
    """Voting by email: mail a confirmation link to the address given (only when the portal votes so)."""
    form = await request.form()
    page = await portal_for(request, db_session, project_key)
    address = str(form.get("email") or "").strip()
    if page.portal.voting != "email":
        raise NotFound("this portal does not take votes by email")
    if not (3 <= len(address) <= 320 and "@" in address and " " not in address):
        raise InvalidRequest("email", "must be an email address")
    if not _may_ask(page.project.id, address.lower()):  # answered the same: the budget tells nothing
        return render(page, "message.html", message=TEXTS[page.language]["check_mail"])
    token = confirmation_token(page.settings, page.project, address, page.language)
    queue_mail(
        db_session,
        page.settings.secret_key,
        Mail(
            recipient=address,
            language=page.language,
            kind="portal_confirm",
            url=f"{page.settings.base_url}{page.base}/confirm/{token}?lang={page.language}",
            values={"project": portal_title(page.project)},
        ),
    )
    return render(page, "message.html", message=TEXTS[page.language]["check_mail"])


@get("/p/{project_key:str}/confirm/{token:str}", include_in_schema=False)
async def portal_confirm_page(
    request: Request[Any, Any, Any], db_session: AsyncSession, project_key: str, token: str
) -> Response[str]:
    """The link's page shows a button: a mail scanner following the link confirms nothing."""
    page = await portal_for(request, db_session, project_key)
    if person_of_confirmation(page.settings, page.project, token) is None:
        return render(page, "message.html", 404, message=TEXTS[page.language]["invalid_link"])
    return render(page, "confirm.html", action=page.url(f"/confirm/{token}"))


@post("/p/{project_key:str}/confirm/{token:str}", include_in_schema=False, status_code=303)
async def portal_confirm(
    request: Request[Any, Any, Any], db_session: AsyncSession, project_key: str, token: str
) -> Response[str]:
    page = await portal_for(request, db_session, project_key)
    person = person_of_confirmation(page.settings, page.project, token)
    if person is None:
        return render(page, "message.html", 404, message=TEXTS[page.language]["invalid_link"])
    page.visitor = Visitor(person, visit_token(page.settings, page.project, person), fresh=True)
    response = redirect(page, "")
    response.cookies.extend(_cookies(page))
    return response


def _unsubscribe_link(page: Portal, token: str) -> PortalUnsubscribe:
    """The unsubscribe link's token, read and held to this portal's project (404 otherwise)."""
    link = read_unsubscribe(page.settings, token)
    if link.project_id != page.project.id:
        raise NotFound("this unsubscribe link is not valid")
    return link


@get("/p/{project_key:str}/unsubscribe/{token:str}", include_in_schema=False)
async def portal_unsubscribe_page(
    request: Request[Any, Any, Any], db_session: AsyncSession, project_key: str, token: str
) -> Response[str]:
    page = await portal_for(request, db_session, project_key)
    _unsubscribe_link(page, token)  # a link that is not valid is refused before the button shows
    return render(page, "unsubscribe.html", action=f"{page.base}/unsubscribe/{token}", done=False)


@post("/p/{project_key:str}/unsubscribe/{token:str}", include_in_schema=False)
async def portal_unsubscribe(
    request: Request[Any, Any, Any], db_session: AsyncSession, project_key: str, token: str
) -> Response[str]:
    """The page's button, or a mail program's one-click POST (RFC 8058)."""
    page = await portal_for(request, db_session, project_key)
    await opt_out(db_session, _unsubscribe_link(page, token))
    return render(page, "unsubscribe.html", action="", done=True)


def _page_error(request: Request[Any, Any, Any], exc: ApiError) -> Response[Any]:
    """A page's error as a short page (JSON for the feed and fragments is not needed: they are pages)."""
    text = TEXTS["en"]["not_found"] if exc.status_code == 404 else exc.details
    body = f"<!doctype html><meta charset=utf-8><title>{exc.status_code}</title><p>{html.escape(text)}</p>"
    return Response(body, status_code=exc.status_code, media_type=MediaType.HTML, headers=exc.headers)


def portal_router() -> Router:
    return Router(
        path="/",
        route_handlers=[
            portal_list,
            portal_idea,
            portal_vote,
            portal_comment,
            portal_suggest_form,
            portal_suggest,
            portal_similar,
            portal_roadmap,
            portal_changelog_page,
            portal_changelog_feed,
            portal_email_sign_in,
            portal_confirm_page,
            portal_confirm,
            portal_unsubscribe_page,
            portal_unsubscribe,
            create_static_files_router(
                path="/static/portal",
                directories=[STATIC],
                include_in_schema=False,
                cache_control=None,
            ),
        ],
        exception_handlers={ApiError: _page_error},
        include_in_schema=False,
    )
