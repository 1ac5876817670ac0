"""Score files: strict reading (counts, NaN/inf named by line) and writers in the anchors' formats.

- ContraPro: one score per line in the order of its text export (reference, then its variants), as negative
  log-probability so that ContraPro's ``evaluate.py`` reads it with its default "lower is better".
- CoMMuTE: ``correct`` and ``incorrect`` files, one perplexity per line (its ``evaluate.py``: correct < incorrect).
- Awareness: one per-segment score file per condition (congruent, each shuffle).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from builders.core.atomic import write_text
from builders.core.errors import InputError
from builders.core.textio import read_lines


def read_scores(path: str | Path, expected: int | None = None, *, what: str = "scores") -> np.ndarray:
    """One float per line. Errors: unparseable or non-finite values (file:line), wrong count (both counts)."""
    path = Path(path)
    lines = read_lines(path)
    values = np.empty(len(lines), dtype=np.float64)
    for number, line in enumerate(lines, start=1):
        text = line.strip().split("\t")[0]
        try:
            value = float(text)
        except ValueError:
            raise InputError(path, f"not a number: {line[:40]!r}", line=number) from None
        if not math.isfinite(value):
            raise InputError(path, f"score is {text} (NaN/inf); rescore or drop the model", line=number)
        values[number - 1] = value
    if expected is not None and len(values) != expected:
        raise InputError(path, f"{what} file has {len(values)} lines but the set needs {expected}")
    return values


def format_scores(values: Sequence[float]) -> str:
    """Fixed 6 decimals (like the anchors' examples): same scores, same bytes."""
    return "".join(f"{value:.6f}\n" for value in values)


def write_scores(path: str | Path, values: Sequence[float]) -> Path:
    path = Path(path)
    bad = [i + 1 for i, v in enumerate(values) if not math.isfinite(v)]
    if bad:
        raise InputError(path, f"refusing to write non-finite scores (lines {bad[:5]})")
    write_text(path, format_scores(values))
    return path


def write_contrapro_scores(path: str | Path, logprob_sums: Sequence[float]) -> Path:
    """Negative log-probabilities, text-export order; ContraPro's evaluate.py default (lower is better)."""
    return write_scores(path, [-value for value in logprob_sums])


def write_commute_scores(
    folder: str | Path, correct_ppl: Sequence[float], incorrect_ppl: Sequence[float], prefix: str = ""
) -> tuple[Path, Path]:
    """CoMMuTE's evaluate.py inputs: ``correct.txt`` and ``incorrect.txt`` perplexities, line-aligned."""
    if len(correct_ppl) != len(incorrect_ppl):
        raise InputError(folder, f"{len(correct_ppl)} correct but {len(incorrect_ppl)} incorrect scores")
    folder = Path(folder)
    return (
        write_scores(folder / f"{prefix}correct.txt", correct_ppl),
        write_scores(folder / f"{prefix}incorrect.txt", incorrect_ppl),
    )


def write_awareness_scores(folder: str | Path, conditions: dict[str, Sequence[float]]) -> list[Path]:
    """``<condition>.scores`` per condition (``congruent``, ``random0`` ...); all must be line-aligned."""
    sizes = {name: len(values) for name, values in conditions.items()}
    if len(set(sizes.values())) > 1:
        raise InputError(folder, f"conditions differ in segment count: {sizes}")
    return [write_scores(Path(folder) / f"{name}.scores", values) for name, values in conditions.items()]
