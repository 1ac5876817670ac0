"""DEL: remove a frequent adverb and its German translation, repairing spaces and punctuation on both sides.

Conditions: the English word is in the adverb lexicon and tagged ADV by spaCy in this sentence; it and one of its
German translations are linked by the aligner when one was used, otherwise each occurs exactly once on its side;
the German word is not in clause-initial position (removing it would leave the verb first and turn a statement
into a question), not the standard of a comparison (than ever / denn je, wie immer), and not bound in a fixed
phrase or after a preposition (für gewöhnlich); without an aligner both must also be in the same sentence of a
multi-sentence line. The English word is not the standard of a comparison either (than ever, as always), and on
neither side does its deletion leave a bare negation in its clause (Not really. / Nicht wirklich. -> Not. / Nicht.).
"""

from __future__ import annotations

from collections.abc import Sequence

from builders.variations.strategies.base import (
    Drop,
    EnglishToken,
    Outcome,
    SentencePair,
    StrategyResources,
    Variation,
    aligned_de_indices,
)
from builders.variations.text import Token, deletion_edit, locate, repair_indefinite_article, sentence_starts

# German multi-word units: adverbs that, next to these words, form one expression with its own meaning
# (wieder einmal = "once again", noch lange nicht = "far from", immer wieder = "again and again"). A German word
# inside any occurrence of a unit is never deleted alone: the rest of the unit would be left with another
# meaning (wieder einmal -> einmal "once") or none. Units of two or three words, lowercase.
DE_MULTIWORD_UNITS: tuple[tuple[str, ...], ...] = tuple(tuple(u.split()) for u in (
    # repetition and duration
    "wieder einmal", "wieder mal", "immer wieder", "schon wieder", "nie wieder", "hin und wieder",
    "noch einmal", "noch mal", "schon einmal", "schon mal", "erst einmal", "erst mal", "nicht einmal",
    "schon lange", "noch lange", "schon immer", "noch immer", "immer noch", "nach wie vor", "ab und zu",
    "dann und wann", "bis jetzt", "jetzt schon", "schon jetzt", "erst jetzt", "gerade erst", "eben erst",
    "erst recht", "noch nie", "immer schon", "wieder und wieder", "nun mal", "nun einmal", "gerade noch",
    "gerade mal", "gerade eben", "schon gar",
    # generalising relatives: 'ob/was/wer/wie ... auch immer', 'wann/wo/was/wer immer' mean '-ever' (whoever,
    # whenever); without 'immer' the 'auch' is left as additive 'also', and 'immer wenn' means 'whenever'
    "auch immer", "wann immer", "wo immer", "was immer", "wer immer", "wohin immer", "immer wenn", "immer dann",
    "noch so",
    # negation and scalar particles
    "noch nicht", "noch kein", "noch keine", "noch keinen", "gar nicht", "gar kein", "gar keine",
    "überhaupt nicht", "nicht mehr", "nicht nur", "nur noch", "auch nicht", "auch noch", "auch schon",
    "doch noch", "noch mehr", "noch weniger", "immer mehr", "immer weniger", "je mehr", "je nach",
    # conjunctions and comparisons
    "als auch", "sowie auch", "wie auch", "auch wenn", "wenn auch", "selbst wenn", "sogar wenn", "nur wenn",
    "so dass", "so wie", "so weit", "so viel", "so viele", "so sehr", "so lange", "so gut", "so oft", "so bald",
    "eben so", "genau so", "ganz so", "auch so", "ganz und", "und so", "oder so", "so oder so", "so weiter",
    "eher als", "lieber als",
    # 'so genannt-' written apart is the one word 'sogenannt-' ("so-called"): no 'so' out of it
    "so genannt", "so genannte", "so genannten", "so genannter", "so genanntes", "so genanntem",
))
_UNIT_LENGTHS = sorted({len(u) for u in DE_MULTIWORD_UNITS})
# English adverbs in a fixed phrase with the next or previous word (so much, even if, once again ...).
EN_BOUND_BIGRAMS = frozenset({
    ("so", "much"), ("so", "many"), ("so", "far"), ("so", "that"), ("so", "long"), ("so", "as"), ("even", "if"),
    ("even", "though"), ("ever", "since"), ("just", "as"), ("rather", "than"), ("only", "if"), ("now", "that"),
    ("so", "few"), ("so", "little"), ("even", "so"), ("yet", "another"), ("pretty", "much"), ("pretty", "well"),
    ("once", "again"), ("ever", "again"), ("never", "again"), ("right", "now"), ("just", "now"), ("even", "now"),
    ("again", "and"), ("and", "again"), ("not", "only"), ("if", "only"), ("only", "just"), ("just", "about"),
    ("still", "more"), ("even", "more"), ("all", "too"), ("too", "much"), ("too", "many"),
    ("very", "much"),  # "He liked it very much" -> "He liked it much"
    ("so", "called"), ("ever", "after"), ("as", "well"), ("so", "to"),  # 'the so called plan', 'so to speak'
})
# A German adverb right after a preposition is part of an adverbial phrase (für gewöhnlich, bis jetzt, seit kurzem).
DE_PREPOSITIONS = {"für", "bis", "seit", "ab", "von", "nach", "vor", "zu", "auf", "an", "in", "mit", "bei", "aus", "um"}
# Discourse connectives (issue 25): adverbs that say how their clause relates to another one (contrast,
# consequence, alternative, addition of a new point). They are not optional modifiers: deleting 'otherwise' from
# "I must go on, otherwise others would stop" leaves a comma splice with another meaning, and the German keeps
# its clause structure ('weil sonst ...'). These always link clauses, wherever they stand ('He, however, ...').
EN_CONNECTIVES = frozenset({
    "however", "therefore", "otherwise", "instead", "nevertheless", "nonetheless", "thus", "hence",
    "consequently", "moreover", "furthermore", "besides", "meanwhile", "accordingly", "anyway", "anyhow",
    "likewise", "conversely", "regardless", "nor",
})
# These link clauses when they open one ("Still, it worked" = nevertheless; "Yet he came"; "So we left" =
# therefore; "Then the rain came"; "Also, ..."; "Rather, ..."); inside a clause they are ordinary modifiers
# ("it is still raining", "we then left", "rather good").
EN_CLAUSE_INITIAL_CONNECTIVES = frozenset({"still", "yet", "so", "then", "also", "rather"})
# Discourse markers when they open a clause with a comma ("Now, the question is ...", "Again, ..." = as said);
# without the comma they are temporal ("Now we know", "Again he lost") and stay candidates.
EN_COMMA_CONNECTIVES = frozenset({"now", "again"})
# German words that are connectives in every position: 'trotzdem' for mid-clause "still" means "nevertheless",
# 'sonst' is "otherwise". (German 'also' is "therefore", not "also".)
DE_CONNECTIVES = frozenset({
    "jedoch", "allerdings", "trotzdem", "dennoch", "stattdessen", "sonst", "andernfalls", "deshalb", "daher",
    "deswegen", "darum", "somit", "folglich", "also", "hingegen", "dagegen", "indessen", "indes", "gleichwohl",
    "nichtsdestotrotz", "nichtsdestoweniger", "ohnehin", "sowieso",
})
# Comparison markers: an adverb right after them is the standard of a fixed comparison ("stronger than ever",
# "as ever", "than before"; "stärker denn je", "größer als je", "wie immer"), and deleting it leaves "than." /
# "denn." with nothing to compare against.
EN_COMPARISON_MARKERS = frozenset({"than", "as"})
DE_COMPARISON_MARKERS = frozenset({"denn", "als", "wie"})
# Negations and near-negations ('never', 'hardly', 'rarely'): deleting one inverts what the sentence says ("This
# never happens" -> "This happens"), so it is no meaning-light edit. 'hardly/kaum' counts too: "I could hardly
# sleep" -> "I could sleep" asserts the opposite. None is in the bundled lexicon; the check guards user lexicons.
EN_NEGATIONS = frozenset({"not", "never", "no", "nor", "neither", "hardly", "barely", "scarcely", "seldom",
                          "rarely", "nowhere"})
