"""INS: insert a meaning-light word where a bidirectional n-gram model finds it likely, on both sides.

For each candidate pair (w_en, w_de) the English gaps where P(w | a, b) reaches the threshold and that fit the
word's slot (spaCy tags of the neighbours: "very" before a gradable adjective or adverb, "also" right after an
auxiliary, modal or copula) are tried, most likely first. The German word goes into the German gap that
corresponds to the English one:

- with an aligner (the default), the gap between the German words linked to the English neighbours a and b, which
  must be adjacent and in the same order (is|big -> ist|groß, not a subordinate clause's groß ... ist); for a
  degree slot the German word after the gap is lowercase (an adjective or adverb, not a noun);
- without one, the only German gap that passes the German n-gram test, in the same sentence of the line at about
  the same relative place (``ins_max_shift``).

Never next to a conjunction, comparison or correlative word on either side (sondern auch, als auch, sowohl, wie,
than, as ...), never at a clause start or after a German degree word (so sehr gut), never where either word is
already in the line, never inside quoted material on either side (a saying, slogan or title in quotation marks is
cited as it was said: "A bad game is bad forever" -> "A very bad game ..."), and "also"/"auch" never in a
contrastive context ("not X; it is Y": a negation or "but" in its sentence or the one before), where it would
contradict the sentence. Every rejected candidate is counted.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from builders.pronouns.german import word_set
from builders.variations.lexicons import TranslationEntry
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
from builders.variations.text import (
    Edit,
    Token,
    inside_quotation,
    locate,
    repair_indefinite_article,
    sentence_starts,
)


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
# Conjunctions, comparison and correlative words, negation and focus particles: an inserted word next to one
# of them joins the construction (sondern auch, als auch, weniger als auch, sowohl ... als auch, nicht nur).
DE_FORBIDDEN_NEIGHBOURS = frozenset({
    "und", "oder", "aber", "sondern", "denn", "doch", "als", "wie", "sowohl", "weder", "noch", "entweder",
    "sowie", "bzw", "beziehungsweise", "dass", "ob", "weil", "wenn", "falls", "je", "desto", "umso", "nicht",
    "nur", "kein", "keine", "mehr", "weniger", "eher", "lieber", "selbst", "sogar", "schon", "erst", "zwar",
})
EN_FORBIDDEN_NEIGHBOURS = frozenset({
    "and", "or", "but", "nor", "than", "as", "both", "either", "neither", "whether", "like", "not", "n't", "only",
    "even", "just", "more", "less", "rather", "so", "too", "also", "very",
})
# Words whose sense contradicts a contrast ("It is not a car; it is also a truck"), and what marks one.
CONTRAST_SENSITIVE = frozenset({"also"})
EN_CONTRAST_MARKERS = frozenset({"not", "n't", "never", "no", "nor", "neither", "but", "instead", "rather",
                                 "however", "nobody", "nothing", "none", "without"})
DE_CONTRAST_MARKERS = frozenset({"nicht", "nie", "niemals", "kein", "keine", "keinen", "keinem", "keiner", "keines",
                                 "sondern", "aber", "statt", "stattdessen", "jedoch", "ohne", "nichts"})
# Adverbs "very" modifies naturally (besides -ly adverbs): "very well", not "very not" or "very there".
# ("much" is left out: "a much smaller" -> "a very much smaller" would be "ein sehr kleinerer" in German.)
GRADABLE_ADVERBS = frozenset({"well", "often", "soon", "far", "long", "late", "early", "hard", "fast", "closely",
                              "quickly"})
# Adjectives tagged JJ that do not take "very" in the sense they usually have: "a different city" (another one)
# is not "a very different city", and German "sehr andere" is no sentence at all.
EN_NOT_GRADABLE = frozenset({
    "different", "other", "same", "only", "main", "last", "first", "next", "whole", "entire", "such", "certain",
    "particular", "own", "former", "latter", "total", "various", "several", "few", "many", "much", "more", "most",
    "less", "least", "further", "additional", "previous", "current", "recent", "daily", "annual", "national",
    "international", "local", "public", "federal", "social", "political", "economic", "human", "real", "true",
    "little",  # "a little bit" is a quantity: "a very little bit" / "ein sehr bisschen" are wrong
    "full", "complete", "possible", "available", "necessary", "individual", "overall", "final",
})
DE_NOT_GRADABLE_PREFIXES = ("ander", "gleich", "selb", "einzig", "ganz", "viel", "mehr", "weniger", "wenig",
                            "bisschen", "echt", "wahr", "richtig")
# A German superlative (die wichtigsten Dinge) takes no "sehr" although its English counterpart may be positive;
# a long word in -ste(n/r/s/m) is taken as one (a few positives like robusten are lost, nothing wrong is made).
DE_SUPERLATIVE = re.compile(r"^(?:best|meist)\w*$|^\w{3,}ste[nrsm]?$|^\w+ßte[nrsm]?$")
# The verbal slot follows an English auxiliary, modal or copula, so its German counterpart must be one too: a
# finite form of sein, haben, werden, a modal verb or tun (ist auch groß, hat auch gesehen, kann auch schwimmen).
# Anything else means the aligner linked the auxiliary to another word (um, davon, a clause-final participle).
DE_AUXILIARY_FORMS = word_set("""
    bin bist ist sind seid war warst waren wart wäre wärst wären wärt sei seist seien
    habe hast hat haben habt hatte hattest hatten hattet hätte hättest hätten hättet
    werde wirst wird werden werdet wurde wurdest wurden wurdet würde würdest würden würdet
    kann kannst können könnt konnte konntest konnten konntet könnte könntest könnten könntet
    muss musst müssen müsst musste musstest mussten musstet müsste müsstest müssten müsstet
    soll sollst sollen sollt sollte solltest sollten solltet
    darf darfst dürfen dürft durfte durftest durften durftet dürfte dürftest dürften dürftet
    will willst wollen wollt wollte wolltest wollten wolltet
    mag magst mögen mögt mochte mochten möchte möchtest möchten möchtet tut tun tat taten
