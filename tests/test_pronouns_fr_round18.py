"""EN->FR after blind round 18, on sentences written for these tests (gold f300-f308 run them through the whole
pipeline).

1 the English antecedent head recorded was a modifier the small English model tagged NOUN ("nuclear" for "the
nuclear warhead", "stinkin" for "that stinkin' car", "plastic" tagged amod): the candidate is the phrase's head
noun, or none when no noun follows; 2 epicene person nouns missing from the list ("ses comparses").
"""

from __future__ import annotations

import pytest

from builders.core.compat import spacy_english, spacy_french
from builders.pronouns.french import tokenize

needs_french = pytest.mark.skipif(not spacy_french().available, reason=spacy_french().reason)
needs_english = pytest.mark.skipif(not spacy_english().available, reason=spacy_english().reason)


def _candidate_heads(sentence: str, pronoun: str = "It is here.") -> list[str]:
    from builders.pronouns.coref import HeuristicDocument
    from builders.pronouns.english import load_pipeline

    pipeline = load_pipeline().nlp
    docs = [pipeline(sentence), pipeline(pronoun)]
    return [docs[0][c.head].text for c in HeuristicDocument(docs).candidates(1, 0, 1) if c.sentence == 0]


@needs_english
@pytest.mark.parametrize(("sentence", "heads"), [
    # "nuclear" tagged NOUN, the noun after it ADJ, PRON or NOUN: the noun is the one candidate
    ("They found the nuclear warhead.", ["warhead"]),
    ("The nuclear warhead was stolen.", ["warhead"]),
    ("I bought a nuclear warhead.", ["warhead"]),
    # a dialect participle tagged NOUN (poss or amod) before the noun
    ("I hate that stinkin' car.", ["car"]),
    ("Where is the old stinkin' shirt?", ["shirt"]),
    # a noun the lexicon also knows as a noun stays a candidate ("the chemical", "the official")
    ("The official signed the form.", ["official", "form"]),
])
def test_round18_candidate_is_the_head_noun(sentence: str, heads: list[str]) -> None:
    assert sorted(_candidate_heads(sentence)) == sorted(heads)


@needs_english
def test_round18_repaired_head_keeps_the_modifier_in_its_phrase() -> None:
    from builders.pronouns.coref import HeuristicDocument
    from builders.pronouns.english import load_pipeline

    pipeline = load_pipeline().nlp
    docs = [pipeline("They found the nuclear warhead."), pipeline("It is here.")]
    (candidate,) = [c for c in HeuristicDocument(docs).candidates(1, 0, 1) if c.sentence == 0]
    assert docs[0][candidate.start:candidate.end].text == "the nuclear warhead"


@needs_english
def test_round18_modifier_words() -> None:
    from builders.pronouns.coref import modifier_word
    from builders.pronouns.english import load_pipeline

    doc = load_pipeline().nlp("the nuclear warhead near the stinkin' shirt and the kitchen")
    words = {t.text: modifier_word(t) for t in doc if t.is_alpha}
    assert words["nuclear"] and words["stinkin"]
    assert not words["warhead"] and not words["shirt"] and not words["kitchen"]


@needs_french
@pytest.mark.parametrize(("text", "index", "expected"), [
    ("Ses comparses ont quitté la ville.", 1, True),  # no determiner shows the gender
    ("Les comparses ont attendu.", 1, True),
    ("Une comparse attendait dehors.", 1, False),  # the article shows it: as before
    ("Un comparse attendait dehors.", 1, False),
    ("Les acolytes du sorcier ont préparé le rituel.", 1, True),
    ("Les convives sont arrivés tard.", 1, True),
    ("Le militaire est arrivé.", 1, False),
    ("Les militaires ont traversé la rivière.", 1, True),
])
def test_round18_epicene_person_nouns(text: str, index: int, expected: bool) -> None:
    from builders.pronouns.french import make_french

    assert make_french().is_unmarked_epicene(text, tokenize(text), index) is expected


def test_round18_epicene_list_has_no_duplicates_or_fixed_gender_nouns() -> None:
    from builders.core.resources import resource_path

    lines = resource_path("pronouns", "fr_epicene_person_nouns.txt").read_text(encoding="utf-8").splitlines()
    nouns = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    assert len(nouns) == len(set(nouns))
    assert {"comparse", "acolyte", "convive"} <= set(nouns)
    # one grammatical gender whatever the person's sex: the pronoun follows the noun, no epicene
    assert not {"victime", "personne", "vedette", "bébé", "témoin"} & set(nouns)
