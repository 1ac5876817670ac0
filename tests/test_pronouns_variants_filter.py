"""Contrastive variants that may be correct German are pruned (german_variants_filter); our own sentences."""

from __future__ import annotations

import pytest

from builders.pronouns.german import tokenize
from builders.pronouns.german_case import german_case
from builders.pronouns.german_variants_filter import es_situational, prune_variants
from builders.pronouns.variants import ChainToken, make_variants


def _index(tokens: list, word: str) -> int:
    return next(k for k, t in enumerate(tokens) if t.text.lower() == word)


@pytest.mark.parametrize(
    "text, pronoun",
    [
        ("Er ist vorbei.", "er"),
        ("Sie ist wirklich wunderschön.", "sie"),
        ("Wir wissen nicht, ob er funktioniert.", "er"),
        ("Wird sie gelingen?", "sie"),
        ("Er brennt bei Kontakt.", "er"),
        ("Ich glaube, dass er ihn verdient.", "ihn"),
        ("Wir holen sie, wenn wir sie brauchen.", "sie"),
        ("Was soll er bedeuten?", "er"),
        ("Es lief nicht so, wie wir ihn uns vorgestellt haben.", "ihn"),
    ],
)
def test_situational_es_variant_is_pruned(text: str, pronoun: str) -> None:
    tokens = tokenize(text)
    index = len(tokens) - 1 - _index(list(reversed(tokens)), pronoun)
    assert es_situational(tokens, index, german_case(tokens, index)), text


@pytest.mark.parametrize(
    "text, pronoun",
    [
        ("Er ist aus Eiche.", "er"),
        ("Sie knarrte laut.", "sie"),
        ("Als die Brücke fertig war, war sie die längste im Land.", "sie"),
        ("Ich habe ihn gestern repariert.", "ihn"),
        ("Er ist ein alter Tisch.", "er"),
        ("Sie stand im Flur.", "sie"),
    ],
)
def test_referential_es_variant_is_kept(text: str, pronoun: str) -> None:
    tokens = tokenize(text)
    index = _index(tokens, pronoun)
    assert not es_situational(tokens, index, german_case(tokens, index)), text


def test_prune_keeps_the_other_variant() -> None:
    text = "Wir wissen nicht, ob er funktioniert."
    tokens = tokenize(text)
    index = _index(tokens, "er")
    variants = make_variants(text, tokens, index, "nom", [])
    kept, pruned = prune_variants(variants, tokens, [(index, "nom")], "Masc")
    assert [v.text for v in kept] == ["Wir wissen nicht, ob sie funktioniert."]
    assert pruned == {"Neut": "es_situational"}


def test_es_items_lose_no_variant_to_the_situational_rule() -> None:
    text = "Es ist vorbei."
    tokens = tokenize(text)
    variants = make_variants(text, tokens, 0, "nom", [])
    assert prune_variants(variants, tokens, [(0, "nom")], "Neut") == (variants, {})


def test_a_situational_es_anywhere_in_the_chain_prunes_the_variant() -> None:
    """The variant swaps every pronoun of the referent: "Es war nicht billig, aber es sieht schön aus" reads
    as right because of its first clause, whichever of the two pronouns is probed."""
    text = "Er war nicht billig, aber er sieht schön aus."
    tokens = tokenize(text)
    first, second = [i for i, t in enumerate(tokens) if t.text.lower() == "er"]
    chain = [ChainToken(first, "pronoun", "nom")]
    variants = make_variants(text, tokens, second, "nom", chain)
    kept, pruned = prune_variants(variants, tokens, [(second, "nom"), (first, "nom")], "Masc")
    assert pruned == {"Neut": "es_situational"} and [v.gender for v in kept] == ["Fem"]
    assert prune_variants(variants, tokens, [(second, "nom")], "Masc")[1] == {}  # its own clause alone: no
