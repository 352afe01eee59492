"""Ready-to-paste script tags for the widgets, with the project's key and this server's address."""

from __future__ import annotations

from dataclasses import dataclass
from html import escape


@dataclass(frozen=True)
class Widget:
    name: str
    title: str
    purpose: str
    attributes: tuple[tuple[str, str], ...] = ()
    options: str = ""


WIDGETS = (
    Widget(
        "helpful",
        "Was this page helpful?",
        "Yes/No buttons placed where the script tag is.",
        options="data-question, data-button-color, data-reasons, data-show-comment-link, data-container",
    ),
    Widget(
        "star",
        "Star rating",
        "1 to N stars placed where the script tag is.",
        attributes=(("data-max-stars", "5"),),
        options="data-question, data-color, data-container",
    ),
    Widget(
        "nps",
        "Net Promoter Score",
        "0 to 10 (how likely to recommend you) and an optional comment, placed where the script tag is.",
        options="data-question, data-color, data-container",
    ),
    Widget(
        "feedback",
        "Feedback button",
        "A floating button that opens a form with the feedback types.",
        attributes=(("data-button-position", "bottom-right"),),
        options="data-button-text, data-color",
    ),
    Widget(
        "contact",
        "Contact form",
        "A floating button that opens a contact form.",
        attributes=(("data-button-position", "bottom-right"),),
        options="data-button-text, data-color, data-show-subject",
    ),
)
COMMON_OPTIONS = (
    "data-language (en, de, sv), data-version, data-show-powered-by, data-text-<name> to replace any text"
)


def snippet(widget: Widget, base_url: str, project_key: str) -> str:
    attributes = [
        ("src", f"{base_url}/static/widgets/v1/{widget.name}.js"),
        ("data-project-key", project_key),
    ]
    attributes += widget.attributes
    rendered = " ".join(f'{name}="{escape(value)}"' for name, value in attributes)
    return f"<script {rendered}></script>"
