"""The pronoun fallback of the alignment (builders/pronouns/align_pronoun.py, issue 23).

Links are written by hand here, so each test pins one clause of the rule whatever the aligner does; the
gold files check it end to end. Every sentence was written for these tests.
"""

from __future__ import annotations

from typing import Any

import pytest

from builders.core.compat import spacy_english
from builders.pronouns.align_pronoun import Repair, repair_pronoun_links
from builders.pronouns.packs import make_pack

needs_english = pytest.mark.skipif(not spacy_english().available, reason=spacy_english().reason)


@pytest.fixture(scope="module")
def nlp() -> Any:
    import spacy

    return spacy.load(spacy_english().name)


def _repair(nlp: Any, code: str, english: str, target: str, links: set[tuple[int, int]]) -> tuple[Any, Repair]:
    pack = make_pack(code)
    doc = nlp(english)
    tokens = pack.tokenize(target)
    return doc, repair_pronoun_links(doc, tokens, frozenset(links), pack.source_pronouns, pack.forms, pack.code)


def _index(doc: Any, word: str, occurrence: int = 0) -> int:
    return [t.i for t in doc if t.lower_ == word][occurrence]


@needs_english
def test_lower_case_sie_linked_to_you_is_taken_by_the_unlinked_it(nlp: Any) -> None:
    # You0 ca1 n't2 catch3 it4 .5 / Man0 kann1 sie2 nicht3 kriegen4 .5
    links = {(0, 0), (0, 2), (1, 1), (2, 3), (3, 4), (5, 5)}
    doc, repair = _repair(nlp, "de", "You can't catch it.", "Man kann sie nicht kriegen.", links)
    it = _index(doc, "it")
    assert (it, 2) in repair.links
    assert (0, 2) not in repair.links  # the you link of the taken pronoun goes
    assert repair.refused == {}


@needs_english
def test_capitalised_sie_is_the_formal_you_and_not_free(nlp: Any) -> None:
    # I0 think1 you2 can3 fix4 it5 .6 / Ich0 denke1 ,2 Sie3 können4 reparieren5 .6 (no pronoun renders "it")
    links = {(0, 0), (1, 1), (2, 3), (3, 4), (4, 5), (6, 6)}
    _, repair = _repair(nlp, "de", "I think you can fix it.", "Ich denke, Sie können reparieren.", links)
    assert repair.links == frozenset(links)


@needs_english
def test_two_free_pronouns_in_the_window_are_refused(nlp: Any) -> None:
    # We0 saw1 that2 it3 was4 broken5 .6 / Wir0 sahen1 ,2 dass3 es4 er5 kaputt6 war7 .8 (an ill-formed target
    # on purpose: two unlinked pronouns in the clause)
    links = {(0, 0), (1, 1), (2, 3), (4, 7), (5, 6), (6, 8)}
    doc, repair = _repair(nlp, "de", "We saw that it was broken.", "Wir sahen, dass es er kaputt war.", links)
    assert repair.links == frozenset(links)
    assert repair.refused == {_index(doc, "it"): "_several_free_pronouns"}


@needs_english
def test_another_unlinked_pronoun_competing_for_the_same_target_refuses(nlp: Any) -> None:
    # He0 said1 it2 works3 .4 / Er0 sagte1 ,2 es3 funktioniert4 .5: both "He" and "it" unlinked, "es" in reach
    # of both ("Er" free too but outside the windows)
    links = {(1, 1), (3, 4), (4, 5)}
    doc, repair = _repair(nlp, "de", "He said it works.", "Er sagte, es funktioniert.", links)
    assert repair.links == frozenset(links)
    assert repair.refused[_index(doc, "it")] == "_competing_pronoun"


@needs_english
def test_object_it_does_not_take_a_subject_only_form(nlp: Any) -> None:
    # She0 painted1 it2 red3 .4 / Sie0 hat1 er2 rot3 gemalt4 .5: "er" cannot be an accusative object
    links = {(0, 0), (1, 1), (1, 4), (3, 3), (4, 5)}
    _, repair = _repair(nlp, "de", "She painted it red.", "Sie hat er rot gemalt.", links)
    assert repair.links == frozenset(links)


@needs_english
def test_they_linked_to_an_elided_complementiser_takes_the_pronoun_after_it(nlp: Any) -> None:
    # All0 they1 hear2 is3 that4 they5 're6 going7 to8 choose9 .10
    # Tout0 ce1 qu'2 ils3 entendent4 ,5 c'6 est7 qu'8 ils9 vont10 choisir11 .12
    english = "All they hear is that they're going to choose."
    french = "Tout ce qu'ils entendent, c'est qu'ils vont choisir."
    links = {(0, 0), (1, 3), (2, 4), (3, 7), (4, 8), (5, 8), (6, 9), (7, 10), (9, 11), (10, 12)}
    doc, repair = _repair(nlp, "fr", english, french, links)
    they = _index(doc, "they", 1)
    assert doc[they + 1].text == "'re"
    assert sorted(j for i, j in repair.links if i == they) == [9]
    assert (they + 1, 9) not in repair.links


@needs_english
def test_unparsed_segment_is_left_alone() -> None:
    pack = make_pack("de")
    repair = repair_pronoun_links(None, pack.tokenize("Es geht."), frozenset({(0, 0)}), pack.source_pronouns,
                                  pack.forms, pack.code)
    assert repair == Repair(frozenset({(0, 0)}), {})


@needs_english
def test_prepositional_object_is_refused(nlp: Any) -> None:
    # He0 longed1 for2 it3 and4 wanted5 it6 .7 / Er0 sehnte1 sich2 danach3 und4 wollte5 sie6 haben7 .8
    # ("danach" left unlinked on purpose): the free "sie" is the second it's, not the prepositional one's
    links = {(0, 0), (1, 1), (2, 2), (4, 4), (5, 5), (5, 7), (7, 8)}
    doc, repair = _repair(nlp, "de", "He longed for it and wanted it.", "Er sehnte sich danach und wollte sie haben.",
                          links)
    first = _index(doc, "it")
    assert doc[first].dep_ == "pobj"
    assert not any(i == first for i, _ in repair.links)
    assert repair.refused[first] == "_prepositional"


@needs_english
def test_formal_sie_and_a_pronoun_of_another_english_word_are_set_aside(nlp: Any) -> None:
    from builders.pronouns.extract import Segment, preferred_pronouns
    from builders.pronouns.german import tokenize

    # Hold0 it1 up2 .3 / Halten0 Sie1 es2 hoch3 .4
    doc = nlp("Hold it up.")
    segment = Segment("", "", doc, tokenize("Halten Sie es hoch."), frozenset({(0, 0), (1, 1), (1, 2), (2, 3)}))
    assert preferred_pronouns(segment, doc[1], [1, 2]) == [2]
    # he0 shaped1 it2 ./ formte0 er1 sie2 .3: "er" is linked to "he" as well
    doc = nlp("he shaped it.")
    segment = Segment("", "", doc, tokenize("formte er sie."), frozenset({(0, 1), (1, 0), (2, 1), (2, 2)}))
    assert preferred_pronouns(segment, doc[2], [1, 2]) == [2]
    # nothing left: all are kept, so the caller still reports the ambiguity
    assert preferred_pronouns(segment, doc[2], [1]) == [1]
