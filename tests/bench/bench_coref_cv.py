"""5-fold cross-validation by document of the learned resolver over OntoGUM train+dev (issue 27; docs/coref.md).

Every genre of train and dev, documents dealt to 5 folds in name order. Per fold: the ranker and the anaphoricity
model are fitted on the other four folds with the shipped L2 strengths (``weights.json``), the calibration on
those folds' out-of-fold decisions (as ``make models`` does on train), and the held fold is resolved. Pooled over
the folds, per pronoun (*it*, *they*): top-1 right on anaphoric-in-reach pronouns (heuristic and learned), the
anaphoricity model's best precision at recall >= 0.6, the simulated filter per gender at the default threshold
and the ECE of the item confidence (same definitions as ``bench_coref_gum.py``).

Run: ``python tests/bench/bench_coref_cv.py [--threshold 0.55]``. Needs ../shared; about 5 min on one core.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_coref_gum import expected_calibration_error, heuristic_decision

from builders.pronouns.coref_gum import ParsedCorpus, is_right, parse_corpus
from builders.pronouns.coref_learned import LearnedWeights, calibrated_confidence, model_dir
from builders.pronouns.coref_train import (
    DEFAULT_DATA,
    GENDERS,
    TRAINING_WORDS,
    VERSION,
    Example,
    ExtraFeatures,
    FilterDecision,
    examples,
    filter_decisions,
    fit_anaphoricity,
    fit_calibration,
    fit_ranker,
    out_of_fold_decisions,
    posteriors,
)
from builders.pronouns.packs import GENERIC_MIN_CONFIDENCE

FOLDS = 5


def shipped_l2(kind: str) -> tuple[float, float]:
    """The ranker's and the anaphoricity model's L2 strengths that ``make models`` chose (``weights.json``)."""
    shipped = json.loads((model_dir() / "weights.json").read_text(encoding="utf-8"))[kind]
    return shipped["l2"], shipped["anaphoricity_l2"]


def fold_weights(corpus: ParsedCorpus, inside: Sequence[Example], l2s: tuple[float, float]) -> LearnedWeights:
    l2, anaphoricity_l2 = l2s
    ranker = fit_ranker(inside, l2)
    anaphoricity = fit_anaphoricity(inside, ranker, anaphoricity_l2)
    decisions = out_of_fold_decisions(corpus, inside, l2, anaphoricity_l2)
    calibration = {g: fit_calibration([d for d in decisions if d.gender == g]) for g in GENDERS}
    return LearnedWeights(ranker, anaphoricity, calibration, VERSION)


def best_precision(scores: Sequence[float], truth: Sequence[bool], min_recall: float = 0.6) -> tuple[float, float]:
    """The highest precision of 'anaphoric' at a threshold whose recall is at least ``min_recall``."""
    order = np.argsort(-np.asarray(scores), kind="stable")
    hits = np.cumsum(np.asarray(truth, dtype=np.float64)[order])
    precision, recall = hits / np.arange(1, len(order) + 1), hits / max(hits[-1], 1)
    usable = recall >= min_recall
    best = int(np.argmax(np.where(usable, precision, -1)))
    return float(precision[best]), float(np.asarray(scores)[order][best])


@dataclass(frozen=True)
class Row:
    example: Example
    decision: FilterDecision
    confidence: float  # calibrated; 0 when the filter keeps nothing
    learned_top: bool  # the learned ranker's first candidate is right
    anaphoricity: float
    heuristic: tuple[bool, bool, float]  # kept, right, confidence (bench_coref_gum.heuristic_decision)


def held_out_rows(corpus: ParsedCorpus, word: str, extra: ExtraFeatures | None = None,
                  l2s: tuple[float, float] | None = None) -> list[Row]:
    """``extra`` and ``l2s``: an experiment's added features and the L2 strengths its training picked
    (tests/bench/exp_coref_encoder.py); by default the shipped recipe."""
    kind = "plural" if word == "they" else "singular"
    found = examples(corpus, TRAINING_WORDS[kind], extra)
    names = sorted({d.name for d in corpus.documents})
    fold = {name: number % FOLDS for number, name in enumerate(names)}
    rows = []
    for k in range(FOLDS):
        weights = fold_weights(corpus, [e for e in found if fold[e.case.document] != k], l2s or shipped_l2(kind))
        held = [e for e in found if fold[e.case.document] == k and e.case.word == word]
        for example, decision, posterior in zip(held, filter_decisions(corpus, held, weights),
                                                posteriors(held, weights), strict=True):
            confidence = calibrated_confidence(decision.raw, weights.calibration[decision.gender])
            top = bool(posterior.candidates) and is_right(example.case, posterior.candidates[0])
            rows.append(Row(example, decision, confidence if decision.kept else 0.0, top, posterior.anaphoricity,
                            heuristic_decision(corpus, example)))
    return rows


def _share(right: int, count: int) -> str:
    return f"{count}, {right / max(count, 1):.3f}"


@dataclass(frozen=True)
class Figures:
    """What ``report`` prints for one pronoun (an experiment sets several side by side)."""

    pronouns: int
    anaphoric: int
    top1_heuristic: float
    top1_learned: float
    anaphoricity_precision: float  # the best at recall >= 0.6
    anaphoricity_threshold: float
    heuristic_filter: dict[str, str]  # per gender: "kept, precision" at the threshold
    learned_filter: dict[str, str]
    ece: float


def figures(rows: Sequence[Row], threshold: float) -> Figures:
    anaphoric = [r for r in rows if r.example.case.anaphoric]
    top1_h = sum(1 for r in anaphoric if len(r.example.right) and r.example.right[0]) / max(len(anaphoric), 1)
    top1_l = sum(1 for r in anaphoric if r.learned_top) / max(len(anaphoric), 1)
    precision, at = best_precision([r.anaphoricity for r in rows], [r.example.case.anaphoric for r in rows])
    heuristic, learned = {}, {}
    for gender in GENDERS:
        mine = [r for r in rows if r.decision.gender == gender]
        h_kept = [r for r in mine if r.heuristic[0] and r.heuristic[2] >= threshold]
        l_kept = [r for r in mine if r.decision.kept and r.confidence >= threshold]
        heuristic[gender] = _share(sum(r.heuristic[1] for r in h_kept), len(h_kept))
        learned[gender] = _share(sum(r.decision.right for r in l_kept), len(l_kept))
    kept = [r for r in rows if r.decision.kept]
    ece = expected_calibration_error([r.confidence for r in kept], [r.decision.right for r in kept])
    return Figures(len(rows), len(anaphoric), top1_h, top1_l, precision, at, heuristic, learned, ece)


def report(word: str, corpus: ParsedCorpus, threshold: float, extra: ExtraFeatures | None = None,
           l2s: tuple[float, float] | None = None) -> Figures:
    found = figures(held_out_rows(corpus, word, extra, l2s), threshold)
    print(f"\n## 5-fold CV, *{word}*: {found.pronouns} pronouns, {found.anaphoric} anaphoric in reach")
    print(f"top-1 right (anaphoric in reach): heuristic {found.top1_heuristic:.3f}, learned {found.top1_learned:.3f}")
    print(f"anaphoricity: best precision at recall >= 0.6: {found.anaphoricity_precision:.3f} "
          f"(threshold {found.anaphoricity_threshold:.3f})")
    print(f"simulated filter at {threshold} | gender | heuristic kept, precision | learned kept, precision |")
    for gender in GENDERS:
        print(f"| {gender} | {found.heuristic_filter[gender]} | {found.learned_filter[gender]} |")
    print(f"ECE (10 bins, kept items): learned {found.ece:.3f}")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    # the simulated filter is the German one: the EN-DE default
    parser.add_argument("--threshold", type=float, default=GENERIC_MIN_CONFIDENCE)
    args = parser.parse_args()
    if not args.data.is_file():
        print(f"skipped: {args.data} is absent (../shared/data)")
        return
    corpus = parse_corpus(args.data, frozenset({"train", "dev"}))
    for word in ("it", "they"):
        report(word, corpus, args.threshold)


if __name__ == "__main__":
    main()
