"""Server-rendered SVG bar charts: ratings over time (markup in partials/_chart.html) and answers per
value of a survey question (partials/_count_chart.html); geometry here.

Over time, a bar per bucket; a bucket without ratings has no bar (not a zero bar), so "no data" never
reads as "0 % helpful". Values below zero (NPS) hang from the zero line."""

from __future__ import annotations

from dataclasses import dataclass

WIDTH, HEIGHT = 320, 150
LEFT, RIGHT, TOP, BOTTOM = 28, 4, 8, 18


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    label: str
    value: float
    total: int
    negative: bool


@dataclass(frozen=True)
class Tick:
    y: float
    label: str


@dataclass(frozen=True)
class Chart:
    title: str
    unit: str
    bars: list[Bar]
    ticks: list[Tick]
    zero_y: float
    first_label: str
    last_label: str
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    right_edge: int = WIDTH - RIGHT

    @property
    def has_data(self) -> bool:
        return bool(self.bars)


def bar_chart(
    title: str,
    points: list[tuple[str, float, int]],
    *,
    low: float,
    high: float,
    unit: str = "",
    steps: int = 4,
) -> Chart:
    """`points` are (bucket label, value, how many ratings); buckets with none are left empty."""
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def y_of(value: float) -> float:
        return TOP + plot_h * (high - value) / (high - low)

    slot = plot_w / max(len(points), 1)
    zero = y_of(max(low, 0.0))
    bars = []
    for index, (label, value, total) in enumerate(points):
        if total == 0:
            continue
        top = y_of(max(value, 0.0)) if value >= 0 else zero
        bottom = zero if value >= 0 else y_of(value)
        bars.append(
            Bar(
                x=round(LEFT + index * slot + slot * 0.15, 2),
                y=round(top, 2),
                width=round(max(slot * 0.7, 1.0), 2),
                height=round(max(bottom - top, 1.0), 2),
                label=label,
                value=value,
                total=total,
                negative=value < 0,
            )
        )
    ticks = [
        Tick(y=round(y_of(low + (high - low) * i / steps), 2), label=_number(low + (high - low) * i / steps))
        for i in range(steps + 1)
    ]
    return Chart(
        title=title,
        unit=unit,
        bars=bars,
        ticks=ticks,
        zero_y=round(zero, 2),
        first_label=points[0][0] if points else "",
        last_label=points[-1][0] if points else "",
    )


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


@dataclass(frozen=True)
class CountBar:
    label: str
    count: int
    percent: int
    """Of all the answers the chart counts, rounded."""
    x: float
    y: float
    width: float
    height: float
    tone: str
    """A class for the bar: "" or, for an NPS score, detractor, passive or promoter."""


@dataclass(frozen=True)
class CountChart:
    """Answers per value (a survey question's distribution): a bar per value, every value labelled, so
    an answer nobody gave reads as an empty slot, not as a missing one."""

    title: str
    bars: list[CountBar]
    total: int
    horizontal: bool
    width: int
    height: int

    @property
    def has_data(self) -> bool:
        return self.total > 0

    @property
    def summary(self) -> str:
        """The text alternative of the picture: every value with its count."""
        return "; ".join(f"{bar.label}: {bar.count} ({bar.percent} %)" for bar in self.bars)


COLUMN_WIDTH, COLUMN_HEIGHT, COLUMN_TOP, COLUMN_BOTTOM = 360, 140, 14, 18
SHARE_WIDTH, SHARE_HEIGHT = 100, 10
"""A lying bar is drawn alone in a strip this size, stretched to the row; its words are HTML beside it."""


def count_chart(title: str, counts: list[tuple[str, int]], *, tones: list[str] | None = None) -> CountChart:
    """Upright bars, one per value in the order given (a scale: 0 to 10, 1 to 5)."""
    total = sum(count for _, count in counts)
    top = max([count for _, count in counts] + [1])
    plot = COLUMN_HEIGHT - COLUMN_TOP - COLUMN_BOTTOM
    slot = (COLUMN_WIDTH - 8) / max(len(counts), 1)
    bars = []
    for index, (label, count) in enumerate(counts):
        height = plot * count / top
        bars.append(
            CountBar(
                label=label,
                count=count,
                percent=round(100 * count / total) if total else 0,
                x=round(4 + index * slot + slot * 0.12, 2),
                y=round(COLUMN_TOP + plot - height, 2),
                width=round(slot * 0.76, 2),
                height=round(height, 2),
                tone=tones[index] if tones else "",
            )
        )
    return CountChart(title, bars, total, horizontal=False, width=COLUMN_WIDTH, height=COLUMN_HEIGHT)


def share_chart(title: str, counts: list[tuple[str, int]], *, total: int | None = None) -> CountChart:
    """Lying bars, one per choice, as long as its count against the most chosen; `total` (the responses
    that answered) is what the percentages are of when one answer may pick several choices."""
    answered = total if total is not None else sum(count for _, count in counts)
    top = max([count for _, count in counts] + [1])
    bars = [
        CountBar(
            label=label,
            count=count,
            percent=round(100 * count / answered) if answered else 0,
            x=0,
            y=0,
            width=round(SHARE_WIDTH * count / top, 2),
            height=SHARE_HEIGHT,
            tone="",
        )
        for label, count in counts
    ]
    return CountChart(title, bars, answered, horizontal=True, width=SHARE_WIDTH, height=SHARE_HEIGHT)
