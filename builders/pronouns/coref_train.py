"""Train the learned resolver's weights on OntoGUM (``make models``; ``python -m builders.pronouns.coref_train``).

Trained on the train split's permissively licensed genres (``coref_gum.PERMISSIVE_GENRES``), the L2 strength chosen
on dev, the calibration fitted on dev and on the train documents scored out of fold; test and test2 are for
``tests/bench/bench_coref_gum.py`` only. No randomness: both models are convex, fitted by L-BFGS from zero weights,
and every product and sum is an ``np.einsum`` or ``np.bincount`` loop (no threaded BLAS), so the weights are
byte-identical on any core count.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np
from scipy.optimize import minimize

from builders.pronouns.coref import Candidate, HeuristicDocument
from builders.pronouns.coref_gum import (
    PERMISSIVE_GENRES,
    ParsedCorpus,
    PronounCase,
    is_right,
    parse_corpus,
    pronoun_cases,
    pseudo_gender,
)
from builders.pronouns.coref_learned import (
    LearnedWeights,
    Posterior,
    anaphoricity_features,
    candidate_features,
    model_dir,
    posterior_of,
    ranker_view,
    relative_candidates,
)

# 4: version 3's features and recipe, retrained after 521c976 changed the English non-referential rules that
# feed the anaphoricity features (a passive's purpose infinitive is no extraposition); 5: the same, retrained after
# 5c556c0 added the fixed "it" expressions (Got it, That's it, ...) to those rules; 8 (WordNet kind shares in the
# plural ranker) was judged in EN->FR blind round 13 and withdrawn (docs/coref.md); 9: version 7's recipe retrained
# after the round-12 English rules (clock times, "when it pleases", "What is it now?") changed the anaphoricity
# features; 10: version 9's recipe retrained after EN->FR round 18 (class 1) made the candidate the phrase's head
# noun, not a modifier the small model tagged NOUN (coref.phrase_head), shipped as 11
VERSION = "11"  # 10 was the he/she candidate of docs/coref.md, never shipped
GENDERS = ("m", "f", "n")  # the simulated target genders (coref_gum.pseudo_gender)
MAX_DISTANCE = 3
CALIBRATION_FOLDS = 5
# pronouns each model learns from: the possessive and object forms add examples of the same referents
TRAINING_WORDS = {"singular": frozenset({"it", "its"}), "plural": frozenset({"they", "them", "their"})}
L2_GRID = (0.3, 1.0, 3.0, 10.0)
ANAPHORICITY_L2_GRID = (1.0, 10.0, 100.0, 1000.0)
DEFAULT_DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "coref-gum" / "ontogum.jsonl"


@dataclass(frozen=True)
class Example:
    case: PronounCase
    features: np.ndarray  # candidates x ranker features (0 rows when there are none)
    right: np.ndarray  # bool per candidate
    anaphoricity: np.ndarray  # the anaphoricity features before the ranker's view (anaphoricity_matrix)
    candidates: tuple[Candidate, ...]  # the rows of ``features``, in the heuristic's order


class ExtraFeatures(Protocol):
    """Columns an experiment appends to the ranker's rows and to the anaphoricity features (docs/coref.md's
    version 12 candidate); the shipped recipe has none."""

    def ranker(self, case: PronounCase, candidate: Candidate) -> Sequence[float]: ...

    def anaphoricity(self, case: PronounCase) -> Sequence[float]: ...


def examples(corpus: ParsedCorpus, words: frozenset[str], extra: ExtraFeatures | None = None) -> list[Example]:
    found = []
    for document in corpus.documents:
        docs = corpus.docs[document.name]
        heuristic = HeuristicDocument(list(docs))
        for case in pronoun_cases(document, docs, words, MAX_DISTANCE):
            pronoun = docs[case.sentence][case.token]
            candidates = heuristic.candidates(case.sentence, case.token, MAX_DISTANCE)
            rows = [candidate_features(list(docs), case.sentence, pronoun, c, i, len(candidates), MAX_DISTANCE)
                    + ([] if extra is None else list(extra.ranker(case, c)))
                    for i, c in enumerate(candidates)]
            relative = relative_candidates(candidates, case.sentence)
            surroundings = anaphoricity_features(list(docs), case.sentence, pronoun, relative)
            found.append(Example(
                case,
                np.asarray(rows, dtype=np.float64).reshape(len(candidates), len(rows[0]) if rows else 0),
                np.asarray([is_right(case, c) for c in candidates], dtype=bool),
                np.asarray(surroundings + ([] if extra is None else list(extra.anaphoricity(case))),
                           dtype=np.float64),
                tuple(candidates),
            ))
    return found


def _ranker_loss(groups: Sequence[Example], l2: float) -> Callable[[np.ndarray], tuple[float, np.ndarray]]:
    usable = [e for e in groups if e.right.any()]
    features = np.concatenate([e.features for e in usable])
    right = np.concatenate([e.right for e in usable]).astype(np.float64)
    group = np.repeat(np.arange(len(usable)), [len(e.right) for e in usable])
    starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        scores = np.einsum("ij,j->i", features, w)
        shifted = np.exp(scores - np.maximum.reduceat(scores, starts)[group])
        all_mass = np.bincount(group, weights=shifted)
        right_mass = np.bincount(group, weights=shifted * right)
        value = float(np.sum(np.log(all_mass) - np.log(right_mass))) + 0.5 * l2 * float(w @ w)
        weight = shifted / all_mass[group] - shifted * right / right_mass[group]
        return value, np.einsum("ij,i->j", features, weight) + l2 * w

    return loss


def _logistic_loss(x: np.ndarray, y: np.ndarray, l2: float) -> Callable[[np.ndarray], tuple[float, np.ndarray]]:
    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        z = np.einsum("ij,j->i", x, w)
        p = 1.0 / (1.0 + np.exp(-z))
        value = float(np.sum(np.logaddexp(0.0, z) - y * z)) + 0.5 * l2 * float(w[:-1] @ w[:-1])
        penalty = np.r_[w[:-1], 0.0] * l2
        return value, np.einsum("ij,i->j", x, p - y) + penalty

    return loss


def _fit(loss: Callable[[np.ndarray], tuple[float, np.ndarray]], size: int) -> np.ndarray:
    result = minimize(loss, np.zeros(size), jac=True, method="L-BFGS-B", options={"maxiter": 500})
    return np.round(result.x, 6)  # six decimals: the bytes of weights.json do not hang on the last bits


def fit_ranker(train: Sequence[Example], l2: float) -> np.ndarray:
    return _fit(_ranker_loss(train, l2), next(e.features.shape[1] for e in train if len(e.features)))


def anaphoricity_matrix(examples_: Sequence[Example], ranker: np.ndarray) -> np.ndarray:
    """Each pronoun's anaphoricity features, the trained ranker's view of its best candidate, and the bias."""
    return np.stack([np.r_[e.anaphoricity, ranker_view(e.features, ranker), 1.0] for e in examples_])


def fit_anaphoricity(train: Sequence[Example], ranker: np.ndarray, l2: float) -> np.ndarray:
    x = anaphoricity_matrix(train, ranker)
    y = np.asarray([e.case.anaphoric for e in train], dtype=np.float64)
    return _fit(_logistic_loss(x, y, l2), x.shape[1])


def anaphoricity_log_loss(examples_: Sequence[Example], ranker: np.ndarray, weights: np.ndarray) -> float:
    x = anaphoricity_matrix(examples_, ranker)
    y = np.asarray([e.case.anaphoric for e in examples_], dtype=np.float64)
    z = np.einsum("ij,j->i", x, weights)
    return float(np.mean(np.logaddexp(0.0, z) - y * z))


def ranker_top1(examples_: Sequence[Example], ranker: np.ndarray) -> float:
    """Top-1 right on the anaphoric-in-reach pronouns (over all of them: a missing gold counts wrong)."""
    anaphoric = [e for e in examples_ if e.case.anaphoric]
    hits = sum(1 for e in anaphoric if len(e.right) and e.right[int(np.argmax(e.features @ ranker))])
    return hits / max(len(anaphoric), 1)


@dataclass(frozen=True)
class FilterDecision:
    kept: bool
    right: bool
    gender: str
    raw: float  # the uncalibrated posterior


def simulated_filter(example: Example, posterior: Posterior, lemma_of: Callable[[int, int], str]) -> FilterDecision:
    """The learned resolver under the simulated target-side constraint: the best candidate of the pronoun's
    pseudo-gender, its share of the agreeing candidates' mass, times the anaphoricity."""
    gender = pseudo_gender(example.case.antecedent_lemma) if example.case.antecedent_lemma else "n"
    agreeing = [(c, p) for c, p in zip(posterior.candidates, posterior.probabilities, strict=True)
                if pseudo_gender(lemma_of(c.sentence, c.head)) == gender]
    if not agreeing:
        return FilterDecision(False, False, gender, 0.0)
    chosen, mass = agreeing[0]
    share = mass / sum(p for _, p in agreeing)
    return FilterDecision(True, is_right(example.case, chosen), gender, share * posterior.anaphoricity)


