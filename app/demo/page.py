"""GET /demo: a page that embeds every widget against this server (not registered in production).

The page is sent with a strict Content-Security-Policy (no inline script or style), the same kind of
policy the widgets must survive on customers' sites.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape
from litestar import MediaType, Request, Response, get
from litestar.response import File
from sqlalchemy.ext.asyncio import AsyncSession

from app.config import Settings
from app.demo.demo_project import DEMO_PROJECT_KEY, ensure_demo_project, recent_submissions

HERE = Path(__file__).parent
# The demo is one page outside the console, so it keeps its own small template environment.
TEMPLATES = Environment(loader=FileSystemLoader(HERE), autoescape=select_autoescape(["html"]))
LANGUAGES = ("en", "de", "sv")
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
    origin = str(request.base_url).rstrip("/")
    project = await ensure_demo_project(db_session, [origin, settings.base_url])
    html = TEMPLATES.get_template("demo.html").render(
        base=origin,
        project_key=str(DEMO_PROJECT_KEY),
        project_id=str(project.id),
        lang=lang if lang in LANGUAGES else "",
        recent=await recent_submissions(db_session, project),
    )
    return Response(
        html,
        media_type=MediaType.HTML,
        headers={"Content-Security-Policy": DEMO_CSP, "Cache-Control": "no-store"},
    )


@get("/demo/demo.css", include_in_schema=False)
async def demo_stylesheet() -> File:
    return File(HERE / "demo.css", content_disposition_type="inline", media_type="text/css")


DEMO_ROUTES = [demo_page, demo_stylesheet]
