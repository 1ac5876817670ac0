"""Scoring of sets built by mtprobes itself (recognised by ``info.json``'s builder), one table entry per family.

- ``shuffles.v1``: the reference of every ``congruent`` record is scored with each condition's image features
  (``congruent``: the features the set was built with, or ``--image-features``; ``random<i>``: the set's
  ``extras/<stem>-random<i>.npy``, rows permuted like shuffle i). Writes ``<out>/<name>/<condition>.scores``
  (log-probability sums, higher is better), the files `mtprobes evaluate --kind awareness` reads.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from builders.core.errors import InputError, MtprobesError
from builders.core.textio import iter_jsonl
from builders.core.writer_paths import jsonl_path_for
from builders.scoring.protocol import ScoringExample, TokenScores


@dataclass(frozen=True)
class BuiltSet:
    folder: Path
    info: dict[str, Any]

    @property
    def family(self) -> str:
        return str(self.info.get("builder", "")).rpartition(".")[0]


def built_set(set_dir: Path | None) -> BuiltSet | None:
    """The built set at set_dir (its info.json), or None for other folders."""
    if set_dir is None or not (set_dir / "info.json").is_file():
        return None
    path = set_dir / "info.json"
    try:
        return BuiltSet(set_dir, json.loads(path.read_text(encoding="utf-8")))
    except json.JSONDecodeError as err:
        raise InputError(path, f"invalid JSON: {err.msg}", line=err.lineno) from None


@dataclass(frozen=True)
class Condition:
    """One scoring pass: its name (the output file's stem) and one example per segment."""

    name: str
    examples: list[ScoringExample]


def _single_split(built: BuiltSet, subset: str) -> str:
    splits = sorted(built.info.get("records", {}).get(subset, {}))
    if len(splits) != 1:
        raise InputError(built.folder / "info.json", f"subset {subset!r} must have one split, has {splits}")
    return splits[0]


def _features(path: Path, rows: int) -> np.ndarray:
    if not path.is_file():
        raise InputError(path, "image features not found")
    matrix = np.load(path, allow_pickle=False)
    if matrix.ndim != 2 or matrix.shape[0] != rows:
        raise InputError(path, f"expected {rows} feature rows (one per segment), got shape {matrix.shape}")
    return matrix.astype(np.float32)


def shuffles_conditions(built: BuiltSet, congruent_features: Path | None, with_images: bool) -> list[Condition]:
    """Congruent first, then every shuffle, each with its features (none for a text-only model)."""
    split = _single_split(built, "congruent")
    records = [r for _, r in iter_jsonl(built.folder / jsonl_path_for("congruent", split))]
    shuffles = sorted(
        (s for s in built.info["records"] if s.startswith("random")), key=lambda s: int(s.removeprefix("random"))
    )
    if not shuffles:
        raise InputError(built.folder / "info.json", "a shuffles set without random<i> subsets")
    if not with_images:
        return [
            Condition(name, [ScoringExample(r["src"], r["ref"]) for r in records]) for name in ["congruent", *shuffles]
        ]
    configured = str(built.info.get("config", {}).get("features", ""))
    source = congruent_features or (Path(configured) if configured else None)
    if source is None:
        raise MtprobesError(f"{built.folder} was built without image features: pass --image-features")
    stem = Path(configured or source).name.removesuffix(".npy")
    paths = {"congruent": source, **{s: built.folder / "extras" / f"{stem}-{s}.npy" for s in shuffles}}
    return [
        Condition(name, [ScoringExample(r["src"], r["ref"], image=row) for r, row in zip(records, rows, strict=True)])
        for name, rows in ((n, _features(p, len(records))) for n, p in paths.items())
    ]


def score_shuffles_set(
    built: BuiltSet, out: Path, name: str, scorer: Any, image_aware: bool, image_features: Path | None
) -> tuple[list[Path], list[TokenScores]]:
    from builders.scoring.scores_io import write_awareness_scores

    conditions = shuffles_conditions(built, image_features, image_aware)
    results = {c.name: scorer.score(c.examples) for c in conditions}
    written = write_awareness_scores(out / name, {k: [s.sum for s in v] for k, v in results.items()})
    return written, [s for scores in results.values() for s in scores]


BuiltScorer = Callable[[BuiltSet, Path, str, Any, bool, Path | None], tuple[list[Path], list[TokenScores]]]
BUILT_SET_SCORERS: dict[str, BuiltScorer] = {"shuffles": score_shuffles_set}
