"""The Wilson score interval against published values: Newcombe (1998), "Two-sided confidence intervals
for the single proportion: comparison of seven methods", Statistics in Medicine 17, table II (method 3,
score interval without continuity correction), to the four decimals printed there."""

from __future__ import annotations

import pytest

from app.services.wilson_interval import wilson_interval


@pytest.mark.parametrize(
    ("yes", "total", "low", "high"),
    [
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0000, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ],
)
def test_matches_newcombes_table(yes: int, total: int, low: float, high: float) -> None:
    interval = wilson_interval(yes, total)
    assert (round(interval.low, 4), round(interval.high, 4)) == (low, high)


def test_all_yes_mirrors_all_no_and_no_votes_know_nothing() -> None:
    none_yes, all_yes = wilson_interval(0, 20), wilson_interval(20, 20)
    assert all_yes.high == 1.0
    assert all_yes.low == pytest.approx(1 - none_yes.high)
    assert tuple(wilson_interval(0, 0)) == (0.0, 1.0)


def test_more_votes_narrow_the_interval_and_overlap_is_symmetric() -> None:
    few, many = wilson_interval(8, 10), wilson_interval(800, 1000)
    assert few.low < many.low < 0.8 < many.high < few.high
    worse = wilson_interval(600, 1000)
    assert not many.overlaps(worse) and not worse.overlaps(many)
    assert few.overlaps(worse) and worse.overlaps(few)
