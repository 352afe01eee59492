"""Markdown that visitors and the team write, as HTML safe to show: rendered by markdown-it-py with raw
HTML turned off (it is shown as text), then cleaned by nh3 (the Ammonia sanitizer) to an allow-list of
tags and attributes, with links only to http, https and mailto, each marked nofollow and ugc. Two
independent layers: a gap in either is not a hole."""

from __future__ import annotations

from functools import cache

import nh3
from markdown_it import MarkdownIt
from markupsafe import Markup

TAGS = {
    "p", "br", "strong", "em", "code", "pre", "blockquote", "ul", "ol", "li", "a", "h3", "h4", "h5", "h6",
    "hr", "del",
}  # fmt: skip
ATTRIBUTES = {"a": {"href", "title"}}
SCHEMES = {"http", "https", "mailto"}


@cache
def _parser() -> MarkdownIt:
    parser = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    parser.disable("image")  # no images from elsewhere on the portal (tracking pixels)
    parser.enable("strikethrough")
    return parser


def render_markdown(text: str | None) -> Markup:
    """The text's HTML, cleaned; headings start at level 3 so that a text never outranks the page's."""
    if not text:
        return Markup("")
    html = _parser().render(text)
    for level in (1, 2):
        html = html.replace(f"<h{level}>", "<h3>").replace(f"</h{level}>", "</h3>")
    cleaned = nh3.clean(
        html,
        tags=TAGS,
        attributes=ATTRIBUTES,
        url_schemes=SCHEMES,
        link_rel="nofollow ugc noopener noreferrer",
        strip_comments=True,
    )
    return Markup(cleaned)
