"""OntoGUM gold coreference as training and test examples for the learned resolver, and the simulated filter.

``../shared/data/coref-gum/ontogum.jsonl`` (one document a line: gold tokens per sentence, PTB tags, clusters of
``[sentence, start, end)`` mentions). Each sentence is parsed by the builder's English pipeline from its gold
tokens, one Doc per sentence as the builder parses one per segment. A pronoun is **anaphoric in reach** when its
gold cluster has an earlier mention, within ``max_distance`` sentences, that contains a common noun; a candidate
is **right** when its head noun lies inside an earlier mention of that cluster.

The simulated ContraPro filter (issue 27) stands in for the German side: every noun lemma gets a pseudo-random
gender from a fixed hash (m 35 %, f 40 %, n 25 %); the pronoun takes its gold antecedent's gender, or n when it has
none (German says *es* there); a resolver keeps the best candidate of that gender.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

from builders.pronouns.coref import Candidate

COMMON_NOUN_TAGS = frozenset({"NN", "NNS"})
# GUM genres whose texts carry CC BY or CC BY-SA (GUM's LICENSE.txt, as listed in ../shared/data/README.md):
# the bundled weights are trained on these only; the NC genres are used for tuning and testing, never shipped.
PERMISSIVE_GENRES = frozenset({"academic", "court", "interview", "news", "bio", "voyage"})


@dataclass(frozen=True)
class GoldDocument:
    name: str
    split: str
    genre: str
    sentences: list[list[str]]
    clusters: list[list[tuple[int, int, int]]]


def read_ontogum(path: Path) -> list[GoldDocument]:
    documents = []
    for line in path.read_text(encoding="utf-8").splitlines():
        raw = json.loads(line)
        clusters = [[(int(s), int(a), int(b)) for s, a, b in cluster] for cluster in raw["clusters"]]
        documents.append(GoldDocument(raw["doc"], raw["split"], raw["genre"], raw["sentences"], clusters))
    return documents


def parse_document(nlp: Any, document: GoldDocument) -> list[Doc]:
    """One spaCy Doc per gold sentence, over the gold tokens (no re-tokenisation)."""
    from spacy.tokens import Doc

    docs = [Doc(nlp.vocab, words=words) for words in document.sentences]
    for _, component in nlp.pipeline:
        docs = [component(doc) for doc in docs]
    return docs


def pseudo_gender(lemma: str) -> str:
    """m 35 %, f 40 %, n 25 %, fixed by the lemma's hash."""
    bucket = int(hashlib.sha256(lemma.lower().encode()).hexdigest()[:8], 16) % 100
    return "m" if bucket < 35 else "f" if bucket < 75 else "n"


@dataclass(frozen=True)
class PronounCase:
    """One gold pronoun with what the resolver and the simulated filter need."""

    document: str
    sentence: int
    token: int
    word: str  # lower case
    anaphoric: bool  # a common-noun mention of its cluster in reach
    right_heads: frozenset[tuple[int, int]]  # (sentence, token) of tokens inside earlier mentions in reach
    antecedent_lemma: str  # the head lemma of the nearest earlier common-noun mention in reach ("" if none)


def _cluster_of(clusters: Sequence[Sequence[tuple[int, int, int]]], sentence: int, token: int) -> int:
    for number, cluster in enumerate(clusters):
        if any(s == sentence and a == token and b == token + 1 for s, a, b in cluster):
            return number
    return -1


def _mention_head(doc: Doc, start: int, end: int) -> Token | None:
    root = doc[start:end].root
    if root.tag_ in COMMON_NOUN_TAGS:
        return root
    nouns = [t for t in doc[start:end] if t.tag_ in COMMON_NOUN_TAGS]
    return nouns[-1] if nouns else None


def pronoun_cases(document: GoldDocument, docs: Sequence[Doc], words: frozenset[str],
                  max_distance: int) -> Iterator[PronounCase]:
    for sentence, doc in enumerate(docs):
        for token in doc:
            if token.lower_ not in words:
                continue
            number = _cluster_of(document.clusters, sentence, token.i)
            earlier = [] if number < 0 else [
                (s, a, b) for s, a, b in document.clusters[number]
                if 0 <= sentence - s <= max_distance and (s < sentence or b <= token.i)]
            heads = [(s, _mention_head(docs[s], a, b)) for s, a, b in earlier]
            nominal = [(s, head) for s, head in heads if head is not None]
            nearest = max(nominal, key=lambda item: (item[0], item[1].i)) if nominal else None
            yield PronounCase(
                document.name, sentence, token.i, token.lower_, bool(nominal),
                frozenset((s, i) for s, a, b in earlier for i in range(a, b)),
                nearest[1].lemma_.lower() if nearest else "",
            )


def is_right(case: PronounCase, candidate: Candidate) -> bool:
    return (candidate.sentence, candidate.head) in case.right_heads


@dataclass(frozen=True)
class ParsedCorpus:
    documents: list[GoldDocument]
    docs: dict[str, list[Doc]]


def parse_corpus(path: Path, splits: frozenset[str], genres: frozenset[str] | None = None) -> ParsedCorpus:
    from builders.pronouns.english import load_pipeline

    nlp = load_pipeline("").nlp
    documents = [d for d in read_ontogum(path) if d.split in splits and (genres is None or d.genre in genres)]
    return ParsedCorpus(documents, {d.name: parse_document(nlp, d) for d in documents})