DE_NEGATIONS = frozenset({"nicht", "nie", "niemals", "nimmer", "kaum", "selten", "nirgends", "nirgendwo",
                          "keineswegs", "keinesfalls", "weder"})
# The degree word of a result or purpose construction: "so violent that it ...", "so hart, dass ...", "so as to":
# without it the 'that' clause has nothing to depend on ("It was violent that it ..."), on either side.
EN_RESULT_DEGREE = frozenset({"so", "such"})
EN_RESULT_CLAUSE = frozenset({"that"})
DE_RESULT_DEGREE = frozenset({"so", "derart", "dermaßen", "solch", "solche", "solchen", "solcher"})
DE_RESULT_CLAUSE = frozenset({"dass", "daß"})
# Negations an adverb can hedge in a reply without a verb ("Not really." / "Nicht wirklich.", "Not anymore.",
# "Nicht ganz."): deleting the adverb leaves the bare negation ("Not." / "Nicht."), which is no sentence and turns
# a soft no into a flat one (issue 16, blind check 3).
EN_HEDGED_NEGATIONS = frozenset({"not", "n't"})
DE_HEDGED_NEGATIONS = frozenset({"nicht", "nie", "kein", "keine", "keiner", "keinen", "keinem", "keines"})
# Words that may stand beside such a negation without making a clause of it ("Well, not really.", "Nein, aber
# nicht immer.", "if not now" -> "if not").
EN_REPLY_FILLERS = frozenset({"well", "no", "yes", "yeah", "oh", "um", "uh", "and", "but", "or", "if", "maybe",
                              "perhaps", "probably", "sadly", "unfortunately"})