""")
# Unstressed pronouns stand before such adverbs in German ("konnte es auch sehen", not "konnte auch es sehen").
DE_PRONOUNS = word_set("ich du er sie es wir ihr man mich dich ihn uns euch sich mir dir ihm ihnen")


# -ly adverbs that focus, hedge or comment rather than describe a manner: "very simply told" is not "simply told".
EN_NOT_GRADABLE_ADVERBS = frozenset({
    "simply", "merely", "only", "nearly", "really", "actually", "likely", "probably", "certainly", "largely",
    "mostly", "mainly", "partly", "fully", "entirely", "exactly", "especially", "particularly", "recently",
    "finally", "currently", "approximately", "roughly", "rarely", "hardly", "barely", "apparently", "supposedly",
    "allegedly", "literally", "basically", "essentially", "definitely", "absolutely", "completely", "totally",
    "truly", "usually", "generally", "normally", "actively", "directly", "early", "newly", "previously",
    "initially", "originally", "eventually", "immediately", "obviously", "clearly", "possibly", "surely",
})


def _degree_target(token: EnglishToken) -> bool:
    if token.lower in EN_NOT_GRADABLE or token.lower in EN_NOT_GRADABLE_ADVERBS:
        return False
    return token.tag == "JJ" or (token.tag == "RB" and (token.lower.endswith("ly") or token.lower in GRADABLE_ADVERBS))


SLOT_CHECKS: dict[str, Callable[[EnglishToken | None, EnglishToken | None], bool]] = {
    # right before a plain (gradable) adjective or adverb: "very good", not "very better" or "very not"
    "degree": lambda left, right: right is not None and _degree_target(right),
    # right after an auxiliary, modal or copula: "is also big", "has also seen", "can also swim". Before a main
    # verb ("He also saw") German needs another order (Er sah auch), which a gap-for-gap insertion cannot give.
    # Not before a second auxiliary ("has also been", "will also be"): its German counterpart closes the clause
    # (ausgeschöpft worden), so the word would land at the clause end.
    "verbal": lambda left, right: right is not None and left is not None and left.pos == "AUX" and right.pos not in (
        "PUNCT", "PART", "CCONJ", "SCONJ", "AUX"),
}


SLOT_CHECKS_DE: dict[str, Callable[[Token, Token], bool]] = {
    # before a lowercase (adjective or adverb, not noun), positive, gradable German word
    "degree": lambda left, right: right.text[0].islower() and not right.lower.startswith(DE_NOT_GRADABLE_PREFIXES)
    and not DE_SUPERLATIVE.search(right.lower),
    # right after a German auxiliary, modal or copula, and not before an unstressed pronoun
    "verbal": lambda left, right: left.lower in DE_AUXILIARY_FORMS and right.lower not in DE_PRONOUNS,
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
            if entry.english in CONTRAST_SENSITIVE and not config.ins_additive:
                # Additive 'also' presupposes another thing with the property; whether the context denies that
                # (a contrast without a marker word, a correcting 'Well, ...') is beyond these rules (issue 16,
                # blind check 2: both INS failures), so it is off unless asked for.
                outcomes.append(Drop("ins_additive_off"))
                continue
            if entry.english in en_words or set(entry.german) & de_words:
                outcomes.append(Drop("ins_word_present"))
                continue
            if pair.alignment is None and len(en_gaps) != 1:
                outcomes.append(Drop("ins_en_position_ambiguous"))
                continue
            outcomes.append(self._insert(pair, resources, en_tokens, entry, en_gaps))
        return outcomes

    def _insert(self, pair: SentencePair, resources: StrategyResources, en_tokens: list[Token],
                entry: TranslationEntry, en_gaps: list[Gap]) -> Outcome:
        """The most likely English gap that has a matching German gap, or the reason the most likely one has none."""
        first_reason: Drop | None = None
        for gap in sorted(en_gaps, key=lambda g: (-g.probability, g.index)):
            de_gap = self._german_gap(pair, resources, en_tokens, gap.index, entry)
            if isinstance(de_gap, Drop):
                first_reason = first_reason or de_gap
                continue
            en_edit = repair_indefinite_article(pair.en, insertion_at(pair.en, en_tokens, gap.index, entry.english))
            de_edit = insertion_at(pair.de, pair.de_tokens, de_gap, entry.german[0])
            return Variation(self.type_name, (en_edit,), (de_edit,), "", "", entry.english, entry.german[0],
                             position=gap.index, detail=f"p_en={gap.probability:.4f}")
        assert first_reason is not None
        return first_reason

    @staticmethod
    def _german_gap(pair: SentencePair, resources: StrategyResources, en_tokens: list[Token], en_gap: int,
                    entry: TranslationEntry) -> int | Drop:
        if _en_neighbours(pair, en_gap) & EN_FORBIDDEN_NEIGHBOURS:
            return Drop("ins_en_next_to_conjunction")
        if inside_quotation(pair.en, en_tokens[en_gap - 1].end):
            return Drop("ins_inside_quotation")
        if pair.alignment is not None:
            de_gap = _aligned_gap(pair, en_gap)
        else:
            de_gap = _ngram_gap(pair, resources, en_tokens, en_gap, entry.german[0])
        if isinstance(de_gap, Drop):
            return de_gap
        tokens = pair.de_tokens
        left, right = tokens[de_gap - 1], tokens[de_gap] if de_gap < len(tokens) else None
        if right is None or not right.text[:1].isalpha() or left.text in DE_FORBIDDEN_LEFT:
            return Drop("ins_de_clause_boundary")
        if {left.lower, right.lower} & DE_FORBIDDEN_NEIGHBOURS:
            return Drop("ins_de_next_to_conjunction")
        if inside_quotation(pair.de, left.end):
            return Drop("ins_inside_quotation")
        if not SLOT_CHECKS_DE[entry.slot](left, right):
            return Drop("ins_de_slot_differs")
        if entry.english in CONTRAST_SENSITIVE and _contrastive(pair, en_tokens, en_gap, de_gap):
            return Drop("ins_contrastive_context")
        return de_gap

    @staticmethod
    def _fits_slot(pair: SentencePair, gap: int, slot: str) -> bool:
        left = pair.en_tokens[gap - 1] if gap > 0 else None
        right = pair.en_tokens[gap] if gap < len(pair.en_tokens) else None
        return SLOT_CHECKS[slot](left, right)


def _en_neighbours(pair: SentencePair, gap: int) -> set[str]:
    return {pair.en_tokens[i].lower for i in (gap - 1, gap) if 0 <= i < len(pair.en_tokens)}


def _aligned_gap(pair: SentencePair, en_gap: int) -> int | Drop:
    """The German gap between the words linked to the English neighbours, when those are adjacent and in order."""
    left_links = aligned_de_indices(pair, en_gap - 1)
    right_links = aligned_de_indices(pair, en_gap) if en_gap < len(pair.en_tokens) else set()
    if not left_links or not right_links:
        return Drop("ins_not_aligned")
    if max(left_links) + 1 != min(right_links):
        return Drop("ins_de_slot_differs")
    return min(right_links)


def _ngram_gap(pair: SentencePair, resources: StrategyResources, en_tokens: list[Token], en_gap: int,
               word: str) -> int | Drop:
    """Without an aligner: the one German gap that passes the n-gram test near the English gap's place."""
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
    if len(gaps) != 1:
        return Drop("ins_de_position_ambiguous")
    return gaps[0].index


