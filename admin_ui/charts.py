"""Server-rendered SVG bar charts for ratings over time: geometry here, markup in partials/_chart.html.

A bar per bucket; a bucket without ratings has no bar (not a zero bar), so "no data" never reads as
"0 % helpful". Values below zero (NPS) hang from the zero line."""

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
