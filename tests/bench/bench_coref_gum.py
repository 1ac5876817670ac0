"""The learned resolver against the heuristic on OntoGUM gold coreference (issue 27; protocol in docs/coref.md).

Per split (dev: tuning; test: once per model version; test2: GENTLE, out of domain) and per pronoun (*it*,
*they*), heuristic and learned side by side:
- top-1 right on anaphoric-in-reach pronouns (a pronoun whose gold antecedent is no candidate counts wrong);
- anaphoricity precision and recall at 0.5 (learned only);
- the simulated ContraPro filter per pseudo-gender at the default threshold: kept items and precision;
- expected calibration error of the item confidence (10 equal-width bins, kept items);
- resolver time per 1,000 pronouns.

Run: ``python tests/bench/bench_coref_gum.py [--splits dev,test,test2] [--threshold 0.55]``. Needs ../shared.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from builders.pronouns.coref import HeuristicDocument
from builders.pronouns.coref_gum import ParsedCorpus, is_right, parse_corpus, pseudo_gender
from builders.pronouns.coref_learned import calibrated_confidence, load_weights
from builders.pronouns.coref_train import (
    DEFAULT_DATA,
    GENDERS,
    MAX_DISTANCE,
    Example,
    examples,
    lemma_lookup,
    posteriors,
    simulated_filter,
)
from builders.pronouns.packs import GENERIC_MIN_CONFIDENCE


def heuristic_decision(corpus: ParsedCorpus, example: Example) -> tuple[bool, bool, float]:
    """The builder's old rule: the first candidate of the pronoun's gender, confidence 1/(agreeing count)."""
    docs = list(corpus.docs[example.case.document])
    candidates = HeuristicDocument(docs).candidates(example.case.sentence, example.case.token, MAX_DISTANCE)
    lemma_of = lemma_lookup(corpus, example.case.document)
    gender = pseudo_gender(example.case.antecedent_lemma) if example.case.antecedent_lemma else "n"
    agreeing = [c for c in candidates if pseudo_gender(lemma_of(c.sentence, c.head)) == gender]
    if not agreeing:
        return False, False, 0.0
    return True, is_right(example.case, agreeing[0]), 1.0 / len(agreeing)


def expected_calibration_error(confidences: Sequence[float], right: Sequence[bool], bins: int = 10) -> float:
    if not confidences:
        return float("nan")
    values, hits = np.asarray(confidences), np.asarray(right, dtype=np.float64)
    index = np.minimum((values * bins).astype(int), bins - 1)
    error = 0.0
    for b in range(bins):
        members = index == b
        if members.any():
            error += members.sum() / len(values) * abs(values[members].mean() - hits[members].mean())
    return float(error)


def report(split: str, word: str, corpus: ParsedCorpus, threshold: float) -> None:
    kind = "plural" if word == "they" else "singular"
    found = [e for e in examples(corpus, frozenset({word}))]
    weights = load_weights(word)
    started = time.perf_counter()
    learned = posteriors(found, weights)
    learned_ms = (time.perf_counter() - started) * 1000 / max(len(found), 1) * 1000
    started = time.perf_counter()
    heuristic = [heuristic_decision(corpus, e) for e in found]
    heuristic_ms = (time.perf_counter() - started) * 1000 / max(len(found), 1) * 1000
    anaphoric = [i for i, e in enumerate(found) if e.case.anaphoric]
    top1_h = sum(1 for i in anaphoric if len(found[i].right) and found[i].right[0]) / max(len(anaphoric), 1)
    top1_l = sum(1 for i in anaphoric if learned[i].candidates and is_right(found[i].case, learned[i].candidates[0])
                 ) / max(len(anaphoric), 1)
    predicted = [p.anaphoricity >= 0.5 for p in learned]
    true_pos = sum(1 for i in anaphoric if predicted[i])
    precision = true_pos / max(sum(predicted), 1)
    recall = true_pos / max(len(anaphoric), 1)
    print(f"\n## {split}, *{word}* ({kind} model): {len(found)} pronouns, {len(anaphoric)} anaphoric in reach")
    print(f"top-1 right (anaphoric in reach): heuristic {top1_h:.3f}, learned {top1_l:.3f}")
    print(f"anaphoricity at 0.5 (learned): precision {precision:.3f}, recall {recall:.3f}")
    decisions = [simulated_filter(e, p, lemma_lookup(corpus, e.case.document)) for e, p in zip(found, learned,
                                                                                              strict=True)]
    confidences = [calibrated_confidence(d.raw, weights.calibration[d.gender]) if d.kept else 0.0
                   for d in decisions]
    print(f"simulated filter at {threshold} | gender | heuristic kept, precision | learned kept, precision |")
    for gender in GENDERS:
        in_gender = [i for i, d in enumerate(decisions) if d.gender == gender]
        h_kept = [i for i in in_gender if heuristic[i][0] and heuristic[i][2] >= threshold]
        l_kept = [i for i in in_gender if decisions[i].kept and confidences[i] >= threshold]
        h_right = sum(1 for i in h_kept if heuristic[i][1])
        l_right = sum(1 for i in l_kept if decisions[i].right)
        print(f"| {gender} | {len(h_kept)}, {h_right / max(len(h_kept), 1):.3f} "
              f"| {len(l_kept)}, {l_right / max(len(l_kept), 1):.3f} |")
    kept = [i for i, d in enumerate(decisions) if d.kept]
    ece = expected_calibration_error([confidences[i] for i in kept], [decisions[i].right for i in kept])
    print(f"ECE (10 bins, every candidate-bearing pronoun's chosen antecedent): learned {ece:.3f}")
    print(f"time per 1,000 pronouns: heuristic {heuristic_ms:.0f} ms, learned {learned_ms:.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--splits", default="dev,test,test2")
    # the simulated filter is the German one: the EN-DE default
    parser.add_argument("--threshold", type=float, default=GENERIC_MIN_CONFIDENCE)
    args = parser.parse_args()
    if not args.data.is_file():
        print(f"skipped: {args.data} is absent (../shared/data)")
        return
    for split in args.splits.split(","):
        corpus = parse_corpus(args.data, frozenset({split}))
        for word in ("it", "they"):
            report(split, word, corpus, args.threshold)


if __name__ == "__main__":
    main()
