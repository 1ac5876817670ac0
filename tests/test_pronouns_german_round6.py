"""Issue 23, blind round 6 class 2: case of the swapped pronoun; our own sentences."""

from __future__ import annotations

import pytest
from german_case_probe import case_of_last

from builders.pronouns.german import tokenize


@pytest.mark.parametrize(
    "text, word, case",
    [
        ("Worauf deutet es?", "es", "nom"),  # a wh-adverb is no subject: the pronoun after the verb is
        ("Woran erkennt man sie?", "sie", "acc"),  # an earlier nominative pronoun still decides
        ("Wie lange wird es offen bleiben?", "es", "nom"),  # werden ... bleiben: no accusative
        ("Und dann wird sie geschlossen sein.", "sie", "nom"),
        ("Wir werden es sein.", "es", ""),  # a predicate after a subject pronoun: undecided
        # a relative "der" is nominative masculine or dative feminine: undecided (was "der er" as a variant)
        ("Das ist der Knopf, der es zurücksetzt.", "es", ""),
        ("Das ist die Frau, der es gehört.", "es", ""),
        ("Das ist der Knopf, den es braucht.", "es", "nom"),  # an accusative relative: the pronoun is subject
    ],
)
def test_case_of_round6_frames(text: str, word: str, case: str) -> None:
    assert case_of_last(text, word) == case, text


@pytest.mark.parametrize(
    "text, position, expletive",
    [
        ("Es geht nur darum, es richtig zu verfolgen.", 0, True),  # es geht darum
        ("Es geht nur darum, es richtig zu verfolgen.", 5, False),  # the object of verfolgen
        ("Aber es gibt es.", 1, True),  # the expletive of es gibt comes first
        ("Aber es gibt es.", 3, False),
        ("Es gibt seinen Bauern Geld.", 0, False),  # a referential give (gold g032)
        ("Heute regnet es.", 2, True),
        ("Es kommt darauf an, wie man es benutzt.", 0, True),
        ("Es handelt sich um einen Fehler.", 0, True),
        ("Es steht im Keller.", 0, False),
    ],
)
def test_expletive_es(text: str, position: int, expletive: bool) -> None:
    from builders.pronouns.german_chain import expletive_es

    tokens = tokenize(text)
    assert tokens[position].text.lower() == "es"
    assert expletive_es(tokens, position) == expletive, text
