"""SUBGEN: swap the gender of every third-person singular pronoun of one gender, consistently on both sides.

English choices come from spaCy tags (her/PRP$ -> his, her/PRP -> him; his/PRP$ -> her, his/PRP -> hers).
German masculine -> feminine is deterministic (er/ihn -> sie, ihm -> ihr, sein- -> ihr-). Feminine -> masculine
is only done where German *sie*/*ihr* is third-person singular: no formal Sie/Ihr (capitalised inside the
sentence), no they/them/their or you/your on the English side, no plural verb next to *sie*, and the case of
*sie* (er vs ihn) must follow from the English side. Sentences with pronouns of both genders are skipped, and the
number of swapped English pronouns (reflexives aside, German uses genderless *sich*) must equal the German count:
that is how the two sides are tied together without an aligner. A German indefinite or quantifier pronoun of the
old gender (Einer unserer Gäste, jeder, der ..., keiner kam) skips the pair: it may be the swapped person.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

from builders.pronouns.german import SINGULAR_VERBS, word_set
from builders.variations.strategies.base import (
    Drop,
    EnglishToken,
    Outcome,
    SentencePair,
    StrategyResources,
    Variation,
    aligned_de_indices,
)
from builders.variations.strategies.gendered_nouns import (
    english_noun_edits,
    english_nouns,
    german_noun_edits,
    noun_used_as_modifier,
)
from builders.variations.strategies.person_nouns import (
    english_gender,
    english_person_nouns,
    german_person_noun_indices,
    sex_marked_word,
    translated_person_noun_gender_unsafe,
)
from builders.variations.text import Edit, Token, match_case, sentence_starts

EN_MASCULINE = {"he", "him", "his", "himself"}
EN_FEMININE = {"she", "her", "hers", "herself"}
EN_REFLEXIVE = {"himself", "herself"}
EN_BLOCKING = {"they", "them", "their", "theirs", "themselves", "you", "your", "yours", "yourself", "yourselves"}

DE_MASC_TO_FEM = {
    "er": "sie", "ihn": "sie", "ihm": "ihr", "sein": "ihr", "seine": "ihre", "seinen": "ihren",
    "seinem": "ihrem", "seiner": "ihrer", "seines": "ihres",
}
DE_FEM_POSSESSIVE_TO_MASC = {
    "ihre": "seine", "ihren": "seinen", "ihrem": "seinem", "ihrer": "seiner", "ihres": "seines",
}
DE_FEMININE = {"sie", "ihr", *DE_FEM_POSSESSIVE_TO_MASC}
DE_FORMAL = {"sie", "ihr", "ihre", "ihren", "ihrem", "ihrer", "ihres", "ihnen"}
ACCUSATIVE_PREPOSITIONS = {"für", "gegen", "ohne", "um", "durch"}
PLURAL_FINITE = {
    "sind", "waren", "haben", "hatten", "werden", "wurden", "können", "konnten", "müssen", "mussten", "sollen",
    "sollten", "wollen", "wollten", "dürfen", "durften", "würden", "hätten", "wären", "möchten", "seien",
}
_CLAUSE_START = {".", "!", "?", ",", ";", ":", "„", "“", "\"", "(", "–", "—"}


# Gendered words used as an interjection or a form of address ("Oh, man!", "Man, that was close", "Boy, was I
# wrong", "Oh Mann!"): they name no person, and 'Oh, woman!' is not the same exclamation, so the pair is skipped.
EN_INTERJECTION_NOUNS = frozenset({"man", "woman", "boy", "girl", "dude", "guy", "lady", "brother", "sister"})
DE_INTERJECTION_NOUNS = frozenset({"mann", "frau", "junge", "mädchen", "bruder"})
# ('my' and 'mein' are left out: 'my sister.', 'mein Mann.' are persons.)
EN_INTERJECTIONS = frozenset({"oh", "o", "ah", "aw", "hey", "wow", "yeah", "ok", "okay", "on"})
DE_INTERJECTIONS = frozenset({"oh", "o", "ach", "ah", "au", "na", "mensch", "hey", "ja", "nein"})
_PUNCTUATION_AFTER = frozenset({",", "!", "?", ".", "…", "--", "—", "–"})
# English nouns that English commonly personifies with he/she (Nature ... she, Death ... he) and their German
# translations whose grammatical gender is masculine or feminine: the German pronoun then follows the German noun
# (die Natur ... sie, der Tod ... er), and swapping it turns a correct anaphor into a wrong one (durch ihn for die
# Natur). A German noun of the other gender or a neuter one (das Schiff ... es, das Land) gives a German pronoun
# that is not swapped, and the pronoun counts already tell the two sides apart.
EN_PERSONIFIED_NOUNS: dict[str, tuple[str, tuple[str, ...]]] = {
    "nature": ("f", ("natur",)), "earth": ("f", ("erde",)), "sun": ("f", ("sonne",)),
    "nation": ("f", ("nation",)), "liberty": ("f", ("freiheit",)), "freedom": ("f", ("freiheit",)),
    "justice": ("f", ("gerechtigkeit", "justiz")), "fortune": ("f", ("fortuna",)),
    "death": ("m", ("tod", "todes", "tode")), "planet": ("m", ("planet", "planeten")),
    "ocean": ("m", ("ozean", "ozeans")), "moon": ("m", ("mond", "mondes", "monds")),
    "storm": ("m", ("sturm", "sturms", "sturmes")), "hurricane": ("m", ("hurrikan", "hurrikans")),
    "winter": ("m", ("winter", "winters")), "river": ("m", ("fluss", "flusses", "strom")),
}


def _interjection_use(words: list[str], index: int, interjections: frozenset[str]) -> bool:
    """A bare noun between an interjection, punctuation or the line start and following punctuation."""
    before = words[index - 1] if index > 0 else ","
    after = words[index + 1] if index + 1 < len(words) else "."
    return (before in interjections or before in _PUNCTUATION_AFTER or before in {'"', "“", "„"}) and (
        after in _PUNCTUATION_AFTER)


def gendered_interjection(pair: SentencePair) -> bool:
    en_words = [t.lower for t in pair.en_tokens]
    de_words = [t.lower for t in pair.de_tokens]
    return any(w in EN_INTERJECTION_NOUNS and _interjection_use(en_words, i, EN_INTERJECTIONS)
               for i, w in enumerate(en_words)) or any(
        w in DE_INTERJECTION_NOUNS and _interjection_use(de_words, i, DE_INTERJECTIONS)
        for i, w in enumerate(de_words))


def personified_thing(pair: SentencePair, en_indices: list[int], old_gender: str) -> bool:
    """An English common noun commonly personified with he/she ('Nature ... she'; not a name like 'Justice' nor
    'a ... nature') before the first swapped pronoun, in its sentence or the one before, whose German translation
    in the line has the grammatical gender of the pronouns being swapped away (die Natur ... sie)."""
    if not en_indices:
        return False
    first = pair.en_tokens[min(en_indices)]
    starts = [start for start in sentence_starts(pair.en) if start <= first.start]
    window_start = starts[-2] if len(starts) > 1 else 0
    de_words = {t.lower for t in pair.de_tokens}
    for index, token in enumerate(pair.en_tokens):
        entry = EN_PERSONIFIED_NOUNS.get(token.lower)
        if entry is None or token.pos != "NOUN" or not window_start <= token.start < first.start:
            continue
        gender, german = entry
        if gender == old_gender and de_words & set(german) and not _indefinite(pair, index):
            return True
    return False


def _indefinite(pair: SentencePair, index: int) -> bool:
    """'a more earthy nature' (a kind), not 'nature' itself: an a/an in the noun's phrase."""
    for token in reversed(pair.en_tokens[max(0, index - 3) : index]):
        if token.lower in ("a", "an"):
            return True
        if token.pos in ("PUNCT", "VERB", "AUX", "ADP"):
            return False
    return False


