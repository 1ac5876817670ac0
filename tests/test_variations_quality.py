"""Gold tests for the error classes a reader found in variations.v1 on unseen news text (issue 16).

Every sentence here is our own. Word alignments are written by hand (``"is=ist big=groß"``) so the placement rules
are tested without running eflomal: each case states what the aligner links and what must come out.
"""

from __future__ import annotations

import dataclasses
from functools import cache
from typing import Any

import pytest

from builders.core.compat import spacy_english
from builders.variations.config import VariationsConfig
from builders.variations.lexicons import load_gendered_nouns, load_lexicons
from builders.variations.ngram import BidirectionalNgram
from builders.variations.strategies import STRATEGIES
from builders.variations.strategies.base import Drop, EnglishToken, SentencePair, StrategyResources, Variation
from builders.variations.text import apply_edits, deletion_edit, insertion_edit, tokenize

SPACY = spacy_english()
pytestmark = pytest.mark.skipif(not SPACY.available, reason=SPACY.reason)


@cache
def _nlp() -> Any:
    import spacy

    return spacy.load(SPACY.name, disable=["ner", "lemmatizer"])


def aligned_pair(en: str, de: str, links: str | None) -> SentencePair:
    """A pair with hand-written links 'en=de en=de ...'; 'word#2' is the word's second occurrence."""
    doc = _nlp()(en)
    en_tokens = tuple(EnglishToken(t.text, t.idx, t.idx + len(t.text), t.pos_, t.tag_, t.dep_) for t in doc)
    if links is None:
        return SentencePair("t", 1, en, de, en_tokens)
    de_tokens = tokenize(de)
    alignment = []
    for link in links.split():
        en_word, de_word = link.split("=")
        alignment.append((_occurrence([t.text for t in en_tokens], en_word),
                          _occurrence([t.text for t in de_tokens], de_word)))
    return SentencePair("t", 1, en, de, en_tokens, tuple(sorted(alignment)))


def _occurrence(words: list[str], spec: str) -> int:
    word, _, number = spec.partition("#")
    return [i for i, w in enumerate(words) if w == word][int(number or 1) - 1]


@cache
def _resources(gendered_nouns: bool = True) -> StrategyResources:
    from builders.core.resources import resource_path

    lexicons = load_lexicons(resource_path("variations", "adverbs.tsv"),
                             resource_path("variations", "insertions.tsv"), None)
    if gendered_nouns:
        lexicons = dataclasses.replace(
            lexicons, gendered_nouns=load_gendered_nouns(resource_path("variations", "gendered_nouns.tsv")))
    return StrategyResources(VariationsConfig(src="a.en", tgt="a.de", gendered_nouns=gendered_nouns), lexicons)


def outcomes(type_name: str, pair: SentencePair, resources: StrategyResources | None = None) -> list[Any]:
    return STRATEGIES[type_name]().generate(pair, resources or _resources())


def result(pair: SentencePair, outcome: Any) -> Any:
    if isinstance(outcome, Variation):
        return apply_edits(pair.en, outcome.en_edits)[0], apply_edits(pair.de, outcome.de_edits)[0]
    return outcome


# --- INS ----------------------------------------------------------------------------------------------------
def _ins_resources(licensed_en: list[str], additive: bool = True) -> StrategyResources:
    """n-grams that license the English insertion being tested (the placement rules are what is under test):
    the licensed sentence twice, so both bigrams around the word pass ins_min_count = 2. ``additive`` turns on
    also/auch (off by default since blind check 2), whose placement rules these cases test too."""
    english = BidirectionalNgram().add(licensed_en * 2)
    german = BidirectionalNgram().add(["das ist auch gut .", "das ist sehr gut ."] * 2)
    config = VariationsConfig(src="a.en", tgt="a.de", ins_threshold=0.01, ins_additive=additive)
    return StrategyResources(config, _resources().lexicons, english, german)


INS_CASES = [
    # the German word goes between the words linked to the English neighbours
    ("The house is big.", "Das Haus ist groß.", "house=Haus is=ist big=groß", "The house is also big.",
     ("The house is also big.", "Das Haus ist auch groß.")),
    ("It was a good idea.", "Es war eine gute Idee.", "was=war a=eine good=gute idea=Idee",
     "It was a very good idea.", ("It was a very good idea.", "Es war eine sehr gute Idee.")),
    ("She can swim.", "Sie kann schwimmen.", "She=Sie can=kann swim=schwimmen", "She can also swim.",
     ("She can also swim.", "Sie kann auch schwimmen.")),
    # the linked German words are not adjacent (verb-final subordinate clause): another phrase, no insertion
    ("He said that the house is big.", "Er sagte, dass das Haus groß ist.", "house=Haus is=ist big=groß",
     "He said that the house is also big.", Drop("ins_de_slot_differs")),
    # the aligner links only one neighbour: no German slot to mirror
    ("The house is big.", "Das Haus ist groß.", "house=Haus big=groß", "The house is also big.",
     Drop("ins_not_aligned")),
    # degree word before a German noun (capitalised) is not the same slot as before an adjective
    ("It is a big house.", "Es ist ein großes Haus.", "is=ist a=ein big=Haus", "It is a very big house.",
     Drop("ins_de_slot_differs")),
    # next to a conjunction or comparison on the English side: "and very cheap", "than very"
    ("The car is fast and cheap.", "Das Auto ist schnell und billig.", "and=und cheap=billig",
     "The car is fast and very cheap.", Drop("ins_en_next_to_conjunction")),
    # next to a German correlative or particle: "noch auch nass", "weder ... noch auch"
    ("The road is wet.", "Die Straße ist noch nass.", "road=Straße is=ist is=noch wet=nass",
     "The road is also wet.", Drop("ins_de_next_to_conjunction")),
    ("The plan was good.", "Der Plan war sowohl gut.", "plan=Plan was=sowohl good=gut",
     "The plan was very good.", Drop("ins_de_next_to_conjunction")),
    # additive 'also' after a negation contradicts it: "not a car; it is also a truck"
    ("It is not a car; it is a truck.", "Es ist kein Auto; es ist ein Lastwagen.",
     "it=es is#2=ist#2 a#2=ein truck=Lastwagen", "It is not a car; it is also a truck.",
     Drop("ins_contrastive_context")),
    ("This is no toy. It is a tool.", "Das ist kein Spielzeug. Es ist ein Werkzeug.",
     "It=Es is#2=ist#2 a=ein tool=Werkzeug", "This is no toy. It is also a tool.", Drop("ins_contrastive_context")),
    # a correcting 'Well, ...' sets the sentence against the one before: no additive 'also' (with ins_additive)
    ("Well, the truth is complicated.", "Nun, die Wahrheit ist kompliziert.", "is=ist complicated=kompliziert",
     "Well, the truth is also complicated.", Drop("ins_contrastive_context")),
    # 'not only ... but also': the German 'sondern auch' construction
    ("The trip is cheap but it is long.", "Die Reise ist billig, sondern sie ist lang.",
     "it=sie is#2=ist#2 long=lang", "The trip is cheap but it is also long.", Drop("ins_contrastive_context")),
]


@pytest.mark.parametrize(("en", "de", "links", "licensed", "expected"), INS_CASES)
def test_ins_placement(en: str, de: str, links: str, licensed: str, expected: object) -> None:
    pair = aligned_pair(en, de, links)
    made = outcomes("INS", pair, _ins_resources([licensed.lower().replace(".", " .").replace(";", " ;")]))
    assert [result(pair, o) for o in made] == [expected]


@pytest.mark.parametrize(
    ("en", "de", "links", "licensed"),
    [
        # 'He also saw' would need German 'Er sah auch', not the gap-for-gap 'Er auch sah'
        ("He saw the film.", "Er sah den Film.", "He=Er saw=sah the=den film=Film", "he also saw the film ."),
        # 'a different city' (another one) is not 'a very different city'; German 'sehr andere' is wrong
        ("We met in a different city.", "Wir trafen uns in einer anderen Stadt.", "a=einer different=anderen",
         "we met in a very different city ."),
        # 'a little bit' is a quantity ('ein sehr bisschen'); 'the real name' is not 'the very real name'
        ("Pour a little bit back.", "Gieß ein bisschen zurück.", "a=ein little=bisschen",
         "pour a very little bit back ."),
        ("That is not my real name.", "Das ist nicht mein richtiger Name.", "my=mein real=richtiger",
         "that is not my very real name ."),
        # 'a much smaller' -> 'ein sehr kleinerer' is no German
        ("It is a much smaller room.", "Es ist ein viel kleinerer Raum.", "a=ein much=viel smaller=kleinerer",
         "it is a very much smaller room ."),
        # before a second auxiliary the German counterpart ends the clause: 'ausgeschöpft auch wurden'
        ("All chances have been used.", "Alle Chancen wurden genutzt.", "have=genutzt been=wurden",
         "all chances have also been used ."),
    ],
)
def test_ins_slots_without_a_parallel_german_slot(en: str, de: str, links: str, licensed: str) -> None:
    assert outcomes("INS", aligned_pair(en, de, links), _ins_resources([licensed])) == []


@pytest.mark.parametrize(
    ("en", "de", "links", "licensed"),
    [
        # the German counterpart of the English auxiliary is not an auxiliary: the link is wrong
        ("Some of it is going back.", "Ein Teil davon wird zurückgehen.", "is=davon going=wird",
         "some of it is really going back ."),
        ("There is nothing you can do.", "Man kann nichts dagegen tun.", "can=dagegen do=tun",
         "there is nothing you can actually do ."),
        # an unstressed German pronoun comes first: 'konnte es tatsächlich sehen', not 'konnte tatsächlich es'
        ("I could see it.", "Ich konnte es sehen.", "could=konnte see=es", "i could actually see it ."),
        # German superlative for an English positive: 'die sehr wichtigsten Dinge'
        ("One of our important goals is time.", "Eines unserer wichtigsten Ziele ist Zeit.",
         "our=unserer important=wichtigsten", "one of our very important goals is time ."),
        ("It is a big risk.", "Es ist das größte Risiko.", "a=das big=größte", "it is a very big risk ."),
    ],
)
def test_ins_german_slot_must_match(en: str, de: str, links: str, licensed: str) -> None:
    assert outcomes("INS", aligned_pair(en, de, links), _ins_resources([licensed])) == [Drop("ins_de_slot_differs")]


