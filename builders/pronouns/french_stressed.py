"""Stressed pronouns of the referent, flipped with the subject (EN->FR helper round, class 2).

"Les filles de la fac, elles ont grossi et je ne veux plus sortir avec elles.": a variant "ils ... avec elles"
keeps the old gender in the stressed pronoun of the same referent and gives the answer away. The old rules
dropped every such item (agreement_unresolved_stressed_pronoun), but missed the ones the small parser made a
subject ("grâce à elles nous gagnons": elles nsubj) or with only punctuation after them ("je ne regarde
qu'elles."), which kept it. A stressed pronoun of the old form (french_targets.stressed_pronoun) is now flipped
with the subject ("avec eux", "d'elle" -> "de lui") when it is sure to be the same referent: it renders an English
pronoun of the referent's own kind ("with them" for *they*, "with it" for *it*), and no noun of its gender and
number in the segments from the antecedent's to the pronoun's (other than the antecedent's own) could be what it
stands for. With such a noun the item is dropped (agreement_unresolved_stressed_pronoun_rival_noun); a stressed
pronoun that renders no such English pronoun ("with her", or none) is left to the old checks, which drop the item.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from builders.pronouns.english import pleonastic_reason
from builders.pronouns.extract import Drop, Segment, aligned_english
from builders.pronouns.french import FORMS
from builders.pronouns.french_checks import consistent_entry
from builders.pronouns.french_targets import stressed_pronoun
from builders.pronouns.german import NounEntry, word_set

if TYPE_CHECKING:
    from builders.pronouns.french import FrenchAnalyser

# English pronouns a stressed French pronoun of the referent renders, by its number (the probed it / they)
REFERENT_PRONOUNS = {"Sing": word_set("it itself"), "Plur": word_set("them they themselves")}
# what makes a noun referential: a determiner, a possessive or a numeral ("en panne", "par exemple" name nothing)
DETERMINER_DEPS = frozenset({"det", "nummod"})


def chain_stressed(segments: Sequence[Segment], sentence: int, index: int, antecedent: tuple[int, str],
                   genders: dict[str, tuple[set[str], set[str]]], analyser: FrenchAnalyser) -> frozenset[int]:
    """spaCy indices, in the pronoun's segment, of the stressed pronouns of its form that stand for its referent;
    Drop when one renders a pronoun of the referent's kind but a rival noun is in reach.
    ``antecedent``: the antecedent's segment and French lemma."""
    segment = segments[sentence]
    form = FORMS[segment.german[index].text.lower()]
    old = (form.gender, form.number)
    parse = analyser.parse(segment.tgt)
    starts = {word.start: j for j, word in enumerate(segment.german)}
    found = frozenset(
        token.i for token in parse
        if stressed_pronoun(token, old) and token.idx in starts
        # otherwise the old checks drop it: another referent, or nothing tells
        and _renders_referent_pronoun(segment, starts[token.idx], form.number)
    )
    if found:
        reach = [analyser.parse(s.tgt) for s in segments[antecedent[0] : sentence + 1]]
        if rival_noun_in_reach(reach, old, genders, antecedent[1]):
            raise Drop("agreement_unresolved_stressed_pronoun_rival_noun")
    return found


def _renders_referent_pronoun(segment: Segment, french_index: int, number: str) -> bool:
    """The French word is aligned to a referential English pronoun of the probed word's kind."""
    return any(t.lower_ in REFERENT_PRONOUNS[number] and not (t.lower_ == "it" and pleonastic_reason(t))
               for t in aligned_english(segment, french_index))


def rival_noun_in_reach(docs: Sequence[Any], old: tuple[str, str], genders: dict[str, tuple[set[str], set[str]]],
                        antecedent_lemma: str) -> str:
    """A referential noun of the pronoun's gender and number in ``docs`` other than the antecedent's: what a
    stressed pronoun may stand for instead. A noun whose gender the document leaves unsettled counts, and one whose
    determiner shows the gender whatever the noun's tag. Returns its text or ""."""
    for doc in docs:
        for token in doc:
            if token.pos_ != "NOUN" or token.morph.get("Number") not in ([old[1]], []):
                continue
            if token.lemma_.lower() == antecedent_lemma.lower() or not _determined(token):
                continue
            entry = consistent_entry(NounEntry(token.lemma_.lower(), frozenset(token.morph.get("Gender")), False),
                                     genders)
            shown = {g for c in token.children if c.dep_ == "det" for g in c.morph.get("Gender")}
            if entry is None or old[0] in entry.genders | shown or not entry.genders:
                return str(token.text)  # "le camion" tagged Fem: its article's gender counts too
    return ""


def _determined(token: Any) -> bool:
    return any(c.dep_ in DETERMINER_DEPS for c in token.children)


__all__ = ["chain_stressed", "rival_noun_in_reach"]
