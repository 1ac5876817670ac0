"""A bidirectional (gap) n-gram model: how likely is word w between a left word a and a right word b?

    P(w | a, b) = λ · c(a w b) / c(a • b) + (1 − λ) · P_chain(w | a, b)        if c(a • b) > 0
                = P_chain(w | a, b)                                          otherwise

    P_chain(w | a, b) = P(w | a) · P(b | w) / Σ_v P(v | a) · P(b | v)      (maximum-likelihood bigrams)

c(a w b) counts the trigram, c(a • b) every trigram with a in first and b in third place. The chain term is the
posterior of the middle word of a bigram Markov chain that goes a -> w -> b; the sum runs over all words seen
after a, so both terms are proper distributions over the vocabulary and P(w | a, b) is one as well. Tokens are
lowercased; sentences are padded with <s> and </s>.
"""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from collections.abc import Iterable

from builders.variations.text import tokenize

BOS, EOS = "<s>", "</s>"


class BidirectionalNgram:
    def __init__(self, gap_weight: float = 0.5) -> None:
        self.gap_weight = gap_weight
        self.successors: dict[str, Counter[str]] = defaultdict(Counter)
        self.left_totals: Counter[str] = Counter()
        self.gap: Counter[tuple[str, str, str]] = Counter()
        self.gap_totals: Counter[tuple[str, str]] = Counter()
        self._normalisers: dict[tuple[str, str], float] = {}
        self.sentences = 0

    @staticmethod
    def words(text: str) -> list[str]:
        return [BOS, *(t.lower for t in tokenize(text)), EOS]

    def add(self, sentences: Iterable[str]) -> BidirectionalNgram:
        for sentence in sentences:
            if not sentence.strip():
                continue
            self.sentences += 1
            words = self.words(sentence)
            for left, right in itertools.pairwise(words):
                self.successors[left][right] += 1
                self.left_totals[left] += 1
            for left, middle, right in zip(words, words[1:], words[2:], strict=False):
                self.gap[(left, middle, right)] += 1
                self.gap_totals[(left, right)] += 1
        self._normalisers.clear()
        return self

    def count(self, left: str, right: str) -> int:
        """c(left right), without adding keys to the tables (lookups must not change the model)."""
        following = self.successors.get(left)
        return following.get(right, 0) if following else 0

    def bigram(self, left: str, right: str) -> float:
        total = self.left_totals.get(left, 0)
        return self.count(left, right) / total if total else 0.0

    def _chain_normaliser(self, left: str, right: str) -> float:
        key = (left, right)
        if key not in self._normalisers:
            self._normalisers[key] = sum(
                count / self.left_totals[left] * self.bigram(middle, right)
                for middle, count in self.successors.get(left, Counter()).items()
            )
        return self._normalisers[key]

    def probability(self, word: str, left: str, right: str) -> float:
        """P(word | left, right) as in the module docstring (all arguments lowercase tokens)."""
        numerator = self.bigram(left, word) * self.bigram(word, right)
        chain = numerator / self._chain_normaliser(left, right) if numerator else 0.0
        gap_total = self.gap_totals.get((left, right), 0)
        if not gap_total:
            return chain
        observed = self.gap.get((left, word, right), 0) / gap_total
        return self.gap_weight * observed + (1 - self.gap_weight) * chain
