"""Page globs of survey triggers: `*` stays within one path segment, `**` crosses segments, everything
else is itself (the widget's loader matches the same way); globs that mean nothing are refused."""

from __future__ import annotations

import pytest

from app.surveys.globs import glob_problem, page_matches


@pytest.mark.parametrize(
    ("glob", "path", "matches"),
    [
        ("/docs/*", "/docs/install", True),
        ("/docs/*", "/docs/install/linux", False),
        ("/docs/*", "/docs/", True),
        ("/docs/**", "/docs/install/linux", True),
        ("/docs/**", "/docs", False),
        ("/**/faq", "/en/help/faq", True),
        ("/*/faq", "/en/help/faq", False),
        ("/pricing", "/pricing", True),
        ("/pricing", "/pricing/", False),
        ("/a.b/*", "/aXb/c", False),  # a dot is a dot, not any character
        ("/shop/*-sale", "/shop/winter-sale", True),
    ],
)
def test_a_glob_matches_the_pathname(glob: str, path: str, matches: bool) -> None:
    assert page_matches(path, [glob], []) is matches


def test_no_pages_is_every_page_and_exclusions_win() -> None:
    assert page_matches("/anything", [], [])
    assert not page_matches("/docs/internal/x", ["/docs/**"], ["/docs/internal/**"])


@pytest.mark.parametrize("glob", ["docs/*", "/docs/***", "/a\x00b", "/" + "a" * 512])
def test_globs_that_mean_nothing_are_refused(glob: str) -> None:
    assert glob_problem(glob) is not None
