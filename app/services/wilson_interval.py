"""The Wilson score interval of a proportion: where the true share of "yes" probably lies, given `yes` out
of `total`. Unlike the plain p ± z·√(p(1-p)/n), it stays inside 0..1 and stays honest for small counts
and for shares near 0 % or 100 %, which is what a page with a few dozen votes has."""

from __future__ import annotations

from math import sqrt
from typing import NamedTuple

Z_95 = 1.959963984540054
"""The standard normal quantile for a two-sided 95 % interval."""


class Interval(NamedTuple):
    low: float
    high: float

    def overlaps(self, other: Interval) -> bool:
        return self.low <= other.high and other.low <= self.high


def wilson_interval(yes: int, total: int, z: float = Z_95) -> Interval:
    """The interval as fractions (0.0 to 1.0); (0.0, 1.0), knowing nothing, when there are no votes."""
    if total <= 0:
        return Interval(0.0, 1.0)
    share = yes / total
    z2 = z * z
    centre = share + z2 / (2 * total)
    spread = z * sqrt(share * (1 - share) / total + z2 / (4 * total * total))
    scale = 1 + z2 / total
    return Interval(max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale))
