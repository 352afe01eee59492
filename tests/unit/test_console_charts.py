"""The SVG chart geometry: bars where there are ratings, none where there are not, negatives below zero."""

from __future__ import annotations

from admin_ui.charts import HEIGHT, TOP, bar_chart


def test_empty_buckets_have_no_bar_and_values_scale_to_the_range() -> None:
    chart = bar_chart("Helpful %", [("d1", 100.0, 4), ("d2", 0.0, 0), ("d3", 50.0, 2)], low=0, high=100)
    assert [b.label for b in chart.bars] == ["d1", "d3"]
    full, half = chart.bars
    assert full.y == TOP and full.y + full.height == chart.zero_y
    assert abs(half.height - full.height / 2) < 0.01
    assert chart.first_label == "d1" and chart.last_label == "d3"
    assert [t.label for t in chart.ticks] == ["0", "25", "50", "75", "100"]


def test_negative_values_hang_below_the_zero_line() -> None:
    chart = bar_chart("NPS", [("w1", -50.0, 3), ("w2", 50.0, 3)], low=-100, high=100)
    negative, positive = chart.bars
    assert negative.negative and negative.y == chart.zero_y
    assert positive.y + positive.height == chart.zero_y
    assert negative.y + negative.height < HEIGHT


def test_no_ratings_means_no_data() -> None:
    assert not bar_chart("Stars", [("d1", 0.0, 0)], low=0, high=5).has_data
