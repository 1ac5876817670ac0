"""What the German text says of the referent (german_referent; issue 23 blind round 5 classes 1-4); our sentences."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from builders.pronouns.german import GToken, NounEntry, tokenize
from builders.pronouns.german_case import german_case
from builders.pronouns.german_referent import (
    gender_inconsistent,
    person_genders,
    predicate_genders,
    resumptions,
)
from builders.pronouns.german_variants_filter import es_situational

NOUNS = {
    "hölle": NounEntry("Hölle", frozenset({"Fem"}), False),
    "fassade": NounEntry("Fassade", frozenset({"Fem"}), False),
    "ort": NounEntry("Ort", frozenset({"Masc"}), False),
    "club": NounEntry("Club", frozenset({"Masc"}), False),
    "stadt": NounEntry("Stadt", frozenset({"Fem"}), False),
    "ding": NounEntry("Ding", frozenset({"Neut"}), False),
    "wunder": NounEntry("Wunder", frozenset({"Neut"}), False),
    "treffpunkt": NounEntry("Treffpunkt", frozenset({"Masc"}), False),
}


@dataclass(frozen=True)
class Word:
    """The two attributes of a spaCy token the rules read."""

    lower_: str
    i: int


def _doc(text: str) -> list[Word]:
    return [Word(t.text.lower(), k) for k, t in enumerate(tokenize(text))]


def _resumptions(pairs: list[tuple[str, str]], head: tuple[int, int], probed: tuple[int, int]) -> list:
    """English and German segments of one length each, aligned word by word (our sentences are written so)."""
    docs = [_doc(en) for en, _ in pairs]
    german = [tokenize(de) for _, de in pairs]
    return resumptions(docs, german, lambda k, i: [i], lambda t: True, head, probed)  # type: ignore[arg-type]


def test_a_resumption_of_another_gender_drops_the_item() -> None:
    pairs = [
        ("We bought a cleaner .", "Wir kauften einen Staubsauger ."),
        ("It is loud .", "Es ist laut ."),
        ("But it works well .", "Aber er arbeitet gut ."),
    ]
    found = _resumptions(pairs, (0, 3), (2, 1))
    assert found == [(1, 0, "Neut")]
    assert gender_inconsistent(found, "Masc")
    assert not gender_inconsistent(found, "Neut")


@pytest.mark.parametrize(
    "pairs, head, probed",
    [
        # the same gender throughout
        ([("We bought a cleaner .", "Wir kauften einen Staubsauger ."), ("It is loud .", "Er ist laut ."),
          ("But it works well .", "Aber er arbeitet gut .")], (0, 3), (2, 1)),
        # an "it" before the antecedent names something else
        ([("It came from the service .", "Er kam vom Dienst her ."), ("You rented the phone and bought it .",
          "Man mietete das Telefon und kaufte es .")], (1, 3), (1, 6)),
        # the German "es" of "es gibt" is no resumption
        ([("The film is new .", "Der Film ist neu ."), ("It is not there .", "Es gibt ihn nicht ."),
          ("It is good .", "Er ist gut .")], (0, 1), (2, 0)),
    ],
)
def test_no_resumption_of_another_gender(pairs: list[tuple[str, str]], head: tuple[int, int],
                                         probed: tuple[int, int]) -> None:
    assert not gender_inconsistent(_resumptions(pairs, head, probed), "Masc"), pairs


def _predicates(texts: list[str], mentions: list[tuple[int, int]], gender: str) -> frozenset[str]:
    german: list[list[GToken]] = [tokenize(t) for t in texts]

    def noun_at(k: int, j: int) -> NounEntry | None:
        return NOUNS.get(german[k][j].text.lower())

    return predicate_genders(german, noun_at, mentions, gender)


@pytest.mark.parametrize(
    "texts, mentions, gender, expected",
    [
        (["Dieser Ort ist die Hölle .", "Er ist weit weg ."], [(0, 1), (1, 0)], "Masc", {"Fem"}),
        (["Der Club war nur eine Fassade ."], [(0, 1)], "Masc", {"Fem"}),
        (["Der Club , eine Fassade , schloss ."], [(0, 1)], "Masc", {"Fem"}),
        (["Er ist ein echtes Wunder ."], [(0, 0)], "Masc", {"Neut"}),  # said of a pronoun of the chain
        (["Der Ort ist ein Treffpunkt ."], [(0, 1)], "Masc", set()),  # the item's own gender: no contrast lost
        (["Der Ort liegt in der Stadt ."], [(0, 1)], "Masc", set()),  # no copula: a place, not a predicate
        (["Der Club ist in der Stadt ."], [(0, 1)], "Masc", set()),  # a preposition, not an article, follows
    ],
)
def test_predicate_noun_of_a_variant_gender(texts: list[str], mentions: list[tuple[int, int]], gender: str,
                                            expected: set[str]) -> None:
    assert _predicates(texts, mentions, gender) == expected, texts


def test_persons_in_reach_are_the_segment_and_the_one_before() -> None:
    docs = [_doc("He left ."), _doc("My sister writes the letter ."), _doc("She says it is in the drawer .")]
    assert person_genders(docs, 2) == {"Fem"}  # type: ignore[arg-type]
    assert person_genders(docs, 1) == {"Masc"}  # type: ignore[arg-type]
    assert person_genders([_doc("It is red .")], 0) == frozenset()  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "text, pronoun, situational",
    [
        ("Er tut sehr weh.", "er", True),
        ("Passt sie?", "sie", True),
        ("Sie sieht gut aus.", "sie", True),
        ("Er kann gut sein.", "er", True),
        ("Sie führt zu nichts.", "sie", True),
        ("Dabei handelt er sich um einen Fehler.", "er", True),
        ("Wie geht er?", "er", True),
        ("Er hilft nichts.", "er", True),
        ("Er tut seine Arbeit.", "er", False),  # "tun" without "weh"
        ("Sie führt durch den Wald.", "sie", False),  # "führen" without "zu"
        ("Er sieht rot.", "er", False),  # "sehen" without "aus"
    ],
)
def test_impersonal_frames_make_the_es_variant_right(text: str, pronoun: str, situational: bool) -> None:
    tokens = tokenize(text)
    index = next(k for k, t in enumerate(tokens) if t.text.lower() == pronoun)
    assert es_situational(tokens, index, german_case(tokens, index)) == situational, text
