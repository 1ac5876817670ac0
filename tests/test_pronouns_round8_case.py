"""Issue 23, blind round 8 (DE case and expletive es); our own sentences."""

from __future__ import annotations

import pytest
from german_case_probe import case_of_last

from builders.pronouns.german import tokenize
from builders.pronouns.german_chain import expletive_es


@pytest.mark.parametrize(
    ("text", "word", "case"),
    [
        # class 1: the V2 verb after a fronted subordinate clause is no imperative
        ("Als wir uns herumdrehten, ging es los.", "es", "nom"),
        ("Sobald der Regen aufhörte, fing sie wieder an.", "sie", "nom"),
        ("Okay, bring es rein.", "es", "acc"),
        ("Nimm es mit.", "es", "acc"),
        # class 2: relative die/das/den/dem + pronoun is undecided
        ("Wir brauchen eine Gemeinschaft, die es am Leben erhält.", "es", ""),
        ("Es ist etwas, das sie mit Energie versorgt.", "sie", ""),
        ("Das ist der Schrank, den sie gebaut hat.", "sie", "nom"),  # den is no subject
        # class 3: a comma clause or conjunct without a finite verb, opened by the pronoun
        ("Ich habe das Radio genommen, es zum Laufen gebracht, aber dann ging etwas kaputt.", "es", ""),
        ("Sobald wir das Foto bekommen und es mit den Karten vergleichen, wissen wir mehr.", "es", ""),
        ("Er kam nach Hause und sie lief weg.", "sie", "nom"),
        # class 4: copula + pronoun + predicate das/es
        ("Und am Ende war sie das auch.", "sie", "nom"),
        ("Vielleicht wird es das nie.", "es", "nom"),
    ],
)
def test_round8_case(text: str, word: str, case: str) -> None:
    assert case_of_last(text, word) == case, text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Deshalb juckt es so.", True),
        ("Es juckt mich am Arm.", True),
        ("Mich friert es.", True),
        ("Es steht im Regal.", False),
        ("Es steht sein Name drauf.", True),
        ("Es kommen viele Leute.", True),
        ("Es kommt heute an.", False),
        ("Dann steht es seine Zeit ab.", False),
    ],
)
def test_sensation_es_is_expletive(text: str, expected: bool) -> None:
    tokens = tokenize(text)
    index = next(k for k, t in enumerate(tokens) if t.text.lower() == "es")
    assert expletive_es(tokens, index) is expected, text
