"""The embeddable widgets at /static/widgets/v1/<name>.js, built from static/widgets/src by
`make setup`.

Widgets load into pages on any origin, so each is served with `Access-Control-Allow-Origin: *`,
a cache lifetime and a weak ETag (weak because the compression middleware changes the bytes on the
wire); a request whose If-None-Match names the current ETag gets 304 without a body. Litestar's static
files router does the rest: content types, HEAD, 404.
"""

from __future__ import annotations

from pathlib import Path

from litestar import Request, Router
from litestar.datastructures import CacheControlHeader
from litestar.response.base import ASGIResponse
from litestar.static_files import create_static_files_router

WIDGETS_PATH = "/static/widgets/v1"
WIDGETS_DIR = Path(__file__).resolve().parent.parent / "static" / "widgets" / "v1"
CACHE_CONTROL = CacheControlHeader(public=True, max_age=3600, stale_while_revalidate=86400)


def etag_for(path: Path) -> str:
    stat = path.stat()
    return f'W/"{stat.st_mtime_ns:x}-{stat.st_size:x}"'


def _requested_file(request: Request) -> Path | None:
    """The widget file that the request names, if there is one."""
    candidate = (WIDGETS_DIR / request.url.path.removeprefix(WIDGETS_PATH + "/")).resolve()
    return candidate if candidate.is_relative_to(WIDGETS_DIR) and candidate.is_file() else None


async def _not_modified(request: Request) -> ASGIResponse | None:
    """304 when the client's cached copy is the current one (weak comparison, RFC 9110 13.1.2)."""
    wanted = request.headers.get("if-none-match")
    path = _requested_file(request) if wanted else None
    if path is None or wanted is None:
        return None
    current = etag_for(path)
    tags = {tag.strip().removeprefix("W/") for tag in wanted.split(",")}
    if "*" not in tags and current.removeprefix("W/") not in tags:
        return None
    return ASGIResponse(status_code=304, headers={"etag": current, "vary": "Accept-Encoding"})


async def _shared_headers(response: ASGIResponse) -> ASGIResponse:
    response.headers["access-control-allow-origin"] = "*"
    response.headers[CACHE_CONTROL.HEADER_NAME] = CACHE_CONTROL.to_header()
    file_path = getattr(response, "file_path", None)
    if file_path is not None:
        response.headers["etag"] = etag_for(Path(file_path))
    return response


def widgets_router() -> Router:
    return create_static_files_router(
        path=WIDGETS_PATH,
        directories=[WIDGETS_DIR],
        before_request=_not_modified,
        after_request=_shared_headers,  # type: ignore[arg-type]
    )
