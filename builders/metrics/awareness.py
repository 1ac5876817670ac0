"""Image awareness (Elliott 2018, "Adversarial Evaluation of Multimodal Machine Translation").

For each of k incongruent shuffles and each segment s (Eq. 2):
    Δ_s = E(congruent) - E(incongruent)      (operands swapped when lower scores are better, footnote 1)
Δ-awareness of a shuffle = mean_s Δ_s (Eq. 1); reported as mean ± sample std (ddof=1) over the k shuffles.
E is what the score files hold: sentence Meteor for Δ_E (Eq. 4), or the log-probability of the reference; with
``measure="probability"`` the files' log-probabilities are exponentiated first, giving Eq. 3's
Δ_I = p(y|x,v) - p(y|x,v̄) literally (same signs, different magnitudes and so different Wilcoxon ranks).
Per shuffle a Wilcoxon signed-rank test on the Δ_s (zero differences dropped; all-zero Δ gives p = 1). The
paper states a one-sided H1 ("congruent images *improve*"), but the authors' released script calls scipy's
default two-sided test, and Table 1's χ² values come from the script: ``two-sided`` reproduces Table 1,
``greater`` is the hypothesis as written. Fisher's method combines the k p-values:
    X = -2 Σ ln p_j  ~  χ² with 2k degrees of freedom;  the model is image-aware iff p ≤ 0.005.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from builders.core.errors import MtprobesError
from builders.metrics.stats import Alternative, fisher_combine, wilcoxon_signed_rank

PASS_THRESHOLD = 0.005
TABLE1_ALTERNATIVE: Alternative = "two-sided"  # what the authors' script (scipy's default) used for Table 1
MEASURES = ("score", "probability")


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
    measure: str = "score",
) -> dict[str, Any]:
    """Δ per segment and shuffle, Wilcoxon per shuffle, Fisher's combination and the pass decision."""
    if not shuffles:
        raise MtprobesError("the awareness test needs at least one incongruent shuffle")
    if measure not in MEASURES:
        raise MtprobesError(f"awareness measure must be one of {', '.join(MEASURES)}, got {measure!r}")
    transform = np.exp if measure == "probability" else np.asarray
    base = transform(np.asarray(congruent, dtype=np.float64))
    per_shuffle: dict[str, dict[str, Any]] = {}
    deltas: dict[str, list[float]] = {}
    for name, values in shuffles.items():
        measured = transform(np.asarray(values, dtype=np.float64))
        delta = segment_deltas(base, measured, lower_is_better=lower_is_better)
        deltas[name] = delta.tolist()
        per_shuffle[name] = {
            "incongruent_mean": float(measured.mean()),
            "delta_awareness": float(delta.mean()),
            "wilcoxon_p": wilcoxon_signed_rank(delta, alternative),
            "segments": int(delta.size),
        }
    means = np.array([s["delta_awareness"] for s in per_shuffle.values()])
    incongruent = np.array([s["incongruent_mean"] for s in per_shuffle.values()])
    statistic, p_value, dof = fisher_combine([s["wilcoxon_p"] for s in per_shuffle.values()])
    other: Alternative = "greater" if alternative == TABLE1_ALTERNATIVE else TABLE1_ALTERNATIVE
    other_p = [wilcoxon_signed_rank(np.asarray(d), other) for d in deltas.values()]
    other_statistic, other_fisher_p, _ = fisher_combine(other_p)
    return {
        # Table 1's C and I columns: the mean score with the congruent images, and over the shuffles (mean ± std)
        "congruent_mean": float(base.mean()),
        "incongruent_mean": float(incongruent.mean()),
        "incongruent_std": float(incongruent.std(ddof=1)) if incongruent.size > 1 else 0.0,
        "delta_awareness_mean": float(means.mean()),
        "delta_awareness_std": float(means.std(ddof=1)) if means.size > 1 else 0.0,
        "shuffles": per_shuffle,
        "fisher_statistic": statistic,
        "fisher_dof": dof,
        "fisher_p": p_value,
        "threshold": threshold,
        "alternative": alternative,
        "reproduces_table1": alternative == TABLE1_ALTERNATIVE,
        "other_alternative": {
            "alternative": other,
            "wilcoxon_p": dict(zip(deltas, other_p, strict=True)),
            "fisher_statistic": other_statistic,
            "fisher_p": other_fisher_p,
            "aware": bool(other_fisher_p <= threshold),
        },
        "measure": measure,
        "lower_is_better": lower_is_better,
        "aware": bool(p_value <= threshold),
        "deltas": deltas,
    }
