"""Contrastive variants that may be correct German are pruned (german_variants_filter); our own sentences."""

from __future__ import annotations

import pytest

from builders.pronouns.german import RuleGerman, tokenize
from builders.pronouns.german_case import german_case
from builders.pronouns.german_variants_filter import Reach, es_situational, prune_variants
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
    """The variant swaps every pronoun of the referent: "Es war nicht billig, aber es hat vier Räder" reads
    as right because of its first clause, whichever of the two pronouns is probed."""
    text = "Er war nicht billig, aber er hat vier Räder."
    tokens = tokenize(text)
    first, second = [i for i, t in enumerate(tokens) if t.text.lower() == "er"]
    chain = [ChainToken(first, "pronoun", "nom")]
    variants = make_variants(text, tokens, second, "nom", chain)
    kept, pruned = prune_variants(variants, tokens, [(second, "nom"), (first, "nom")], "Masc")
    assert pruned == {"Neut": "es_situational"} and [v.gender for v in kept] == ["Fem"]
    # its own clause alone: not situational, but a nominative (blind round 6, class 1)
    assert prune_variants(variants, tokens, [(second, "nom")], "Masc")[1] == {"Neut": "es_subject_colloquial"}  # no


def _reach_item(
    texts: list[str], head: str, pronoun: str, persons: tuple[str, ...] = ()
) -> tuple[list, tuple[int, int], int, str, Reach]:
    """Our sentences as a document: the antecedent is the first ``head`` word, the probed pronoun the last
    ``pronoun`` of the last segment; nouns in ``persons`` translate a person (no rival)."""
    german = RuleGerman()
    segments = [tokenize(text) for text in texts]
    head_at = next((k, i) for k, tokens in enumerate(segments) for i, t in enumerate(tokens) if t.text == head)
    tokens = segments[-1]
    index = len(tokens) - 1 - _index(list(reversed(tokens)), pronoun)
    reach = Reach(
        segments,
        lambda k, j: german.noun_entry(texts[k], segments[k], j),
        head_at,
        len(segments) - 1,
        lambda k, j: segments[k][j].text in persons,
    )
    return tokens, head_at, index, german_case(tokens, index), reach


def _pruned(texts: list[str], head: str, pronoun: str, gender: str, persons: tuple[str, ...] = ()) -> dict[str, str]:
    tokens, _, index, case, reach = _reach_item(texts, head, pronoun, persons)
    variants = make_variants(texts[-1], tokens, index, case, [])
    kept, pruned = prune_variants(variants, tokens, [(index, case)], gender, reach)
    assert len(kept) + len(pruned) == 2
    return pruned


def test_accusative_sie_variant_with_a_plural_in_reach_is_pruned() -> None:
    """ "Wir müssen sie aufhalten" reads as the rebels: the item keeps its er variant."""
    texts = ["Die Rebellen haben ein neues Schiff gebaut.", "Wir müssen es aufhalten."]
    assert _pruned(texts, "Schiff", "es", "Neut") == {"Fem": "sie_plural_reading"}
    # the plural before the pronoun in its own segment, outside its clause
    texts = ["Ich habe ein Fahrrad gekauft.", "Die Männer fragen, wo ich es gekauft habe."]
    assert _pruned(texts, "Fahrrad", "es", "Neut") == {"Fem": "sie_plural_reading"}
    # a form that is singular too ("Rebellen", "Amerikaner") is plural after "die"
    texts = ["Die Kinder bauen ein Floß.", "Wir sehen zu, wie sie es bauen."]
    assert _pruned(texts, "Floß", "es", "Neut") == {"Fem": "sie_plural_reading"}


@pytest.mark.parametrize(
    "texts",
    [
        # a nominative sie is singular by its verb ("Sie ist schnell")
        ["Die Rebellen haben ein neues Schiff gebaut.", "Es ist schnell."],
        # no plural noun
        ["Der Kapitän hat ein neues Schiff gebaut.", "Wir müssen es aufhalten."],
        # the plural is the subject of the pronoun's own clause: an object cannot mean it
        ["Das Schiff ist neu.", "Die Männer wollen es verstecken."],
        # the plural is out of reach (neither the antecedent's segment nor the one before the pronoun's)
        ["Die Männer kamen zurück.", "Niemand war da.", "Ich sah ein Schiff.", "Wir müssen es aufhalten."],
    ],
)
def test_sie_variant_without_a_plural_reading_is_kept(texts: list[str]) -> None:
    assert "Fem" not in _pruned(texts, "Schiff", "es", "Neut"), texts


def test_variant_agreeing_with_a_rival_noun_in_the_pronoun_segment_is_pruned() -> None:
    """ "Neben der Tür hängt sie schief" reads as the door; the es variant stays (not "sieht … aus": an
    impersonal frame, german_variants_filter.IMPERSONAL_FRAMES)."""
    colloquial = {"Neut": "es_subject_colloquial"}  # a nominative er loses its es variant first (class 1)
    texts = ["Der Mantel hängt im Flur.", "Neben der Tür hängt er schief."]
    assert _pruned(texts, "Mantel", "er", "Masc") == {"Fem": "rival_noun_of_variant_gender", **colloquial}
    texts = ["Ich habe eine Tasche gekauft.", "Die Bücher lagen im Fach, aber ich konnte sie dort nicht finden."]
    assert _pruned(texts, "Tasche", "sie", "Fem") == {"Neut": "rival_noun_of_variant_gender"}
    # within one segment: the span starts after the antecedent's head
    texts = ["Als die Kiste im Gehäuse steckte, schob ich sie weiter hinein."]
    assert _pruned(texts, "Kiste", "sie", "Fem") == {"Neut": "rival_noun_of_variant_gender"}


