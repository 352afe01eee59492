"""GET /demo: a page that embeds every widget against this server (not registered in production).

The page is sent with a strict Content-Security-Policy (no inline script or style), the same kind of
policy the widgets must survive on customers' sites. Reading the page never writes: until the demo project
exists with the server's origin, it offers a button that POSTs to set it up. Each visitor gets a random
marker (a cookie) that the widgets send as their version, and sees only what carries it.
"""

from __future__ import annotations

import re
import secrets
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape
from litestar import MediaType, Request, Response, get, post
from litestar.datastructures import Cookie
from litestar.response import File, Redirect
from sqlalchemy.ext.asyncio import AsyncSession

from app.config import Settings
from app.demo.demo_project import (
    DEMO_PROJECT_KEY,
    demo_is_ready,
    ensure_demo_project,
    find_demo_project,
    recent_submissions,
)

HERE = Path(__file__).parent
# The demo is one page outside the console, so it keeps its own small template environment.
TEMPLATES = Environment(loader=FileSystemLoader(HERE), autoescape=select_autoescape(["html"]))
LANGUAGES = ("en", "de", "sv")
VISITOR_COOKIE = "hearken_demo_visitor"
_VISITOR = re.compile(r"^[0-9a-f]{32}$")
DEMO_CSP = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "connect-src 'self'",
        "img-src 'self' data:",
        "frame-ancestors 'none'",
        "base-uri 'none'",
        "object-src 'none'",
    ]
)


@get("/demo", include_in_schema=False, media_type=MediaType.HTML)
async def demo_page(
    request: Request[Any, Any, Any], db_session: AsyncSession, lang: str = ""
) -> Response[str]:
    """`?lang=de` or `?lang=sv` shows the widgets in that language; otherwise the browser's."""
    settings: Settings = request.app.state.settings
    visitor = request.cookies.get(VISITOR_COOKIE, "")
    if not _VISITOR.match(visitor):
        visitor = secrets.token_hex(16)
    version = f"demo-{visitor}"
    project = await find_demo_project(db_session)
    ready = demo_is_ready(project, settings.base_url)
    html = TEMPLATES.get_template("demo.html").render(
        base=settings.base_url,
        ready=ready,
        project_key=str(DEMO_PROJECT_KEY),
        project_id=str(project.id) if project else "",
        version=version,
        lang=lang if lang in LANGUAGES else "",
        recent=await recent_submissions(db_session, project, version) if project and ready else None,
    )
    return Response(
        html,
        media_type=MediaType.HTML,
        headers={"Content-Security-Policy": DEMO_CSP, "Cache-Control": "no-store"},
        cookies=[Cookie(key=VISITOR_COOKIE, value=visitor, path="/demo", httponly=True, samesite="lax")],
    )


@post("/demo/setup", include_in_schema=False, status_code=303)
async def set_up_demo(request: Request[Any, Any, Any], db_session: AsyncSession) -> Redirect:
    """Takes no input: the project gets HEARKEN_BASE_URL's origin, whoever asks."""
    settings: Settings = request.app.state.settings
    await ensure_demo_project(db_session, settings.base_url)
    return Redirect("/demo", status_code=303)


@get("/demo/demo.css", include_in_schema=False)
async def demo_stylesheet() -> File:
    return File(HERE / "demo.css", content_disposition_type="inline", media_type="text/css")


DEMO_ROUTES = [demo_page, set_up_demo, demo_stylesheet]