DE_REPLY_FILLERS = frozenset({"nein", "ja", "na", "naja", "ach", "oh", "also", "und", "aber", "oder", "doch", "eben",
                              "halt", "nun", "gut", "leider", "wenn", "vielleicht", "wahrscheinlich"})
_SENTENCE_END = frozenset({".", "!", "?", ";"})
DE_COORDINATORS = {"und", "oder", "aber", "denn", "sondern", "doch"}
DE_CLAUSE_START = {".", "!", "?", ":", ";", ",", "„", "“", "\"", "»", "«", "(", "–", "—"}
_CLAUSE_BOUNDARY = frozenset(DE_CLAUSE_START) | _SENTENCE_END | {"…", "-", ")", "”"}
# Characters that join two words into one (so-called, and/or, ever‐growing with a Unicode hyphen).
_WORD_JOINERS = frozenset("-/‐‑")


def german_clause_initial(tokens: list[Token], index: int) -> bool:
    """First in a clause (after punctuation), or right after 'und/oder/aber' with a verb-like word next
    ('und jetzt leuchtet' -> 'und leuchtet' would put the verb first)."""
    if index == 0 or tokens[index - 1].text in DE_CLAUSE_START:
        return True
    following = tokens[index + 1].text if index + 1 < len(tokens) else ""
    return tokens[index - 1].lower in DE_COORDINATORS and following.isalpha() and following.islower()


def result_clause_follows(words: list[str], index: int, clause_words: frozenset[str]) -> bool:
    """A 'that'/'dass' (or English 'as to') later in the sentence of ``words[index]`` (lowercase words): the
    degree word at ``index`` heads a result construction ("so tired that", "so müde, dass", "so as to")."""
    for position in range(index + 1, len(words)):
        if words[position] in _SENTENCE_END:
            return False
        if words[position] in clause_words or words[position : position + 2] == ["as", "to"]:
            return True
    return False


def clause_around(words: list[str], index: int) -> tuple[int, int]:
    """[first, stop) of the clause that holds ``words[index]``: the words between punctuation marks."""
    first = index
    while first > 0 and words[first - 1] not in _CLAUSE_BOUNDARY:
        first -= 1
    stop = index + 1
    while stop < len(words) and words[stop] not in _CLAUSE_BOUNDARY:
        stop += 1
    return first, stop


def bare_negation_left(words: list[str], index: int, negations: frozenset[str], fillers: frozenset[str]) -> bool:
    """Deleting ``words[index]`` leaves nothing but a negation (and reply words such as 'well', 'but', 'nein') in
    its clause: "Not really." -> "Not.", "Nein, nicht wirklich." -> "Nein, nicht.", "if not now" -> "if not"."""
    first, stop = clause_around(words, index)
    rest = set(words[first:index] + words[index + 1 : stop])
    return bool(rest & negations) and rest <= negations | fillers


# Emphatic 'very' ('the very day', 'that very moment', 'this very house', 'the very best'): after a definite
# article or demonstrative it means "exact, same, even", not a degree, and German has 'genau', 'ausgerechnet' or
# 'aller-' for it, never 'sehr'. Such a 'very' is no DEL site, and INS never puts 'very' right after these words:
# 'the dark energy' -> 'the very dark energy' reads as "that exact dark energy" (blind round 7).
EN_EMPHATIC_DETERMINERS = frozenset({"the", "this", "that", "these", "those"})
# Words after 'the very' that it marks emphatically even though they are adjectives ('the very first', 'the very
# same', 'his very own'): position, identity and superlatives.
EN_EMPHATIC_TARGETS = frozenset({"same", "first", "last", "next", "own", "end", "beginning", "start", "top",
                                 "bottom", "edge", "heart", "moment", "idea", "thought", "essence", "nature"})


