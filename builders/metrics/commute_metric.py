"""CoMMuTE-family metric classes (Kashani Motlagh et al. 2024): consistency scores with their analyses, and the
temperature sweep of Fig. 5."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Literal

import numpy as np

from builders.core.errors import InputError, UsageError
from builders.core.textio import iter_jsonl, read_lines
from builders.metrics import commute
from builders.metrics.base import Metric, MetricInputs, require_count
from builders.metrics.tables import markdown_table
from builders.scoring.scores_io import read_scores
from builders.scoring.setfiles import commute_folder

CONSISTENCY = ("TC", "IC", "GTC", "GIC")
# What the columns mean, under every table that shows them (perplexity: lower is better).
CONSISTENCY_LEGEND = (
    "\nTC (text consistency, CoMMuTE's accuracy): share of (source, image) where the translation that fits the "
    "image has the lower perplexity; IC (image consistency): share of (source, translation) where the translation "
    "is less perplexing with its own image than with the other one; GTC / GIC (group): share of sources where "
    "both TC (both IC) decisions are right.\n"
)
ORACLE_LEGEND = (
    "\nMin/Max IC, GIC: the consistency when, per source, the worst/best pair of images (original or retrieved) "
    "is chosen by GIC; RR (replacement rate): share of the 2 x sources images that are not the original. "
    "ties: how pairs with equal GIC are settled: `eq10` = the paper's Sec. 5.5 (Max minimises, Min maximises "
    "Eq. 10, [ppl(t0|a) - ppl(t0|b)] + [ppl(t1|b) - ppl(t1|a)], then the lowest image indices); `fewest-replaced` "
    "= fewest replaced originals, then a log-perplexity margin.\n"
)


def commute_pairs(set_dir: Path, correct: Path, incorrect: Path) -> commute.CommutePairs:
    """The 2x2 perplexity matrices; with a CoMMuTE folder the files must have exactly its line count."""
    layout = commute_folder(set_dir)
    texts: dict[str, Any] = {}
    expected = None
    if layout is not None:
        source, correct_text, incorrect_text = layout
        texts = {
            "sources": read_lines(source),
            "correct_texts": read_lines(correct_text),
            "incorrect_texts": read_lines(incorrect_text),
        }
        expected = len(texts["sources"])
    return commute.pairs_from_lines(
        read_scores(correct, expected), read_scores(incorrect, expected), origin=correct, **texts
    )


def read_extended(path: Path, sources: int | None = None) -> list[tuple[np.ndarray, np.ndarray]]:
    """JSONL, one source per line: {"ppl_a": [[t0 under A_j...], [t1 under A_j...]], "ppl_b": [...]}."""
    rows = []
    for number, record in iter_jsonl(path):
        arrays = []
        for key in ("ppl_a", "ppl_b"):
            value = np.asarray(record.get(key), dtype=np.float64)
            if value.ndim != 2 or value.shape[0] != 2 or value.shape[1] < 1:
                raise InputError(path, f"{key} must be a 2 x n list of perplexities", line=number)
            if not np.all(np.isfinite(value)) or np.any(value <= 0):
                raise InputError(path, f"{key} holds non-finite or non-positive perplexities", line=number)
            arrays.append(value)
        rows.append((arrays[0], arrays[1]))
    if sources is not None and len(rows) != sources:
        raise InputError(path, f"extended perplexities file has {len(rows)} lines but the set has {sources} sources")
    return rows


@dataclass(frozen=True)
class CommuteOptions:
    # Sec. 5.5's Eq. 10 is the default; "fewest-replaced" is mtprobes' earlier rule, kept for comparison only.
    tie_break: Literal["eq10", "fewest-replaced"] = "eq10"


class CommuteMetric(Metric):
    name: ClassVar[str] = "commute"
    title: ClassVar[str] = "Images: CoMMuTE consistency metrics (Futeral et al. 2023; Kashani Motlagh et al. 2024)"
    paper: ClassVar[str] = "Kashani Motlagh et al. 2024, The Role of Imagery in CoMMuTE (Eqs. 1-10, Tables 1-5)"
    higher_is_better: ClassVar[bool] = True
    headline: ClassVar[str] = "GIC"
    options_class: ClassVar[type] = CommuteOptions
    score_files: ClassVar[str] = "2 files, correct then incorrect perplexities (CoMMuTE's correct.txt/incorrect.txt)"
    accepts: ClassVar[frozenset[str]] = frozenset({"compare", "mixup", "extended"})

    def compute(self, inputs: MetricInputs) -> dict[str, Any]:
        options: CommuteOptions = self.options
        require_count(self.name, inputs.scores, (2,), "two --scores files: correct then incorrect perplexities")
        require_count(self.name, inputs.mixup, (0, 2), "--mixup twice: correct then incorrect with the mixup image")
        require_count(self.name, inputs.compare, (0, 2), "--compare twice: the other system's correct, incorrect")
        pairs = commute_pairs(inputs.set_dir, inputs.scores[0], inputs.scores[1])
        sources = pairs.ppl.shape[0]
        result: dict[str, Any] = {**commute.consistency_scores(pairs.ppl), "unswapped_lines": list(pairs.unswapped)}
        mixup_matrix = None
        if inputs.mixup:
            expected = 2 * sources
            mixup_matrix = commute.mixup_from_lines(
                read_scores(inputs.mixup[0], expected), read_scores(inputs.mixup[1], expected)
            )
            result["mixup"] = commute.mixup_rates(pairs.ppl, mixup_matrix)
        if inputs.extended is not None:
            result["oracle"] = commute.image_oracle(read_extended(inputs.extended, sources), options.tie_break)
        if inputs.compare:
            other = commute_pairs(inputs.set_dir, inputs.compare[0], inputs.compare[1])
            mine, theirs = commute.failure_sets(pairs.ppl), commute.failure_sets(other.ppl)
            result["failure_iou"] = {k: commute.failure_iou(mine[k], theirs[k]) for k in mine}
        result["perplexity_views"] = commute.perplexity_views(pairs.ppl, mixup_matrix)
        return result

    def render_markdown(self, result: Mapping[str, Any]) -> str:
        parts = [markdown_table(["sources", *CONSISTENCY], [[result["sources"], *(result[k] for k in CONSISTENCY)]]),
                 CONSISTENCY_LEGEND]
        if "mixup" in result:
            parts.append(_mixup_table(result["mixup"]))
        if "failure_iou" in result:
            iou = result["failure_iou"]
            parts.append("\nIoU of failures with the compared system (Table 3):\n\n")
            parts.append(markdown_table(list(iou), [list(iou.values())]))
        if "oracle" in result:
            parts.append(_oracle_tables(result["oracle"]))
        if result.get("unswapped_lines"):
            parts.append(
                f"\nLines whose translations are not an exact swap of their pair: {result['unswapped_lines']}\n"
            )
        return "".join(parts)


def _mixup_table(mix: Mapping[str, Any]) -> str:
    rates = ["IPR", "INR", "CPR", "CNR"]
    row = [*(mix[r] for r in rates), mix["IPR"] + mix["CNR"], mix["INR"] + mix["CPR"]]
    return "\nAgainst the 50/50 mixup image (Sec. 5.3, Table 1):\n\n" + markdown_table(
        [*rates, "IPR+CNR", "INR+CPR", "identities hold", "mixup ties"],
        [[*row, mix["identities_hold"], mix["mixup_ties"]]],
    )


def _oracle_tables(oracle: Mapping[str, Any]) -> str:
    low, high, original = oracle["min"], oracle["max"], oracle["original"]
    table4 = markdown_table(
        ["Min IC", "Min GIC", "Min RR", "Max IC", "Max GIC", "Max RR"],
        [[low["IC"], low["GIC"], low["RR"], high["IC"], high["GIC"], high["RR"]]],
    )
    table5 = markdown_table(
        ["images", *CONSISTENCY],
        [
            ["original", *(original[k] for k in CONSISTENCY)],
            ["Image-Oracle (max GIC)", *(high[k] for k in CONSISTENCY)],
        ],
    )
    return (
        f"\nImage oracle over the extended image sets ({oracle['sources']} sources, ties: {oracle['tie_break']}; "
        f"Table 4):\n\n{table4}\nImage-Oracle TC/GTC (Table 5):\n\n{table5}{ORACLE_LEGEND}"
    )


@dataclass(frozen=True)
class TemperatureOptions:
    temperatures: tuple[float, ...] = (0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0)


class CommuteTemperatureMetric(Metric):
    """Fig. 5: the consistency scores when every softmax is taken at temperature T (one scoring run per T,
    `mtprobes score --temperature T`: the probabilities at T need the whole vocabulary's logits, which the
    per-token log-probabilities of a T = 1 run do not hold)."""

    name: ClassVar[str] = "commute-temperature"
    title: ClassVar[str] = "Images: CoMMuTE under temperature scaling (Kashani Motlagh et al. 2024, Fig. 5)"
    paper: ClassVar[str] = "Kashani Motlagh et al. 2024, Sec. 6 and Fig. 5 (global temperature scaling)"
    higher_is_better: ClassVar[bool] = True
    headline: ClassVar[str] = "by_temperature"
    options_class: ClassVar[type] = TemperatureOptions
    score_files: ClassVar[str] = "2 per temperature, in the order of the temperatures option: correct, incorrect"

    def compute(self, inputs: MetricInputs) -> dict[str, Any]:
        temperatures = self.options.temperatures
        if not temperatures or any(t <= 0 for t in temperatures):
            raise UsageError(f"{self.name}: temperatures must be positive, got {list(temperatures)}")
        require_count(
            self.name,
            inputs.scores,
            (2 * len(temperatures),),
            f"2 files for each of {len(temperatures)} "
            "temperatures (correct, incorrect; in the order of the temperatures option)",
        )
        rows = []
        for index, temperature in enumerate(temperatures):
            correct, incorrect = inputs.scores[2 * index : 2 * index + 2]
            for path in (correct, incorrect):
                _check_scored_temperature(path, temperature)
            pairs = commute_pairs(inputs.set_dir, correct, incorrect)
            rows.append({"temperature": temperature, **commute.consistency_scores(pairs.ppl)})
        return {"by_temperature": rows}

    def render_markdown(self, result: Mapping[str, Any]) -> str:
        rows = [[f"{r['temperature']:g}", *(r[k] for k in CONSISTENCY)] for r in result["by_temperature"]]
        return ("Consistency scores by softmax temperature (Fig. 5):\n\n" + markdown_table(["T", *CONSISTENCY], rows)
                + CONSISTENCY_LEGEND)


def _check_scored_temperature(path: Path, listed: float) -> None:
    """A score file listed for temperature T must have been scored at T, where the file says so: its name ends
    in ``.T<T>`` (`mtprobes score --temperatures`), or ``<name>.score_info.json`` beside ``<name>.correct.txt``
    records the run's ``--temperature``. Files in the wrong order would otherwise draw a plausible, wrong Fig. 5."""
    import re

    name = path.name.removesuffix(".txt").rpartition(".")[0]
    from_grid = re.fullmatch(r".+\.T(\d+(?:\.\d+)?)", name)
    scored = float(from_grid.group(1)) if from_grid else _run_temperature(path.with_name(f"{name}.score_info.json"))
    if scored is not None and not np.isclose(scored, listed):
        raise InputError(path, f"scored at temperature {scored:g} but listed for {listed:g}: give the files in the "
                               "order of the temperatures option")


def _run_temperature(info_path: Path) -> float | None:
    """The ``--temperature`` a `mtprobes score` run recorded, or None when there is no such record."""
    import json

    if not info_path.is_file():
        return None
    try:
        return float(json.loads(info_path.read_text(encoding="utf-8"))["options"]["temperature"])
    except (ValueError, KeyError, TypeError):
        return None  # not a score_info.json of ours: nothing to check against