def test_ins_additive_also_is_off_by_default() -> None:
    """Blind check 2: 'also' contradicted a contrast that no marker word shows (a thing set against another by
    meaning alone; after a correcting 'Well, ...'). Off by default; 'very' still goes in."""
    pair = aligned_pair("The bridge is old.", "Die Brücke ist alt.", "bridge=Brücke is=ist old=alt")
    made = outcomes("INS", pair, _ins_resources(["the bridge is also old .", "the bridge is very old ."], False))
    assert Drop("ins_additive_off") in made
    assert [result(pair, o) for o in made if isinstance(o, Variation)] == [
        ("The bridge is very old.", "Die Brücke ist sehr alt.")]


# --- issue 25: INS slot, fixed phrases, stacked degree words, casing --------------------------------------------
@pytest.mark.parametrize(
    ("en", "de", "links", "licensed", "expected"),
    [
        # 'sehr' goes right before the German word the modified English word is linked to, inside its phrase,
        # even when the English left neighbour is linked elsewhere: 'die sehr tief hängenden', 'nur sehr schlecht'
        ("Pick some low hanging fruit.", "Pflücke einige tief hängende Früchte.",
         "Pick=Pflücke some=einige low=tief hanging=hängende fruit=Früchte", "pick some very low hanging fruit .",
         ("Pick some very low hanging fruit.", "Pflücke einige sehr tief hängende Früchte.")),
        ("Prices can be forecast poorly.", "Preise lassen sich schlecht vorhersagen.",
         "Prices=Preise can=lassen forecast=vorhersagen poorly=schlecht", "prices can be forecast very poorly .",
         ("Prices can be forecast very poorly.", "Preise lassen sich sehr schlecht vorhersagen.")),
        # never before a verb the modified word was linked to, nor between an adverb and its adjective
        ("Prices can be forecast poorly.", "Preise lassen sich nur schlecht prognostizieren.",
         "can=lassen forecast=schlecht poorly=prognostizieren", "prices can be forecast very poorly .",
         Drop("ins_de_before_verb")),
        ("Pick some low hanging fruit.", "Pflücke einige tief hängende Früchte.",
         "some=einige low=hängende hanging=tief", "pick some very low hanging fruit .", Drop("ins_de_inside_modifier")),
        # the modified word linked to two German words: the first may modify the second ('sehr irgendwie seltsam')
        ("It is something strange.", "Es ist irgendwie seltsam.", "is=ist strange=irgendwie strange=seltsam",
         "it is something very strange .", Drop("ins_de_slot_differs")),
        # a measure phrase or idiom takes no intensifier: 'a good quarter of an hour', 'a good 20 minutes'
        ("We waited a good quarter of an hour.", "Wir warteten eine gute Viertelstunde.", "a=eine good=gute",
         "we waited a very good quarter of an hour .", Drop("ins_measure_or_idiom")),
        # an idiom with a frozen adjective (blind round 10): 'not by a very long shot' is no stronger denial
        ("He is not finished by a long shot.", "Er ist bei weitem nicht fertig.", "by=bei long=weitem shot=weitem",
         "he is not finished by a very long shot .", Drop("ins_measure_or_idiom")),
        ("He got cold feet.", "Er bekam kalte Füße.", "got=bekam cold=kalte feet=Füße",
         "he got very cold feet .", Drop("ins_measure_or_idiom")),
        ("The walk took a good 20 minutes.", "Der Weg dauerte gut 20 Minuten.", "took=dauerte good=gut",
         "the walk took a very good 20 minutes .", Drop("ins_measure_or_idiom")),
        ("They ran for a good cause.", "Sie liefen für einen guten Zweck.", "a=einen good=guten cause=Zweck",
         "they ran for a very good cause .", Drop("ins_measure_or_idiom")),
        # ... also when only the German side shows it (ein gutes Stück = "a fair way")
        ("We walked a long way.", "Wir liefen ein gutes Stück.", "a=ein long=gutes way=Stück",
         "we walked a very long way .", Drop("ins_measure_or_idiom")),
        # a degree word already in the phrase, on either side: no second one
        ("It stayed at rather a low level.", "Es blieb auf einem eher niedrigen Niveau.",
         "a=einem low=niedrigen level=Niveau", "it stayed at rather a very low level .",
         Drop("ins_degree_word_present")),
        ("The room is big enough.", "Das Zimmer ist groß genug.", "is=ist big=groß",
         "the room is very big enough .", Drop("ins_degree_word_present")),
        ("It stayed at a low level.", "Es blieb auf einem ziemlich niedrigen Niveau.",
         "a=einem low=niedrigen level=Niveau", "it stayed at a very low level .", Drop("ins_degree_word_present")),
        ("It was a big house.", "Es war so ein großes Haus.", "a=ein big=großes house=Haus",
         "it was a very big house .", Drop("ins_degree_word_present")),
        # a gap inside a hyphenated word
        ("She is self-confident.", "Sie ist selbstbewusst.", "confident=selbstbewusst",
         "she is self - very confident .",
         Drop("ins_inside_hyphenated_word")),
        # a Title-Case headline gets a capitalised 'Very'; a proper adjective in running text does not
        ("A Good Year For Local Farmers", "Ein gutes Jahr für Bauern aus der Region", "A=Ein Good=gutes Year=Jahr",
         "a very good year for local farmers", ("A Very Good Year For Local Farmers",
                                                "Ein sehr gutes Jahr für Bauern aus der Region")),
        ("It was a good year for local farmers.", "Es war ein gutes Jahr für Bauern.", "a=ein good=gutes year=Jahr",
         "it was a very good year for local farmers .",
         ("It was a very good year for local farmers.", "Es war ein sehr gutes Jahr für Bauern.")),
    ],
)
def test_ins_issue25_classes(en: str, de: str, links: str, licensed: str, expected: object) -> None:
    pair = aligned_pair(en, de, links)
    made = outcomes("INS", pair, _ins_resources([licensed]))
    assert [result(pair, o) for o in made] == [expected]


# --- blind round 5 (subtitles): fixed expressions, the "OK" sense, stacked colloquial intensifiers, function words
@pytest.mark.parametrize(
    ("en", "de", "links", "licensed", "expected"),
    [
        # an adjective+noun name or set phrase takes no intensifier, on either side
        ("We pray to the good Lord.", "Wir beten zum lieben Gott.", "the=zum good=lieben Lord=Gott",
         "we pray to the very good lord .", Drop("ins_measure_or_idiom")),
        ("They went over to the dark side.", "Sie liefen zur dunklen Seite über.", "the=zur dark=dunklen side=Seite",
         "they went over to the very dark side .", Drop("ins_measure_or_idiom")),
        ("The good news is that nobody got hurt.", "Die gute Nachricht ist, dass niemand verletzt wurde.",
         "The=Die good=gute news=Nachricht", "the very good news is that nobody got hurt .",
         Drop("ins_measure_or_idiom")),
        # ... also where only the German shows the set phrase ('the dear Lord' -> 'der liebe Herrgott')
        ("We trust our merciful Lord.", "Wir vertrauen unserem lieben Herrgott.",
         "our=unserem merciful=lieben Lord=Herrgott", "we trust our very merciful lord .",
         Drop("ins_measure_or_idiom")),
        # 'fine', 'well', 'okay' in their predicative "OK" sense are not graded
        ("Our neighbour is fine.", "Unserem Nachbarn geht es gut.", "neighbour=Nachbarn is=geht fine=gut",
         "our neighbour is very fine .", Drop("ins_ok_sense")),
        ("The party was fine.", "Die Party war in Ordnung.", "party=Party was=war fine=Ordnung",
         "the party was very fine .", Drop("ins_ok_sense")),
        ("In the end all would be well.", "Am Ende würde alles gut werden.", "all=alles would=würde well=gut",
         "in the end all would be very well .", Drop("ins_ok_sense")),
        # ... and the German "OK" sense of 'gut' ('es ging ihr gut') where the English word is another one
        ("She felt good.", "Es ging ihr gut.", "She=ihr felt=ging good=gut", "she felt very good .",
         Drop("ins_ok_sense")),
        # a yes/no question 'Is that ADJ?' asks for agreement: 'Is that very clear?' is another question
        ("Is that clear?", "Ist das klar?", "Is=Ist that=das clear=klar", "is that very clear ?",
         Drop("ins_state_question")),
        ("Okay, is it cold?", "Okay, ist es kalt?", "is=ist it=es cold=kalt", "okay , is it very cold ?",
         Drop("ins_state_question")),
        # a colloquial intensifier already there, on either side: no second one
        ("That is strong stuff.", "Das ist ein verdammt starker Stoff.", "is=ist strong=starker stuff=Stoff",
         "that is very strong stuff .", Drop("ins_degree_word_present")),
        ("The tea was hot.", "Der Tee war echt heiß.", "tea=Tee was=war hot=heiß", "the tea was very hot .",
         Drop("ins_degree_word_present")),
        ("The car is fast.", "Das Auto ist superschnell.", "car=Auto is=ist fast=superschnell",
         "the car is very fast .", Drop("ins_degree_word_present")),
        ("That was damn good coffee.", "Das war guter Kaffee.", "was=war good=guter coffee=Kaffee",
         "that was damn very good coffee .", Drop("ins_degree_word_present")),
        ("That is some strong-ass coffee.", "Das ist ein starker Kaffee.", "is=ist strong=starker coffee=Kaffee",
         "that is some very strong - ass coffee .", Drop("ins_degree_word_present")),
        # 'sehr' never right before a pronoun, reflexive, article or preposition (a link to a function word)
        ("One cannot help being suspicious.", "Man kann sich des Verdachts nicht erwehren.",
         "can=kann suspicious=sich being=Verdachts", "one cannot help being very suspicious .",
         Drop("ins_de_before_function_word")),
        ("It was a cold night.", "Es war in einer kalten Nacht.", "was=war a=in cold=einer night=Nacht",
         "it was a very cold night .", Drop("ins_de_before_function_word")),
        # still made: attributive 'fine', 'well' as a manner adverb, an ordinary adjective in a statement
        ("It is a fine wine.", "Es ist ein feiner Wein.", "is=ist a=ein fine=feiner wine=Wein",
         "it is a very fine wine .", ("It is a very fine wine.", "Es ist ein sehr feiner Wein.")),
        ("She sings well.", "Sie singt gut.", "She=Sie sings=singt well=gut", "she sings very well .",
         ("She sings very well.", "Sie singt sehr gut.")),
        ("The answer is clear.", "Die Antwort ist klar.", "answer=Antwort is=ist clear=klar",
         "the answer is very clear .", ("The answer is very clear.", "Die Antwort ist sehr klar.")),
        ("The floor is clean.", "Der Boden ist sauber.", "floor=Boden is=ist clean=sauber",
         "the floor is very clean .", ("The floor is very clean.", "Der Boden ist sehr sauber.")),
    ],
)
def test_ins_blind5_classes(en: str, de: str, links: str, licensed: str, expected: object) -> None:
    pair = aligned_pair(en, de, links)
    made = outcomes("INS", pair, _ins_resources([licensed]))
    assert [result(pair, o) for o in made] == [expected]


