"""INS: insert a meaning-light word where a bidirectional n-gram model finds it likely, on both sides.

For each candidate pair (w_en, w_de) the gaps where P(w | a, b) reaches the threshold are found on each side.
Without an aligner there must be exactly one such gap on each side (the unique-occurrence rule of DEL, applied to
positions), the English gap must fit the word's slot (spaCy tags of the neighbours: "very" before an adjective,
"also" before a main verb or after an auxiliary), and the two gaps must be in the same sentence of the line (same
number of sentences on both sides) at about the same relative place in it (``ins_max_shift``). With an
aligner the best English gap is taken and the German gap must touch a German word linked to a or b. No insertion
at a sentence start (German verb-second order), none where either word is already in the sentence.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from builders.variations.ngram import EOS, BidirectionalNgram
from builders.variations.strategies.base import (
    Drop,
    EnglishToken,
    Outcome,
    SentencePair,
    StrategyResources,
    Variation,
    aligned_de_indices,
)
from builders.variations.strategies.del_ import DE_CLAUSE_START
from builders.variations.text import Edit, Token, locate, repair_indefinite_article, sentence_starts


@dataclass(frozen=True)
class Gap:
    index: int  # the inserted word becomes token ``index``; tokens[index - 1] is a, tokens[index] is b
    probability: float


SENTENCE_END = frozenset({".", "!", "?", ":", ";", "…"})


def passing_gaps(model: BidirectionalNgram, tokens: Sequence[Token], word: str, threshold: float,
                 min_count: int = 1, forbidden_left: frozenset[str] = SENTENCE_END) -> list[Gap]:
    """Gaps (never at a sentence start) where P(word | a, b) >= threshold and both bigrams a w, w b were seen
    at least ``min_count`` times (the chain estimate is unreliable on a bigram seen once)."""
    words = [t.lower for t in tokens]
    gaps = []
    for index in range(1, len(words) + 1):
        left = words[index - 1]
        right = words[index] if index < len(words) else EOS
        if tokens[index - 1].text in forbidden_left:
            continue
        if model.count(left, word) < min_count or model.count(word, right) < min_count:
            continue
        probability = model.probability(word, left, right)
        if probability >= threshold:
            gaps.append(Gap(index, probability))
    return gaps


# German: never at a clause start (verb-second order), never after a degree word ('so sehr gut', 'zu sehr').
DE_FORBIDDEN_LEFT = frozenset(DE_CLAUSE_START) | SENTENCE_END | frozenset(
    {"so", "zu", "sehr", "ganz", "recht", "ziemlich", "besonders", "allzu", "Sehr", "So", "Zu"})

SLOT_CHECKS: dict[str, Callable[[EnglishToken | None, EnglishToken | None], bool]] = {
    # right before a plain adjective or adverb: "very good", not "very better"
    "degree": lambda left, right: right is not None and right.tag in ("JJ", "RB"),
    # before a main verb (not inside a noun phrase), or after an auxiliary/copula: "also saw", "is also big"
    "verbal": lambda left, right: right is not None and left is not None and (
        (right.pos == "VERB" and left.pos not in ("DET", "ADP", "ADJ"))
        or (left.pos == "AUX" and right.pos not in ("PUNCT", "PART", "CCONJ", "SCONJ"))),
}


def insertion_at(text: str, tokens: Sequence[Token], gap: int, word: str) -> Edit:
    """Insert ``word`` between tokens[gap-1] and tokens[gap] with one space on each side where words meet;
    between two all-capital words the inserted word is written in capitals too."""
    left = tokens[gap - 1]
    right_text = tokens[gap].text if gap < len(tokens) else ""
    if len(left.text) > 1 and left.text.isupper() and (right_text.isupper() or not right_text.isalpha()):
        word = word.upper()
    if gap < len(tokens) and tokens[gap].start > left.end:
        return Edit(tokens[gap].start, tokens[gap].start, "", word + " ")
    return Edit(left.end, left.end, "", " " + word)


class InsertWord:
    type_name = "INS"

    def generate(self, pair: SentencePair, resources: StrategyResources) -> list[Outcome]:
        if resources.ngram_en is None or resources.ngram_de is None:
            return []
        config = resources.config
        en_tokens = [Token(t.text, t.start, t.end) for t in pair.en_tokens]
        en_words = {t.lower for t in en_tokens}
        de_words = {t.lower for t in pair.de_tokens}
        outcomes: list[Outcome] = []
        for entry in resources.lexicons.insertions.values():
            en_gaps = [g for g in passing_gaps(resources.ngram_en, en_tokens, entry.english, config.ins_threshold,
                                               config.ins_min_count) if self._fits_slot(pair, g.index, entry.slot)]
            if not en_gaps:
                continue  # not a candidate here: nothing counted
            if entry.english in en_words or set(entry.german) & de_words:
                outcomes.append(Drop("ins_word_present"))
                continue
            if pair.alignment is None and len(en_gaps) != 1:
                outcomes.append(Drop("ins_en_position_ambiguous"))
                continue
            best = max(en_gaps, key=lambda g: (g.probability, -g.index))
            de_gap = self._german_gap(pair, resources, en_tokens, best.index, entry.german[0])
            if isinstance(de_gap, Drop):
                outcomes.append(de_gap)
                continue
            en_edit = repair_indefinite_article(pair.en, insertion_at(pair.en, en_tokens, best.index, entry.english))
            de_edit = insertion_at(pair.de, pair.de_tokens, de_gap, entry.german[0])
            position = self._english_position(pair, en_tokens, best.index)
            outcomes.append(Variation(self.type_name, (en_edit,), (de_edit,), "", "", entry.english,
                                      entry.german[0], position=position,
                                      detail=f"p_en={best.probability:.4f}"))
        return outcomes

    @staticmethod
    def _german_gap(pair: SentencePair, resources: StrategyResources, en_tokens: list[Token], en_gap: int,
                    word: str) -> int | Drop:
        config = resources.config
        assert resources.ngram_de is not None
        gaps = passing_gaps(resources.ngram_de, pair.de_tokens, word, config.ins_threshold, config.ins_min_count,
                            forbidden_left=DE_FORBIDDEN_LEFT)
        if not gaps:
            return Drop("ins_de_below_threshold")
        if len(sentence_starts(pair.en)) != len(sentence_starts(pair.de)):
            return Drop("ins_sentence_count_differs")
        en_sentence, en_position = locate(pair.en, en_tokens, en_gap)
        gaps = [g for g in gaps if _close(locate(pair.de, pair.de_tokens, g.index), en_sentence, en_position,
                                          config.ins_max_shift)]
        if not gaps:
            return Drop("ins_de_position_too_far")
        if pair.alignment is not None:
            neighbours = [InsertWord._english_position(pair, en_tokens, i) for i in (en_gap - 1, en_gap)]
            linked = {d for n in neighbours if n >= 0 for d in aligned_de_indices(pair, n)}
            gaps = [g for g in gaps if g.index - 1 in linked or g.index in linked]
        if len(gaps) != 1:
            return Drop("ins_de_position_ambiguous" if gaps else "ins_de_not_aligned")
        return gaps[0].index

    @staticmethod
    def _english_position(pair: SentencePair, en_tokens: list[Token], index: int) -> int:
        """English gaps are indexed by spaCy token, so the position is the gap index itself."""
        return index

    @staticmethod
    def _fits_slot(pair: SentencePair, gap: int, slot: str) -> bool:
        left = pair.en_tokens[gap - 1] if gap > 0 else None
        right = pair.en_tokens[gap] if gap < len(pair.en_tokens) else None
        return SLOT_CHECKS[slot](left, right)


def _close(located: tuple[int, float], sentence: int, position: float, max_shift: float) -> bool:
    return located[0] == sentence and abs(located[1] - position) <= max_shift


__all__ = ["Gap", "InsertWord", "insertion_at", "passing_gaps"]