def emphatic_very(tokens: Sequence[EnglishToken], index: int) -> bool:
    """'very' at ``index`` right after the/this/that/these/those, before a noun, a position or identity word or a
    superlative ('the very day', 'the very first', 'the very best'): the emphatic "exact" sense."""
    if tokens[index].lower != "very" or index == 0 or tokens[index - 1].lower not in EN_EMPHATIC_DETERMINERS:
        return False
    following = tokens[index + 1] if index + 1 < len(tokens) else None
    if following is None:
        return True
    graded = following.tag in ("JJ", "RB") and following.lower not in EN_EMPHATIC_TARGETS
    return not graded


def following_pos(pair: SentencePair, index: int) -> str:
    return pair.en_tokens[index + 1].pos if index + 1 < len(pair.en_tokens) else ""


def german_bound(tokens: list[Token], index: int) -> bool:
    """Inside a German multi-word unit (any occurrence covering ``index``), or right after a preposition."""
    words = [t.lower for t in tokens]
    for length in _UNIT_LENGTHS:
        for first in range(max(0, index - length + 1), min(index, len(words) - length) + 1):
            if tuple(words[first : first + length]) in DE_MULTIWORD_UNITS:
                return True
    return index > 0 and words[index - 1] in DE_PREPOSITIONS


def same_place(en_text: str, en_token: Token, de_text: str, de_tokens: list[Token], de_index: int,
               max_shift: float) -> bool:
    """Lines are often paragraphs: with as many sentences on both sides the two words must be in the same
    sentence; otherwise at about the same relative place in the line."""
    en_starts, de_starts = sentence_starts(en_text), sentence_starts(de_text)
    if len(en_starts) == len(de_starts):
        return locate(en_text, [en_token], 0)[0] == locate(de_text, de_tokens, de_index)[0]
    en_place = en_token.start / max(1, len(en_text))
    return abs(de_tokens[de_index].start / max(1, len(de_text)) - en_place) <= max_shift


def english_coordinated_or_repeated(pair: SentencePair, index: int) -> bool:
    """'quickly and easily' -> 'and easily', 'very, very difficult' -> ', very difficult': an adverb joined to
    another by a conjunction, or repeated, cannot go alone."""
    tokens = pair.en_tokens
    word = tokens[index].lower
    near = [tokens[i] for i in (index - 2, index - 1, index + 1, index + 2) if 0 <= i < len(tokens)]
    if any(t.lower == word for t in near):
        return True
    following = tokens[index + 1] if index + 1 < len(tokens) else None
    previous = tokens[index - 1] if index > 0 else None
    return (following is not None and following.pos == "CCONJ" and index + 2 < len(tokens)
            and tokens[index + 2].pos == "ADV") or (
        previous is not None and previous.pos == "CCONJ" and index >= 2 and tokens[index - 2].pos == "ADV")


def english_clause_initial(pair: SentencePair, index: int) -> bool:
    """First in its clause: at the line start, after punctuation, or right after 'and/but/or' ("and yet")."""
    if index == 0 or pair.en_tokens[index - 1].text in DE_CLAUSE_START:
        return True
    return pair.en_tokens[index - 1].pos == "CCONJ"


def english_connective(pair: SentencePair, index: int) -> bool:
    """The adverb at ``index`` links its clause to another: a connective anywhere ('however'), or one of the
    clause-opening connectives at the start of its clause ('Still, ...', 'and so', 'Then ...'). A degree 'so'
    before an adjective or adverb ('So many came') is no connective."""
    word = pair.en_tokens[index].lower
    if word in EN_CONNECTIVES:
        return True
    if not english_clause_initial(pair, index):
        return False
    if word in EN_COMMA_CONNECTIVES:
        return index + 1 < len(pair.en_tokens) and pair.en_tokens[index + 1].text == ","
    if word not in EN_CLAUSE_INITIAL_CONNECTIVES:
        return False
    return not (word == "so" and following_pos(pair, index) in {"ADJ", "ADV", "DET"})


