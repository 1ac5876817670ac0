"""EN->FR helper round: two classes of variants that kept a word agreeing with the original pronoun (gold f268-f280
run them through the whole pipeline). Rows are sentences written for these tests.

1 a participle or adjective after être with an adverbial phrase, a negation locution or an incise between
("elles sont en partie justifiées", "elles ne sont pas du tout justifiées", "il est, selon le rapport,
fragilisé"): the parser made the phrase's noun the predicate or tagged the participle ADV, and the variant kept the
old gender; now french_adjuncts reads the adjuncts off the words and the predicate is repaired (after an unlisted
bare phrase whose noun it agrees with, dropped). With it: "de toute façon" keeps "toute", "pas du tout" keeps
"tout", a participle tagged Inf ("interdit") or ADJ ("interdites") is inflected.
2 a stressed pronoun of the referent after a preposition in another clause ("avec elles", "d'elle", "grâce à
elles" parsed as a subject): flipped with the subject when it renders the English pronoun of the referent and no
rival noun is in reach (french_stressed), else dropped.
"""

from __future__ import annotations

from typing import Any

import pytest
from french_variant_probe import variants_or_reason

from builders.core.compat import spacy_french

needs_french = pytest.mark.skipif(not spacy_french().available, reason=spacy_french().reason)

VARIANTS = [
    # 1: adverbial phrases, negation locutions and incises between être and the participle
    ("Elles sont en partie justifiées.", ["Ils sont en partie justifiés."]),
    ("Elles sont à nouveau justifiées.", ["Ils sont à nouveau justifiés."]),
    ("Elles sont de toute façon justifiées.", ["Ils sont de toute façon justifiés."]),
    ("Elles sont pour la plupart justifiées.", ["Ils sont pour la plupart justifiés."]),
    ("Elles sont à peine utilisées.", ["Ils sont à peine utilisés."]),
    ("Elles sont maintenant en partie justifiées.", ["Ils sont maintenant en partie justifiés."]),
    ("Elles ne sont pas du tout justifiées.", ["Ils ne sont pas du tout justifiés."]),
    ("Elle n'est pas du tout justifiée.", ["Il n'est pas du tout justifié."]),
    ("Ils ne sont pas du tout contents.", ["Elles ne sont pas du tout contentes."]),
    ("Elles sont, selon le rapport, justifiées.", ["Ils sont, selon le rapport, justifiés."]),
    ("Elles sont selon la loi justifiées.", ["Ils sont selon la loi justifiés."]),
    ("Elle est en fin de compte justifiée.", ["Il est en fin de compte justifié."]),
    ("Elle est depuis trois ans fermée.", ["Il est depuis trois ans fermé."]),
    ("Elles sont pour nous très importantes.", ["Ils sont pour nous très importants."]),
    ("Elles ont été en partie justifiées.", ["Ils ont été en partie justifiés."]),
    ("Elles ont toutes en partie été justifiées.", ["Ils ont tous en partie été justifiés."]),
    # a time adverb, an infinitive "être" after a modal, a listed word after a separator and a locution
    ("Elle est aujourd'hui en partie détruite.", ["Il est aujourd'hui en partie détruit."]),
    ("Elles doivent être en partie justifiées.", ["Ils doivent être en partie justifiés."]),
    ("Elles vont être en partie détruites.", ["Ils vont être en partie détruits."]),
    ("Ils sont en partie justifiés et en partie exagérés.",
     ["Elles sont en partie justifiées et en partie exagérées."]),
    # a phrase that is never a predicate of être ("depuis"): an agreeing word after it is unsure
    ("Elle est depuis la guerre abandonnée.", "agreement_unresolved_after_prepositional_phrase"),
    ("Ils sont depuis la guerre abandonnés.", ["Elles sont depuis la guerre abandonnées."]),
    # "toute" determining a noun after a preposition is no floating quantifier of the subject
    ("Elle est de toute façon cassée.", ["Il est de toute façon cassé."]),
    ("Il est de toute façon interdit.", ["Elle est de toute façon interdite."]),  # interdit: VerbForm=Inf
    ("Elle est en tout cas cassée.", ["Il est en tout cas cassé."]),
    # a participle tagged ADJ: the participle table picks "interdit" + e over a one-form "interdite"
    ("Elles sont interdites.", ["Ils sont interdits."]),
    ("Elles sont à l'heure actuelle interdites.", ["Ils sont à l'heure actuelle interdits."]),
    # after a phrase with its own determiner an agreeing word is its noun's; one of the new form stays;
    # after a bare phrase an agreeing word is unsure
    ("Elles sont dans des boîtes fermées.", ["Ils sont dans des boîtes fermées."]),
    ("Elle est dans une situation délicate.", ["Il est dans une situation délicate."]),
    ("Il est en pierre taillée.", ["Elle est en pierre taillée."]),
    ("Elle est en voiture fermée.", "agreement_unresolved_after_prepositional_phrase"),
    # the noun's gender is read off its determiner, not its tag ("couleur" is tagged Masc); a bare "de" phrase
    # characterises its noun; a complex preposition ("aux yeux de") opens an adjunct
    ("Elle est de couleur verte.", ["Il est de couleur verte."]),
    ("Elle est d'origine française.", ["Il est d'origine française."]),
    ("Elle est à moitié pleine.", ["Il est à moitié plein."]),
    ("Il est selon la loi justifié.", ["Elle est selon la loi justifiée."]),
    ("Elle est aux yeux de la loi justifiée.", "agreement_unresolved_after_prepositional_phrase"),
    ("Elles sont aux yeux de la loi justifiées.", ["Ils sont aux yeux de la loi justifiés."]),
    # a prepositional predicate tagged ADJ agrees with nothing; "comme" does not make one
    ("Elle est en panne.", ["Il est en panne."]),
    ("Elle est comme neuve.", "agreement_unresolved"),
    # 2 without the chain's English: a stressed pronoun of the old form after a preposition is dropped, also
    # when the parser makes it a subject (the variant kept "grâce à elles" before)
    ("Elles marchent bien, grâce à elles nous gagnons.", "agreement_unresolved_stressed_pronoun"),
    ("Elles marchent bien, et à côté d'elles tout change.", "agreement_unresolved_stressed_pronoun"),
]


