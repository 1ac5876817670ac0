"""Per-segment text-similarity scores of translations, for the model-external awareness Δ_E (Elliott 2018, Eq. 4).

Δ_E needs T(x_i, y_i, v) per segment and condition: the system translates the set's sources once with the
congruent images and once per shuffle, and each translation file is scored here against the set's references
(sentence METEOR as in the paper; BLEU, TER and length ratio too). The ``.scores`` files written are the ones
`mtprobes evaluate --kind awareness` reads, one line per segment of the set.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from builders.core.errors import InputError, MtprobesError
from builders.core.textio import iter_jsonl, read_lines

# Whether a higher sentence score is better, for the awareness metric's lower_is_better option.
HIGHER_IS_BETTER = {"meteor": True, "bleu": True, "ter": False, "length_ratio": True}


def set_references(set_dir: Path) -> list[str]:
    """The references of a built ``shuffles.v1`` set's congruent records, in record order."""
    from builders.core.writer_paths import jsonl_path_for
    from builders.scoring.built_layouts import built_set, single_split

    built = built_set(set_dir)
    if built is None or built.family != "shuffles":
        raise InputError(set_dir, "not a built shuffles.v1 set (give --ref REFERENCES instead)")
    path = built.folder / jsonl_path_for("congruent", single_split(built, "congruent"))
    return [str(record["ref"]) for _, record in iter_jsonl(path)]


def sentence_scores(references: Sequence[str], hypotheses: Path, metric: str, jobs: int = 1) -> list[float]:
    """One score per line of ``hypotheses`` against the line-aligned references."""
    from builders.variations.volatility import score_pairs

    if metric not in HIGHER_IS_BETTER:
        raise MtprobesError(f"unknown sentence metric {metric!r}; choose from {', '.join(HIGHER_IS_BETTER)}")
    lines = read_lines(hypotheses, allow_empty_file=True)
    if len(lines) != len(references):
        raise InputError(hypotheses, f"translations file has {len(lines)} lines but the set has "
                                     f"{len(references)} segments")
    return [scores[0] for scores in score_pairs(list(zip(lines, references, strict=True)), (metric,), jobs)]


def write_sentence_scores(
    references: Sequence[str], hypotheses: Sequence[Path], metric: str, out: Path, jobs: int = 1
) -> list[Path]:
    """``out/<stem of each translations file>.scores``; stems must differ (they name the conditions)."""
    from builders.scoring.scores_io import write_scores

    stems = [path.name.rsplit(".", 1)[0] if "." in path.name else path.name for path in hypotheses]
    if len(set(stems)) != len(stems):
        raise MtprobesError(f"translation files need distinct names (they name the conditions): {stems}")
    return [
        write_scores(out / f"{stem}.scores", sentence_scores(references, path, metric, jobs))
        for stem, path in zip(stems, hypotheses, strict=True)
    ]
