"""Issue 23, blind round 10 (es items), fixed as classes on our own sentences: more English set phrases whose
"it" names nothing, "Das ist es" (an identification: "es" whatever the referent's gender) and "es läuft gut"."""

from __future__ import annotations

import pytest
from english_it_probe import it_reason

from builders.pronouns.german import tokenize
from builders.pronouns.german_variants_filter import _es_reason
from builders.pronouns.quality import german_structure_reason


@pytest.mark.parametrize(
    ("sentence", "reason"),
    [
        ("No, that's not it.", "idiom"),
        ("This isn't it.", "idiom"),
        ("Is that it?", "idiom"),
        ("I mean... that's it.", "idiom"),
        ("Come on, spit it out!", "idiom"),
        ("Knock it off!", "idiom"),
        ("Just get on with it.", "idiom"),
        ("Let's get it over with.", "idiom"),
        ("Now that you mention it, I was there.", "idiom"),
        ("Come to think of it, she never called.", "idiom"),
        # referential uses stay: an object or a complement after the fixed words
        ("He spit it onto the floor.", ""),
        ("Is that it on the table?", ""),
        ("She got it over the fence.", ""),
    ],
)
def test_more_fixed_it_expressions(sentence: str, reason: str) -> None:
    assert it_reason(sentence) == reason, sentence

def _index(tokens: list, word: str) -> int:
    return max(i for i, t in enumerate(tokens) if t.text.lower() == word)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("Das ist es!", "german_es_identificational"),
        ("Ich meine, das ist es.", "german_es_identificational"),
        ("Nein, das war es nicht.", "german_es_identificational"),
        ("Es lief gut.", "german_es_idiom"),
        ("Wie lief es?", "german_es_idiom"),
        # a referential "es" stays an item
        ("Das Buch ist neu, es ist rot.", ""),
        ("Es lief über den Tisch.", ""),
        ("Ich habe es gestern gesehen.", ""),
    ],
)
def test_german_es_frames(text: str, reason: str) -> None:
    tokens = tokenize(text)
    assert german_structure_reason(tokens, _index(tokens, "es")) == reason, text


@pytest.mark.parametrize(
    ("text", "word", "reason"),
    [
        ("Das ist sie!", "sie", "es_identificational"),  # "Das ist es!" is right German too
        ("Das war er nicht.", "er", "es_identificational"),
        ("Ich sehe sie jeden Morgen am Bahnhof.", "sie", ""),
    ],
)
def test_es_variant_of_an_identification_is_pruned(text: str, word: str, reason: str) -> None:
    tokens = tokenize(text)
    index = _index(tokens, word)
    case = "nom" if text.startswith("Das") else "acc"
    assert _es_reason(tokens, [(index, case)]) == reason, text