def test_ins_verbal_slot_not_after_a_clause_final_auxiliary() -> None:
    """'denen wir begegnen werden tatsächlich müssen': the German auxiliary closes a verb-final clause."""
    pair = aligned_pair("These are questions we will have to face.",
                        "Das sind Fragen, denen wir begegnen werden müssen.", "will=werden have=müssen")
    made = outcomes("INS", pair, _ins_resources(["these are questions we will actually have to face ."]))
    assert made == [Drop("ins_de_verb_final_clause")]
    pair = aligned_pair("We will have to leave.", "Wir werden gehen müssen.", "will=werden have=gehen")
    made = outcomes("INS", pair, _ins_resources(["we will actually have to leave ."]))
    assert [result(pair, o) for o in made] == [
        ("We will actually have to leave.", "Wir werden tatsächlich gehen müssen.")]


def test_ins_not_after_a_german_preposition() -> None:
    """'dass es sich um auch einen Ort handelt': the aligner linked 'is' to 'um'."""
    pair = aligned_pair("This is a quiet place.", "Es handelt sich um einen ruhigen Ort.", "is=um a=einen place=Ort")
    made = outcomes("INS", pair, _ins_resources(["this is also a quiet place ."]))
    assert made == [Drop("ins_de_slot_differs")]


def test_del_lexicon_has_no_focus_adverbs() -> None:
    adverbs = _resources().lexicons.adverbs
    assert not {"only", "even"} & set(adverbs)
    assert not {"nur", "erst"} & set(adverbs["just"].german)
    assert {"very", "really", "still"} <= set(adverbs)


def test_ins_lexicon_has_only_truth_neutral_words() -> None:
    scope_words = {"only", "even", "always", "often", "usually", "probably", "certainly", "still", "already", "now"}
    assert not scope_words & set(_resources().lexicons.insertions)
    assert {"also", "very"} <= set(_resources().lexicons.insertions)


# --- DEL ----------------------------------------------------------------------------------------------------
DEL_CASES = [
    # 'wieder einmal' is one unit ("once again"): deleting 'wieder' leaves 'einmal' ("once")
    ("The train was late again.", "Der Zug hatte wieder einmal Verspätung.", "again=wieder",
     Drop("del_de_fixed_phrase")),
    ("The train was late again.", "Der Zug hatte wieder einmal Verspätung.", "again=wieder again=einmal",
     Drop("del_multiword_alignment")),
    # 'noch lange nicht' ("far from"): no 'noch' alone
    ("The work is still far from done.", "Die Arbeit ist noch lange nicht fertig.", "still=noch",
     Drop("del_de_fixed_phrase")),
    # clause-initial 'Still' means 'nevertheless', a connective (issue 25): never deleted, whatever it is linked to
    ("Still, the work is far from done.", "Die Arbeit ist noch lange nicht fertig.", "Still=noch",
     Drop("del_connective")),
    ("Still, the work goes on.", "Die Arbeit geht trotzdem weiter.", "Still=trotzdem", Drop("del_connective")),
    ("He always calls.", "Er ruft immer wieder an.", "always=immer", Drop("del_de_fixed_phrase")),
    ("They have already waited long.", "Sie warten schon lange.", "already=schon", Drop("del_de_fixed_phrase")),
    ("The result is really poor.", "Das Ergebnis ist gar nicht gut.", "really=gar", Drop("del_translation_absent")),
    ("It is still raining.", "Es regnet immer noch.", "still=immer still=noch", Drop("del_multiword_alignment")),
    # a German word linked to two English words is not this adverb alone
    ("He was very tired.", "Er war sehr müde.", "very=sehr tired=sehr", Drop("del_multiword_alignment")),
    # space beside a quote: 'Czechs "won"', not 'Czechs"won"'
    ('The Czechs really "won" the game.', "Die Tschechen haben das Spiel wirklich „gewonnen“.", "really=wirklich",
     ('The Czechs "won" the game.', "Die Tschechen haben das Spiel „gewonnen“.")),
    ("The plan is simple.", "Der Plan ist ganz einfach.", None, []),
    # coordinated or repeated adverbs: 'learn quickly and easily' -> 'learn and easily'; 'very, very' -> ', very'
    ("Children learn quickly and easily.", "Kinder lernen schnell und leicht.", "quickly=schnell",
     Drop("del_en_coordinated")),
    ("He liked it very much.", "Es hat ihm sehr gefallen.", "very=sehr", Drop("del_en_fixed_phrase")),
    ("It is something very, very hard.", "Es ist etwas sehr, sehr Schweres.", "very=sehr", Drop("del_en_coordinated")),
    # the standard of a fixed comparison: 'higher than ever' -> 'higher than.', 'höher denn je' -> 'höher denn.'
    ("Prices are higher than ever.", "Die Preise sind höher denn je.", "ever=je", Drop("del_en_comparison")),
    ("She sang well, as she always does.", "Sie sang gut, wie immer.", "always=immer", Drop("del_de_comparison")),
    ("The river rose faster than it ever had.", "Der Fluss stieg schneller als je zuvor.", "ever=je",
     Drop("del_de_comparison")),
    # focus adverbs are not in the DEL lexicon: 'Only two guests came' -> 'Two guests came' asserts something else
    ("Only two guests came.", "Nur zwei Gäste kamen.", "Only=Nur", []),
    ("Even the coach was surprised.", "Sogar der Trainer war überrascht.", "Even=Sogar", []),
    ("It was just a joke.", "Es war nur ein Witz.", "just=nur", Drop("del_translation_absent")),
    # blind check 2: the degree word of a result construction ('so tired that', 'so müde, dass') stays
    ("The wind was so strong that the tent flew away.", "Der Wind war so stark, dass das Zelt wegflog.", "so=so",
     Drop("del_en_result_construction")),
    ("The soup was so hot I burned my tongue.", "Die Suppe war so heiß, dass ich mir die Zunge verbrannte.",
     "so=so", Drop("del_de_result_construction")),
    ("The hall was so quiet.", "Der Saal war so still.", "so=so", ("The hall was quiet.", "Der Saal war still.")),
    # a negation is no candidate: 'He never reads the paper' -> 'He reads the paper' inverts the sentence
    ("He never reads the paper.", "Er liest nie die Zeitung.", "never=nie", []),
    # '-ever' relatives: 'wie auch immer', 'wann immer' lose their sense without 'immer' (auch is left as 'also')
    ("However you always do it, it works.", "Wie auch immer du es machst, es klappt.", "always=immer",
     Drop("del_de_fixed_phrase")),
    ("She always smiles when she sees him.", "Wann immer sie ihn sieht, lächelt sie.", "always=immer",
     Drop("del_de_fixed_phrase")),
]


@pytest.mark.parametrize(("en", "de", "links", "expected"), DEL_CASES)
def test_del_multiword_units_and_alignment(en: str, de: str, links: str | None, expected: object) -> None:
    pair = aligned_pair(en, de, links)
    made = [result(pair, o) for o in outcomes("DEL", pair)]
    if isinstance(expected, list):
        assert not [m for m in made if not isinstance(m, Drop)]
    else:
        assert expected in made