def hyphen_piece(text: str, start: int, end: int) -> bool:
    """The word text[start:end] is a piece of a hyphenated or slashed word ('so' of 'so-called', 'ever' of
    'ever-growing', 'then' of 'then-president'): deleting it leaves '-called'."""
    before, after = text[max(0, start - 2) : start], text[end : end + 2]
    return (len(before) == 2 and before[1] in _WORD_JOINERS and before[0].isalnum()) or (
        len(after) == 2 and after[0] in _WORD_JOINERS and after[1].isalnum())


def one_to_one(pair: SentencePair, en_index: int, de_index: int) -> bool:
    """The aligner links the English adverb only to this German word and the German word only to the adverb:
    an adverb linked to two German words (still -> immer noch) or a German word linked to two English words is
    part of a multi-word unit on one side, and deleting one word would not be the same edit on both sides."""
    assert pair.alignment is not None
    return all((en == en_index) == (de == de_index) for en, de in pair.alignment if en == en_index or de == de_index)


# Blind round 5, false starts ("he's really, he's made ..."): removing the last word of a broken-off clause leaves
# a contraction or copula right before a comma or dash ("he's, he's made"). English and German left words.
EN_FALSE_START_LEFT = frozenset({"'s", "'m", "'re", "'ve", "'d", "'ll", "is", "am", "are", "was", "were", "be",
                                 "been", "has", "have", "had", "do", "does", "did", "will", "would", "can", "could",
                                 "ca", "wo", "should", "must", "might", "may", "’s", "’m", "’re", "’ve", "’d", "’ll"})
DE_FALSE_START_LEFT = frozenset({"ist", "bin", "bist", "sind", "seid", "war", "warst", "waren", "wart", "hat",
                                 "habe", "hab", "hast", "haben", "habt", "hatte", "hatten", "wird", "werde", "wirst",
                                 "werden", "kann", "kannst", "können", "muss", "musst", "müssen", "soll", "sollen",
                                 "will", "willst", "wollen", "wäre", "hätte", "würde", "ist's", "s", "'s"})
_FALSE_START_RIGHT = frozenset({",", "-", "–", "—", "--", "...", "…"})
# What closes a clause on each side, for the clause test below.
_CLAUSE_BREAKS = frozenset({",", ";", ":", ".", "!", "?", "–", "—", "(", ")", "…", "..."})


def false_start(tokens: Sequence[Token | EnglishToken], index: int, left_words: frozenset[str]) -> bool:
    """Deleting tokens[index] leaves a contraction, copula or auxiliary right before a comma or dash: the word was
    the predicate of a broken-off clause ("he's really, he's made it")."""
    if index == 0 or index + 1 >= len(tokens):
        return False
    return tokens[index - 1].text.lower() in left_words and tokens[index + 1].text in _FALSE_START_RIGHT


def _clause_span(tokens: Sequence[Token | EnglishToken], index: int) -> range:
    start = index
    while start > 0 and tokens[start - 1].text not in _CLAUSE_BREAKS:
        start -= 1
    stop = index + 1
    while stop < len(tokens) and tokens[stop].text not in _CLAUSE_BREAKS:
        stop += 1
    return range(start, stop)


def same_clause_as_english_verbs(pair: SentencePair, en_index: int, de_index: int) -> bool:
    """The German word lies in the clause that the verbs of the English adverb's clause are linked to (blind round
    5: English 'immediately' of one verb, German 'sofort' of another clause removed while its counterpart 'gleich'
    stayed). Passes when no verb of the English clause is linked (nothing to judge by)."""
    assert pair.alignment is not None
    en_clause = _clause_span(pair.en_tokens, en_index)
    verbs = {i for i in en_clause if pair.en_tokens[i].pos in ("VERB", "AUX") and i != en_index}
    verb_links = {de for en, de in pair.alignment if en in verbs}
    if not verb_links:
        return True
    return bool(verb_links & set(_clause_span(pair.de_tokens, de_index)))


