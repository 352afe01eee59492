"""Bodies of the insights routes: similar items and themes."""

from __future__ import annotations

import msgspec

from app.schemas.feedback import FeedbackOut


class SimilarItem(msgspec.Struct):
    feedback: FeedbackOut
    similarity: float
    """0..1, cosine similarity of the language-centred vectors (negative counts as 0)."""


class SimilarFeedback(msgspec.Struct):
    items: list[SimilarItem]
    pending: bool
    """True while this item's vector is not computed yet (the list is then empty)."""


class ThemeOut(msgspec.Struct):
    id: str
    label: str
    """The message nearest the theme's centre, in the theme's most common language."""
    keywords: list[str]
    """Words of the messages that set the theme apart from the others."""
    count: int
    """Items of the theme created in the window."""
    previous_count: int
    """Items of the theme created in the window of equal length just before."""
    sample_ids: list[str]
    """Up to 3 feedback ids of the theme in the window, newest first."""
    name: str
    """Two to five of the members' own words in the project's main language, the most telling first
    ("dark mode, theme"); empty until the themes are next recomputed."""
    share: float
    """Of the window's items with a vector, the part in this theme (0..1)."""
    previous_share: float
    """The same in the window of equal length just before."""
    trend: str
    """"new" (no item in the window before), "rising", "falling" or "steady": the share against the
    share before."""
    confidence: float | None
    """0..1: how close the theme's items sit to its centre (mean cosine similarity); low values mean a
    loose theme. Null until the themes are next recomputed."""


class ThemesOut(msgspec.Struct):
    themes: list[ThemeOut]
    computed_at: str | None
    """When the themes were last recomputed; null before the first time."""
    pending: int
    """Items of the window whose vector is not computed yet."""
    unsorted: int
    """Items of the window with a vector that are in no theme ("Unsorted"): too unlike any group."""
