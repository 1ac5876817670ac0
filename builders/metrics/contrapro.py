"""ContraPro accuracy (Müller et al. 2018), exactly as its evaluate.py decides, plus intervals and McNemar.

An item is correct when its reference scores strictly better than *every* contrastive variant (Sec. 3.2:
"only correct if the reference translation has a higher score than any contrastive translation"; ties are
errors, as in ContraPro's evaluate.py). Scores come one per line in the text-export order: the reference,
then each variant in ``errors`` order. Accuracy is reported in total, by reference pronoun (Table 6), by
``src:ref`` pronoun pair (lower-cased), by ``intrasegmental`` (true/false/null: Table 7's intrasegmental /
external) and by antecedent distance (0, 1, 2, 3, >3: Table 8).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from builders.core.errors import InputError
from builders.core.textio import decode_utf8
from builders.metrics.stats import bootstrap_mean_ci, mcnemar

REQUIRED_FIELDS = ("src pronoun", "ref pronoun", "ante distance", "intrasegmental", "errors")
DISTANCE_ORDER = ("0", "1", "2", "3", ">3", "unknown")


def load_contrapro_json(path: str | Path) -> list[dict[str, Any]]:
    """A contrapro.json list; each item must carry the fields the metric uses."""
    path = Path(path)
    if not path.is_file():
        raise InputError(path, "file not found")
    try:
        items = json.loads(decode_utf8(path, path.read_bytes()))
    except json.JSONDecodeError as err:
        raise InputError(path, f"invalid JSON: {err.msg}", line=err.lineno) from None
    if not isinstance(items, list):
        raise InputError(path, "expected a JSON list of ContraPro items")
    for number, item in enumerate(items, start=1):
        missing = [f for f in REQUIRED_FIELDS if not isinstance(item, dict) or f not in item]
        if missing:
            raise InputError(path, f"item {number} lacks field(s) {', '.join(map(repr, missing))}")
        if not isinstance(item["errors"], list) or not item["errors"]:
            raise InputError(path, f"item {number} has no contrastive variants in 'errors'")
    return items


def expected_score_lines(records: Sequence[dict[str, Any]]) -> int:
    return sum(1 + len(r["errors"]) for r in records)


def decisions(
    records: Sequence[dict[str, Any]],
    scores: np.ndarray,
    *,
    lower_is_better: bool = True,
    scores_path: str | Path = "<scores>",
) -> np.ndarray:
    """One boolean per item: the reference beats every variant (strictly)."""
    needed = expected_score_lines(records)
    if scores.size != needed:
        raise InputError(
            scores_path,
            f"scores file has {scores.size} lines but the {len(records)} items need {needed} "
            "(one for each reference and one for each contrastive variant)",
        )
    sign = 1.0 if lower_is_better else -1.0
    correct = np.empty(len(records), dtype=bool)
    position = 0
    for index, record in enumerate(records):
        count = len(record["errors"])
        reference = sign * scores[position]
        variants = sign * scores[position + 1 : position + 1 + count]
        correct[index] = bool(np.all(reference < variants))
        position += 1 + count
    return correct


def distance_bucket(distance: Any) -> str:
    if distance is None:
        return "unknown"
    value = int(distance)
    return ">3" if value > 3 else str(value)


def _cell(hits: np.ndarray) -> dict[str, Any]:
    total = int(hits.size)
    correct = int(hits.sum())
    return {"correct": correct, "total": total, "accuracy": correct / total if total else None}


def _grouped(keys: Sequence[str], correct: np.ndarray, order: Sequence[str] | None = None) -> dict[str, Any]:
    names = list(order) if order else sorted(set(keys))
    key_array = np.asarray(keys, dtype=object)
    return {name: _cell(correct[key_array == name]) for name in names if np.any(key_array == name)}


def accuracy_table(records: Sequence[dict[str, Any]], correct: np.ndarray) -> dict[str, Any]:
    pairs = [f"{r['src pronoun'].lower()}:{r['ref pronoun'].lower()}" for r in records]
    references = [str(r["ref pronoun"]).lower() for r in records]
    intra = [json.dumps(r["intrasegmental"]) for r in records]  # true / false / null, as ContraPro prints
    distances = [distance_bucket(r["ante distance"]) for r in records]
    return {
        "total": _cell(correct),
        "by_ref_pronoun": _grouped(references, correct),  # Table 6
        "by_pair": _grouped(pairs, correct),
        "by_intrasegmental": _grouped(intra, correct, ("true", "false", "null")),
        "by_distance": _grouped(distances, correct, DISTANCE_ORDER),
    }


def evaluate_contrapro(
    records: Sequence[dict[str, Any]],
    scores: np.ndarray,
    *,
    lower_is_better: bool = True,
    compare_scores: np.ndarray | None = None,
    seed: int = 13,
    resamples: int = 1000,
    scores_path: str | Path = "<scores>",
    compare_path: str | Path = "<compare scores>",
) -> dict[str, Any]:
    """Accuracy tables, a bootstrap 95% interval of total and per-distance accuracy, McNemar vs a 2nd system."""
    correct = decisions(records, scores, lower_is_better=lower_is_better, scores_path=scores_path)
    table = accuracy_table(records, correct)
    table["total"]["ci95"] = bootstrap_mean_ci(correct, resamples=resamples, seed=seed).to_dict()
    buckets = np.asarray([distance_bucket(r["ante distance"]) for r in records], dtype=object)
    for name, cell in table["by_distance"].items():
        cell["ci95"] = bootstrap_mean_ci(correct[buckets == name], resamples=resamples, seed=seed).to_dict()
    result: dict[str, Any] = {"kind": "contrapro", "lower_is_better": lower_is_better, **table}
    result["decisions"] = correct.astype(int).tolist()
    if compare_scores is not None:
        other = decisions(records, compare_scores, lower_is_better=lower_is_better, scores_path=compare_path)
        result["compare"] = {"total": _cell(other), "mcnemar": mcnemar(correct, other).to_dict()}
    return result
