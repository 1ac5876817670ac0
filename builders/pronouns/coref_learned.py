"""``coref: learned``: a resolver for *it* and *they* learned from OntoGUM's gold coreference.

One straight line per pronoun: candidates (the parser's nouns in reach, ``coref.HeuristicDocument``) -> features
(below) -> two logistic models -> a posterior. The **mention ranker** scores each candidate; a softmax over the
candidates gives P(candidate | the antecedent is among them). The **anaphoricity model** gives P(the pronoun has a
nominal antecedent in reach). ``extract`` combines both with the target side: the confidence of an item is the
ranker's mass on the chosen antecedent among the candidates whose target noun agrees with the target pronoun, times
the anaphoricity, mapped through a calibration fitted on the dev split and on the training documents scored out of
fold (``calibrated_confidence``). The weights are trained by ``builders.pronouns.coref_train`` (``make models``)
and bundled in ``resources/models/coref-learned/``; nothing is downloaded.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from builders.pronouns.coref import (
    OBJECT_DEPS,
    PLURAL_SOURCE_PRONOUNS,
    SUBJECT_DEPS,
    Candidate,
    HeuristicDocument,
    _clause_depth,
    _role_rank,
)
from builders.pronouns.english import pleonastic_reason

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

MODEL_NAME = "coref-learned"
DEFINITE = frozenset({"the"})
INDEFINITE = frozenset({"a", "an", "some", "any", "another"})
DEMONSTRATIVE = frozenset({"this", "that", "these", "those"})
COPULAS = frozenset({"be"})
CLAUSAL_CHILDREN = frozenset({"ccomp", "xcomp", "csubj", "advcl"})
LEMMA_COUNTS_KEY = "mtprobes_coref_noun_lemmas"


def _role(token: Token) -> int:
    """0 subject, 1 object, 2 object of a preposition, 3 other."""
    if token.dep_ in SUBJECT_DEPS:
        return 0
    if token.dep_ in OBJECT_DEPS:
        return 1
    return 2 if token.dep_ == "pobj" else 3


def _determiner(noun: Token) -> int:
    """0 definite, 1 indefinite, 2 demonstrative, 3 possessive, 4 bare."""
    for child in noun.children:
        word = child.lower_
        if child.dep_ == "poss":
            return 3
        if child.dep_ == "det":
            return 0 if word in DEFINITE else 1 if word in INDEFINITE else 2 if word in DEMONSTRATIVE else 4
    return 4


def _one_hot(index: int, size: int) -> list[float]:
    return [1.0 if i == index else 0.0 for i in range(size)]


def _verb(token: Token) -> Token:
    node = token.head
    while node.pos_ not in {"VERB", "AUX"} and node.head.i != node.i:
        node = node.head
    return node


def _cosine(a: np.ndarray, b: np.ndarray) -> float:
    norm = float(np.linalg.norm(a) * np.linalg.norm(b))
    return float(a @ b) / norm if norm else 0.0


def _vector(token: Token) -> np.ndarray:
    tensor = token.doc.tensor
    return tensor[token.i] if tensor is not None and len(tensor) > token.i else np.zeros(1)


def _mentions_of(docs: Sequence[Doc | None], lemma: str, first: int, last: int) -> int:
    """How often the lemma is a noun in these segments (salience: a repeated referent is resumed more)."""
    return sum(_lemma_counts(doc).get(lemma, 0) for doc in docs[max(0, first) : last + 1] if doc is not None)


def candidate_features(docs: Sequence[Doc | None], sentence: int, pronoun: Token, candidate: Candidate,
                       rank: int, count: int, max_distance: int) -> list[float]:
    """What the ranker sees of one (pronoun, candidate) pair."""
    doc = docs[candidate.sentence]
    assert doc is not None
    noun = doc[candidate.head]
    distance = sentence - candidate.sentence
    tokens_between = (pronoun.i - noun.i) if distance == 0 else (
        len(doc) - noun.i + pronoun.i + sum(len(d) for d in docs[candidate.sentence + 1 : sentence] if d is not None))
    pronoun_role, noun_role = _role(pronoun), _role(noun)
    lemma = noun.lemma_.lower()
    pronoun_verb, noun_verb = _verb(pronoun), _verb(noun)
    return [
        *_one_hot(min(distance, 3), 4),
        math.log1p(max(tokens_between, 0)) / 4,
        *_one_hot(noun_role, 4),
        1.0 if noun_role == pronoun_role else 0.0,
        min(_clause_depth(noun), 3) / 3,
        *_one_hot(_determiner(noun), 5),
        math.log1p(_mentions_of(docs, lemma, sentence - max_distance, sentence)) / 2,
        1.0 if rank == 0 else 0.0,
        rank / max(count, 1),
        math.log1p(count) / 2,
        1.0 if noun.tag_ == "NNS" else 0.0,
        1.0 if any(c.dep_ in {"compound", "amod"} for c in noun.children) else 0.0,
        noun.i / max(len(doc), 1),
        1.0 if pronoun_verb.lemma_ == noun_verb.lemma_ and distance > 0 else 0.0,
        1.0 if noun_verb.lemma_ in COPULAS else 0.0,
        1.0 if noun.dep_ == "pobj" and noun.head.lower_ == "of" else 0.0,
        1.0 if _role_rank(noun) == 0 and distance > 0 else 0.0,
        _cosine(_vector(noun), _vector(pronoun)),
        _cosine(_vector(noun), _vector(pronoun_verb)),
        *salience_features(docs, sentence, pronoun, noun, distance),
    ]


def _earlier_count(docs: Sequence[Doc | None], sentence: int, lemma: str) -> int:
    """How often the lemma was a noun anywhere before the pronoun's segment (the document's topic)."""
    return sum(_lemma_counts(doc).get(lemma, 0) for doc in docs[:sentence] if doc is not None)


def _lemma_counts(doc: Doc) -> dict[str, int]:
    """The segment's noun lemmas with their counts, kept in the Doc's user data: every candidate of every
    pronoun after it asks again (counting anew each time made the resolver three times slower)."""
    counts: dict[str, int] | None = doc.user_data.get(LEMMA_COUNTS_KEY)
    if counts is None:
        counts = {}
        for token in doc:
            if token.pos_ == "NOUN":
                key = token.lemma_.lower()
                counts[key] = counts.get(key, 0) + 1
        doc.user_data[LEMMA_COUNTS_KEY] = counts
    return counts


def salience_features(docs: Sequence[Doc | None], sentence: int, pronoun: Token, noun: Token,
                      distance: int) -> list[float]:
    """Salience and parallelism beyond the local window: the lemma's count over the whole earlier document, a
    main-clause subject, the same dependency label as the pronoun, the phrase's length, an NP-embedded noun
    ("the lid of the box"), a conjunct, the lemma named again after the pronoun ("It is a big box")."""
    lemma = noun.lemma_.lower()
    after = [t for t in pronoun.doc[pronoun.i + 1 :] if t.pos_ == "NOUN"]
    return [
        math.log1p(_earlier_count(docs, sentence, lemma)) / 2,
        1.0 if noun.dep_ in SUBJECT_DEPS and noun.head.dep_ == "ROOT" else 0.0,
        1.0 if noun.dep_ == pronoun.dep_ else 0.0,
        math.log1p(sum(1 for _ in noun.subtree)) / 3,
        1.0 if noun.dep_ == "pobj" and noun.head.head.pos_ in {"NOUN", "PROPN"} else 0.0,
        1.0 if noun.dep_ == "conj" else 0.0,
        1.0 if any(t.lemma_.lower() == lemma for t in after) else 0.0,
        1.0 if not any(t.pos_ in {"NOUN", "PROPN"} for t in noun.doc[: noun.i]) else 0.0,
        1.0 if distance == 0 and pronoun.dep_ == "poss" else 0.0,
    ]


def anaphoricity_features(docs: Sequence[Doc | None], sentence: int, pronoun: Token,
                          candidates: Sequence[Candidate]) -> list[float]:
    """What the anaphoricity model sees of one pronoun and its surroundings (before the ranker's view of its
    best candidate, ``ranker_view``); ``candidates`` carry their distance in place of their segment."""
    verb = _verb(pronoun)
    after = [c for c in verb.children if c.i > pronoun.i]
    distances = [0, 0, 0, 0]
    for candidate in candidates:
        distances[min(3, candidate.sentence)] += 1
    reach = [d for d in docs[max(0, sentence - 3) : sentence] if d is not None] + [pronoun.doc[: pronoun.i]]
    names = sum(1 for d in reach for t in d if t.pos_ == "PROPN")
    earlier_it = sum(1 for d in reach for t in d if t.lower_ in {"it", "its"})
    return [
        1.0 if pleonastic_reason(pronoun) else 0.0,
        *_one_hot(_role(pronoun), 4),
        1.0 if verb.lemma_ in COPULAS else 0.0,
        1.0 if any(c.dep_ in CLAUSAL_CHILDREN for c in after) else 0.0,
        1.0 if any(c.dep_ == "acomp" for c in verb.children) else 0.0,
        1.0 if pronoun.i == 0 else 0.0,
        math.log1p(len(candidates)) / 2,
        *[math.log1p(n) / 2 for n in distances],
        1.0 if pronoun.i + 1 < len(pronoun.doc) and pronoun.doc[pronoun.i + 1].lower_ in {"'s", "is", "was"} else 0.0,
        math.log1p(names) / 2,  # a named referent in reach: the antecedent may be a name, not a common noun
        math.log1p(earlier_it) / 2,  # a chain of "it" already running
    ]


# where ranker_view reads the best candidate's distance and role in candidate_features' row
DISTANCE_COLUMNS, ROLE_COLUMNS = slice(0, 4), slice(5, 9)
RANKER_VIEW_SIZE = 3 + 4 + 4


def ranker_view(rows: np.ndarray, ranker: np.ndarray) -> list[float]:
    """The ranker's best candidate as the anaphoricity model sees it: whether there is one, its score, its
    share of the mass, its distance and role (a subject one segment back is the typical antecedent)."""
    if not len(rows):
        return [0.0] * RANKER_VIEW_SIZE
    scores = np.einsum("ij,j->i", rows, ranker)
    best = int(np.argmax(scores))
    shifted = np.exp(scores - scores[best])
    return [1.0, float(scores[best]) / 5, float(1.0 / shifted.sum()),
            *rows[best, DISTANCE_COLUMNS].tolist(), *rows[best, ROLE_COLUMNS].tolist()]


@dataclass(frozen=True)
class LearnedWeights:
    ranker: np.ndarray  # one weight per candidate feature
    anaphoricity: np.ndarray  # one weight per anaphoricity feature, then the bias
    # per target gender (m, f, n): a, b with calibrated = sigmoid(a * logit(raw) + b). Per gender, because a
    # neuter target pronoun is also what a pronoun without any antecedent becomes (German "es"), so the same raw
    # posterior is right far less often for it.
    calibration: dict[str, tuple[float, float]]
    version: str


def sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def calibrated_confidence(raw: float, calibration: tuple[float, float]) -> float:
    """The raw posterior (antecedent mass x anaphoricity) mapped by the Platt scaling of ``coref_train``."""
    clipped = min(max(raw, 1e-6), 1 - 1e-6)
    a, b = calibration
    return round(sigmoid(a * math.log(clipped / (1 - clipped)) + b), 4)


def model_dir() -> Path:
    from builders.core.resources import resource_path

    return resource_path("models", MODEL_NAME)


@cache
def load_weights(pronoun: str) -> LearnedWeights:
    """The bundled weights for ``it`` (singular) or ``they`` (plural)."""
    kind = "plural" if pronoun in PLURAL_SOURCE_PRONOUNS else "singular"
    data = json.loads((model_dir() / "weights.json").read_text(encoding="utf-8"))
    part = data[kind]
    calibration = {gender: (a, b) for gender, (a, b) in part["calibration"].items()}
    return LearnedWeights(np.asarray(part["ranker"]), np.asarray(part["anaphoricity"]), calibration,
                          data["version"])


@dataclass(frozen=True)
class Posterior:
    candidates: list[Candidate]  # best first
    probabilities: list[float]  # P(candidate | the antecedent is among them), same order
    anaphoricity: float  # P(a nominal antecedent in reach)


def rank(docs: Sequence[Doc | None], sentence: int, pronoun: Token, candidates: list[Candidate],
         max_distance: int, weights: LearnedWeights) -> Posterior:
    rows = [candidate_features(docs, sentence, pronoun, c, i, len(candidates), max_distance)
            for i, c in enumerate(candidates)]
    matrix = np.asarray(rows, dtype=np.float64).reshape(len(rows), len(rows[0]) if rows else 0)
    surroundings = anaphoricity_features(docs, sentence, pronoun, relative_candidates(candidates, sentence))
    return posterior_of(matrix, surroundings, candidates, weights)


def posterior_of(matrix: np.ndarray, surroundings: Sequence[float] | np.ndarray, candidates: Sequence[Candidate],
                 weights: LearnedWeights) -> Posterior:
    """The posterior from the features ``rank`` computes (``coref_train`` scores its stored examples with it)."""
    scores = np.einsum("ij,j->i", matrix, weights.ranker) if len(matrix) else np.zeros(0)
    shifted = np.exp(scores - scores.max()) if len(scores) else scores
    probabilities = shifted / shifted.sum() if len(scores) else shifted
    learned = [Candidate(c.sentence, c.head, c.start, c.end, "learned") for c in candidates]
    order = sorted(range(len(learned)), key=lambda i: (-probabilities[i], i))
    anaphoric_x = np.asarray([*surroundings, *ranker_view(matrix, weights.ranker), 1.0])
    return Posterior([learned[i] for i in order], [float(probabilities[i]) for i in order],
                     sigmoid(float(anaphoric_x @ weights.anaphoricity)))


def relative_candidates(candidates: Sequence[Candidate], sentence: int) -> list[Candidate]:
    """Candidates with their distance in place of their segment (what the anaphoricity features count)."""
    return [Candidate(sentence - c.sentence, c.head, c.start, c.end, c.source) for c in candidates]


class LearnedDocument:
    """Candidates ordered by the learned ranker, with the posterior that ``extract`` turns into confidence."""

    def __init__(self, docs: Sequence[Doc | None]) -> None:
        self.docs = docs
        self.heuristic = HeuristicDocument(docs)

    def posterior(self, sentence: int, token: int, max_distance: int) -> Posterior:
        doc = self.docs[sentence]
        assert doc is not None
        pronoun = doc[token]
        candidates = self.heuristic.candidates(sentence, token, max_distance)
        return rank(self.docs, sentence, pronoun, candidates, max_distance, load_weights(pronoun.lower_))

    def candidates(self, sentence: int, token: int, max_distance: int) -> list[Candidate]:
        return self.posterior(sentence, token, max_distance).candidates


class LearnedBackend:
    name = "learned"

    def __init__(self) -> None:
        self.version = load_weights("it").version

    def resolve(self, docs: Sequence[Doc | None]) -> LearnedDocument:
        return LearnedDocument(docs)
