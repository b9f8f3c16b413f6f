"""The statistics of simulate, compare and sweep: intervals and paired tests, from scipy.stats.

The sums come in exact (integers and fractions, see games.py); only the final figures are
floats. Every table of several tests adjusts its p-values with Holm's step-down method.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from typing import Any


Z95 = 1.959963984540054  # the 97.5th percentile of the standard normal distribution
ALPHA = 0.05
EXACT_MCNEMAR_LIMIT = 1000  # discordant games up to which McNemar's test is computed exactly


def _scipy() -> Any:
    """scipy.stats, imported on first use: `easymoney strategies` need not pay for it."""
    from scipy import stats
    return stats


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (successes may be fractional: shared wins)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(p * (1 - p) / n + z * z / (4 * n * n), 0.0)) / denom
    # the interval always holds p; rounding must not push a bound past it at 0 or 1
    return (min(p, max(0.0, centre - half)), max(p, min(1.0, centre + half)))


def t_test_p(t: float, df: int) -> float:
    """Two-sided p-value of Student's t with `df` degrees of freedom."""
    if df <= 0 or math.isnan(t):
        return 1.0
    if math.isinf(t):
        return 0.0
    return float(min(1.0, 2 * _scipy().t.sf(abs(t), df)))


def normal_p(z: float) -> float:
    """Two-sided p-value of a standard normal statistic."""
    return float(min(1.0, 2 * _scipy().norm.sf(abs(z))))


def mean_interval(n: int, total: int | Fraction, squares: int | Fraction) -> dict[str, Any]:
    """The mean of n values from their sum and sum of squares, with its 95% t interval."""
    if n == 0:
        return {"mean": 0.0, "ci95": [0.0, 0.0], "sd": 0.0}
    mean = Fraction(total) / n
    if n < 2:
        return {"mean": float(mean), "ci95": [float(mean), float(mean)], "sd": 0.0}
    var = max((Fraction(squares) - Fraction(total) ** 2 / n) / (n - 1), Fraction(0))
    sd = math.sqrt(float(var))
    half = float(_scipy().t.ppf(0.975, n - 1)) * sd / math.sqrt(n)
    return {"mean": float(mean), "ci95": [float(mean) - half, float(mean) + half], "sd": sd}


def paired_t(n: int, total: int | Fraction, squares: int | Fraction) -> dict[str, Any]:
    """Paired t-test from the sum and sum of squares of the per-game differences."""
    if n < 2:
        mean0 = float(total) / n if n else 0.0
        return {"test": "paired t", "mean": mean0, "ci95": [mean0, mean0], "p": 1.0}
    mean = Fraction(total) / n
    var = (Fraction(squares) - Fraction(total) ** 2 / n) / (n - 1)
    se = math.sqrt(max(float(var), 0.0) / n)
    if se == 0:
        p = 1.0 if mean == 0 else 0.0
        t = 0.0 if mean == 0 else math.copysign(math.inf, mean)
    else:
        t = float(mean) / se
        p = t_test_p(t, n - 1)
    half = float(_scipy().t.ppf(0.975, n - 1)) * se
    return {"test": "paired t", "mean": float(mean), "ci95": [float(mean) - half, float(mean) + half],
            "t": t, "df": n - 1, "p": p}


def mcnemar(n: int, total: int | Fraction, squares: int | Fraction,
            fractional: bool = False) -> dict[str, Any]:
    """McNemar's test over the per-game differences d (this arm's 0/1 outcome minus the first's).

    sum(d) is c - b and sum(d^2) is b + c, b and c the discordant games. Exact (binomial,
    two-sided) up to EXACT_MCNEMAR_LIMIT discordant games, else the normal form
    z = sum(d) / sqrt(sum(d^2)); a shared win (or an effect averaged over several cells of a
    sweep) makes d fractional, and the normal form is used: under no difference each d_i is
    as likely to be +d_i as -d_i, so sum(d) has variance sum(d^2).
    """
    mean = float(total) / n if n else 0.0
    # the interval of the mean difference, from the sums (normal approximation)
    if n > 1:
        var = max(float(Fraction(squares) - Fraction(total) ** 2 / n) / (n - 1), 0.0)
        half = Z95 * math.sqrt(var / n)
    else:
        half = 0.0
    ci = [mean - half, mean + half]
    if not squares:
        return {"test": "McNemar", "mean": mean, "ci95": ci, "z": 0.0, "p": 1.0}
    z = float(total) / math.sqrt(float(squares))
    if not fractional and squares <= EXACT_MCNEMAR_LIMIT:
        m = int(squares)
        k = (m - abs(int(total))) // 2  # the smaller of b and c
        p = float(min(1.0, 2 * _scipy().binom.cdf(k, m, 0.5)))
        return {"test": "McNemar exact", "mean": mean, "ci95": ci, "z": z, "b_plus_c": m, "p": p}
    return {"test": "McNemar", "mean": mean, "ci95": ci, "z": z, "p": normal_p(z)}


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm's step-down adjustment: the family-wise error rate stays at most alpha.

    The k-th smallest of m p-values is multiplied by m - k + 1 (k from 1), and the adjusted
    values are made non-decreasing in that order, then capped at 1.
    """
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted


def adjust(tests: Sequence[dict[str, Any]]) -> None:
    """Add the Holm-adjusted p-value and the verdict to each test of one table, in place."""
    for test, p in zip(tests, holm([t["p"] for t in tests])):
        test["p_holm"] = p
        test["significant"] = p < ALPHA


def _quantile(hist: Counter[int], rank: int) -> int:
    """The value of the rank-th smallest game (1-based) of a histogram."""
    seen = 0
    for value in sorted(hist):
        seen += hist[value]
        if seen >= rank:
            return value
    raise ValueError("rank beyond the histogram")


def turn_figures(hist: Counter[int]) -> dict[str, Any]:
    """Mean (with its 95% interval), median, 90th percentile, shortest and longest game."""
    n = sum(hist.values())
    if n == 0:
        return {"mean": 0.0, "ci95": [0.0, 0.0], "median": 0.0, "p90": 0, "min": 0, "max": 0}
    total = sum(v * c for v, c in hist.items())
    squares = sum(v * v * c for v, c in hist.items())
    if n % 2:
        median: float = float(_quantile(hist, (n + 1) // 2))
    else:
        median = (_quantile(hist, n // 2) + _quantile(hist, n // 2 + 1)) / 2
    return {"mean": total / n, "ci95": mean_interval(n, total, squares)["ci95"], "median": median,
            "p90": _quantile(hist, math.ceil(0.9 * n)), "min": min(hist), "max": max(hist)}
