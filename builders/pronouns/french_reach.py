"""EN->FR checks after blind round 8: what else in reach the French pronoun or its variant can name.

Class 1: the kept pronoun can be read as a person in reach ("La radio est revenue. Si elle va bien, Mme Hawkes
pourra rentrer": *elle* reads as Mme Hawkes), so the item does not test the thing *it* refers to. Class 3: the
referent is also named by a generic noun of the variant's gender ("l'artefact ... cette chose ... il": the
variant *elle* reads as *la chose*), so the variant is plausible French. Each returns the word found or "".
Every rule reads the French pronoun's whole sentence (a person named after the pronoun counts: "Si elle va
bien, Mme Hawkes ...") and the French segment before it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import cache
from typing import Any

from builders.pronouns.german import word_set

# titles before a name ("Mme Hawkes", "M. Martin", "Monsieur le maire"): the gender of the person they name
TITLES = {
    **dict.fromkeys(["mme", "madame", "mlle", "mademoiselle", "mesdames"], "Fem"),
    **dict.fromkeys(["m.", "monsieur", "messieurs", "mm."], "Masc"),
}
# French person nouns of one gender (written for mtprobes): a person of the pronoun's gender when in reach
# ("type" is left out: "ce type d'information" is no man, seen on the development talks)
GENDERED_PERSONS = {
    "Masc": word_set(
        "homme garçon père frère fils oncle neveu mari époux roi prince grand-père papa monsieur gars mec "
        "copain cousin ami fiancé patron seigneur comte duc curé moine prêtre"
    ),
    "Fem": word_set(
        "femme fille mère sœur soeur tante nièce épouse reine princesse grand-mère maman dame demoiselle copine "
        "cousine amie fiancée patronne religieuse comtesse duchesse"
    ),
}
# generic nouns French uses of a thing or an animal already named otherwise ("le robot ... cette machine",
# "l'artefact ... ce truc"), or of people ("les gens" / "les personnes"): a generic noun of the variant's
# gender in reach makes the variant plausible
GENERIC_NOUNS = {
    "Fem": word_set("chose machine bestiole bête créature affaire personne"),
    "Masc": word_set("truc machin bidule objet engin appareil animal gens individu"),
}
SUBJECTS = frozenset({"nsubj", "nsubj:pass"})
ENGLISH_PERSON_SUBJECTS = {"Masc": word_set("he"), "Fem": word_set("she")}


def _number(token: Any) -> str:
    numbers = token.morph.get("Number")
    return numbers[0] if len(numbers) == 1 else ""


def _title_gender(token: Any) -> str:
    """The gender a title shows when a name follows it ("Mme Hawkes"), else ""."""
    gender = TITLES.get(token.lower_, "")
    following = token.doc[token.i + 1] if token.i + 1 < len(token.doc) else None
    named = following is not None and (following.pos_ == "PROPN" or following.text[:1].isupper()
                                       or following.lower_ in {"le", "la", "l'", "l’"})
    return gender if named else ""


@cache
def first_names() -> dict[str, str]:
    """Given name -> "Masc"/"Fem" (resources/pronouns/fr_first_names.tsv)."""
    from builders.core.resources import resource_path

    lines = resource_path("pronouns", "fr_first_names.tsv").read_text(encoding="utf-8").splitlines()
    rows = [line.split("\t") for line in lines if line.strip() and not line.startswith("#")]
    return {name: gender for name, gender in rows}


def _name_gender(token: Any) -> str:
    """The gender of a given name of one sex ("Marie", "Paul"), else ""; capitalised as written only."""
    return first_names().get(token.text, "") if token.pos_ in {"PROPN", "NOUN", "X"} else ""


def french_person_in_reach(tokens: Iterable[Any], pronoun: Any, gender: str, number: str,
                           is_person: Callable[[Any], bool]) -> str:
    """A person of the kept pronoun's gender and number in the French tokens: a title with a name or a given
    name of one sex (singular), a noun of one gender for people (GENDERED_PERSONS), or a noun of that gender
    tagged by the morphologizer whose aligned English word is a person noun (``is_person``: "le colonel" for
    "the colonel"). After the pronoun in its own sentence, a subject only."""
    for token in tokens:
        if token.doc is pronoun.doc and token.i >= pronoun.i and token.dep_ not in SUBJECTS:
            continue  # after the pronoun only a subject is read first ("Si elle va bien, Mme Hawkes ..."), not
            # a complement of its own verb ("Ils venaient d'étudiants": never the students)
        if number == "Sing" and (_title_gender(token) == gender or _name_gender(token) == gender):
            return str(token.text)
        if token.pos_ != "NOUN" or _number(token) != number:
            continue
        if token.lemma_.lower() in GENDERED_PERSONS[gender]:
            return str(token.text)
        if token.morph.get("Gender") == [gender] and is_person(token):
            return str(token.text)
    return ""


def english_person_subject(english_docs: Sequence[Any], gender: str, number: str) -> str:
    """An English subject he (kept "il") or she (kept "elle") in reach: the French pronoun may render it, or be
    read as that person ("The colonel came back. He ..."). Subjects only, as for the variant (french_checks)."""
    if number != "Sing":
        return ""
    words = ENGLISH_PERSON_SUBJECTS[gender]
    return next((t.text for doc in english_docs for t in doc
                 if t.lower_ in words and t.dep_ in {"nsubj", "nsubjpass"}), "")


def generic_noun_in_reach(tokens: Iterable[Any], pronoun: Any, gender: str, number: str) -> str:
    """A generic noun (chose, machine, truc, objet, personne ...) of the variant's gender and number in the
    French tokens; after the pronoun in its own sentence, a subject only (as for persons)."""
    nouns = GENERIC_NOUNS[gender]
    for token in tokens:
        if token.doc is pronoun.doc and token.i >= pronoun.i and token.dep_ not in SUBJECTS:
            continue
        if token.pos_ == "NOUN" and token.lemma_.lower() in nouns and _number(token) == number:
            return str(token.text)
    return ""
