"""Issue 23, blind round 7 (es items): fixed English expressions, imperative + particle; our own sentences."""

from __future__ import annotations

import pytest
from english_it_probe import it_reason
from german_case_probe import case_of_last

from builders.pronouns.german import tokenize


@pytest.mark.parametrize(
    ("sentence", "reason"),
    [
        ("It's complicated.", "idiom"),
        ("Well, it's complicated.", "idiom"),
        ("That's it.", "idiom"),
        ("Okay, this is it!", "idiom"),
        ("Got it.", "idiom"),
        ("I've got it!", "idiom"),
        ("Now I get it.", "idiom"),
        ("We have to put it behind us.", "idiom"),
        ("We'll make it.", "idiom"),
        ("Take it easy, Sam.", "idiom"),
        ("Beat it!", "idiom"),
        ("Just forget it.", "idiom"),
        ("Cut it out!", "idiom"),
        ("Hold it!", "idiom"),
        ("That does it.", "idiom"),
        ("It's over.", "idiom"),
        ("It's all right.", "idiom"),
        ("Nor will it be the last.", "idiom"),
        ("No matter how hard it gets, we stay.", "idiom"),
        ("It's getting late.", "idiom"),
        ("It's my turn.", "idiom"),
        # referential uses stay: an object or complement after the fixed words, or a noun before
        ("I got it from the shop.", ""),
        ("Hold it still.", ""),
        ("The engine? It's complicated.", ""),
        ("I bought a lamp and it's fine.", ""),
        ("Put it behind the sofa.", ""),
        ("Take it home.", ""),
    ],
)
def test_fixed_it_expressions(sentence: str, reason: str) -> None:
    assert it_reason(sentence) == reason, sentence

@pytest.mark.parametrize(
    ("text", "word", "case"),
    [
        ("Deck es einfach ab.", "es", "acc"),  # was "Deck er einfach ab"
        ("Bring es hier rein!", "es", "acc"),
        ("Okay, leg sie weg, bitte.", "sie", "acc"),
        ("Nimm es mit.", "es", "acc"),
        ("Kommt es an?", "es", "nom"),  # a question with the verb first: the subject follows
        ("Muss es weg.", "es", ""),  # a modal is no imperative
        ("Macht es Spaß?", "es", "nom"),  # no particle: the other rules decide
    ],
)
def test_imperative_with_particle_takes_accusative(text: str, word: str, case: str) -> None:
    assert case_of_last(text, word) == case, text


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("Es endet immer schlecht.", "german_es_idiom"),
        ("Und es macht mich wahnsinnig.", "german_es_idiom"),
        ("Es erschöpft uns.", "german_es_idiom"),
        ("Es kommt ganz auf dich an.", "german_es_idiom"),
        ("Es wird nicht das letzte Mal sein.", "german_es_idiom"),
        ("Es ist kompliziert.", "german_es_evaluative"),
        ("Es ist wirklich eine unglaublich starke Kraft.", "german_copula_noun_predicate"),
        ("Es ist eine unglaubliche, zerstörerische Kraft.", "german_copula_noun_predicate"),
        ("Es ist so eine Kraft.", "german_copula_noun_predicate"),
        # referential uses stay: the frames need their companion words
        ("Es kommt heute an.", ""),
        ("Es endet am Fluss.", ""),
        ("Es macht Lärm.", ""),
        ("Es ist eine, die ich mag.", ""),
    ],
)
def test_es_event_frames_drop(text: str, reason: str) -> None:
    from builders.pronouns.quality import german_structure_reason

    tokens = tokenize(text)
    index = next(k for k, t in enumerate(tokens) if t.text.lower() == "es")
    assert german_structure_reason(tokens, index) == reason, text