# --- blind round 5: DEL of non-corresponding adverbs, DEL in a false start ---------------------------------------
@pytest.mark.parametrize(
    ("en", "de", "links", "expected"),
    [
        # English 'immediately' belongs to 'call'; German 'sofort' sits in the other clause (a wrong link), while
        # the counterpart 'gleich' stays: the two deletions would not correspond
        ("When the bell rings, call me immediately.", "Wenn es sofort klingelt, ruf mich gleich an.",
         "When=Wenn bell=es rings=klingelt call=ruf me=mich immediately=sofort", Drop("del_de_other_clause")),
        # linked within the clause of the English verb: made
        ("When the bell rings, call me immediately.", "Wenn es klingelt, ruf mich sofort an.",
         "When=Wenn bell=es rings=klingelt call=ruf me=mich immediately=sofort",
         ("When the bell rings, call me.", "Wenn es klingelt, ruf mich an.")),
        # a false start: removing the predicate of a broken-off clause leaves "he's, he's ..."
        ("He's really, he's made it.", "Er ist wirklich, er hat es geschafft.", "He=Er 's=ist really=wirklich",
         Drop("del_false_start")),
        ("The plan is really, well, it is done.", "Der Plan ist wirklich, nun, er ist fertig.",
         "plan=Plan is=ist really=wirklich", Drop("del_false_start")),
        # an adverb before a comma that is not left bare after a copula still goes
        ("We left quickly, before the rain.", "Wir gingen schnell, vor dem Regen.",
         "We=Wir left=gingen quickly=schnell", ("We left, before the rain.", "Wir gingen, vor dem Regen.")),
    ],
)
def test_del_blind5_classes(en: str, de: str, links: str, expected: object) -> None:
    pair = aligned_pair(en, de, links)
    made = [result(pair, o) for o in outcomes("DEL", pair)]
    assert expected in made and not (isinstance(expected, Drop) and [m for m in made if not isinstance(m, Drop)])


# --- issue 25: hyphenated words and discourse connectives (DEL) ----------------------------------------------
@pytest.mark.parametrize(
    ("en", "de", "links"),
    [
        # a piece of a hyphenated word: 'the so-called plan' -> 'the -called plan'
        ("The so-called reform failed.", "Die so genannte Reform scheiterte.", "so=so"),
        ("Their ever-growing debt worries us.", "Ihre immer größeren Schulden beunruhigen uns.", "ever=immer"),
        ("The then-mayor opened the bridge.", "Der damalige Bürgermeister eröffnete die Brücke.", "then=damalige"),
    ],
)
def test_del_never_cuts_a_hyphenated_word(en: str, de: str, links: str) -> None:
    assert outcomes("DEL", aligned_pair(en, de, links)) == [Drop("del_en_hyphenated_word")]


def test_del_never_breaks_a_unit_written_apart() -> None:
    """'so called' and 'so genannte' written apart are the same units as 'so-called' and 'sogenannte'."""
    made = outcomes("DEL", aligned_pair("The so called reform failed.", "Die so genannte Reform scheiterte.", "so=so"))
    assert made == [Drop("del_en_fixed_phrase")]
    made = outcomes("DEL", aligned_pair("The plan was so clever.", "Der so genannte Plan war schlau.", "so=so"))
    assert made == [Drop("del_de_fixed_phrase")]


@pytest.mark.parametrize(
    ("en", "de", "links"),
    [
        # connectives anywhere: deleting one changes how the clauses relate, or leaves a comma splice
        ("I must keep going, otherwise the others stop too.",
         "Ich muss weitermachen, sonst hören die anderen auch auf.",
         "otherwise=sonst"),
        ("The shop, however, stayed closed.", "Der Laden blieb jedoch geschlossen.", "however=jedoch"),
        ("We took the train instead.", "Wir nahmen stattdessen den Zug.", "instead=stattdessen"),
        ("The road was icy; therefore we walked.", "Die Straße war vereist; deshalb gingen wir zu Fuß.",
         "therefore=deshalb"),
        # clause-opening connectives: 'and yet', 'So we ...' (= therefore), 'Then ...' after a condition
        ("It was late, and yet she kept working.", "Es war spät, und sie arbeitete noch weiter.", "yet=noch"),
        ("The bus was full. So we walked home quickly.", "Der Bus war voll. Wir gingen also schnell nach Hause.",
         "So=also"),
        ("If it rains, then we simply stay home.", "Wenn es regnet, bleiben wir dann einfach zu Hause.",
         "then=dann"),
        # a discourse marker that opens a clause with a comma: 'Now, the question is ...'
        ("Now, the real question is open.", "Die eigentliche Frage ist jetzt offen.", "Now=jetzt"),
        # a German connective for a mid-clause English adverb: 'still' in the sense of 'nevertheless'
        ("She was tired but she still came.", "Sie war müde, aber sie kam trotzdem.", "still=trotzdem"),
    ],
)
def test_del_keeps_discourse_connectives(en: str, de: str, links: str) -> None:
    """The bundled lexicon has no connective left (however, instead, otherwise are out; still keeps only noch);
    a user lexicon that lists them is refused too, so the rule is tested with one."""
    from builders.variations.lexicons import TranslationEntry

    user_adverbs = {"otherwise": ("sonst",), "however": ("jedoch",), "instead": ("stattdessen",),
                    "therefore": ("deshalb",), "yet": ("noch",), "so": ("also",), "then": ("dann",),
                    "still": ("noch", "trotzdem"), "now": ("jetzt",)}
    lexicons = dataclasses.replace(_resources().lexicons, adverbs={
        word: TranslationEntry(word, german) for word, german in user_adverbs.items()})
    made = outcomes("DEL", aligned_pair(en, de, links), dataclasses.replace(_resources(), lexicons=lexicons))
    assert Drop("del_connective") in made and not [o for o in made if isinstance(o, Variation)]


def test_del_lexicon_has_no_connectives() -> None:
    adverbs = _resources().lexicons.adverbs
    assert not {"however", "instead", "otherwise", "therefore"} & set(adverbs)
    assert adverbs["still"].german == ("noch",)


@pytest.mark.parametrize(
    ("en", "de", "links", "expected"),
    [
        # counter-examples: the same words as plain modifiers inside their clause, and a degree 'so' that opens one
        ("It is still raining hard.", "Es regnet noch stark.", "still=noch",
         ("It is raining hard.", "Es regnet stark.")),
        ("We then drove to the lake.", "Wir fuhren dann zum See.", "then=dann",
         ("We drove to the lake.", "Wir fuhren zum See.")),
        ("So many people came.", "Es kamen so viele Leute.", "So=so", Drop("del_en_fixed_phrase")),
        ("Now we know the answer.", "Wir kennen jetzt die Antwort.", "Now=jetzt",
         ("We know the answer.", "Wir kennen die Antwort.")),
        ("The well-known singer was very tired.", "Der bekannte Sänger war sehr müde.", "very=sehr",
         ("The well-known singer was tired.", "Der bekannte Sänger war müde.")),
    ],
)
def test_del_modifiers_that_are_no_connectives_still_go(en: str, de: str, links: str, expected: object) -> None:
    pair = aligned_pair(en, de, links)
    assert [result(pair, o) for o in outcomes("DEL", pair)] == [expected]


def test_del_refuses_negations_from_a_user_lexicon() -> None:
    """A user lexicon may list negations; deleting one inverts the sentence (hardly/kaum too: 'I could hardly
    sleep' -> 'I could sleep')."""
    from builders.variations.lexicons import TranslationEntry

    lexicons = dataclasses.replace(_resources().lexicons, adverbs={
        "never": TranslationEntry("never", ("nie",)), "hardly": TranslationEntry("hardly", ("kaum",))})
    resources = dataclasses.replace(_resources(), lexicons=lexicons)
    for en, de, links in [("He never reads the paper.", "Er liest nie die Zeitung.", "never=nie"),
                          ("I could hardly sleep.", "Ich konnte kaum schlafen.", "hardly=kaum")]:
        assert outcomes("DEL", aligned_pair(en, de, links), resources) == [Drop("del_negation")]


@pytest.mark.parametrize(
    ("text", "word", "expected"),
    [
        ('the Czechs really "battered" them', "really", 'the Czechs "battered" them'),
        ('It was "good" really.', "really", 'It was "good".'),
        ("He said “really nice” things.", "really", "He said “nice” things."),
        ("Er sagte „wirklich gut“.", "wirklich", "Er sagte „gut“."),
        ("Sie nannte es auch »klug«.", "auch", "Sie nannte es »klug«."),
        ("It was 'very' good.", "very", "It was '' good."),  # a quoted word alone: only the word goes
        ("She smiled, too 'cause she won.", "too", "She smiled 'cause she won."),
    ],
)
def test_deletion_keeps_the_space_before_an_opening_quote(text: str, word: str, expected: str) -> None:
    start = text.index(word)
    assert apply_edits(text, [deletion_edit(text, start, start + len(word))])[0] == expected


