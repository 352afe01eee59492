"""How console handlers answer: a full page, or for an htmx request just the fragment it swaps."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import quote

from litestar import MediaType, Request, Response
from litestar.plugins.htmx import ClientRedirect, HTMXRequest, HTMXTemplate
from litestar.plugins.jinja import JinjaTemplateEngine
from litestar.response import Redirect
from litestar.template import TemplateConfig

from app.ideas.markdown import render_markdown
from app.schemas.portal import portal_of
from app.services.projects import RETENTION_DAYS
from app.timestamps import iso_z

TEMPLATES = Path(__file__).parent / "templates"


def _when(moment: Any) -> str:
    """A compact UTC timestamp for tables; the full ISO value goes in a <time datetime> attribute."""
    return moment.strftime("%Y-%m-%d %H:%M UTC") if moment is not None else ""


def _mailto(email: str) -> str:
    """A mailto link to exactly this address: everything but the @ is percent-encoded, so a stored `?` or
    `&` cannot add recipients or a body."""
    return "mailto:" + quote(email, safe="@")


def _engine_callback(engine: JinjaTemplateEngine) -> None:
    engine.engine.filters["mailto"] = _mailto
    engine.engine.filters["when"] = _when
    engine.engine.filters["iso"] = lambda moment: iso_z(moment) if moment is not None else ""
    engine.engine.filters["markdown"] = render_markdown  # ideas and changelog texts, sanitized
    engine.engine.globals["portal_of"] = portal_of  # the ideas portal's settings on the project page
    engine.engine.globals["retention_days"] = RETENTION_DAYS  # the field's bounds, as the service holds them


TEMPLATE_CONFIG = TemplateConfig(
    directory=TEMPLATES, engine=JinjaTemplateEngine, engine_callback=_engine_callback
)


def wants_fragment(request: Request[Any, Any, Any]) -> bool:
    """An htmx request that swaps part of a page (a boosted one wants the whole page)."""
    htmx = getattr(request, "htmx", None)
    return bool(htmx) and not htmx.boosted  # type: ignore[union-attr]


def render(
    request: HTMXRequest,
    page: str,
    *,
    fragment: str | None = None,
    status_code: int = 200,
    **context: Any,
) -> HTMXTemplate:
    """`page` for a normal or boosted request, `fragment` (when given) for an htmx swap."""
    name = fragment if fragment and wants_fragment(request) else page
    return HTMXTemplate(
        template_name=name,
        context={"me": request.scope.get("user"), **context},
        status_code=status_code,
        media_type=MediaType.HTML,
    )


def go_to(request: Request[Any, Any, Any], url: str) -> Response[Any]:
    """After a change, send the browser to the page that shows it (POST/redirect/GET)."""
    if wants_fragment(request):
        redirect = ClientRedirect(url)
        redirect.status_code = 200  # htmx follows HX-Redirect only on a 2xx answer; a POST defaults to 201
        return redirect
    return Redirect(url, status_code=303)


def json_error(status: int, field: str, details: str) -> Response[Any]:
    """A refusal for the console's own scripts (the passkey ceremonies), shaped like the API's errors."""
    return Response({"error": "invalid_request", "details": details, "field": field}, status_code=status)
