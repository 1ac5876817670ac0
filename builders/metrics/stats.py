"""Statistics used by the papers' metrics: bootstrap intervals, McNemar, Wilcoxon signed-rank, Fisher's method.

All randomness comes from an explicit seed, so the same inputs give the same intervals.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any, Literal

import numpy as np

from builders.core.errors import MtprobesError

Alternative = Literal["greater", "less", "two-sided"]


@dataclass(frozen=True)
class Interval:
    estimate: float
    low: float
    high: float
    level: float

    def to_dict(self) -> dict[str, float]:
        return asdict(self)


def bootstrap_mean_ci(
    values: Sequence[float] | np.ndarray, *, resamples: int = 1000, level: float = 0.95, seed: int = 13
) -> Interval:
    """Percentile bootstrap interval of a mean (e.g. accuracy over 0/1 decisions)."""
    data = np.asarray(values, dtype=np.float64)
    if data.size == 0:
        raise MtprobesError("bootstrap of an empty sample")
    rng = np.random.default_rng(seed)
    indices = rng.integers(0, data.size, size=(resamples, data.size))
    means = data[indices].mean(axis=1)
    tail = (1.0 - level) / 2.0
    low, high = np.quantile(means, [tail, 1.0 - tail])
    return Interval(float(data.mean()), float(low), float(high), level)


@dataclass(frozen=True)
class McNemar:
    """Paired comparison of two systems' 0/1 decisions on the same items."""

    only_a: int  # a right, b wrong
    only_b: int  # a wrong, b right
    both: int
    neither: int
    p_exact: float
    chi2: float
    p_chi2: float

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def mcnemar(correct_a: Sequence[bool] | np.ndarray, correct_b: Sequence[bool] | np.ndarray) -> McNemar:
    """Exact two-sided binomial test on the discordant pairs, plus the continuity-corrected chi-square."""
    from scipy import stats

    a = np.asarray(correct_a, dtype=bool)
    b = np.asarray(correct_b, dtype=bool)
    if a.shape != b.shape:
        raise MtprobesError(f"McNemar needs paired decisions: {a.size} vs {b.size} items")
    only_a = int(np.sum(a & ~b))
    only_b = int(np.sum(~a & b))
    discordant = only_a + only_b
    if discordant == 0:
        p_exact, chi2, p_chi2 = 1.0, 0.0, 1.0
    else:
        p_exact = float(stats.binomtest(only_a, discordant, 0.5).pvalue)
        chi2 = (abs(only_a - only_b) - 1) ** 2 / discordant
        p_chi2 = float(stats.chi2.sf(chi2, df=1))
    return McNemar(only_a, only_b, int(np.sum(a & b)), int(np.sum(~a & ~b)), p_exact, float(chi2), p_chi2)


def wilcoxon_signed_rank(differences: Sequence[float] | np.ndarray, alternative: Alternative = "greater") -> float:
    """p-value of the Wilcoxon signed-rank test on paired differences; zero differences are dropped.

    All-zero differences (a model that ignores the condition) carry no evidence: p = 1.
    """
    from scipy import stats

    diffs = np.asarray(differences, dtype=np.float64)
    if not np.any(diffs != 0):
        return 1.0
    return float(stats.wilcoxon(diffs, zero_method="wilcox", alternative=alternative).pvalue)


def fisher_combine(p_values: Sequence[float]) -> tuple[float, float, int]:
    """Fisher's method: X = -2 * sum(ln p_i) ~ chi-square with 2k degrees of freedom. Returns (X, p, dof)."""
    from scipy import stats

    if not p_values:
        raise MtprobesError("Fisher's method needs at least one p-value")
    bad = [p for p in p_values if not (0.0 <= p <= 1.0) or math.isnan(p)]
    if bad:
        raise MtprobesError(f"p-values must lie in [0, 1], got {bad[:3]}")
    # ln(0) would make X infinite; the smallest positive double keeps X finite and p effectively 0.
    clipped = np.clip(np.asarray(p_values, dtype=np.float64), np.finfo(np.float64).tiny, 1.0)
    statistic = float(-2.0 * np.log(clipped).sum()) + 0.0  # + 0.0: all p = 1 gives 0, not -0
    dof = 2 * len(p_values)
    return statistic, float(stats.chi2.sf(statistic, dof)), dof