def english_swap(token: EnglishToken) -> str | None:
    """The opposite-gender form of an English pronoun, using the tag to tell possessive from object."""
    word = token.lower
    possessive = token.tag == "PRP$" or token.dep == "poss"
    table: dict[str, Callable[[], str]] = {
        "he": lambda: "she", "him": lambda: "her", "himself": lambda: "herself",
        "his": lambda: "her" if possessive else "hers",
        "she": lambda: "he", "hers": lambda: "his", "herself": lambda: "himself",
        "her": lambda: "his" if possessive else "him",
    }
    chooser = table.get(word)
    return match_case(token.text, chooser()) if chooser else None


def _is_possessive_determiner(tokens: list[Token], index: int) -> bool:
    """Bare 'sein'/'ihr' is a possessive when a noun (capitalised) follows, maybe after one adjective."""
    following = [t.text for t in tokens[index + 1 : index + 3]]
    if not following or not following[0][:1].isalpha():
        return False
    if following[0][0].isupper():
        return True
    return len(following) == 2 and following[1][:1].isupper() and following[0].endswith(("e", "en", "er", "es", "em"))


def _at_sentence_start(tokens: list[Token], index: int) -> bool:
    return index == 0 or tokens[index - 1].text in {".", "!", "?", ":", "„", "“", "\"", "»", "«"}