def posteriors(examples_: Sequence[Example], weights: LearnedWeights) -> list[Posterior]:
    """What ``coref_learned.rank`` gives each pronoun, from the features stored in its example (the same ones)."""
    return [posterior_of(e.features, e.anaphoricity, e.candidates, weights) for e in examples_]


def lemma_lookup(corpus: ParsedCorpus, document: str) -> Callable[[int, int], str]:
    docs = corpus.docs[document]
    return lambda sentence, head: docs[sentence][head].lemma_.lower()


def filter_decisions(corpus: ParsedCorpus, examples_: Sequence[Example], weights: LearnedWeights
                     ) -> list[FilterDecision]:
    """The simulated filter's decisions on the pronouns the shipped model resolves (*it*, *they*)."""
    kept = [e for e in examples_ if e.case.word in {"it", "they"}]
    return [simulated_filter(e, p, lemma_lookup(corpus, e.case.document))
            for e, p in zip(kept, posteriors(kept, weights), strict=True)]


def out_of_fold_decisions(corpus: ParsedCorpus, train: Sequence[Example], l2: float, anaphoricity_l2: float
                          ) -> list[FilterDecision]:
    """Decisions on the train split by models that did not see the document (5 folds by document). With dev's,
    they are what the calibration is fitted on: dev alone holds too few kept items per gender (ECE on test was
    0.08-0.13 with dev only)."""
    names = sorted({e.case.document for e in train})
    fold = {name: number % CALIBRATION_FOLDS for number, name in enumerate(names)}
    found: list[FilterDecision] = []
    for k in range(CALIBRATION_FOLDS):
        inside = [e for e in train if fold[e.case.document] != k]
        held = [e for e in train if fold[e.case.document] == k]
        ranker = fit_ranker(inside, l2)
        weights = LearnedWeights(ranker, fit_anaphoricity(inside, ranker, anaphoricity_l2), {}, VERSION)
        found += filter_decisions(corpus, held, weights)
    return found