# --- SUBGEN -------------------------------------------------------------------------------------------------
SUBGEN_CASES = [
    # a German person noun of the old gender that may be the swapped person: skipped
    ("The author said he was tired.", "Der Autor sagte, er sei müde.", Drop("subgen_de_person_noun")),
    ("She says that she is Belgian.", "Sie sagt, dass sie Belgierin ist.", Drop("subgen_de_person_noun")),
    ("He told us that he is Belgian.", "Er sagte uns, dass er Belgier ist.", Drop("subgen_de_person_noun")),
    ("The doctor said she would call.", "Die Ärztin sagte, sie würde anrufen.", Drop("subgen_de_person_noun")),
    ("In his book, the writer tells a story.", "In seinem Buch erzählt der Schriftsteller eine Geschichte.",
     Drop("subgen_de_person_noun")),
    ("Our colleague said she was ready.", "Unsere Kollegin sagte, sie sei bereit.", Drop("subgen_de_person_noun")),
    # a compound whose head is a person noun, and a nominalised adjective
    ("The party spokesperson said he agreed.", "Der Parteisprecher sagte, er stimme zu.",
     Drop("subgen_de_person_noun")),
    ("As an MP, he voted no.", "Als Abgeordneter stimmte er mit Nein.", Drop("subgen_de_person_noun")),
    # English titles and gendered words of the old gender
    ("Mr Brown said he would come.", "Herr Brown sagte, er würde kommen.", Drop("subgen_en_person_noun")),
    ("The chairman said he was sorry.", "Der Vorsitzende sagte, es tue ihm leid.", Drop("subgen_en_person_noun")),
    # a person noun of the other gender, or a plural group, is not the swapped person: swapped as usual
    ("She met the author yesterday.", "Sie traf gestern den Autor.",
     ("He met the author yesterday.", "Er traf gestern den Autor.")),
    ("He thanked the teachers.", "Er dankte den Lehrern.", ("She thanked the teachers.", "Sie dankte den Lehrern.")),
    ("He thanked the voters.", "Er dankte allen Wählern.", ("She thanked the voters.", "Sie dankte allen Wählern.")),
    ("He met the workers.", "Er traf die Arbeiter.", ("She met the workers.", "Sie traf die Arbeiter.")),
    # nouns of the gendered-noun lexicon are swapped with their article (on by default)
    ("The man said he was tired.", "Der Mann sagte, er sei müde.",
     ("The woman said she was tired.", "Die Frau sagte, sie sei müde.")),
    # the English subject translated as the object after a German subject pronoun (blind round 11): the case
    # the English asks for (nominative) would be wrong, so it is unknown; a subject clause of its own is fine
    ("The woman was greeted by us.", "Wir begrüßten die Frau.", Drop("subgen_noun_case_unknown")),
    ("I hope that the woman was seen by them.", "Ich hoffe, dass sie die Frau gesehen haben.",
     Drop("subgen_noun_case_unknown")),
    ("We knew that the woman was ill.", "Wir wussten, dass die Frau krank war.",
     ("We knew that the man was ill.", "Wir wussten, dass der Mann krank war.")),
    ("Yesterday the woman greeted us.", "Gestern begrüßte uns die Frau.",
     ("Yesterday the man greeted us.", "Gestern begrüßte uns der Mann.")),
    # a relative pronoun agrees with the swapped noun: 'die Frau, dem' would be wrong
    ("Anna, the woman who owned the shop, smiled.", "Anna, die Frau, der der Laden gehörte, lächelte.",
     Drop("subgen_noun_relative_clause")),
    ("I know the man with whom she spoke.", "Ich kenne den Mann, mit dem sie sprach.", Drop("subgen_mixed_gender")),
    ("I thanked the man, who smiled.", "Ich dankte dem Mann, der lächelte.", Drop("subgen_noun_relative_clause")),
    ("The mother of two, who is 40, spoke.", "Die Mutter von zwei Kindern, die 40 ist, sprach.",
     Drop("subgen_noun_relative_clause")),
    # a noun swapped, but a German pronoun of the old gender stays (the English has none to swap)
    ("Actor Tom Berg wrote a tweet.", "Schauspieler Tom Berg schrieb in seinem Tweet.", Drop("subgen_de_pronoun_left")),
    # a demonstrative that agrees with the person stays in the old gender: 'sie war derjenige, der'
    ("He was the one who paid.", "Er war derjenige, der zahlte.", Drop("subgen_de_pronoun_left")),
    # English possessive 'her' where the German has the personal 'sie' (photos showing her shaking hands)
    ("Photos showing her shaking hands angered her critics.",
     "Fotos, die sie beim Händeschütteln zeigten, ärgerten ihre Kritiker.", Drop("subgen_possessive_mismatch")),
    # a word that merely looks like a person noun (Computer has no feminine)
    ("He bought a computer.", "Er kaufte einen Computer.", ("She bought a computer.", "Sie kaufte einen Computer.")),
    # a word that marks the sex of the referent stays in the old gender: English male/female, German animal nouns
    # of one sex, nominalised adjectives and age nouns whose ending after the determiner marks the gender
    ("The male dog wagged his tail.", "Der Rüde wedelte mit seinem Schwanz.", Drop("subgen_en_sex_adjective")),
    ("Our tomcat sleeps when he is tired.", "Unser Kater schläft, wenn er müde ist.", Drop("subgen_de_animal_noun")),
    ("The mare lost her shoe.", "Die Stute verlor ihr Hufeisen.", Drop("subgen_de_animal_noun")),
    ("The 7-year-old said he was hungry.", "Der 7-Jährige sagte, er habe Hunger.",
     Drop("subgen_de_nominalised_adjective")),
    ("A stranger asked if she could help.", "Eine Fremde fragte, ob sie helfen könne.",
     Drop("subgen_de_nominalised_adjective")),
    # look-alikes: a noun of one gender in -sche, an adjective inside a name
    ("She put the bottle on the table.", "Sie stellte die Flasche auf den Tisch.",
     ("He put the bottle on the table.", "Er stellte die Flasche auf den Tisch.")),
    ("She works for the German railway.", "Sie arbeitet für die Deutsche Bahn.",
     ("He works for the German railway.", "Er arbeitet für die Deutsche Bahn.")),
    # a gendered noun that qualifies another noun names no person of its own: 'father duck' is no swap
    ("The mother duck led her ducklings to the pond.", "Mutter Ente führte ihre Küken zum Teich.",
     Drop("subgen_noun_as_modifier")),
    ("The father fed his children.", "Der Vater fütterte seine Kinder.",
     ("The mother fed her children.", "Die Mutter fütterte ihre Kinder.")),
    # blind check 2: a gendered word used as an interjection names no person ('Oh, woman!' is no exclamation)
    ("Oh, man, he is late again.", "Oh Mann, er ist wieder spät dran.", Drop("subgen_interjection")),
    ("Man, she sings well!", "Mann, singt sie gut!", Drop("subgen_interjection")),
    ("She shares a flat with my sister.", "Sie teilt eine Wohnung mit meiner Schwester.",
     ("He shares a flat with my brother.", "Er teilt eine Wohnung mit meinem Bruder.")),
    # German compounds with the head -frau/-mann keep the old gender ('ein Mann ... Hausfrau')
    ("She always wanted to be a housewife.", "Sie wollte immer Hausfrau sein.", Drop("subgen_de_person_noun")),
    ("The firefighter said he was fine.", "Der Feuerwehrmann sagte, er sei wohlauf.", Drop("subgen_de_person_noun")),
    # ... but a -mann surname that the English side has too is a name, not a person noun
    ("Hoffmann said he would come.", "Hoffmann sagte, er würde kommen.",
     ("Hoffmann said she would come.", "Hoffmann sagte, sie würde kommen.")),
    # issue 25: compounds and titles whose feminine the noun lexicon lacks stay masculine ('des Oberstleutnants
    # ... ihre'); a four-letter head (Ehrengast) and an -in feminine of such a title (Leutnantin) count too
    ("The speech of the lieutenant colonel moved his troops.", "Die Rede des Oberstleutnants bewegte seine Truppen.",
     Drop("subgen_de_person_noun")),
    ("The abbot said he would pray for us.", "Der Abt sagte, er werde für uns beten.", Drop("subgen_de_person_noun")),
    ("Our guest of honour said he was pleased.", "Unser Ehrengast sagte, er sei erfreut.",
     Drop("subgen_de_person_noun")),
    ("The lieutenant said she was ready.", "Die Leutnantin sagte, sie sei bereit.", Drop("subgen_de_person_noun")),
    # ... but a noun the lexicon knows with another gender is no compound of a person noun (das Angebot, not Bote)
    ("He checked the offers in his shop.", "Er prüfte die Angebote in seinem Laden.",
     ("She checked the offers in her shop.", "Sie prüfte die Angebote in ihrem Laden.")),
    # a thing English personifies (nature ... she, the ship ... her): the German pronoun follows the German noun
    ("Nature knows what she is doing.", "Die Natur weiß, was sie tut.", Drop("subgen_personified_noun")),
    ("Death takes what he wants.", "Der Tod nimmt sich, was er will.", Drop("subgen_personified_noun")),
    # the country is 'das Land' (neuter): the German pronoun is the person's, and the swap goes on
    ("The country was at war, and he had to flee.", "Das Land war im Krieg, und er musste fliehen.",
     ("The country was at war, and she had to flee.", "Das Land war im Krieg, und sie musste fliehen.")),
    ("She loves the sea.", "Sie liebt das Meer.", ("He loves the sea.", "Er liebt das Meer.")),
    # 'a gentle nature' is a kind, not nature personified
    ("It was a tale of a gentle nature, and he told it well.",
     "Es war eine Erzählung sanfter Art, die er gut erzählte.",
     ("It was a tale of a gentle nature, and she told it well.",
      "Es war eine Erzählung sanfter Art, die sie gut erzählte.")),
]


@pytest.mark.parametrize(("en", "de", "expected"), SUBGEN_CASES)
def test_subgen_person_nouns(en: str, de: str, expected: object) -> None:
    pair = aligned_pair(en, de, None)
    assert [result(pair, o) for o in outcomes("SUBGEN", pair)] == [expected]


# --- blind round 5: gender-marked German words of the person that the swap would leave --------------------------
@pytest.mark.parametrize(
    ("en", "de", "expected"),
    [
        # an ordinal used for the person keeps its ending: 'als nächster dran' beside 'sie'
        ("He is next in line.", "Er ist als nächster dran.", Drop("subgen_de_gendered_modifier")),
        ("She was the first to arrive.", "Sie kam als erste an.", Drop("subgen_de_gendered_modifier")),
        # an article and adjective before a name: 'der 31-jährigen Mira Solberg' is feminine genitive
        ("The car of 31-year-old Mira Solberg was found near her house.",
         "Das Auto der 31-jährigen Mira Solberg wurde in der Nähe ihres Hauses gefunden.",
         Drop("subgen_de_gendered_modifier")),
        ("The young Tom Brandt said he was tired.", "Der junge Tom Brandt sagte, er sei müde.",
         Drop("subgen_de_gendered_modifier")),
        # counter-examples: an ordinal before its noun, a name without a gendered adjective, another noun's article
        ("He took the first train.", "Er nahm den ersten Zug.",
         ("She took the first train.", "Sie nahm den ersten Zug.")),
        ("Tom Brandt said he was tired.", "Tom Brandt sagte, er sei müde.",
         ("Tom Brandt said she was tired.", "Tom Brandt sagte, sie sei müde.")),
        ("He saw the old bridge.", "Er sah die alte Brücke.", ("She saw the old bridge.", "Sie sah die alte Brücke.")),
    ],
)
def test_subgen_skips_a_gendered_modifier_of_the_person(en: str, de: str, expected: object) -> None:
    pair = aligned_pair(en, de, None)
    assert [result(pair, o) for o in outcomes("SUBGEN", pair)] == [expected]


