"""Image awareness (Elliott 2018, "Adversarial Evaluation of Multimodal Machine Translation").

For each of k incongruent shuffles and each segment s:
    Δ_s = score(congruent) - score(incongruent)      (operands swapped when lower scores are better)
Δ-awareness of a shuffle = mean_s Δ_s; reported as mean ± sample std (ddof=1) over the k shuffles.
Per shuffle a Wilcoxon signed-rank test on the Δ_s (one-sided "congruent is better" by default; zero
differences dropped; all-zero Δ gives p = 1). Fisher's method combines the k p-values:
    X = -2 Σ ln p_j  ~  χ² with 2k degrees of freedom;  the model is image-aware iff p ≤ 0.005.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from builders.core.errors import MtprobesError
from builders.metrics.stats import Alternative, fisher_combine, wilcoxon_signed_rank

PASS_THRESHOLD = 0.005


def segment_deltas(congruent: np.ndarray, incongruent: np.ndarray, *, lower_is_better: bool) -> np.ndarray:
    if congruent.shape != incongruent.shape:
        raise MtprobesError(f"congruent has {congruent.size} segments, incongruent {incongruent.size}")
    return incongruent - congruent if lower_is_better else congruent - incongruent


def awareness_test(
    congruent: Sequence[float] | np.ndarray,
    shuffles: Mapping[str, Sequence[float] | np.ndarray],
    *,
    lower_is_better: bool = False,
    alternative: Alternative = "greater",
    threshold: float = PASS_THRESHOLD,
) -> dict[str, Any]:
    """Δ per segment and shuffle, Wilcoxon per shuffle, Fisher's combination and the pass decision."""
    if not shuffles:
        raise MtprobesError("the awareness test needs at least one incongruent shuffle")
    base = np.asarray(congruent, dtype=np.float64)
    per_shuffle: dict[str, dict[str, Any]] = {}
    deltas: dict[str, list[float]] = {}
    for name, values in shuffles.items():
        delta = segment_deltas(base, np.asarray(values, dtype=np.float64), lower_is_better=lower_is_better)
        deltas[name] = delta.tolist()
        per_shuffle[name] = {
            "delta_awareness": float(delta.mean()),
            "wilcoxon_p": wilcoxon_signed_rank(delta, alternative),
            "segments": int(delta.size),
        }
    means = np.array([s["delta_awareness"] for s in per_shuffle.values()])
    statistic, p_value, dof = fisher_combine([s["wilcoxon_p"] for s in per_shuffle.values()])
    return {
        "delta_awareness_mean": float(means.mean()),
        "delta_awareness_std": float(means.std(ddof=1)) if means.size > 1 else 0.0,
        "shuffles": per_shuffle,
        "fisher_statistic": statistic,
        "fisher_dof": dof,
        "fisher_p": p_value,
        "threshold": threshold,
        "alternative": alternative,
        "lower_is_better": lower_is_better,
        "aware": bool(p_value <= threshold),
        "deltas": deltas,
    }