def german_masculine(tokens: list[Token]) -> list[int]:
    found = []
    for index, token in enumerate(tokens):
        word = token.lower
        if word not in DE_MASC_TO_FEM:
            continue
        if word == "sein" and not _is_possessive_determiner(tokens, index):
            continue  # the verb 'sein' (to be)
        found.append(index)
    return found


def _is_plural_sie(tokens: list[Token], index: int) -> bool:
    neighbours = [tokens[i].lower for i in (index - 1, index + 1) if 0 <= i < len(tokens)]
    if any(word in PLURAL_FINITE for word in neighbours):
        return True
    clause_initial = index == 0 or tokens[index - 1].text in _CLAUSE_START
    following = tokens[index + 1].text if index + 1 < len(tokens) else ""
    return clause_initial and following.islower() and following.endswith("en")


def german_feminine(tokens: list[Token]) -> tuple[list[int], str]:
    """Indices of 3sg feminine pronouns, or a drop reason when a formal or plural reading is possible."""
    found = []
    for index, token in enumerate(tokens):
        word = token.lower
        if word in DE_FORMAL and token.text[0].isupper() and not _at_sentence_start(tokens, index):
            return [], "subgen_formal_sie"
        if word not in DE_FEMININE:
            continue
        if word == "sie" and _is_plural_sie(tokens, index):
            return [], "subgen_plural_sie"
        found.append(index)
    return found, ""


def german_feminine_to_masculine(tokens: list[Token], index: int, subject_case: bool | None) -> str | None:
    word = tokens[index].lower
    if word in DE_FEM_POSSESSIVE_TO_MASC:
        return DE_FEM_POSSESSIVE_TO_MASC[word]
    if word == "ihr":
        return "sein" if _is_possessive_determiner(tokens, index) else "ihm"
    # word == "sie": nominative er or accusative ihn
    if index > 0 and tokens[index - 1].lower in ACCUSATIVE_PREPOSITIONS:
        return "ihn"
    if subject_case is None:
        return None
    return "er" if subject_case else "ihn"


COPULAS = {"ist", "war", "wird", "wurde", "bleibt", "blieb", "sei", "wäre", "bin", "gilt", "galt"}


def predicative_noun_follows(tokens: list[Token], index: int) -> bool:
    """'Er ist (auch) (ein guter) Lehrer': the noun would need the other gender (Lehrerin) too, so skip."""
    if index + 1 >= len(tokens) or tokens[index + 1].lower not in COPULAS:
        return False
    for token in tokens[index + 2 : index + 6]:
        if token.text[:1].isupper():
            return True
        if not token.text[:1].isalpha():
            return False
    return False


