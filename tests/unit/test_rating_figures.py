"""How counts become the statistics figures (percentage, average, NPS score and category),
and how a time range splits into counter days and partial edges."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, date, datetime

import pytest

from app.db.models import RatingType
from app.services.rating_stats import DaySplit, bucket_start, nps_category, split_days, stats_of


def utc(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=UTC)


@pytest.mark.parametrize(
    ("score", "category"),
    [
        (100, "excellent"),
        (70, "excellent"),
        (69, "great"),
        (50, "great"),
        (49, "good"),
        (30, "good"),
        (29, "needs_improvement"),
        (0, "needs_improvement"),
        (-1, "critical"),
        (-100, "critical"),
    ],
)
def test_nps_category_boundaries(score: int, category: str) -> None:
    assert nps_category(score) == category


def test_helpful_percentage_has_one_decimal() -> None:
    stats = stats_of(RatingType.HELPFUL, Counter({(0, 1, ""): 2, (0, 0, ""): 1}))
    assert (stats.total, stats.percentage) == (3, 66.7)  # type: ignore[union-attr]


def test_reasons_count_the_nos_most_given_first_without_zeros() -> None:
    tally = Counter(
        {(0, 0, "other"): 1, (0, 0, "inaccurate"): 3, (0, 0, ""): 2, (0, 1, "clear"): 4, (0, 0, "gone"): 0}
    )
    stats = stats_of(RatingType.HELPFUL, tally)
    assert list(stats.reasons.items()) == [("inaccurate", 3), ("other", 1)]  # type: ignore[union-attr]
    assert (stats.total, stats.not_helpful) == (10, 6)  # type: ignore[union-attr]


def test_zero_counts_do_not_widen_the_star_scale() -> None:
    """Archiving leaves zero counter rows; a 10-star scale that no longer has ratings is not shown."""
    stats = stats_of(RatingType.STAR, Counter({(10, 7, ""): 0, (3, 2, ""): 1, (3, 3, ""): 2}))
    assert stats.distribution == {"1": 0, "2": 1, "3": 2}  # type: ignore[union-attr]
    assert stats.average == 2.67  # type: ignore[union-attr]


def test_nps_score_is_rounded_to_an_integer() -> None:
    stats = stats_of(RatingType.NPS, Counter({(0, 10, ""): 2, (0, 8, ""): 3, (0, 2, ""): 1}))
    assert (stats.score, stats.promoters, stats.passives, stats.detractors) == (17, 2, 3, 1)  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("since", "until", "split"),
    [
        (None, None, DaySplit()),
        (utc(2026, 5, 1), utc(2026, 5, 4), DaySplit(date(2026, 5, 1), date(2026, 5, 4))),
        (
            utc(2026, 5, 1, 12),
            utc(2026, 5, 4, 6),
            DaySplit(
                date(2026, 5, 2),
                date(2026, 5, 4),
                [(utc(2026, 5, 1, 12), utc(2026, 5, 2)), (utc(2026, 5, 4), utc(2026, 5, 4, 6))],
            ),
        ),
        (
            utc(2026, 5, 1, 12),
            utc(2026, 5, 1, 13),
            DaySplit(date(2026, 5, 2), date(2026, 5, 1), [(utc(2026, 5, 1, 12), utc(2026, 5, 1, 13))]),
        ),
        (
            utc(2026, 5, 1),
            utc(2026, 5, 1, 13),
            DaySplit(date(2026, 5, 1), date(2026, 5, 1), [(utc(2026, 5, 1), utc(2026, 5, 1, 13))]),
        ),
        (None, utc(2026, 5, 1, 1), DaySplit(None, date(2026, 5, 1), [(utc(2026, 5, 1), utc(2026, 5, 1, 1))])),
        (utc(2026, 5, 1, 1), utc(2026, 5, 1, 1), DaySplit(empty=True)),
    ],
)
def test_split_days(since: datetime | None, until: datetime | None, split: DaySplit) -> None:
    assert split_days(since, until) == split


def test_only_real_whole_days_are_read_from_counters() -> None:
    assert not split_days(utc(2026, 5, 1, 12), utc(2026, 5, 2)).has_whole_days
    assert split_days(utc(2026, 5, 1), utc(2026, 5, 2)).has_whole_days
    assert split_days(None, None).has_whole_days


def test_weeks_start_on_monday() -> None:
    assert bucket_start(date(2026, 5, 3), "week") == date(2026, 4, 27)  # Sunday -> Monday before
    assert bucket_start(date(2026, 4, 27), "week") == date(2026, 4, 27)
    assert bucket_start(date(2026, 5, 3), "day") == date(2026, 5, 3)