def _sentence_words(text: str, tokens: Sequence[Token], gap: int) -> set[str]:
    """Lowercase words of the sentence that holds the gap and of the sentence before it."""
    sentence, _ = locate(text, tokens, gap)
    starts = [*sentence_starts(text), len(text) + 1]
    first, stop = starts[max(0, sentence - 1)], starts[sentence + 1]
    return {t.lower for t in tokens if first <= t.start < stop}


def _contrastive(pair: SentencePair, en_tokens: list[Token], en_gap: int, de_gap: int) -> bool:
    return bool(_sentence_words(pair.en, en_tokens, en_gap) & EN_CONTRAST_MARKERS
                or _sentence_words(pair.de, pair.de_tokens, de_gap) & DE_CONTRAST_MARKERS
                or _correcting_start(pair.en, en_tokens, en_gap))


def _correcting_start(text: str, tokens: Sequence[Token], gap: int) -> bool:
    """The gap's sentence opens with a correcting 'Well, ...' ("Well, the truth is also more complicated"): it
    sets the sentence against what was said before, which additive 'also' would contradict."""
    sentence, _ = locate(text, tokens, gap)
    start = sentence_starts(text)[sentence]
    opening = [t.lower for t in tokens if t.start >= start][:2]
    return opening == ["well", ","]


def _close(located: tuple[int, float], sentence: int, position: float, max_shift: float) -> bool:
    return located[0] == sentence and abs(located[1] - position) <= max_shift


__all__ = ["Gap", "InsertWord", "insertion_at", "passing_gaps"]
