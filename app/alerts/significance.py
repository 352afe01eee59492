"""The one-sided tests the checks use, in plain math (no statistics package): each answers "how likely
is a result at least this bad if nothing had changed", the p-value a rule compares with its threshold."""

from __future__ import annotations

from math import erfc, exp, lgamma, log, sqrt


def normal_below(z: float) -> float:
    """P(Z <= z) for a standard normal Z."""
    return 0.5 * erfc(-z / sqrt(2.0))


def share_fell(before_yes: int, before_total: int, after_yes: int, after_total: int) -> float:
    """The two-proportion z-test (pooled) that the share of yes is lower after than before."""
    if before_total == 0 or after_total == 0:
        return 1.0
    pooled = (before_yes + after_yes) / (before_total + after_total)
    spread = sqrt(pooled * (1 - pooled) * (1 / before_total + 1 / after_total))
    if spread == 0:
        return 1.0
    return normal_below((after_yes / after_total - before_yes / before_total) / spread)


def mean_fell(before: dict[int, int], after: dict[int, int]) -> float:
    """Welch's z-test that the mean answer is lower after than before; each side is {value: count}."""
    mean_b, var_b, n_b = moments(before)
    mean_a, var_a, n_a = moments(after)
    if n_b < 2 or n_a < 2:
        return 1.0
    spread = sqrt(var_b / n_b + var_a / n_a)
    if spread == 0:
        return 1.0 if mean_a >= mean_b else 0.0
    return normal_below((mean_a - mean_b) / spread)


def moments(counts: dict[int, int]) -> tuple[float, float, int]:
    """Mean, sample variance and count of answers given as {value: count}."""
    n = sum(counts.values())
    if n == 0:
        return 0.0, 0.0, 0
    mean = sum(value * count for value, count in counts.items()) / n
    if n < 2:
        return mean, 0.0, n
    variance = sum(count * (value - mean) ** 2 for value, count in counts.items()) / (n - 1)
    return mean, variance, n


def poisson_at_least(k: int, rate: float) -> float:
    """P(X >= k) for X ~ Poisson(rate)."""
    if k <= 0:
        return 1.0
    if rate <= 0:
        return 0.0
    below = sum(exp(i * log(rate) - rate - lgamma(i + 1)) for i in range(k))
    return max(0.0, 1.0 - below) if below < 0.999 else _poisson_tail(k, rate)


def _poisson_tail(k: int, rate: float) -> float:
    """The upper tail summed directly (1 - sum loses its digits when the tail is tiny)."""
    total, i = 0.0, k
    while True:
        term = exp(i * log(rate) - rate - lgamma(i + 1))
        total += term
        if term < total * 1e-12 or i > k + 10_000:
            return min(1.0, total)
        i += 1


def binomial_at_least(k: int, n: int, share: float) -> float:
    """P(X >= k) for X ~ Binomial(n, share)."""
    if k <= 0:
        return 1.0
    if k > n or share <= 0:
        return 0.0
    if share >= 1:
        return 1.0
    log_p, log_q = log(share), log(1 - share)
    terms = (
        exp(lgamma(n + 1) - lgamma(i + 1) - lgamma(n - i + 1) + i * log_p + (n - i) * log_q)
        for i in range(k, n + 1)
    )
    return min(1.0, sum(terms))