class SubstituteGender:
    type_name = "SUBGEN"

    def generate(self, pair: SentencePair, resources: StrategyResources) -> list[Outcome]:
        nouns = resources.lexicons.gendered_nouns if resources.config.gendered_nouns else ()
        noun_hits = english_nouns(pair, nouns) if nouns else []
        en_indices = [i for i, t in enumerate(pair.en_tokens) if t.lower in EN_MASCULINE | EN_FEMININE]
        if not en_indices and not noun_hits:
            return []
        if gendered_interjection(pair):
            return [Drop("subgen_interjection")]
        genders = {pair.en_tokens[i].lower in EN_MASCULINE for i in en_indices} | {m for _, _, m in noun_hits}
        if len(genders) > 1:
            return [Drop("subgen_mixed_gender")]
        to_feminine = genders.pop()
        en_edits = []
        for index in en_indices:
            token = pair.en_tokens[index]
            new = english_swap(token)
            if new is None or new.lower() == token.lower:
                return [Drop("subgen_english_unmapped")]
            en_edits.append(Edit(token.start, token.end, token.text, new))
        de_edits: list[Edit] = []
        if en_indices:
            de_result = self._german_edits(pair, en_indices, to_feminine, allow_none=bool(noun_hits))
            if isinstance(de_result, Drop):
                return [de_result]
            de_edits += de_result
        if noun_hits:
            if noun_used_as_modifier(pair, noun_hits):
                return [Drop("subgen_noun_as_modifier")]
            noun_result = german_noun_edits(pair, noun_hits)
            if isinstance(noun_result, Drop):
                return [noun_result]
            en_edits += english_noun_edits(pair, noun_hits)
            de_edits += noun_result
        en_edits.sort(key=lambda e: e.start)
        de_edits.sort(key=lambda e: e.start)
        if _overlapping(en_edits) or _overlapping(de_edits):
            return [Drop("subgen_overlapping_edits")]
        if german_pronoun_left(pair, de_edits, to_feminine):
            return [Drop("subgen_de_pronoun_left")]
        old_gender = "m" if to_feminine else "f"
        if german_indefinite_pronoun(pair.de_tokens, old_gender):
            return [Drop("subgen_de_indefinite_pronoun")]
        if personified_thing(pair, en_indices, old_gender):
            return [Drop("subgen_personified_noun")]
        unswapped = unswapped_person_noun(pair, en_edits, de_edits, old_gender) or sex_marked_word(
            [t.lower for t in pair.en_tokens], pair.de_tokens, old_gender)
        if unswapped:
            return [Drop(unswapped)]
        if german_gendered_modifier(pair, old_gender):
            return [Drop("subgen_de_gendered_modifier")]
        return [
            Variation(
                self.type_name, tuple(en_edits), tuple(de_edits),
                word_en=" ".join(e.old for e in en_edits), word_de=" ".join(e.old for e in de_edits),
                new_en=" ".join(e.new for e in en_edits), new_de=" ".join(e.new for e in de_edits),
                position=min([*en_indices, *(i for i, _, _ in noun_hits)]), detail="m2f" if to_feminine else "f2m",
            )
        ]

    def _german_edits(self, pair: SentencePair, en_indices: list[int], to_feminine: bool,
                      allow_none: bool = False) -> list[Edit] | Drop:
        tokens = pair.de_tokens
        en_words = [pair.en_tokens[i] for i in en_indices]
        expected = sum(1 for t in en_words if t.lower not in EN_REFLEXIVE)
        if to_feminine:
            de_indices = german_masculine(tokens)
            replace: Callable[[int], str | None] = lambda i: DE_MASC_TO_FEM[tokens[i].lower]  # noqa: E731
        else:
            if any(t.lower in EN_BLOCKING for t in pair.en_tokens):
                return Drop("subgen_ambiguous_sie")
            de_indices, reason = german_feminine(tokens)
            if reason:
                return Drop(reason)
            has_subject = any(t.lower == "she" for t in en_words)
            has_object = any(t.lower == "her" and t.tag != "PRP$" and t.dep != "poss" for t in en_words)
            subject_case = None if has_subject and has_object else has_subject
            replace = lambda i: german_feminine_to_masculine(tokens, i, subject_case)  # noqa: E731
        if expected == 0 and not allow_none:
            return Drop("subgen_only_reflexive")
        if len(de_indices) != expected:
            return Drop("subgen_count_mismatch")
        if english_possessives(en_words) != len(german_possessives(tokens, de_indices)):
            return Drop("subgen_possessive_mismatch")
        if not aligned_to_german_pronouns(pair, en_indices, de_indices):
            return Drop("subgen_not_aligned")
        if any(predicative_noun_follows(tokens, i) for i in de_indices):
            return Drop("subgen_predicative_noun")
        edits = []
        for index in de_indices:
            new = replace(index)
            if new is None:
                return Drop("subgen_ambiguous_case")
            token = tokens[index]
            edits.append(Edit(token.start, token.end, token.text, match_case(token.text, new)))
        return edits



