"""EN->FR: the French antecedent head recorded for an English head (classes F-H after round 12, our sentences;
gold f200-f213 run them through the whole pipeline). F: an evaluative adjective before its noun ("ce fichu
interrupteur") is no head; G: the English compound's head aligned into the complement of a French "N de N"
("potassium chlorate" / "le chlorate de potassium") is the governing noun; H: a NOUN-tagged adjective after
its noun ("un téléphone portable") is no head."""

from __future__ import annotations

import pytest

from builders.core.compat import spacy_english, spacy_french

needs_french = pytest.mark.skipif(not spacy_french().available, reason=spacy_french().reason)
needs_both = pytest.mark.skipif(
    not (spacy_french().available and spacy_english().available), reason="needs the French and English models"
)


def _index(tokens: list, word: str) -> int:
    return next(i for i, t in enumerate(tokens) if t.text == word)


@needs_french
@pytest.mark.parametrize(("sentence", "word", "gender"), [
    ("J'ai encore appuyé sur ce fichu interrupteur.", "interrupteur", "Masc"),  # tagged ADJ in the sentence
    ("J'ai encore appuyé sur ce fichu interrupteur.", "fichu", None),  # tagged NOUN: no head
    ("Mon grand-père adorait ce sacré bateau.", "bateau", "Masc"),  # tagged PROPN
    ("J'ai donné un coup de pied dans cette fichue porte.", "porte", "Fem"),  # tagged VERB
    ("J'ai donné un coup de pied dans cette fichue porte.", "fichue", None),
    ("Un téléphone portable est tombé.", "portable", None),  # class H: the adjective after its noun
    ("Un téléphone portable est tombé.", "téléphone", "Masc"),
    ("J'ai perdu mon portable.", "portable", "Masc"),  # a noun of its own
])
def test_french_head_word(sentence: str, word: str, gender: str | None) -> None:
    from builders.pronouns.french import make_french, tokenize

    tokens = tokenize(sentence)
    entry = make_french().noun_entry(sentence, tokens, _index(tokens, word))
    assert (sorted(entry.genders) if entry is not None else None) == ([gender] if gender else None)


@needs_french
def test_an_evaluative_adjective_used_as_a_noun_stays() -> None:
    """ "le pauvre a attendu": without the adjective the next word is no noun, so the adjective is the noun."""
    from builders.pronouns.french import make_french, tokenize

    sentence = "Le pauvre a attendu dehors."
    tokens = tokenize(sentence)
    assert make_french().noun_after_adjective(sentence, tokens, 1) is None


def _head(english: str, french: str, links: list[tuple[str, str]], head: str) -> str | None:
    import spacy

    from builders.pronouns.extract import Segment
    from builders.pronouns.french import make_french, tokenize
    from builders.pronouns.french_pack import french_head_noun

    doc = spacy.load(spacy_english().name)(english)
    tokens = tokenize(french)
    words = [t.text for t in doc]
    pairs = frozenset((words.index(e), _index(tokens, f)) for e, f in links)
    match = french_head_noun(Segment(english, french, doc, tokens, pairs), words.index(head), make_french())
    return tokens[match[0]].text if match is not None else None


@needs_both
@pytest.mark.parametrize(("english", "french", "links", "head", "expected"), [
    # the aligner's crossing links (class G): the English head linked to the complement, its modifier to the head
    ("We stored the potassium chlorate.", "Nous avons rangé le chlorate de potassium.",
     [("potassium", "chlorate"), ("chlorate", "de"), ("chlorate", "potassium")], "chlorate", "chlorate"),
    ("We checked the engine oil.", "Nous avons vérifié l'huile de moteur.",
     [("engine", "huile"), ("oil", "moteur")], "oil", "huile"),
    ("They painted the flag pole.", "Ils ont peint le mât du drapeau.",
     [("flag", "mât"), ("pole", "drapeau")], "pole", "mât"),
    # the governing noun aligned to nothing: no crossing shown, and the complement may be the referent
    # ("a chocolate cake" / "une part de gâteau au chocolat"): no head (a drop), neither the complement
    ("We checked the engine oil.", "Nous avons vérifié l'huile de moteur.", [("oil", "moteur")], "oil", None),
    ("I ate the chocolate cake.", "J'ai mangé une part de gâteau au chocolat.",
     [("chocolate", "chocolat"), ("cake", "gâteau")], "cake", None),
    # no English compound: the complement stays ("the water" of "a glass of water" is "eau")
    ("I drank the water from a glass.", "J'ai bu le verre d'eau.", [("water", "eau")], "water", "eau"),
    # the governing noun renders another English word: left alone
    ("The glass held the orange juice.", "Le verre de jus d'orange.",
     [("glass", "verre"), ("juice", "jus")], "juice", "jus"),
    # class H: the English head linked to the adjective after the French noun
    ("He bought a portable phone.", "Il a acheté un téléphone portable.",
     [("portable", "téléphone"), ("phone", "portable")], "phone", "téléphone"),
])
def test_french_phrase_head_of_crossed_links(
    english: str, french: str, links: list[tuple[str, str]], head: str, expected: str | None
) -> None:
    assert _head(english, french, links, head) == expected
