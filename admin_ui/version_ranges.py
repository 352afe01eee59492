"""A page's helpfulness per version for the console: each version's share with its Wilson 95 % interval,
and the drop worth a warning: the newest version's interval lies wholly below the one before."""

from __future__ import annotations

from dataclasses import dataclass

from app.schemas.rating_stats import HelpfulVersion
from app.services.wilson_interval import wilson_interval

REASON_LABELS = {
    "inaccurate": "Inaccurate",
    "hard_to_understand": "Hard to understand",
    "missing_information": "Missing information",
    "code_sample_wrong": "Code sample wrong",
    "other": "Other",
}
"""The helpful widget's reasons as its English buttons say them; other reasons are shown as stored."""


@dataclass(frozen=True)
class VersionRange:
    version: str
    first_seen: str
    total: int
    percentage: float
    low: float
    """The interval's ends, in percent."""
    high: float


@dataclass(frozen=True)
class Drop:
    version: str
    before: int
    after: int
    """The previous and the newest version's helpful %, rounded to whole percent."""


def version_ranges(versions: list[HelpfulVersion]) -> list[VersionRange]:
    ranges = []
    for entry in versions:
        interval = wilson_interval(entry.helpful, entry.total)
        ranges.append(
            VersionRange(
                version=entry.version,
                first_seen=entry.first_seen,
                total=entry.total,
                percentage=entry.percentage,
                low=round(100 * interval.low, 1),
                high=round(100 * interval.high, 1),
            )
        )
    return ranges


def significant_drop(ranges: list[VersionRange]) -> Drop | None:
    """The newest version against the one before: a drop only when the intervals do not overlap."""
    if len(ranges) < 2:
        return None
    before, newest = ranges[-2], ranges[-1]
    if newest.high >= before.low:
        return None
    return Drop(version=newest.version, before=round(before.percentage), after=round(newest.percentage))


def reason_label(reason: str) -> str:
    return REASON_LABELS.get(reason, reason)
