"""The alert tests' p-values against values computed independently (exact sums, textbook normal values)."""

from __future__ import annotations

import pytest

from app.alerts.significance import binomial_at_least, mean_fell, normal_below, poisson_at_least, share_fell


def test_normal_below() -> None:
    assert normal_below(0) == pytest.approx(0.5)
    assert normal_below(-2.326348) == pytest.approx(0.01, rel=1e-4)


def test_poisson_tail_is_exact_and_keeps_tiny_tails() -> None:
    assert poisson_at_least(0, 3.0) == 1.0
    assert poisson_at_least(1, 2.0) == pytest.approx(1 - 0.1353352832, rel=1e-9)
    assert poisson_at_least(5, 1 / 28) == pytest.approx(4.7001170e-10, rel=1e-6)  # a new theme's 5 items
    assert poisson_at_least(40, 1.0) > 0  # no cancellation to zero


def test_binomial_tail() -> None:
    assert binomial_at_least(12, 20, 0.1) == pytest.approx(5.8149180e-08, rel=1e-6)
    assert binomial_at_least(2, 20, 0.1) == pytest.approx(1 - 0.9**20 - 20 * 0.1 * 0.9**19, rel=1e-9)
    assert binomial_at_least(0, 0, 0.2) == 1.0 and binomial_at_least(1, 0, 0.2) == 0.0


def test_shares_and_means_fall_one_sided() -> None:
    assert share_fell(80, 100, 30, 100) < 1e-10
    assert share_fell(30, 100, 80, 100) > 0.99  # a rise is not a drop
    assert share_fell(8, 10, 0, 0) == 1.0
    assert mean_fell({5: 80, 4: 20}, {1: 50, 5: 50}) < 1e-6
    assert mean_fell({5: 10}, {5: 10}) == 1.0