@needs_french
@pytest.mark.parametrize(("sentence", "expected"), VARIANTS)
def test_adjunct_and_stressed_classes(sentence: str, expected: list[str] | str) -> None:
    assert variants_or_reason(sentence) == expected


def _chain_variant(text: str) -> str:
    """The variant of the first subject pronoun with every stressed pronoun of its form after a preposition
    flipped as french_stressed.chain_stressed would."""
    from builders.pronouns.french import FORMS, make_french, tokenize
    from builders.pronouns.french_agreement import french_variants
    from builders.pronouns.french_targets import stressed_pronoun

    tokens = tokenize(text)
    index = next(i for i, t in enumerate(tokens) if t.text.lower() in FORMS)
    parsed: Any = make_french().token(text, tokens, index)
    form = FORMS[tokens[index].text.lower()]
    stressed = frozenset(t.i for t in parsed.doc if stressed_pronoun(t, (form.gender, form.number)))
    return french_variants(text, tokens, [(index, parsed)], stressed=stressed)[0].text


@needs_french
@pytest.mark.parametrize(
    ("sentence", "variant"),
    [
        ("Elles ont grossi et je ne sors plus avec elles.", "Ils ont grossi et je ne sors plus avec eux."),
        ("Elles marchent bien, grâce à elles nous gagnons.", "Ils marchent bien, grâce à eux nous gagnons."),
        ("Elle roule encore, et je prends soin d'elle.", "Il roule encore, et je prends soin de lui."),
        ("Il tourne encore, j'ai besoin de lui.", "Elle tourne encore, j'ai besoin d'elle."),
        ("Elles dorment ; je pense à elles.", "Ils dorment ; je pense à eux."),
        ("Elles arrivent, et tout dépend d'elles.", "Ils arrivent, et tout dépend d'eux."),
        # with only punctuation after it (no subject clitic stands so), with the elision of "que"
        ("Elles brillent, et je ne regarde qu'elles.", "Ils brillent, et je ne regarde qu'eux."),
        ("Il brille ; je ne regarde que lui.", "Elle brille ; je ne regarde qu'elle."),
        ("Elles brillent, et je les aime, elles.", "Ils brillent, et je les aime, eux."),
    ],
)
def test_stressed_pronoun_flipped_with_elision(sentence: str, variant: str) -> None:
    assert _chain_variant(sentence) == variant


@needs_french
@pytest.mark.parametrize(
    ("text", "old", "antecedent", "rival"),
    [
        ("Les bougies sont sur les tables. Elles brillent.", ("Fem", "Plur"), "bougie", "tables"),
        ("Les bougies brillent, et nous dînons à côté d'elles.", ("Fem", "Plur"), "bougie", ""),
        ("La voiture ? Elle est en panne, je ne peux rien faire avec elle.", ("Fem", "Sing"), "voiture", ""),
        ("Le moteur tourne, et le camion roule avec lui.", ("Masc", "Sing"), "moteur", "camion"),
    ],
)
def test_rival_noun_in_reach(text: str, old: tuple[str, str], antecedent: str, rival: str) -> None:
    from builders.pronouns.french import make_french
    from builders.pronouns.french_checks import document_genders
    from builders.pronouns.french_stressed import rival_noun_in_reach

    doc = make_french().parse(text)
    assert rival_noun_in_reach([doc], old, document_genders([doc]), antecedent) == rival


@needs_french
def test_adjuncts_read_off_the_words() -> None:
    from builders.pronouns.french import make_french
    from builders.pronouns.french_adjuncts import skip_adjuncts

    doc = make_french().parse("Elles sont maintenant, bien sûr, en partie selon le rapport justifiées.")
    words = list(doc[2:])
    position, phrase = skip_adjuncts(words, lambda t: t.lower_ == "maintenant")
    assert words[position].text == "justifiées"
    assert phrase is not None and phrase.noun.text == "rapport" and phrase.determined


@needs_french
@pytest.mark.parametrize(
    ("text", "stressed"),
    [
        ("Elle marche, et je compte sur elle.", True),
        ("Elles marchent ; grâce à elles nous gagnons.", True),  # parsed as a subject
        ("Elles se disputent entre elles.", True),
        # "comme" is also a conjunction: the subject clitic after it is no stressed pronoun
        ("Elle s'est terminée tôt, comme elle était prévue.", False),
        ("Elles sont là, mais je ne vois qu'elles.", True),
        ("Où sont-elles ?", False),  # inverted
        ("Elles arrivent, ce sont elles !", False),  # after "ce sont": _stressed_after_cest drops it
    ],
)
def test_stressed_pronoun(text: str, stressed: bool) -> None:
    from builders.pronouns.french import make_french
    from builders.pronouns.french_targets import stressed_pronoun

    doc = make_french().parse(text)
    last = [t for t in doc if t.lower_ in {"elle", "elles"}][-1]
    gn = ("Fem", "Plur" if last.lower_ == "elles" else "Sing")
    assert stressed_pronoun(last, gn) is stressed
