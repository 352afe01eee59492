"""The languages mail is written in, and a new account's first choice among them."""

from __future__ import annotations

LANGUAGES = ("en", "de", "sv")
DEFAULT_LANGUAGE = "en"
LANGUAGE_NAMES = {"en": "English", "de": "Deutsch", "sv": "Svenska"}


def check_language(value: str) -> str:
    """The language when it is one mail is written in, else the default."""
    value = value.strip().lower()
    return value if value in LANGUAGES else DEFAULT_LANGUAGE


def preferred_language(accept_language: str | None) -> str:
    """The first of the browser's languages that mail is written in (`de-CH;q=0.8` counts as `de`), in
    the order of their weights; English when none is."""
    ranked: list[tuple[float, int, str]] = []
    for position, item in enumerate((accept_language or "").split(",")):
        tag, _, params = item.strip().partition(";")
        weight = 1.0
        if params.strip().startswith("q="):
            try:
                weight = float(params.strip()[2:])
            except ValueError:
                continue
        ranked.append((-weight, position, tag.strip().lower().split("-")[0]))
    for weight, _, language in sorted(ranked):
        if weight < 0 and language in LANGUAGES:
            return language
    return DEFAULT_LANGUAGE