def fit_calibration(decisions: Sequence[FilterDecision]) -> tuple[float, float]:
    """Platt scaling of the raw posterior of kept items against whether their antecedent is right."""
    kept = [d for d in decisions if d.kept]
    raw = np.clip(np.asarray([d.raw for d in kept]), 1e-6, 1 - 1e-6)
    x = np.stack([np.log(raw / (1 - raw)), np.ones(len(kept))], axis=1)
    y = np.asarray([d.right for d in kept], dtype=np.float64)
    w = _fit(_logistic_loss(x, y, 0.0), 2)
    return float(w[0]), float(w[1])


def train_kind(kind: str, train_corpus: ParsedCorpus, dev_corpus: ParsedCorpus,
               extra: ExtraFeatures | None = None) -> dict[str, object]:
    words = TRAINING_WORDS[kind]
    train = examples(train_corpus, words, extra)
    dev = [e for e in examples(dev_corpus, words, extra) if e.case.word in {"it", "they"}]
    scored = [(ranker_top1(dev, fit_ranker(train, l2)), -l2, l2) for l2 in L2_GRID]
    l2 = max(scored)[2]
    ranker = fit_ranker(train, l2)
    by_loss = [(anaphoricity_log_loss(dev, ranker, fit_anaphoricity(train, ranker, a)), a)
               for a in ANAPHORICITY_L2_GRID]
    anaphoricity_l2 = min(by_loss)[1]
    anaphoricity = fit_anaphoricity(train, ranker, anaphoricity_l2)
    uncalibrated = LearnedWeights(ranker, anaphoricity, {}, VERSION)
    decisions = filter_decisions(dev_corpus, dev, uncalibrated)
    decisions += out_of_fold_decisions(train_corpus, train, l2, anaphoricity_l2)
    calibration = {gender: fit_calibration([d for d in decisions if d.gender == gender]) for gender in GENDERS}
    return {
        "ranker": ranker.tolist(),
        "anaphoricity": anaphoricity.tolist(),
        "calibration": {g: [round(a, 6), round(b, 6)] for g, (a, b) in calibration.items()},
        "l2": l2,
        "anaphoricity_l2": anaphoricity_l2,
        "dev_anaphoricity_log_loss_by_l2": {str(a): round(v, 4) for v, a in by_loss},
        "train_pronouns": len(train),
        "dev_top1_by_l2": {str(g): round(t, 4) for t, _, g in scored},
    }


def train_all(data: Path, out: Path) -> dict[str, object]:
    train_corpus = parse_corpus(data, frozenset({"train"}), PERMISSIVE_GENRES)
    dev_corpus = parse_corpus(data, frozenset({"dev"}))
    weights = {"version": VERSION, "max_distance": MAX_DISTANCE,
               "trained_on": {"split": "train", "genres": sorted(PERMISSIVE_GENRES),
                              "documents": len(train_corpus.documents)}}
    for kind in TRAINING_WORDS:
        weights[kind] = train_kind(kind, train_corpus, dev_corpus)
    from builders.core.atomic import write_text

    write_text(out / "weights.json", json.dumps(weights, indent=1, sort_keys=True) + "\n")
    return weights


def main() -> None:
    parser = argparse.ArgumentParser(description="Train the learned coreference resolver on OntoGUM")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="ontogum.jsonl")
    parser.add_argument("--out", type=Path, default=None, help="folder for weights.json (default: bundled)")
    args = parser.parse_args()
    weights = train_all(args.data, args.out or model_dir())
    for kind in TRAINING_WORDS:
        part = weights[kind]
        assert isinstance(part, dict)
        print(f"{kind}: l2 {part['l2']}, anaphoricity l2 {part['anaphoricity_l2']}, "
              f"dev top-1 by l2 {part['dev_top1_by_l2']}, "
              f"calibration {part['calibration']}")


if __name__ == "__main__":
    main()

