"""German-side structure filters (issue 11 classes 1 and 2), on sentences written for these tests."""

from __future__ import annotations

import pytest

from builders.pronouns.german import tokenize
from builders.pronouns.quality import german_structure_reason


def reason(sentence: str, pronoun: str) -> str:
    tokens = tokenize(sentence)
    index = next(i for i, t in enumerate(tokens) if t.text.lower() == pronoun)
    return german_structure_reason(tokens, index)


@pytest.mark.parametrize(
    ("sentence", "pronoun", "expected"),
    [
        ("Es ist wichtig, dass wir handeln.", "es", "german_es_extraposed"),
        ("Am Ende war es allen klar, dass er scheitern würde.", "es", "german_es_extraposed"),
        ("Es wäre gut, wenn wir früher kämen.", "es", "german_es_extraposed"),
        ("Es ist schwer zu sagen.", "es", "german_es_extraposed"),
        ("Es ging um die Wasserpreise.", "es", "german_es_geht_um"),
        ("Wenn es um Geld geht, streiten sie.", "es", "german_es_geht_um"),
        ("Er ist ein zentrales Projekt der Koalition.", "er", "german_copula_noun_predicate"),
        ("Für mich ist es ein typisches Beispiel.", "es", "german_copula_noun_predicate"),
        ("Sie ist nur eine Frage der Zeit.", "sie", "german_copula_noun_predicate"),
        # referential: kept
        ("Es war sehr alt.", "es", ""),
        ("Sie funktioniert gut.", "sie", ""),
        ("Ich versuche, es zu verstehen.", "es", ""),
        ("Er ist aus Eiche, und das Holz ist hart.", "er", ""),
        ("Er ist in der Stadt.", "er", ""),
        ("Sie ist doch eine gute Idee.", "sie", "german_copula_noun_predicate"),
        ("Er wird die Welt verändern.", "er", ""),
        ("Sie wurde den Bürgern vorgestellt.", "sie", ""),
        ("Er wurde ein Erfolg.", "er", "german_copula_noun_predicate"),
        ("Als die Brücke fertig war, war sie die längste im Land.", "sie", ""),
        ("Es hörte auf, bevor ich abnahm.", "es", ""),
    ],
)
def test_german_structure_reason(sentence: str, pronoun: str, expected: str) -> None:
    assert reason(sentence, pronoun) == expected
