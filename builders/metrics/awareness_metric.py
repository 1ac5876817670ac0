"""The image-awareness test as a metric class (Elliott 2018): one congruent and k shuffle score files."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from builders.core.errors import UsageError
from builders.metrics import awareness
from builders.metrics.base import Metric, MetricInputs
from builders.metrics.tables import markdown_table
from builders.scoring.scores_io import read_scores
from builders.scoring.setfiles import set_segment_count


@dataclass(frozen=True)
class AwarenessOptions:
    # "greater" is the paper's H1 as written; "two-sided" is what the authors' script ran for Table 1.
    alternative: Literal["greater", "two-sided", "less"] = "greater"
    measure: Literal["score", "probability"] = "score"  # probability: exp of log-prob files, Eq. 3 literally
    lower_is_better: bool = False  # our awareness files hold log-probability sums (or Meteor): higher is better
    threshold: float = awareness.PASS_THRESHOLD


class AwarenessMetric(Metric):
    name: ClassVar[str] = "awareness"
    title: ClassVar[str] = "Images: awareness test (Elliott 2018)"
    paper: ClassVar[str] = "Elliott 2018, Adversarial Evaluation of Multimodal Machine Translation (Eqs. 1-4, Sec. 3)"
    higher_is_better: ClassVar[bool] = True
    headline: ClassVar[str] = "delta_awareness_mean"
    options_class: ClassVar[type] = AwarenessOptions
    score_files: ClassVar[str] = "congruent first, then one file per incongruent shuffle (named by its stem)"

    def compute(self, inputs: MetricInputs) -> dict[str, Any]:
        options: AwarenessOptions = self.options
        if len(inputs.scores) < 2:
            raise UsageError("awareness takes --scores CONGRUENT then one file per incongruent shuffle")
        expected = set_segment_count(inputs.set_dir)
        congruent = read_scores(inputs.scores[0], expected, what="congruent scores")
        shuffles = {p.stem: read_scores(p, congruent.size, what="shuffle scores") for p in inputs.scores[1:]}
        if len(shuffles) != len(inputs.scores) - 1:
            raise UsageError("shuffle score files need distinct names (the name identifies the shuffle)")
        return awareness.awareness_test(
            congruent,
            shuffles,
            lower_is_better=options.lower_is_better,
            alternative=options.alternative,
            threshold=options.threshold,
            measure=options.measure,
        )

    def render_markdown(self, result: Mapping[str, Any]) -> str:
        other = result["other_alternative"]
        rows = [
            [name, s["segments"], s["delta_awareness"], s["wilcoxon_p"], other["wilcoxon_p"][name]]
            for name, s in result["shuffles"].items()
        ]
        header = [
            "shuffle",
            "segments",
            "Δ-awareness",
            f"Wilcoxon p ({result['alternative']})",
            f"p ({other['alternative']})",
        ]
        verdict = "image-aware" if result["aware"] else "not shown to be image-aware"
        which = "the one behind Table 1" if result["reproduces_table1"] else "not the one behind Table 1"
        return markdown_table(header, rows) + (
            f"\nMean score (Table 1's C / I): congruent {result['congruent_mean']:.4f}, incongruent "
            f"{result['incongruent_mean']:.4f} ± {result['incongruent_std']:.4f} (over the shuffles).\n"
            f"\nΔ-awareness {result['delta_awareness_mean']:.4f} ± {result['delta_awareness_std']:.4f} "
            f"(measure: {result['measure']}); Fisher χ² = {result['fisher_statistic']:.3f} ({result['fisher_dof']} "
            f"dof), p = {_p(result['fisher_p'])} -> **{verdict}** (threshold p ≤ {result['threshold']}).\n"
            f"\nWilcoxon alternative: {result['alternative']}, {which}: Elliott 2018's Table 1 comes from the "
            "authors' script, which calls scipy's default two-sided test (the paper's H1 is one-sided, `greater`). "
            f"With the {other['alternative']} test: χ² = {other['fisher_statistic']:.3f}, p = "
            f"{_p(other['fisher_p'])}, {'image-aware' if other['aware'] else 'not shown to be image-aware'}.\n"
        )


def _p(value: float) -> str:
    return "< 1e-300" if value == 0.0 else f"{value:.3g}"  # Fisher's chi-square tail underflows to 0
