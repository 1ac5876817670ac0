"""Scoring of sets built by mtprobes itself (recognised by ``info.json``'s builder), one table entry per family.

- ``shuffles.v1``: the reference of every ``congruent`` record is scored with each condition's image features
  (``congruent``: the features the set was built with, or ``--image-features``; ``random<i>``: those rows
  permuted by shuffle i's ``distractor_line``, as in the set's ``extras/<stem>-random<i>.npy``). Writes
  ``<out>/<name>/<condition>.scores``
  (log-probability sums, higher is better), the files `mtprobes evaluate --kind awareness` reads.
- ``commute_ext.v1``: for every source, both translations under every image of both image sets (A = the images
  of translation a, B = those of b; slot 0 = the original CoMMuTE image). Writes ``<name>.extended.jsonl`` (one
  line per source, in CoMMuTE line order: ``{"ppl_a": [[P(t^a|A_j)...], [P(t^b|A_j)...]], "ppl_b": ...}``, the
  image oracle's input) and the slot-0 ``<name>.correct.txt`` / ``<name>.incorrect.txt`` (CoMMuTE's own files for
  ``<set>/commute/slot0``). Image features: `mtprobes image-features <set>` (one row per source, translation, slot).
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


def single_split(built: BuiltSet, subset: str) -> str:
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
    """Congruent first, then every shuffle, each with its features (none for a text-only model).

    Each shuffle's features are the congruent ones permuted by its records' ``distractor_line`` (what the build
    wrote to ``extras/<stem>-random<i>.npy``), so ``--image-features`` changes every condition alike and a set
    built without features can be scored with features computed afterwards.
    """
    split = single_split(built, "congruent")
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
    base = _features(source, len(records))
    rows = {"congruent": base}
    for name in shuffles:
        path = built.folder / jsonl_path_for(name, split)
        rows[name] = base[distractor_rows(path, [r for _, r in iter_jsonl(path)], records)]
    return [
        Condition(name, [ScoringExample(r["src"], r["ref"], image=row) for r, row in zip(records, matrix, strict=True)])
        for name, matrix in rows.items()
    ]


def distractor_rows(path: Path, shuffled: list[dict[str, Any]], congruent: list[dict[str, Any]]) -> list[int]:
    """Row of the congruent features each shuffled record shows (its distractor), in record order."""
    index_of_line = {r["line"]: i for i, r in enumerate(congruent)}
    if [r["line"] for r in shuffled] != [r["line"] for r in congruent]:
        raise InputError(path, "records are not line-aligned with the congruent subset")
    missing = [number for number, r in enumerate(shuffled, 1) if r.get("distractor_line") not in index_of_line]
    if missing:
        raise InputError(path, "distractor_line names no congruent record", line=missing[0])
    return [index_of_line[r["distractor_line"]] for r in shuffled]


def score_shuffles_set(
    built: BuiltSet,
    out: Path,
    name: str,
    scorer: Any,
    image_aware: bool,
    image_features: Path | None,
    drop_prefix: bool = False,
) -> tuple[list[Path], list[TokenScores]]:
    from builders.scoring.scores_io import write_awareness_scores

    if drop_prefix:
        raise MtprobesError("--drop-shared-prefix: a shuffles set has no contrastive targets")
    conditions = shuffles_conditions(built, image_features, image_aware)
    results = {c.name: scorer.score(c.examples) for c in conditions}
    written = write_awareness_scores(out / name, {k: [s.sum for s in v] for k, v in results.items()})
    return written, [s for scores in results.values() for s in scores]


@dataclass(frozen=True)
class ExtendedSource:
    """One commute_ext record: the source, t^a and t^b, and each translation's images (slot order)."""

    source: str
    texts: tuple[str, str]
    lines: tuple[int, int]  # CoMMuTE line of t^a and of t^b
    images: tuple[list[dict[str, Any]], list[dict[str, Any]]]


def extended_sources(built: BuiltSet) -> list[ExtendedSource]:
    """The records in CoMMuTE line order (the order of ``commute/slot0``); both lines of a source must be there."""
    path = built.folder / jsonl_path_for("default", single_split(built, "default"))
    sources = []
    for number, record in iter_jsonl(path):
        first, second = record.get("translations", [None, None])[:2]
        if first is None or second is None or first["contrast"] != second["text"]:
            raise InputError(path, "a record needs two translations, each the other's contrast", line=number)
        if first["line"] > second["line"]:  # t^a is the translation on the first of the source's two lines
            first, second = second, first
        sources.append(
            ExtendedSource(
                record["source"],
                (first["text"], second["text"]),
                (first["line"], second["line"]),
                (first["images"], second["images"]),
            )
        )
    return sorted(sources, key=lambda s: min(s.lines))