def english_possessives(tokens: list[EnglishToken]) -> int:
    return sum(1 for t in tokens if t.lower in ("his", "her", "hers") and (
        t.tag == "PRP$" or t.dep == "poss" or t.lower == "hers"))


def german_possessives(tokens: list[Token], indices: list[int]) -> list[int]:
    """The swapped German words that are possessives (sein-/ihr- before a noun), not er/sie/ihn/ihm/ihr."""
    return [i for i in indices if tokens[i].lower not in ("er", "sie", "ihn", "ihm", "ihr", "sein")
            or (tokens[i].lower in ("ihr", "sein") and _is_possessive_determiner(tokens, i))]


# Demonstratives that agree with the person ('sie war diejenige, die ...'): left in the old gender they contradict.
DE_DEMONSTRATIVES = {
    True: frozenset({"derjenige", "denjenigen", "demjenigen", "desjenigen", "derselbe", "denselben", "demselben"}),
    False: frozenset({"diejenige", "dieselbe"}),
}


def german_pronoun_left(pair: SentencePair, de_edits: list[Edit], to_feminine: bool) -> bool:
    """A German pronoun of the old gender that no edit changes ('Schauspielerin X ... in seinem Tweet', where the
    English has no pronoun): the line would then speak of the person in both genders."""
    edited = {e.start for e in de_edits}
    tokens = pair.de_tokens
    if to_feminine:
        old = german_masculine(tokens)
    else:
        old = [i for i, t in enumerate(tokens) if t.lower in DE_FEMININE and not (
            t.text[0].isupper() and not _at_sentence_start(tokens, i))]
    return any(tokens[i].start not in edited for i in old) or any(
        t.lower in DE_DEMONSTRATIVES[to_feminine] for t in tokens)


# German indefinite and quantifier pronouns that take the gender of the person they stand for ("Einer unserer
# Gäste ... er", "Jede, die kam, ... sie"): left in the old gender beside a swapped pronoun, the German line speaks
# of the person in both genders (issue 16, blind check 3). "einer/keiner/jeder" after a preposition or a noun are
# feminine datives or genitives ("mit einer der Frauen", "der Vater einer meiner Schülerinnen"), so they count as
# feminine there and not as masculine.
DE_INDEFINITE_PRONOUNS = {
    "m": word_set("einer keiner jeder jener mancher irgendeiner einen keinen jeden einem keinem jedem"),
    "f": word_set("eine keine jede jene manche irgendeine"),
}
_DATIVE_FEMININE = word_set("einer keiner jeder jener mancher irgendeiner")
_PREPOSITIONS = word_set("in mit von aus bei zu nach an auf unter vor über hinter neben zwischen seit gegenüber")
# What follows the word when it stands for a person rather than before a noun: a genitive or partitive phrase
# ("einer unserer Gäste", "jede der Frauen", "keiner von ihnen"), punctuation ("jeder, der ...") or a finite verb
# ("keiner kam", "jede weiß").
_PARTITIVE = word_set("der unserer eurer meiner deiner seiner ihrer dieser jener")
# 'von/aus/unter' are partitive only before a plural pronoun or determiner ("keiner von ihnen", "einer aus der
# Gruppe"), not before a participle phrase ("in einem von Touristen besuchten Lokal").
_PARTITIVE_PREPOSITIONS = word_set("von aus unter")
_PLURAL_HEADS = word_set("""ihnen uns euch den denen der diesen jenen meinen deinen seinen ihren unseren euren
                            vielen allen beiden""")
_NOMINATIVE_ONLY = word_set("einen keinen jeden einem keinem jedem")  # common before nouns: partitive only