@pytest.mark.parametrize(
    "texts, head, pronoun, gender, persons",
    [
        # a noun of an earlier segment yields to the antecedent ("Sie braucht neue Reifen" is no reading of
        # die Garage)
        (["Mein Auto steht in der Garage.", "Es braucht neue Reifen."], "Auto", "es", "Neut", ()),
        # before the antecedent's head
        (["In der Küche stand der Tisch und er wackelte."], "Tisch", "er", "Masc", ()),
        # a person noun and a time noun are no referents of the English "it"
        (["Der Mantel hängt im Flur.", "Meine Schwester sagt, er habe einen Riss."], "Mantel", "er", "Masc",
         ("Schwester",)),
        (["Der Mantel hängt im Flur.", "Seit einer Woche ist er schmutzig."], "Mantel", "er", "Masc", ()),
        # the subject of an object pronoun's own clause
        (["Das Gesetz liegt vor.", "Die Kommission hat es geprüft."], "Gesetz", "es", "Neut", ()),
    ],
)
def test_variant_without_a_rival_of_its_gender_is_kept(
    texts: list[str], head: str, pronoun: str, gender: str, persons: tuple[str, ...]
) -> None:
    pruned = _pruned(texts, head, pronoun, gender, persons)
    # a nominative er/sie loses its es variant to class 1 of blind round 6, not to a rival
    assert {g: r for g, r in pruned.items() if r != "es_subject_colloquial"} == {}, texts


def test_without_reach_only_the_token_rules_run() -> None:
    texts = ["Der Mantel hängt im Flur.", "Neben der Tür hängt er schief."]
    tokens, _, index, case, _ = _reach_item(texts, "Mantel", "er", ())
    variants = make_variants(texts[-1], tokens, index, case, [])
    kept, pruned = prune_variants(variants, tokens, [(index, case)], "Masc")
    # no rival rule without reach: the sie variant stays (es goes to the token rule of class 1)
    assert [v.gender for v in kept] == ["Fem"] and pruned == {"Neut": "es_subject_colloquial"}


@pytest.mark.parametrize(
    ("sentence", "word", "case", "situational"),
    [
        ("Ich kann es immer noch nicht glauben.", "es", "acc", True),  # what happened, not the noun
        ("Es ist gestern passiert.", "Es", "nom", True),
        ("Wir haben es gestern gekauft.", "es", "acc", False),
        ("Es steht im Keller.", "Es", "nom", False),
        ("Es war sehr alt.", "Es", "nom", False),  # the copula branch is for variants only
        ("Ich lege es auf meinen Schreibtisch.", "es", "acc", False),  # the possessive, not the verb "meinen"
        ("Was meinen Sie, wollen wir es?", "es", "acc", False),
        ("Ich weiß nicht, was sie meinen, wenn sie es sagen.", "es", "acc", True),
    ],
)
def test_es_event_or_proposition(sentence: str, word: str, case: str, situational: bool) -> None:
    from builders.pronouns.german_variants_filter import es_event_or_proposition

    tokens = tokenize(sentence)
    index = next(i for i, t in enumerate(tokens) if t.text == word)
    assert es_event_or_proposition(tokens, index, case) == situational


@pytest.mark.parametrize(
    "text, pronoun",
    [
        ("Er folgt dir!", "er"),  # blind round 6, class 1: a subject es reads as colloquially right
        ("Sie hat uns nur reich gemacht.", "sie"),
        ("Natürlich ist er das.", "er"),  # das predicate: "ist es das" is idiomatic
        ("Du willst sie?", "sie"),  # a bare accusative clause: verb and pronoun only
    ],
)
def test_colloquial_es_variant_is_pruned(text: str, pronoun: str) -> None:
    tokens = tokenize(text)
    index = _index(tokens, pronoun)
    variants = make_variants(text, tokens, index, german_case(tokens, index), [])
    kept, pruned = prune_variants(variants, tokens, [(index, german_case(tokens, index))], "Masc"
                                  if pronoun == "er" else "Fem")
    assert pruned == {"Neut": "es_subject_colloquial"}, text
    assert len(kept) == 1 and kept[0].gender != "Neut", text


@pytest.mark.parametrize(
    "text, pronoun",
    [
        ("Ich habe sie gestern im Keller repariert.", "sie"),  # an object with more material keeps es
        ("Meine Schwester hat sie neben das Fenster gestellt.", "sie"),
    ],
)
def test_object_with_material_keeps_es_variant(text: str, pronoun: str) -> None:
    tokens = tokenize(text)
    index = _index(tokens, pronoun)
    case = german_case(tokens, index)
    assert case == "acc", text
    variants = make_variants(text, tokens, index, case, [])
    _, pruned = prune_variants(variants, tokens, [(index, case)], "Fem")
    assert "Neut" not in pruned, text
