"""Adverbial material between a French copula and its predicate (EN->FR helper round, class 1).

"Elles sont en partie justifiées", "elle n'est pas du tout contente", "ils sont, selon le rapport, justifiés":
a prepositional phrase or an incise between *être* and the participle made the small parser take the phrase's noun
for the predicate (*partie* ROOT, *justifiées* its acl) or tag the participle ADV without gender, so the variant
kept the old gender ("Ils sont en partie justifiées"). This module reads the adjuncts off the words after the
copula, whatever their parse: adverbs (the caller's test), listed adverbial locutions, incises between commas, and
prepositional phrases. The word after them is the predicate's place; after an unlisted prepositional phrase that
word may also be an adjective of the phrase's noun ("elle est dans une boîte fermée"), which the caller decides
from agreement (``PhraseNoun``). The locutions were written for mtprobes from French grammar.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from builders.pronouns.german import word_set

# adverbial locutions with a preposition or a noun, written as the tokenizer splits them ("d'abord": d' abord)
LOCUTIONS: tuple[tuple[str, ...], ...] = tuple(tuple(re.findall(r"[^\s'’]+['’]?", phrase)) for phrase in (
    "à la fois", "tout à fait", "de plus en plus", "de moins en moins", "en fait", "en effet", "de nouveau",
    "bien sûr", "un peu", "avant tout", "à nouveau", "en partie", "en grande partie", "pour partie",
    "pour la plupart", "en général", "en principe", "en réalité", "en outre", "en plus", "de plus",
    "en fin de compte", "au fond", "au départ", "au début", "au final", "à la fin", "au moins", "du moins",
    "du coup", "du tout", "de toute façon", "de toute manière", "de toutes façons", "de toutes manières",
    "dans l'ensemble", "dans l’ensemble", "à peine", "à juste titre", "à tort", "à raison", "à ce jour",
    "à l'heure actuelle", "à l’heure actuelle", "à présent", "pour le moment", "pour l'instant", "pour l’instant",
    "en ce moment", "de fait", "en tout cas", "en aucun cas", "par ailleurs", "par conséquent", "par exemple",
    "sans doute", "sans aucun doute", "à mon avis", "à son tour", "à leur tour", "en quelque sorte",
    "d'abord", "d’abord", "d'ailleurs", "d’ailleurs", "en même temps", "en particulier", "en revanche",
    "par contre", "bel et bien", "à moitié", "à jamais", "pour toujours", "de loin", "dès lors", "peu à peu",
    "de même", "à cet égard", "de temps en temps", "en permanence", "à chaque fois", "chaque fois",
    "tout de suite", "à l'origine", "à l’origine", "à l'époque", "à l’époque", "à cette époque",
    "pour la première fois", "pour la dernière fois", "une fois de plus", "une nouvelle fois", "à la base",
    "en gros", "en somme", "en bref", "en tout", "au total", "en partie seulement", "plus ou moins",
    "tout simplement", "tout de même", "quand même", "à coup sûr", "pour de bon", "pour de vrai", "sans cesse",
    "par la suite", "la plupart du temps", "tout le temps", "de plus en plus souvent", "à chaque instant",
))
# prepositions, the contracted articles among them ("au fond", "du coup", "aux yeux de")
PREPOSITIONS = word_set("à a de d' d’ du des au aux pour avec sans chez sur sous en par contre vers derrière devant "
                        "parmi selon après avant envers malgré dans dès depuis pendant durant entre hors grâce")
CONTRACTED = word_set("du des au aux")
DETERMINERS = word_set("le la l' l’ les un une des du ce cet cette ces mon ma mes ton ta tes son sa ses notre nos "
                       "votre vos leur leurs tout toute tous toutes chaque quelque quelques certains certaines "
                       "plusieurs aucun aucune")
PRE_NOMINAL_TAGS = frozenset({"ADJ", "NUM"})  # "en grande partie", "à juste titre", "pour la première fois"
NOMINAL_TAGS = frozenset({"NOUN", "PROPN", "PRON"})  # "selon le rapport", "selon eux"
NOUN_COMPLEMENTS = word_set("de d' d’ du des")  # "aux yeux de la loi": the last noun is the one before the word


# prepositions whose phrase is never the predicate of "être" ("elle est depuis la guerre abandonnée"): the subject's
# predicate is still to come, so an agreeing word after the phrase may be it even after a determiner
ADJUNCT_PREPOSITIONS = word_set("depuis pendant durant selon malgré dès lors grâce")


# nouns of complex prepositions ("aux yeux de", "au cours de", "au sein de", "à la suite de", "à cause de"): the
# phrase they open is an adjunct, like one of ADJUNCT_PREPOSITIONS
PREPOSITION_NOUNS = word_set("yeux cours sein suite cause terme issue moment instar lieu travers faveur veille "
                             "lendemain époque temps fin début")


@dataclass(frozen=True)
class PhraseNoun:
    """The noun ending the prepositional phrase right before the predicate's place; whether the phrase has a
    determiner of its own ("dans une boîte": an adjective after it most likely agrees with the noun); the gender
    its determiner shows ("" when none: "l'", "les", a bare noun; the small model's tag of the noun itself is not
    trusted: "de couleur verte" has couleur Masc); its first preposition."""

    noun: Any
    determined: bool
    shown_gender: str
    preposition: str
    adjunct: bool  # never the predicate of être: ADJUNCT_PREPOSITIONS, or a complex one ("aux yeux de la loi")

    @property
    def characterizing(self) -> bool:
        """A bare "de" phrase, whose adjective is its noun's: "de couleur verte", "d'origine française"."""
        return self.preposition in NOUN_COMPLEMENTS and not self.determined