# --- SUBNUM (blind check 2) ---------------------------------------------------------------------------------
def _subnum(en: str, de: str) -> tuple[list[tuple[str, str]], list[str]]:
    pair = aligned_pair(en, de, None)
    made = outcomes("SUBNUM", pair)
    return ([result(pair, o) for o in made if isinstance(o, Variation)],
            [o.reason for o in made if isinstance(o, Drop)])


def test_subnum_keeps_a_part_within_its_whole() -> None:
    """'Nine out of 10' -> 'nine out of 5' contradicts itself: a whole below its part is dropped."""
    made, drops = _subnum("Nine out of 10 dentists agree.", "9 von 10 Zahnärzten stimmen zu.")
    assert drops == ["subnum_part_exceeds_whole"] * 4  # 10 -> 8, 7, 6, 5
    assert ("Nine out of 9 dentists agree.", "9 von 9 Zahnärzten stimmen zu.") in made
    assert ("Nine out of 15 dentists agree.", "9 von 15 Zahnärzten stimmen zu.") in made
    made, drops = _subnum("Only 3 of the 4 tyres were new.", "Nur 3 der 4 Reifen waren neu.")
    # 3 -> 5, 6, 7, 8 exceed 4; 4 -> 2 and 0 fall below 3 (4 -> 1 and -1 are dropped for agreement and sign)
    assert drops.count("subnum_part_exceeds_whole") == 6
    assert ("Only 3 of the 3 tyres were new.", "Nur 3 der 3 Reifen waren neu.") in made


@pytest.mark.parametrize(
    ("en", "de"),
    [
        ("She drove in Formula 2 for years.", "Sie fuhr jahrelang in der Formel 2."),
        ("The crew of Apollo 11 came home.", "Die Besatzung von Apollo 11 kam heim."),
        ("My old Nokia 3310 still works.", "Mein altes Nokia 3310 funktioniert noch."),
    ],
)
def test_subnum_skips_a_number_inside_a_name(en: str, de: str) -> None:
    assert _subnum(en, de) == ([], ["subnum_in_name"])


def test_subnum_quantities_next_to_capitalised_words_stay() -> None:
    made, drops = _subnum("About 40 people came on May 5.", "Etwa 40 Leute kamen am 5. Mai.")
    assert len(made) == 10 + 8 and "subnum_in_name" not in drops  # May 5 -> 0 and 1 are no dates
    for en, de in [("In Ohio 34 percent voted.", "In Ohio stimmten 34 Prozent ab."),
                   ("The race is on Friday 12 June.", "Das Rennen ist am Freitag, 12. Juni.")]:
        assert "subnum_in_name" not in _subnum(en, de)[1]


def test_subnum_skips_numbers_compared_with_another() -> None:
    """'7.6, just above the mean of 7.5' -> '8.6, just above ... 7.5' is no longer 'just above'; a range
    '3 to 4 hours' -> '8 to 4 hours' turns round. Two years keep their order and stay."""
    made, drops = _subnum("Her score was 7.6, just above the mean of 7.5.",
                          "Ihr Ergebnis war 7,6, knapp über dem Mittel von 7,5.")
    assert made == [] and set(drops) == {"subnum_compared_number"}
    # the comparison word outside the pair: a change at least as large as their distance alters the comparison
    made, drops = _subnum("The norm is 20.1 points and our team got 20.3, so a bit more than normal.",
                          "Die Norm liegt bei 20,1 Punkten, und unser Team kam auf 20,3, also etwas mehr als normal.")
    assert made == [] and set(drops) == {"subnum_compared_number"}
    made, drops = _subnum("The trip takes 3 to 4 hours.", "Die Reise dauert 3 bis 4 Stunden.")
    assert made == [] and "subnum_compared_number" in drops
    made, drops = _subnum("Prices rose from 2010 to 2020.", "Die Preise stiegen von 2010 bis 2020.")
    assert len(made) == 20 and drops == []
    made, drops = _subnum("From 2018 to 2020 she lived here.", "Von 2018 bis 2020 lebte sie hier.")
    # 2018 -> 2020..2023 reach or pass 2020, 2020 -> 2018..2015 reach or pass 2018; the other 12 stay
    assert drops.count("subnum_compared_number") == 8 and len(made) == 12


@pytest.mark.parametrize(
    ("en", "de"),
    [
        # two numbers without a comparison between them, a 'to' that is no range, a year beside an amount
        ("The team won 3 games and lost 2.", "Das Team gewann 3 Spiele und verlor 2."),
        ("We brought 40 chairs to the 12 tables.", "Wir brachten 40 Stühle zu den 12 Tischen."),
        # far apart in value: a change of up to 5 cannot alter how 10 and 30 compare
        ("We had 10 chairs and 30 guests, more than ever.", "Wir hatten 10 Stühle und 30 Gäste, mehr als je."),
        ("Sales grew 13 percent more than in 2019.", "Der Umsatz wuchs um 13 Prozent mehr als 2019."),
    ],
)
def test_subnum_numbers_that_are_not_compared_stay(en: str, de: str) -> None:
    assert "subnum_compared_number" not in _subnum(en, de)[1]


@pytest.mark.parametrize(
    ("en", "de", "links", "expected"),
    [
        # German 'ihn' is the thing shown ('it'); the man is the demonstrative 'Der': counts match by chance
        ("He showed it to Anna.", "Der zeigte ihn Anna.", "He=Der it=ihn", Drop("subgen_not_aligned")),
        ("He showed it to Anna.", "Er zeigte es Anna.", "He=Er it=es",
         ("She showed it to Anna.", "Sie zeigte es Anna.")),
        ("He left.", "Er ging.", "left=ging", ("She left.", "Sie ging.")),  # no link for the pronoun: counts decide
    ],
)
def test_subgen_pronouns_follow_the_alignment(en: str, de: str, links: str, expected: object) -> None:
    pair = aligned_pair(en, de, links)
    assert [result(pair, o) for o in outcomes("SUBGEN", pair)] == [expected]


def test_person_noun_derivation() -> None:
    from builders.variations.strategies.person_nouns import english_gender, german_person_nouns

    nouns = german_person_nouns()
    assert {w: nouns.get(w) for w in ("autor", "autorin", "belgier", "kollege", "arzt", "ärztin", "computer",
                                      "fenster", "herr")} == {
        "autor": "m", "autorin": "f", "belgier": "m", "kollege": "m", "arzt": "m", "ärztin": "f", "computer": None,
        "fenster": None, "herr": "m"}
    assert [english_gender(w) for w in ("chairman", "Mrs.", "human", "German", "spokeswoman", "author")] == [
        "m", "f", "", "", "f", ""]


# --- blind check 3: bare negations, quotations, 100 %, indefinite pronouns ---------------------------------
@pytest.mark.parametrize(
    ("en", "de", "links", "expected"),
    [
        # a hedged negation in a reply: without the adverb only 'Not.' / 'Nicht.' is left
        ("Is it cold? Not really.", "Ist es kalt? Nicht wirklich.", "really=wirklich", Drop("del_bare_negation")),
        ("Well, not always.", "Na ja, nicht immer.", "always=immer", Drop("del_bare_negation")),
        ("Does it rain here? No, not often.", "Regnet es hier? Nein, nicht oft.", "often=oft",
         Drop("del_bare_negation")),
        # only the German clause is left bare: the English keeps a verb, the German reply does not
        ("We did it, but not exactly.", "Wir haben es geschafft, aber nicht genau.", "exactly=genau",
         Drop("del_bare_negation")),
        # counter-examples: the negation keeps company in its clause
        ("The room is not really warm.", "Das Zimmer ist nicht wirklich warm.", "really=wirklich",
         ("The room is not warm.", "Das Zimmer ist nicht warm.")),
        ("Not very useful, I think.", "Nicht sehr nützlich, denke ich.", "very=sehr",
         ("Not useful, I think.", "Nicht nützlich, denke ich.")),
    ],
)
def test_del_never_leaves_a_bare_negation(en: str, de: str, links: str, expected: object) -> None:
    pair = aligned_pair(en, de, links)
    assert [result(pair, o) for o in outcomes("DEL", pair)] == [expected]


@pytest.mark.parametrize(
    ("en", "de", "links", "licensed"),
    [
        # a slogan in straight quotes on both sides
        ('Their motto was "A slow car is safe forever."',
         'Ihr Motto lautete "Ein langsames Auto ist für immer sicher."', "car=Auto is=ist safe=sicher",
         'their motto was " a slow car is very safe forever . "'),
        # a title in typographic quotes on the English side, German „…“
        ("He read “The night is dark” to us.", "Er las uns „Die Nacht ist dunkel“ vor.", "is=ist dark=dunkel",
         "he read “ the night is very dark ” to us ."),
        # quoted only on the German side (guillemets)
        ("The sign said the path is steep.", "Auf dem Schild stand »Der Weg ist steil«.", "is=ist steep=steil",
         "the sign said the path is very steep ."),
    ],
)
def test_ins_never_inside_a_quotation(en: str, de: str, links: str, licensed: str) -> None:
    pair = aligned_pair(en, de, links)
    assert outcomes("INS", pair, _ins_resources([licensed])) == [Drop("ins_inside_quotation")]


