"""What the German text around the pronoun says of its referent (issue 23, blind round 5 classes 1, 2 and 4).

- Class 1 (``resumptions``, ``gender_inconsistent``): the German reference resumes the same referent with a
  personal pronoun of another gender (a translation inconsistency: *den Wechselbalg … Es hat … Er darf …*).
  The item's gender is then not what the German text agrees with, and the other gender is as right: drop.
- Class 2 (``predicate_genders``): a copular predicate noun or an apposition describing the antecedent or one
  of its pronouns (*Dieser Ort ist die Hölle*, *Der Club war nur eine Fassade*): a pronoun of that noun's
  gender reads as right (*sie* for *die Hölle*), so that variant is no contrast.
- Class 4 (``person_genders``): an English he/she (the German er/sie of a person) in the pronoun's segment or
  the one before it: a variant of that person's gender reads as the person (*Sie schreibt den Brief. … dass sie
  auf dem Weg ist*), so that variant is no contrast.

Word lists are ours (German and English grammar, not copied from any resource)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from builders.pronouns.german import ARTICLES, CLAUSE_BREAKS, GToken, NounEntry, is_formal_sie, word_set
from builders.pronouns.quality import german_structure_reason

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

# German personal pronouns whose gender is unambiguous (ihm: masculine or neuter, ihr: dative or plural)
PRONOUN_GENDER = {"er": "Masc", "ihn": "Masc", "sie": "Fem", "es": "Neut"}
PERSON_GENDER_OF = {
    **{word: "Masc" for word in ("he", "him", "his", "himself")},
    **{word: "Fem" for word in ("she", "her", "hers", "herself")},
}
# segments before the pronoun's that are read for a person or a resumption (besides the antecedent's)
PERSON_REACH = 1
PREDICATE_COPULAS = word_set("ist war sei wäre bleibt blieb wird wurde würde")
# words that may stand between the copula and the predicate's article ("ist nur eine Fassade")
BEFORE_PREDICATE = word_set(
    "nur auch doch ja wirklich eigentlich schon immer noch nicht nie bloß eben halt wohl sicher vielleicht "
    "einfach echt tatsächlich längst gar ganz mehr als wie heute jetzt nun dann damals"
)


def resumptions(
    docs: Sequence[Doc | None],
    german: Sequence[Sequence[GToken]],
    aligned: Callable[[int, int], list[int]],
    referential: Callable[[Token], bool],
    head: tuple[int, int],
    probed: tuple[int, int],
) -> list[tuple[int, int, str]]:
    """(segment, German token, gender) of every German er/ihn/sie/es aligned to a referential English *it*
    after the antecedent's English ``head`` and up to the probed *it* (both (segment, English token)), the
    German pronoun itself no expletive or idiom (*Es gibt ihn*: quality's German rules). An *it* before the
    antecedent is left out: in the development data it named another referent (the telephone service of the
    segment before *You rented your phone*)."""
    found: list[tuple[int, int, str]] = []
    for k in range(head[0], probed[0] + 1):
        doc = docs[k]
        if doc is None:
            continue
        for token in doc:
            if token.lower_ != "it" or not head < (k, token.i) < probed or not referential(token):
                continue
            found.extend(
                (k, j, PRONOUN_GENDER[german[k][j].text.lower()])
                for j in aligned(k, token.i)
                if german[k][j].text.lower() in PRONOUN_GENDER and not is_formal_sie(list(german[k]), j)
                and not german_structure_reason(german[k], j) and not es_gibt(german[k], j)
            )
    return found


GEBEN = word_set("gibt gab gäbe geben gegeben")


def es_gibt(tokens: Sequence[GToken], index: int) -> bool:
    """*es* of *es gibt* (*Es gibt ihn nicht online*, *Gibt es ihn?*): an expletive, not the referent."""
    near = tokens[max(0, index - 1) : index + 3]
    return tokens[index].text.lower() == "es" and any(t.text.lower() in GEBEN for t in near)


def gender_inconsistent(found: Iterable[tuple[int, int, str]], gender: str) -> bool:
    """A resumption of the referent (an *it* the German translates with a personal pronoun) of another gender."""
    return any(g != gender for _, _, g in found)


def person_genders(docs: Sequence[Doc | None], segment: int) -> frozenset[str]:
    """Genders of the English he/she words in the pronoun's segment and the ``PERSON_REACH`` ones before it."""
    genders: set[str] = set()
    for k in range(max(0, segment - PERSON_REACH), segment + 1):
        doc = docs[k]
        if doc is not None:
            genders |= {PERSON_GENDER_OF[t.lower_] for t in doc if t.lower_ in PERSON_GENDER_OF}
    return frozenset(genders)


def _noun_phrase_gender(
    tokens: Sequence[GToken], start: int, noun_at: Callable[[int], NounEntry | None], skip: frozenset[str]
) -> NounEntry | None:
    """The noun of ``[skip words] article [lower-case adjectives] Noun`` from ``start``, or None."""
    k = start
    while k < len(tokens) and tokens[k].text.lower() in skip:
        k += 1
    if k >= len(tokens) or tokens[k].text.lower() not in ARTICLES:
        return None
    k += 1
    while k < len(tokens) and tokens[k].text[:1].islower() and tokens[k].text not in CLAUSE_BREAKS:
        k += 1
    return noun_at(k) if k < len(tokens) and tokens[k].text[:1].isupper() else None


def _clause_after(tokens: Sequence[GToken], index: int) -> range:
    """From the mention to the next punctuation mark: a predicate of the mention stands there."""
    end = index + 1
    while end < len(tokens) and tokens[end].text not in CLAUSE_BREAKS:
        end += 1
    return range(index + 1, end)


def predicate_nouns(
    tokens: Sequence[GToken], index: int, noun_at: Callable[[int], NounEntry | None]
) -> list[NounEntry]:
    """Nouns said of the mention at ``index``: the predicate of a copula after it in its clause (*Dieser Ort ist
    die Hölle*, *Er war nur eine Fassade*), or an apposition right after it (*Der Club, eine Fassade, …*)."""
    found: list[NounEntry] = []
    if index + 1 < len(tokens) and tokens[index + 1].text == ",":
        entry = _noun_phrase_gender(tokens, index + 2, noun_at, frozenset())
        found += [entry] if entry is not None else []
    for k in _clause_after(tokens, index):
        if tokens[k].text.lower() in PREDICATE_COPULAS:
            entry = _noun_phrase_gender(tokens, k + 1, noun_at, BEFORE_PREDICATE)
            found += [entry] if entry is not None else []
            break
    return found


def _in_segment(noun_at: Callable[[int, int], NounEntry | None], segment: int) -> Callable[[int], NounEntry | None]:
    return lambda j: noun_at(segment, j)


def predicate_genders(
    german: Sequence[Sequence[GToken]],
    noun_at: Callable[[int, int], NounEntry | None],
    mentions: Iterable[tuple[int, int]],
    gender: str,
) -> frozenset[str]:
    """Genders other than ``gender`` of the singular predicate or apposition nouns said of any mention
    (segment, token): the antecedent's head, the probed pronoun, its chain and its resumptions."""
    genders: set[str] = set()
    for segment, index in mentions:
        for entry in predicate_nouns(german[segment], index, _in_segment(noun_at, segment)):
            if not entry.singular_in(gender):
                genders |= {g for g in ("Masc", "Fem", "Neut") if entry.singular_in(g)}
    return frozenset(genders)