def skip_adjuncts(words: Sequence[Any], single: Callable[[Any], bool]) -> tuple[int, PhraseNoun | None]:
    """(the position of the first word after the adjuncts at the start of ``words``, the noun of the unlisted
    prepositional phrase right before it or None). ``single``: the caller's test of a one-word adverb."""
    position: int = 0
    phrase: PhraseNoun | None = None
    while position < len(words):
        end, found = _one_adjunct(words, position, single)
        if end == position:
            break
        position, phrase = end, found
    return position, phrase


def _one_adjunct(words: Sequence[Any], position: int, single: Callable[[Any], bool]) -> tuple[int, PhraseNoun | None]:
    """The end of the adjunct starting at ``position`` (``position`` itself when none starts there)."""
    length = _locution_length(words, position)  # before the one-word test: "bien sûr", "tout à fait"
    if length:
        return position + length, None
    if single(words[position]):
        return position + 1, None
    if words[position].text == ",":
        return _incise_end(words, position, single), None
    return prepositional_phrase(words, position)


def _locution_length(words: Sequence[Any], position: int) -> int:
    lowered = tuple(str(t.lower_) for t in words[position : position + 6])
    return max((len(locution) for locution in LOCUTIONS if lowered[: len(locution)] == locution), default=0)


def _incise_end(words: Sequence[Any], position: int, single: Callable[[Any], bool]) -> int:
    """ ", bien sûr, " / ", selon le rapport, ": adjuncts only between two commas; the word after the second
    comma is the predicate's place whatever noun the incise has (it cannot modify a noun inside the commas)."""
    inner, _ = skip_adjuncts(words[position + 1 :], single)
    closing = position + 1 + inner
    if inner and closing < len(words) and words[closing].text == ",":
        return closing + 1
    return position


def prepositional_phrase(words: Sequence[Any], position: int) -> tuple[int, PhraseNoun | None]:
    """A preposition, determiners, pre-nominal adjectives and a noun (or a stressed pronoun), with the noun's
    complements in "de": (its end, its last noun); (``position``, None) when no such phrase starts there."""
    first = words[position]
    if first.lower_ not in PREPOSITIONS:
        return position, None
    cursor = position + 1
    while cursor < len(words) and words[cursor].lower_ in DETERMINERS:
        cursor += 1
    determined = cursor > position + 1 or first.lower_ in CONTRACTED
    shown = {gender for t in words[position:cursor] for gender in _shown_genders(t)}
    while cursor + 1 < len(words) and words[cursor].pos_ in PRE_NOMINAL_TAGS:
        cursor += 1
    if cursor >= len(words) or words[cursor].pos_ not in NOMINAL_TAGS or not words[cursor].is_alpha:
        return position, None
    gender = shown.pop() if len(shown) == 1 else ""
    adjunct = first.lower_ in ADJUNCT_PREPOSITIONS
    end, phrase = cursor + 1, PhraseNoun(words[cursor], determined, gender, str(first.lower_), adjunct)
    if end < len(words) and words[end].lower_ in NOUN_COMPLEMENTS:
        complement_end, complement = prepositional_phrase(words, end)
        if complement is not None:  # the last noun, under the first preposition ("aux yeux de la loi")
            adjunct = adjunct or complement.adjunct or words[cursor].lower_ in PREPOSITION_NOUNS
            end, phrase = complement_end, PhraseNoun(complement.noun, complement.determined,
                                                     complement.shown_gender, phrase.preposition, adjunct)
    return end, phrase


GENDERED_WORDS = {"du": "Masc", "au": "Masc"}  # contracted articles show the masculine


def _shown_genders(token: Any) -> list[str]:
    """The gender a determiner or contracted article shows ("la", "une", "cette", "du"), none for "l'", "les"."""
    if token.lower_ in GENDERED_WORDS:
        return [GENDERED_WORDS[token.lower_]]
    return list(token.morph.get("Gender")) if token.lower_ in DETERMINERS else []


def drop_listed_locutions(words: Sequence[Any], separators: frozenset[str]) -> list[Any]:
    """``words`` without the listed locutions right after a separator: "justifiés et en partie exagérés" lists
    "exagérés" after "et" (the list ended at "en" before)."""
    kept: list[Any] = []
    position = 0
    while position < len(words):
        kept.append(words[position])
        after_separator = words[position].lower_ in separators
        position += 1
        if after_separator:
            position += _locution_length(words, position)
    return kept


def agrees_with_noun(phrase: PhraseNoun, gender: str, number: str) -> bool:
    """The phrase's noun may be what a word of ``gender`` and ``number`` agrees with: its number (the noun's tag;
    none counts as agreeing) and the gender its determiner shows (none shown counts as agreeing)."""
    noun_number = phrase.noun.morph.get("Number")
    return noun_number in ([number], []) and phrase.shown_gender in {gender, ""}


__all__ = ["LOCUTIONS", "PhraseNoun", "agrees_with_noun", "drop_listed_locutions", "prepositional_phrase",
           "skip_adjuncts"]