def test_ins_next_to_a_quotation_is_still_made() -> None:
    """Counter-example: the gap is outside the quoted title, so the insertion is made."""
    en, de = 'The film "Rain" is good.', 'Der Film „Regen“ ist gut.'
    pair = aligned_pair(en, de, "is=ist good=gut")
    made = outcomes("INS", pair, _ins_resources(['the film " rain " is very good .']))
    assert [result(pair, o) for o in made] == [('The film "Rain" is very good.', 'Der Film „Regen“ ist sehr gut.')]


@pytest.mark.parametrize(
    ("en", "de"),
    [
        ("I agree with you 100%.", "Ich stimme dir zu 100 % zu."),
        ("It was 100 percent the phone.", "Es war zu 100 Prozent das Handy."),
        ("The farm runs on 100 per cent solar power.", "Der Hof läuft mit 100 Prozent Solarstrom."),
    ],
)
def test_subnum_leaves_one_hundred_percent(en: str, de: str) -> None:
    made, drops = _subnum(en, de)
    assert made == [] and drops == ["subnum_hundred_percent"]


def test_subnum_other_percentages_and_plain_hundreds_change() -> None:
    """Counter-examples: 40 % is an amount, and 100 guests are a quantity."""
    made, drops = _subnum("About 40% of the seats were empty.", "Etwa 40 % der Plätze waren leer.")
    assert ("About 43% of the seats were empty.", "Etwa 43 % der Plätze waren leer.") in made
    made, drops = _subnum("We invited 100 guests.", "Wir luden 100 Gäste ein.")
    assert ("We invited 103 guests.", "Wir luden 103 Gäste ein.") in made and "subnum_hundred_percent" not in drops


@pytest.mark.parametrize(
    ("en", "de"),
    [
        ("One of our neighbours said he had seen the fox.",
         "Einer unserer Nachbarn sagte, er habe den Fuchs gesehen."),
        ("Everyone who came said he liked the soup.", "Jeder, der kam, sagte, er mochte die Suppe."),
        ("Nobody knew where he was.", "Keiner wusste, wo er war."),
        ("One of the women said she would stay.", "Eine von den Frauen sagte, sie würde bleiben."),
        ("Each of the girls said she was tired.", "Jede der Schülerinnen sagte, sie sei müde."),
    ],
)
def test_subgen_skips_an_indefinite_pronoun_of_the_old_gender(en: str, de: str) -> None:
    pair = aligned_pair(en, de, None)
    assert outcomes("SUBGEN", pair) == [Drop("subgen_de_indefinite_pronoun")]


@pytest.mark.parametrize(
    ("en", "de", "expected"),
    [
        # a determiner before a noun, and a feminine dative after a preposition, are no masculine pronouns
        ("Every day he walks to work.", "Jeden Tag geht er zur Arbeit.",
         ("Every day she walks to work.", "Jeden Tag geht sie zur Arbeit.")),
        ("He spoke with one of the nurses.", "Er sprach mit einer der Pflegekräfte.",
         ("She spoke with one of the nurses.", "Sie sprach mit einer der Pflegekräfte.")),
        ("He lives in a house surrounded by trees.", "Er wohnt in einem von Bäumen umgebenen Haus.",
         ("She lives in a house surrounded by trees.", "Sie wohnt in einem von Bäumen umgebenen Haus.")),
    ],
)
def test_subgen_determiners_are_not_indefinite_pronouns(en: str, de: str, expected: object) -> None:
    pair = aligned_pair(en, de, None)
    assert [result(pair, o) for o in outcomes("SUBGEN", pair)] == [expected]


def test_quoted_spans_pair_the_marks_of_each_convention() -> None:
    from builders.variations.text import inside_quotation, quoted_spans

    text = 'He said "yes", she wrote „nein“ and »vielleicht« and “maybe'
    assert [text[a : b + 1] for a, b in quoted_spans(text)][:3] == ['"yes"', "„nein“", "»vielleicht«"]
    assert quoted_spans(text)[-1] == (text.index("“maybe"), len(text))  # left open: runs to the line's end
    assert inside_quotation(text, text.index("yes")) and not inside_quotation(text, text.index(" she"))


# --- blind round 7 (issue 25): person nouns left in the old gender, emphatic 'very', a/an after DEL/INS -------
@pytest.mark.parametrize(
    ("en", "de", "links", "expected"),
    [
        # a nominalised adjective or participle of the person keeps the old gender's ending, also with an
        # attributive adjective before it, after 'als' and after 'zur'/'zum'
        ("As appointed envoy, she signed the treaty.", "Als beauftragte Gesandte unterzeichnete sie den Vertrag.",
         None, Drop("subgen_de_nominalised_adjective")),
        ("A new employee said he was late.", "Ein neuer Angestellter sagte, er sei spät dran.", None,
         Drop("subgen_de_person_noun")),
        ("She spoke to the chair.", "Sie sprach mit der Vorsitzenden.", None, Drop("subgen_de_nominalised_adjective")),
        ("He spoke to the chair.", "Er sprach mit dem neuen Vorsitzenden.", None,
         Drop("subgen_de_nominalised_adjective")),
        ("The commissioner said he would resign.", "Der Beauftragte sagte, er werde zurücktreten.", None,
         Drop("subgen_de_nominalised_adjective")),
        ("She sent it to the commissioner.", "Sie schickte es zur Beauftragten.", None,
         Drop("subgen_de_nominalised_adjective")),
        ("A relative said he had left early.", "Ein Verwandter sagte, er sei früh gegangen.", None,
         Drop("subgen_de_person_noun")),
        ("An acquaintance said she was ill.", "Eine Bekannte sagte, sie sei krank.", None,
         Drop("subgen_de_nominalised_adjective")),
        # a German person noun of the old gender with no -in feminine, found through the English person noun it
        # translates: a loanword ('Mudschahed'), a title, or a word the noun lexicon does not know
        ("The mujahid said his prayers.", "Der Mudschahed sprach seine Gebete.",
         "The=Der mujahid=Mudschahed said=sprach his=seine prayers=Gebete", Drop("subgen_de_person_noun")),
        ("We met the ayatollah before he spoke.", "Wir trafen den Ajatollah, bevor er sprach.",
         "We=Wir met=trafen the=den ayatollah=Ajatollah before=bevor he=er spoke=sprach",
         Drop("subgen_de_person_noun")),
        ("We met the guru before he spoke.", "Wir trafen den Gurudschi, bevor er sprach.",
         "We=Wir met=trafen the=den guru=Gurudschi before=bevor he=er spoke=sprach", Drop("subgen_de_person_noun")),
        # counter-examples: a plural group, a noun whose gender does not follow the sex (die Geisel, das Opfer),
        # a nominalised adjective in the new gender, a person noun of the other gender
        ("He thanked all employees.", "Er dankte allen Angestellten.", None,
         ("She thanked all employees.", "Sie dankte allen Angestellten.")),
        ("The hostage said she was fine.", "Die Geisel sagte, sie sei wohlauf.",
         "The=Die hostage=Geisel said=sagte she=sie was=sei fine=wohlauf",
         ("The hostage said he was fine.", "Die Geisel sagte, er sei wohlauf.")),
        ("The victim said he was hit.", "Das Opfer sagte, er sei geschlagen worden.",
         "The=Das victim=Opfer said=sagte he=er was=sei hit=geschlagen",
         ("The victim said she was hit.", "Das Opfer sagte, sie sei geschlagen worden.")),
        ("He met the envoy.", "Er traf die Gesandte.", "He=Er met=traf the=die envoy=Gesandte",
         ("She met the envoy.", "Sie traf die Gesandte.")),
    ],
)
def test_subgen_blind7_person_nouns_of_the_old_gender(en: str, de: str, links: str | None,
                                                      expected: object) -> None:
    pair = aligned_pair(en, de, links)
    assert [result(pair, o) for o in outcomes("SUBGEN", pair)] == [expected]


@pytest.mark.parametrize(
    ("en", "de", "links", "licensed", "expected"),
    [
        # 'the/that very X' reads as the emphatic "exact X": 'very' never goes right after the/this/that/these/those
        ("The dark energy is strange.", "Die dunkle Energie ist seltsam.", "The=Die dark=dunkle energy=Energie",
         "the very dark energy is strange .", Drop("ins_emphatic_very")),
        ("That happy resolution came late.", "Diese glückliche Lösung kam spät.",
         "That=Diese happy=glückliche resolution=Lösung", "that very happy resolution came late .",
         Drop("ins_emphatic_very")),
        # under a negated 'all' the intensifier changes what is denied: 'it wasn't all very good'
        ("It wasn't all good.", "Es war nicht alles gut.", "It=Es was=war n't=nicht all=alles good=gut",
         "it was n't all very good .", Drop("ins_negated_all")),
        # after a possessive it is the intensifier
        ("It was our old car.", "Es war unser altes Auto.", "It=Es was=war our=unser old=altes car=Auto",
         "it was our very old car .", ("It was our very old car.", "Es war unser sehr altes Auto.")),
    ],
)
def test_ins_blind7_emphatic_very(en: str, de: str, links: str, licensed: str, expected: object) -> None:
    pair = aligned_pair(en, de, links)
    made = outcomes("INS", pair, _ins_resources([licensed]))
    assert [result(pair, o) for o in made] == [expected]


