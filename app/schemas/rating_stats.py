"""Statistics bodies: one per rating type, tagged by "type", and their time-series and per-version forms."""

from __future__ import annotations

from typing import Literal

import msgspec

NpsCategory = Literal["excellent", "great", "good", "needs_improvement", "critical"]
Interval = Literal["day", "week"]


class HelpfulCounts(msgspec.Struct, kw_only=True):
    total: int
    helpful: int
    not_helpful: int
    percentage: float
    """Share of helpful, 0.0 to 100.0, one decimal; 0.0 when there are none."""
    reasons: dict[str, int]
    """How many "not helpful" ratings gave each reason (metadata.reason), most given first."""


class StarCounts(msgspec.Struct, kw_only=True):
    total: int
    average: float
    """Mean star value, two decimals; 0.0 when there are none."""
    distribution: dict[str, int]
    """Count per star value "1".."N", N the largest max_stars counted (5 when none)."""


class NpsCounts(msgspec.Struct, kw_only=True):
    total: int
    score: int
    """round(100 * (promoters - detractors) / total); 0 when there are none."""
    promoters: int
    passives: int
    detractors: int
    distribution: dict[str, int]
    """Count per score "0".."10", every key present."""
    category: NpsCategory


class HelpfulStats(HelpfulCounts, tag_field="type", tag="helpful"):
    pass


class StarStats(StarCounts, tag_field="type", tag="star"):
    pass


class NpsStats(NpsCounts, tag_field="type", tag="nps"):
    pass


RatingStats = HelpfulStats | StarStats | NpsStats


class HelpfulPoint(HelpfulCounts):
    start: str
    """Start of the bucket (a UTC day, or the Monday of an ISO week)."""


class StarPoint(StarCounts):
    start: str


class NpsPoint(NpsCounts):
    start: str


class HelpfulSeries(msgspec.Struct, tag_field="type", tag="helpful"):
    interval: Interval
    points: list[HelpfulPoint]


class StarSeries(msgspec.Struct, tag_field="type", tag="star"):
    interval: Interval
    points: list[StarPoint]


class NpsSeries(msgspec.Struct, tag_field="type", tag="nps"):
    interval: Interval
    points: list[NpsPoint]


RatingSeries = HelpfulSeries | StarSeries | NpsSeries


class HelpfulVersion(HelpfulCounts):
    version: str
    first_seen: str
    """The first UTC day (YYYY-MM-DD) with a counted rating of this version."""


class StarVersion(StarCounts):
    version: str
    first_seen: str


class NpsVersion(NpsCounts):
    version: str
    first_seen: str


class HelpfulVersions(msgspec.Struct, tag_field="type", tag="helpful"):
    versions: list[HelpfulVersion]


class StarVersions(msgspec.Struct, tag_field="type", tag="star"):
    versions: list[StarVersion]


class NpsVersions(msgspec.Struct, tag_field="type", tag="nps"):
    versions: list[NpsVersion]


RatingVersions = HelpfulVersions | StarVersions | NpsVersions
