"""File-level evaluation: a built set folder + score files -> one metric result (a JSON-ready dict)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from builders.core.errors import InputError, MtprobesError
from builders.core.textio import iter_jsonl, read_lines
from builders.metrics import awareness, commute, contrapro
from builders.scoring.scores_io import read_scores


def find_unique(folder: Path, *patterns: str) -> Path | None:
    """The one file matching any of ``patterns`` under folder (None if none; an error naming all if several)."""
    pattern = " or ".join(patterns)
    if folder.is_file():
        return folder if any(folder.match(p) for p in patterns) else None
    hits = sorted({p for pat in patterns for p in folder.rglob(pat) if p.is_file() and "/." not in str(p)})
    if len(hits) > 1:
        raise InputError(folder, f"several files match {pattern!r}: {', '.join(str(h) for h in hits[:5])}")
    return hits[0] if hits else None


def commute_folder(set_dir: Path) -> tuple[Path, Path, Path] | None:
    """(src.en, correct.xx, incorrect.xx) of a CoMMuTE-layout folder, if set_dir is (or holds) one."""
    source = find_unique(set_dir, "src.en")
    if source is None:
        return None
    correct = sorted(source.parent.glob("correct.*"))
    incorrect = sorted(source.parent.glob("incorrect.*"))
    if len(correct) != 1 or len(incorrect) != 1:
        raise InputError(source.parent, "a CoMMuTE folder needs exactly one correct.xx and one incorrect.xx")
    return source, correct[0], incorrect[0]


def detect_kind(set_dir: Path) -> str:
    if find_unique(set_dir, "contrapro.json") is not None:
        return "contrapro"
    if commute_folder(set_dir) is not None:
        return "commute"
    raise MtprobesError(f"{set_dir}: no contrapro.json and no CoMMuTE layout found; pass --kind")


def evaluate_contrapro_files(
    set_dir: Path, scores: Sequence[Path], *, compare: Path | None, lower_is_better: bool, seed: int, **_: Any
) -> dict[str, Any]:
    if len(scores) != 1:
        raise MtprobesError("ContraPro evaluation takes one --scores file (use --compare for a second system)")
    json_path = find_unique(set_dir, "contrapro.json")
    if json_path is None:
        raise InputError(set_dir, "no contrapro.json in the set folder")
    records = contrapro.load_contrapro_json(json_path)
    needed = contrapro.expected_score_lines(records)
    other = read_scores(compare, needed) if compare else None
    return contrapro.evaluate_contrapro(
        records,
        read_scores(scores[0], needed),
        lower_is_better=lower_is_better,
        compare_scores=other,
        seed=seed,
        scores_path=scores[0],
        compare_path=compare or "<none>",
    )


def _commute_pairs(set_dir: Path, correct: Path, incorrect: Path) -> commute.CommutePairs:
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


def read_extended(path: Path) -> list[tuple[np.ndarray, np.ndarray]]:
    """JSONL, one source per line: {"ppl_a": [[t0 under A_j...], [t1 under A_j...]], "ppl_b": [...]}."""
    sources = []
    for number, record in iter_jsonl(path):
        arrays = []
        for key in ("ppl_a", "ppl_b"):
            value = np.asarray(record.get(key), dtype=np.float64)
            if value.ndim != 2 or value.shape[0] != 2 or value.shape[1] < 1:
                raise InputError(path, f"{key} must be a 2 x n list of perplexities", line=number)
            if not np.all(np.isfinite(value)) or np.any(value <= 0):
                raise InputError(path, f"{key} holds non-finite or non-positive perplexities", line=number)
            arrays.append(value)
        sources.append((arrays[0], arrays[1]))
    return sources


def evaluate_commute_files(
    set_dir: Path,
    scores: Sequence[Path],
    *,
    compare: Sequence[Path] = (),
    mixup: Sequence[Path] = (),
    extended: Path | None = None,
    **_: Any,
) -> dict[str, Any]:
    if len(scores) != 2:
        raise MtprobesError("CoMMuTE evaluation takes two --scores files: correct then incorrect perplexities")
    pairs = _commute_pairs(set_dir, scores[0], scores[1])
    result: dict[str, Any] = {"kind": "commute", **commute.consistency_scores(pairs.ppl)}
    result["unswapped_lines"] = list(pairs.unswapped)
    mixup_matrix = None
    if mixup:
        if len(mixup) != 2:
            raise MtprobesError("--mixup takes two files: correct then incorrect perplexities with the mixup image")
        expected = 2 * pairs.ppl.shape[0]
        mixup_matrix = commute.mixup_from_lines(read_scores(mixup[0], expected), read_scores(mixup[1], expected))
        result["mixup"] = commute.mixup_rates(pairs.ppl, mixup_matrix)
    if extended is not None:
        result["oracle"] = commute.image_oracle(read_extended(extended))
    if compare:
        if len(compare) != 2:
            raise MtprobesError("--compare for CoMMuTE takes two files: correct then incorrect")
        other = _commute_pairs(set_dir, compare[0], compare[1])
        mine, theirs = commute.failure_sets(pairs.ppl), commute.failure_sets(other.ppl)
        result["failure_iou"] = {k: commute.failure_iou(mine[k], theirs[k]) for k in mine}
    result["perplexity_views"] = commute.perplexity_views(pairs.ppl, mixup_matrix)
    return result


def evaluate_awareness_files(
    set_dir: Path,
    scores: Sequence[Path],
    *,
    lower_is_better: bool,
    alternative: str = "greater",
    **_: Any,
) -> dict[str, Any]:
    if len(scores) < 2:
        raise MtprobesError("awareness takes --scores CONGRUENT then one file per incongruent shuffle")
    congruent = read_scores(scores[0])
    shuffles = {path.stem: read_scores(path, congruent.size, what="shuffle scores") for path in scores[1:]}
    if len(shuffles) != len(scores) - 1:
        raise MtprobesError("shuffle score files need distinct names (the name identifies the shuffle)")
    result = awareness.awareness_test(congruent, shuffles, lower_is_better=lower_is_better, alternative=alternative)  # type: ignore[arg-type]
    return {"kind": "awareness", **result}


EVALUATORS: dict[str, Callable[..., dict[str, Any]]] = {
    "contrapro": evaluate_contrapro_files,
    "commute": evaluate_commute_files,
    "awareness": evaluate_awareness_files,
}