def _pronoun_use(words: list[str], index: int) -> bool:
    following = words[index + 1] if index + 1 < len(words) else "."
    partitive = following in _PARTITIVE or (
        following in _PARTITIVE_PREPOSITIONS and index + 2 < len(words) and words[index + 2] in _PLURAL_HEADS)
    if words[index] in _NOMINATIVE_ONLY:
        return partitive
    return partitive or not following[:1].isalnum() or following in SINGULAR_VERBS


def german_indefinite_pronoun(tokens: list[Token], old_gender: str) -> bool:
    """An indefinite or quantifier pronoun of the old gender used for a person ('Einer unserer Gäste', 'der eine,
    der ...'), which the swap would leave unchanged."""
    words = [t.lower for t in tokens]
    for index, word in enumerate(words):
        after_preposition = index > 0 and (words[index - 1] in _PREPOSITIONS or tokens[index - 1].text[:1].isupper())
        gender = "f" if after_preposition and word in _DATIVE_FEMININE else (
            "m" if word in DE_INDEFINITE_PRONOUNS["m"] else "f" if word in DE_INDEFINITE_PRONOUNS["f"] else "")
        if gender == old_gender and _pronoun_use(words, index):
            return True
        the_one = word == "eine" and index > 0 and words[index - 1] in ("der", "die")
        if the_one and {"der": "m", "die": "f"}[words[index - 1]] == old_gender and _pronoun_use(words, index):
            return True
    return False


def aligned_to_german_pronouns(pair: SentencePair, en_indices: list[int], de_indices: list[int]) -> bool:
    """With an aligner: no English pronoun is linked only to German words outside the swapped pronouns ('He
    showed it to him' / 'Der zeigte ihn ihm': 'ihn' is 'it', the man is 'Der'). A pronoun without links passes:
    the equal counts already tie the two sides."""
    if pair.alignment is None:
        return True
    swapped = set(de_indices)
    for index in en_indices:
        if pair.en_tokens[index].lower in EN_REFLEXIVE:
            continue
        linked = aligned_de_indices(pair, index)
        if linked and not linked & swapped:
            return False
    return True


def unswapped_person_noun(pair: SentencePair, en_edits: list[Edit], de_edits: list[Edit], old_gender: str) -> str:
    """A drop reason when the line keeps a person noun of the old gender that no edit changes ('Der Autor ...
    sie', 'Mr Smith ... she'): it may be the swapped person, and then the pair would contradict itself."""
    en_edited = {e.start for e in en_edits}
    if any(english_gender(t.text) == old_gender and t.start not in en_edited for t in pair.en_tokens):
        return "subgen_en_person_noun"
    de_edited = {e.start for e in de_edits}
    names = frozenset(t.text for t in pair.en_tokens if t.text[:1].isupper())
    if any(pair.de_tokens[i].start not in de_edited
           for i in german_person_noun_indices(pair.de_tokens, old_gender, names)):
        return "subgen_de_person_noun"
    if translated_person_noun_left(pair, en_edits, de_edits, old_gender, names):
        return "subgen_de_person_noun"
    return ""


def translated_person_noun_left(pair: SentencePair, en_edits: list[Edit], de_edits: list[Edit], old_gender: str,
                                names: frozenset[str]) -> bool:
    """With an aligner (blind round 7: 'the mujahid ... his' / 'dem Mudschahed ... ihr'): an English singular
    person noun (envoy, employee, sheikh) whose German translation keeps the old gender (a noun of that gender
    without an -in feminine, a nominalised adjective with its ending, or a word whose gender is unknown). It may
    be the swapped person, and its gender cannot be changed with certainty, so the pair is skipped."""
    if pair.alignment is None:
        return False
    people = english_person_nouns()
    for index, token in enumerate(pair.en_tokens):
        if token.tag != "NN" or token.lower not in people or _inside(token.start, en_edits):
            continue
        linked = sorted(i for i in aligned_de_indices(pair, index) if not _inside(pair.de_tokens[i].start, de_edits))
        if translated_person_noun_gender_unsafe(pair.de_tokens, linked, old_gender, names):
            return True
    return False


