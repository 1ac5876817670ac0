"""ContraPro accuracy as a metric class (Müller et al. 2018): reads contrapro.json and one score file."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from builders.core.errors import InputError
from builders.metrics import contrapro
from builders.metrics.base import Metric, MetricInputs, require_count
from builders.metrics.tables import fmt, markdown_table
from builders.scoring.scores_io import read_scores
from builders.scoring.setfiles import find_unique

INTRASEGMENTAL_LABELS = {"true": "intrasegmental", "false": "external", "null": "unknown"}  # Table 7's columns


@dataclass(frozen=True)
class ContraProOptions:
    lower_is_better: bool = True  # our .scores files hold negative log-probabilities, like ContraPro's examples
    seed: int = 13
    resamples: int = 1000


class ContraProMetric(Metric):
    name: ClassVar[str] = "contrapro"
    title: ClassVar[str] = "Pronouns: ContraPro accuracy (Müller et al. 2018)"
    paper: ClassVar[str] = (
        "Müller et al. 2018, A Large-Scale Test Set for the Evaluation of Context-Aware Pronoun Translation"
    )
    higher_is_better: ClassVar[bool] = True
    headline: ClassVar[str] = "total.accuracy"
    options_class: ClassVar[type] = ContraProOptions
    score_files: ClassVar[str] = "1 file, one score per line: each reference, then its variants (text-export order)"
    accepts: ClassVar[frozenset[str]] = frozenset({"compare"})

    def compute(self, inputs: MetricInputs) -> dict[str, Any]:
        options: ContraProOptions = self.options
        require_count(self.name, inputs.scores, (1,), "one --scores file (use --compare for a second system)")
        require_count(self.name, inputs.compare, (0, 1), "at most one --compare file")
        json_path = find_unique(inputs.set_dir, "contrapro.json")
        if json_path is None:
            raise InputError(inputs.set_dir, "no contrapro.json in the set folder")
        records = contrapro.load_contrapro_json(json_path)
        needed = contrapro.expected_score_lines(records)
        compare = inputs.compare[0] if inputs.compare else None
        result = contrapro.evaluate_contrapro(
            records,
            read_scores(inputs.scores[0], needed),
            lower_is_better=options.lower_is_better,
            compare_scores=read_scores(compare, needed) if compare else None,
            seed=options.seed,
            resamples=options.resamples,
            scores_path=inputs.scores[0],
            compare_path=compare or "<none>",
        )
        result.pop("kind", None)
        return result

    def render_markdown(self, result: Mapping[str, Any]) -> str:
        header = ["group", "correct", "total", "accuracy", "95% CI"]
        parts = [markdown_table(header, _accuracy_rows({"total": result["total"]}))]
        intra = {INTRASEGMENTAL_LABELS.get(k, k): v for k, v in result["by_intrasegmental"].items()}
        for title, cells in (
            ("reference pronoun (Table 6)", result.get("by_ref_pronoun", {})),
            ("antecedent location (Table 7)", intra),
            ("antecedent distance (Table 8)", result["by_distance"]),
            ("src:ref pronoun pair", result["by_pair"]),
        ):
            parts.append(f"\nBy {title}:\n\n" + markdown_table(header, _accuracy_rows(cells)))
        if "compare" in result:
            test = result["compare"]["mcnemar"]
            parts.append(
                f"\nMcNemar vs the compared system (accuracy {fmt(result['compare']['total']['accuracy'])}): only "
                f"this system right {test['only_a']}, only the other right {test['only_b']}, exact p = "
                f"{fmt(test['p_exact'])}, chi2 = {fmt(test['chi2'])} (p = {fmt(test['p_chi2'])})\n"
            )
        parts.append(
            "\nAn item is correct only when its reference scores strictly better than every contrastive variant "
            "(Müller et al. 2018, Sec. 3.2: ties count as errors).\n"
        )
        if any(NO_INTERVAL in part for part in parts):
            parts.append(f"\n{NO_INTERVAL}: no interval for this grouping; the 95% CI (percentile bootstrap, seeded) "
                         "is computed for the total and the antecedent-distance groups.\n")
        return "".join(parts)


# The CI cell of a group whose interval is not computed; a note under the tables says why.
NO_INTERVAL = "n/a*"


def _accuracy_rows(cells: Mapping[str, Any]) -> list[list[Any]]:
    rows = []
    for name, cell in cells.items():
        ci = cell.get("ci95")
        interval = f"[{ci['low']:.3f}, {ci['high']:.3f}]" if ci else NO_INTERVAL
        rows.append([name, cell["correct"], cell["total"], cell["accuracy"], interval])
    return rows