class DeleteAdverb:
    type_name = "DEL"

    def generate(self, pair: SentencePair, resources: StrategyResources) -> list[Outcome]:
        adverbs = resources.lexicons.adverbs
        outcomes: list[Outcome] = []
        for index, token in enumerate(pair.en_tokens):
            entry = adverbs.get(token.lower)
            if entry is None:
                continue
            if emphatic_very(pair.en_tokens, index):
                outcomes.append(Drop("del_emphatic_very"))
                continue
            if token.pos != "ADV":
                outcomes.append(Drop("del_not_tagged_adv"))
                continue
            if hyphen_piece(pair.en, token.start, token.end):
                outcomes.append(Drop("del_en_hyphenated_word"))
                continue
            if english_connective(pair, index):
                outcomes.append(Drop("del_connective"))
                continue
            following = pair.en_tokens[index + 1].lower if index + 1 < len(pair.en_tokens) else ""
            previous = pair.en_tokens[index - 1].lower if index > 0 else ""
            if (token.lower, following) in EN_BOUND_BIGRAMS or (previous, token.lower) in EN_BOUND_BIGRAMS:
                outcomes.append(Drop("del_en_fixed_phrase"))
                continue
            if previous in EN_COMPARISON_MARKERS:
                outcomes.append(Drop("del_en_comparison"))
                continue
            if token.lower in EN_NEGATIONS:
                outcomes.append(Drop("del_negation"))
                continue
            en_words = [t.lower for t in pair.en_tokens]
            degree_use = following_pos(pair, index) in {"ADJ", "ADV", "DET"}  # 'so cold', not 'So, that is'
            if token.lower in EN_RESULT_DEGREE and degree_use and result_clause_follows(en_words, index,
                                                                                       EN_RESULT_CLAUSE):
                outcomes.append(Drop("del_en_result_construction"))
                continue
            if bare_negation_left(en_words, index, EN_HEDGED_NEGATIONS, EN_REPLY_FILLERS):
                outcomes.append(Drop("del_bare_negation"))
                continue
            if english_coordinated_or_repeated(pair, index):
                outcomes.append(Drop("del_en_coordinated"))
                continue
            if false_start(pair.en_tokens, index, EN_FALSE_START_LEFT):
                outcomes.append(Drop("del_false_start"))
                continue
            de_index = self._german_index(pair, index, set(entry.german), resources.config.del_max_shift)
            if isinstance(de_index, Drop):
                outcomes.append(de_index)
                continue
            if false_start(pair.de_tokens, de_index, DE_FALSE_START_LEFT):
                outcomes.append(Drop("del_false_start"))
                continue
            if pair.alignment is not None and not same_clause_as_english_verbs(pair, index, de_index):
                outcomes.append(Drop("del_de_other_clause"))
                continue
            de_token = pair.de_tokens[de_index]
            en_edit = repair_indefinite_article(pair.en, deletion_edit(pair.en, token.start, token.end))
            de_edit = deletion_edit(pair.de, de_token.start, de_token.end)
            outcomes.append(Variation(self.type_name, (en_edit,), (de_edit,), token.text, de_token.text, "", "",
                                      position=index))
        return outcomes

    @staticmethod
    def _german_index(pair: SentencePair, en_index: int, translations: set[str], max_shift: float) -> int | Drop:
        tokens = pair.de_tokens
        matches = [i for i, t in enumerate(tokens) if t.lower in translations]
        if not matches:
            return Drop("del_translation_absent")
        if pair.alignment is not None:
            linked = [i for i in matches if i in aligned_de_indices(pair, en_index)]
            if len(linked) != 1:
                return Drop("del_not_aligned")
            chosen = linked[0]
            if not one_to_one(pair, en_index, chosen):
                return Drop("del_multiword_alignment")
        else:
            en_word = pair.en_tokens[en_index].lower
            if len(matches) != 1 or sum(t.lower == en_word for t in pair.en_tokens) != 1:
                return Drop("del_not_unique")
            chosen = matches[0]
            en_token = pair.en_tokens[en_index]
            if not same_place(pair.en, Token(en_token.text, en_token.start, en_token.end), pair.de, tokens, chosen,
                              max_shift):
                return Drop("del_not_same_sentence")
        if german_clause_initial(tokens, chosen):
            return Drop("del_de_clause_initial")
        if tokens[chosen].lower in DE_CONNECTIVES:
            return Drop("del_connective")
        if chosen > 0 and tokens[chosen - 1].lower in DE_COMPARISON_MARKERS:
            return Drop("del_de_comparison")
        if tokens[chosen].lower in DE_NEGATIONS:
            return Drop("del_negation")
        de_words = [t.lower for t in tokens]
        if tokens[chosen].lower in DE_RESULT_DEGREE and result_clause_follows(de_words, chosen, DE_RESULT_CLAUSE):
            return Drop("del_de_result_construction")
        if german_bound(tokens, chosen):
            return Drop("del_de_fixed_phrase")
        if bare_negation_left(de_words, chosen, DE_HEDGED_NEGATIONS, DE_REPLY_FILLERS):
            return Drop("del_bare_negation")
        return chosen