@pytest.mark.parametrize(
    ("en", "de", "links", "expected"),
    [
        # emphatic 'very' (the very day, the very best) is no DEL site
        ("It happened on the very day we met.", "Es geschah genau an dem Tag, an dem wir uns trafen.",
         "very=genau", [Drop("del_emphatic_very")]),
        ("She wants the very best.", "Sie will das sehr Beste.", "very=sehr", [Drop("del_emphatic_very")]),
        # the intensifier after 'the' still goes
        ("The very old house is empty.", "Das sehr alte Haus ist leer.", "The=Das very=sehr old=alte house=Haus",
         [("The old house is empty.", "Das alte Haus ist leer.")]),
        # the article agrees with what now follows it, also across an opening quote
        ('It was an almost "perfect" game.', "Es war ein fast „perfektes“ Spiel.", "almost=fast",
         [('It was a "perfect" game.', "Es war ein „perfektes“ Spiel.")]),
        ("It was an almost hourly check.", "Es war eine fast stündliche Kontrolle.", "almost=fast",
         [("It was an hourly check.", "Es war eine stündliche Kontrolle.")]),
        ("He was an already European star.", "Er war ein schon europäischer Star.", "already=schon",
         [("He was a European star.", "Er war ein europäischer Star.")]),
    ],
)
def test_del_blind7_emphatic_very_and_article(en: str, de: str, links: str, expected: list[object]) -> None:
    pair = aligned_pair(en, de, links)
    assert [result(pair, o) for o in outcomes("DEL", pair)] == expected


@pytest.mark.parametrize(
    ("word", "article"),
    [("FBI", "an"), ("MP", "an"), ("SUV", "an"), ("OECD", "an"), ("UN", "a"), ("U.S.", "a"), ("CIA", "a"),
     ("NATO", "a"), ("NASA", "a"), ("hour", "an"), ("honest", "an"), ("heir", "an"), ("university", "a"),
     ("European", "a"), ("one-time", "a"), ("urban", "an"), ("urgent", "an"), ("Ukrainian", "a"), ("8", "an"),
     ("apple", "an"), ("house", "a")],
)
def test_indefinite_article_by_sound(word: str, article: str) -> None:
    from builders.variations.text import repair_indefinite_article

    text = f"It was an almost {word} thing."
    start = text.index("almost")
    edit = repair_indefinite_article(text, deletion_edit(text, start, start + len("almost")))
    assert apply_edits(text, [edit])[0] == f"It was {article} {word} thing."
    text = f"It was a very {word} thing."
    start = text.index("very")
    edit = repair_indefinite_article(text, deletion_edit(text, start, start + len("very")))
    assert apply_edits(text, [edit])[0] == f"It was {article} {word} thing."
    # INS: the article before the inserted 'very' agrees with 'very'
    text = f"It was {article} {word} thing."
    edit = repair_indefinite_article(text, insertion_edit(text, text.index(word), "very"))
    assert apply_edits(text, [edit])[0] == f"It was a very {word} thing."


def test_article_before_punctuation_is_left_alone() -> None:
    """A false start 'It's a really, this graph': no word follows the article, so it stays as it was."""
    from builders.variations.text import repair_indefinite_article

    text = "It's a really, this graph is new."
    start = text.index("really")
    edit = repair_indefinite_article(text, deletion_edit(text, start, start + len("really")))
    assert apply_edits(text, [edit])[0] == "It's a, this graph is new."


# --- blind rounds 8 and 9: INS in fixed phrases, compounds, contrasts, parallels; SUBNUM conversions, events --
@pytest.mark.parametrize(
    ("en", "de", "links", "licensed", "expected"),
    [
        # (1) fixed phrases: the adjective is part of a lexicalised unit
        ("They ruined his good name.", "Sie ruinierten seinen guten Namen.",
         "ruined=ruinierten his=seinen good=guten name=Namen", "they ruined his very good name .",
         Drop("ins_measure_or_idiom")),
        ("Just to be clear, we stay.", "Nur um es klarzustellen, wir bleiben.",
         "Just=Nur to=um be=es clear=klarzustellen we=wir stay=bleiben", "just to be very clear , we stay .",
         Drop("ins_fixed_adjective_phrase")),
        ("The plane is good to go.", "Das Flugzeug ist startklar.", "plane=Flugzeug is=ist good=startklar",
         "the plane is very good to go .", Drop("ins_fixed_adjective_phrase")),
        ("Please make sure the door is shut.", "Bitte stell sicher, dass die Tür zu ist.",
         "Please=Bitte make=stell sure=sicher door=Tür", "please make very sure the door is shut .",
         Drop("ins_fixed_adjective_phrase")),
        ("The kids got ready for school.", "Die Kinder machten sich für die Schule fertig.",
         "kids=Kinder got=machten ready=fertig school=Schule", "the kids got very ready for school .",
         Drop("ins_fixed_adjective_phrase")),
        # the German counterpart is a particle verb: 'sehr' would land before a verb
        ("We want the rules clear.", "Wir wollen die Regeln klarstellen.",
         "We=Wir want=wollen rules=Regeln clear=klarstellen", "we want the rules very clear .",
         Drop("ins_de_before_verb")),
        # (2) the adjective before a noun that modifies another noun: 'very young' would scope over the compound
        ("They held a young playwrights festival.", "Sie veranstalteten ein Festival junger Dramatiker.",
         "held=veranstalteten a=ein young=junger playwrights=Dramatiker festival=Festival",
         "they held a very young playwrights festival .", Drop("ins_compound_modifier")),
        # (3) under a negation that a contrast takes up
        ("It is not the price that is important, it is the quality.",
         "Nicht der Preis ist wichtig, es ist die Qualität.",
         "not=Nicht price=Preis is#2=ist important=wichtig quality=Qualität",
         "it is not the price that is very important , it is the quality .", Drop("ins_negated_contrast")),
        ("It was not a large room but a bright one.", "Es war kein großes Zimmer, aber ein helles.",
         "It=Es was=war a=kein large=großes room=Zimmer bright=helles",
         "it was not a very large room but a bright one .", Drop("ins_negated_contrast")),
        # (4) the adjective twice: an intensifier on one breaks the parallel
        ("Be good to yourself and let others be good to you.",
         "Sei gut zu dir selbst und lass andere gut zu dir sein.",
         "Be=Sei good=gut yourself=dir others=andere good#2=gut#2",
         "be very good to yourself and let others be good to you .",
         Drop("ins_repeated_adjective")),
        # still made: an adjective before a plain noun, a negation without contrast, a single adjective
        ("They held a young festival.", "Sie veranstalteten ein junges Festival.",
         "held=veranstalteten a=ein young=junges festival=Festival", "they held a very young festival .",
         ("They held a very young festival.", "Sie veranstalteten ein sehr junges Festival.")),
        ("It was not our large car.", "Es war nicht unser großes Auto.",
         "It=Es was=war not=nicht our=unser large=großes car=Auto", "it was not our very large car .",
         ("It was not our very large car.", "Es war nicht unser sehr großes Auto.")),
        ("The answer was clear.", "Die Antwort war klar.", "answer=Antwort was=war clear=klar",
         "the answer was very clear .", ("The answer was very clear.", "Die Antwort war sehr klar.")),
    ],
)
def test_ins_blind8_9_classes(en: str, de: str, links: str, licensed: str, expected: object) -> None:
    pair = aligned_pair(en, de, links)
    made = outcomes("INS", pair, _ins_resources([licensed]))
    assert [result(pair, o) for o in made] == [expected]


def test_ins_really_before_an_adjective_follows_the_adjective_rules() -> None:
    """'really' (verbal slot, after the copula) before an adjective of a fixed phrase is refused too."""
    pair = aligned_pair("The plan is good to go.", "Der Plan ist startklar.", "plan=Plan is=ist good=startklar")
    made = outcomes("INS", pair, _ins_resources(["the plan is really good to go ."]))
    assert [result(pair, o) for o in made] == [Drop("ins_fixed_adjective_phrase")]


@pytest.mark.parametrize(
    ("en", "de"),
    [
        # (5) a quantity with its converted equivalent: one changed number contradicts the other
        ("The car reached 100 miles per hour (161 kilometers per hour).",
         "Das Auto erreichte 100 Meilen pro Stunde (161 Kilometer pro Stunde)."),
        ("The wall is 5 feet (1.5 m) high.", "Die Mauer ist 5 Fuß (1,5 m) hoch."),
        ("A ticket costs $10 (€9).", "Ein Ticket kostet 10 $ (9 €)."),
        ("The lake lies 50 miles, or about 80 km, north.", "Der See liegt 50 Meilen oder etwa 80 km nördlich."),
    ],
)
def test_subnum_skips_a_quantity_with_a_conversion(en: str, de: str) -> None:
    made, drops = _subnum(en, de)
    assert made == [] and set(drops) == {"subnum_converted_quantity"}


@pytest.mark.parametrize(
    ("en", "de"),
    [
        # (6) dates and numbers that name an event or a thing
        ("The attacks of September 11 changed travel.", "Die Anschläge vom September 11 veränderten das Reisen."),
        ("After Sept. 11 the rules changed.", "Nach Sept. 11 änderten sich die Regeln."),
        ("Since 9/11 the airport is guarded.", "Seit 9/11 wird der Flughafen bewacht."),
        ("The shop is open 24/7 now.", "Der Laden hat jetzt 24/7 geöffnet."),
        ("It was a real Catch-22 for us.", "Es war ein echtes Catch-22 für uns."),
        ("The G20 met in Rome.", "Die G20 traf sich in Rom."),
        ("He fought in World War 2 as a pilot.", "Er kämpfte im World War 2 als Pilot."),
    ],
)
def test_subnum_skips_event_dates_and_names(en: str, de: str) -> None:
    assert _subnum(en, de)[0] == []


def test_subnum_quantities_without_conversion_stay() -> None:
    made, _ = _subnum("The wall is 5 feet high (see page 9).", "Die Mauer ist 5 Fuß hoch (siehe Seite 9).")
    assert ("The wall is 6 feet high (see page 9).", "Die Mauer ist 6 Fuß hoch (siehe Seite 9).") in made
    made, drops = _subnum("He scored 3 goals (4:2 against Ried).", "Er schoss 3 Tore (4:2 gegen Ried).")
    assert "subnum_converted_quantity" not in drops and len(made) > 0
    made, _ = _subnum("They met on September 12.", "Sie trafen sich am September 12.")
    assert ("They met on September 13.", "Sie trafen sich am September 13.") in made