# Blind round 5: German words that agree with the person in gender and that the swap leaves alone.
# 1. An ordinal or superlative used for the person after 'als' or an article, written lowercase ('als nächster
#    dran', 'war die erste', 'als einzige'): the ending after the word before marks the gender.
DE_ORDINAL_STEMS = word_set("""erst zweit dritt viert fünft sechst siebt acht neunt zehnt letzt nächst einzig
                                best älte jüngst größt ärmst reichst schnellst""")
DE_ORDINAL_ENDINGS = {
    "m": {"als": "er", "ein": "er", "kein": "er", "der": "e", "den": "en", "dem": "en", "des": "en"},
    "f": {"als": "e", "eine": "e", "keine": "e", "die": "e", "einer": "en"},
}
# 2. An article with an adjective (or age: '25-jährigen') before a name that the English has ('der 25-jährigen
#    Shaquia Philpot' is feminine genitive, 'des jungen Max' masculine): article -> adjective ending of that gender.
DE_NAME_ARTICLE_ENDINGS = {
    "m": {"des": ("en",), "dem": ("en",), "den": ("en",), "der": ("e",), "ein": ("er",), "einem": ("en",),
          "einen": ("en",), "eines": ("en",), "dieser": ("e",), "diesem": ("en",), "diesen": ("en",)},
    "f": {"die": ("e",), "der": ("en",), "eine": ("e",), "einer": ("en",), "diese": ("e",), "dieser": ("en",)},
}
_ADJECTIVE_ENDINGS = ("e", "en", "er", "em", "es")


def _ordinal_for_person(tokens: list[Token], index: int, gender: str) -> bool:
    word = tokens[index].lower
    if index == 0 or not tokens[index].text[:1].islower():
        return False
    ending = DE_ORDINAL_ENDINGS[gender].get(tokens[index - 1].lower)
    if ending is None or not word.endswith(ending) or word[: -len(ending)] not in DE_ORDINAL_STEMS:
        return False
    following = tokens[index + 1].text if index + 1 < len(tokens) else "."
    return not following[:1].isupper() and not (following[:1].islower() and following.endswith(_ADJECTIVE_ENDINGS)
                                                 and following not in ("dran", "an", "in", "da", "er", "sie"))


def _adjective_before_name(tokens: list[Token], index: int, gender: str, names: frozenset[str]) -> bool:
    endings = DE_NAME_ARTICLE_ENDINGS[gender].get(tokens[index].lower)
    if endings is None:
        return False
    adjectives = []
    position = index + 1
    while position < len(tokens) and position <= index + 5:
        text = tokens[position].text
        if text in names and text[:1].isupper():
            break
        if text.isdigit() or text in ("-", "‐", "‑"):
            position += 1
            continue
        lower = text.lower()
        if not text[:1].isalpha() or not (text[:1].islower() or "jährig" in lower) or not lower.endswith(
                _ADJECTIVE_ENDINGS):
            return False
        adjectives.append(lower.rsplit("-", 1)[-1])
        position += 1
    else:
        return False
    return bool(adjectives) and any(adjectives[-1].endswith(e) for e in endings)


def german_gendered_modifier(pair: SentencePair, old_gender: str) -> bool:
    """A German article, adjective or ordinal that agrees with a person in the old gender and that no edit
    changes: 'als nächster dran' after a swap to a woman, 'der 25-jährigen Shaquia Philpot ... seiner Kinder'
    (a feminine genitive left beside a masculine possessive). The pair is skipped."""
    tokens = pair.de_tokens
    names = frozenset(t.text for t in pair.en_tokens if t.text[:1].isupper() and t.pos == "PROPN")
    return any(_ordinal_for_person(tokens, i, old_gender) or _adjective_before_name(tokens, i, old_gender, names)
               for i in range(len(tokens)))


def _inside(offset: int, edits: list[Edit]) -> bool:
    return any(edit.start <= offset < max(edit.end, edit.start + 1) for edit in edits)


def _overlapping(edits: list[Edit]) -> bool:
    return any(after.start < before.end for before, after in itertools.pairwise(edits))