def image_file(built: BuiltSet, image: dict[str, Any]) -> Path:
    """Where an image of a commute_ext set lies: exported copy, original image folder, or a folder collection."""
    config = built.info.get("config", {})
    exported = built.folder / "commute" / "images"
    candidates = [exported / image["path"], exported / "retrieved" / image["path"]]
    if image["kind"] == "original":
        candidates.append(Path(config.get("image_dir") or Path(config.get("data_dir", "")) / "images") / image["path"])
    else:
        candidates += [Path(root) / image["path"] for root in config.get("collection", [])]
    found = next((c for c in candidates if c.is_file()), None)
    if found is None:
        raise InputError(
            built.folder / "info.json",
            f"image {image.get('uid')!r} not found (looked in "
            f"{', '.join(str(c.parent) for c in candidates)}); build with export_images=true",
        )
    return found


def extended_image_files(built: BuiltSet) -> list[Path]:
    """Feature-row order of `mtprobes image-features` on a commute_ext set: source, translation (a, b), slot."""
    return [image_file(built, image) for s in extended_sources(built) for images in s.images for image in images]


def _extended_examples(sources: list[ExtendedSource], features: np.ndarray) -> list[ScoringExample]:
    """Per source, image set (A, B), slot and translation (a, b); the two translations under one image form a
    contrastive group (shared-prefix dropping)."""
    examples, row = [], 0
    for index, source in enumerate(sources):
        for side, images in enumerate(source.images):
            for slot in range(len(images)):
                group = f"{index}-{side}-{slot}"
                examples += [
                    ScoringExample(source.source, text, image=features[row], group=group) for text in source.texts
                ]
                row += 1
    return examples


def _extended_rows(sources: list[ExtendedSource], perplexities: list[float]) -> list[dict[str, Any]]:
    rows, position = [], 0
    for source in sources:
        row: dict[str, Any] = {}
        for key, images in zip(("ppl_a", "ppl_b"), source.images, strict=True):
            values = np.asarray(perplexities[position : position + 2 * len(images)]).reshape(len(images), 2).T
            row[key] = [[round(float(v), 6) for v in values[t]] for t in (0, 1)]
            position += 2 * len(images)
        rows.append(row)
    return rows


def score_commute_ext_set(
    built: BuiltSet,
    out: Path,
    name: str,
    scorer: Any,
    image_aware: bool,
    image_features: Path | None,
    drop_prefix: bool = False,
) -> tuple[list[Path], list[TokenScores]]:
    from builders.core.atomic import write_text
    from builders.scoring.protocol import drop_shared_prefixes
    from builders.scoring.scores_io import write_commute_scores

    sources = extended_sources(built)
    rows = sum(len(images) for s in sources for images in s.images)
    if image_features is None and image_aware:
        raise MtprobesError(f"{built.folder}: pass --image-features (from `mtprobes image-features {built.folder}`)")
    features = _features(image_features, rows) if image_features else np.zeros((rows, 1), dtype=np.float32)
    examples = _extended_examples(sources, features)
    scores = scorer.score(examples)
    if drop_prefix:
        scores = drop_shared_prefixes(examples, scores)
    extended = _extended_rows(sources, [s.perplexity for s in scores])
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{name}.extended.jsonl"
    write_text(path, "".join(json.dumps(row) + "\n" for row in extended))
    # Slot 0 in CoMMuTE's line order: line of t^a shows A_0, line of t^b shows B_0 (correct = that line's text).
    correct, incorrect = [], []
    for row in extended:
        correct += [row["ppl_a"][0][0], row["ppl_b"][1][0]]
        incorrect += [row["ppl_a"][1][0], row["ppl_b"][0][0]]
    return [path, *write_commute_scores(out, correct, incorrect, prefix=f"{name}.")], scores


BuiltScorer = Callable[..., tuple[list[Path], list[TokenScores]]]
BUILT_SET_SCORERS: dict[str, BuiltScorer] = {"shuffles": score_shuffles_set, "commute_ext": score_commute_ext_set}
