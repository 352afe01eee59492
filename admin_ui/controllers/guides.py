"""Guides: the documentation platforms' recipes and the npm package's README, rendered in the console from
the files in the repository, so that the Install page can link to the very text the tests build."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from litestar import Controller, get
from litestar.plugins.htmx import HTMXRequest
from markdown_it import MarkdownIt

from admin_ui.rendering import render
from app.errors import NotFound

REPO_ROOT = Path(__file__).resolve().parents[2]
GUIDES = {
    "platforms": REPO_ROOT / "docs" / "platforms.md",
    "npm-package": REPO_ROOT / "packages" / "widgets" / "README.md",
}
"""The guides by their name in /guides/<name>."""

_markdown = MarkdownIt("commonmark", {"html": False}).enable("table")
"""Raw HTML in a guide is shown as text, never run."""


class GuideController(Controller):
    path = "/guides"
    include_in_schema = False

    @get("/{name:str}")
    async def guide(self, request: HTMXRequest, name: str) -> Any:
        source = GUIDES.get(name)
        if source is None or not source.is_file():
            raise NotFound("no such guide")
        text = source.read_text(encoding="utf-8")
        title = next((line[2:] for line in text.splitlines() if line.startswith("# ")), name)
        return render(request, "guide.html", title=title, body=_markdown.render(text))
