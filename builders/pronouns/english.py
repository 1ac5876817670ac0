"""English analysis with spaCy: pipeline loading, non-referential "it", noun phrases of antecedent heads."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from builders.core.errors import ConfigError, MtprobesError
from builders.pronouns.german import word_set

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc, Token

WEATHER_VERBS = word_set("rain snow hail drizzle pour thunder freeze sleet storm")
RAISING_VERBS = word_set("seem appear happen turn transpire occur matter emerge follow mean")
# "it is ADJ that/to ...", "it is time to", "it takes ... to": extraposition with an adjective or noun
EXTRAPOSITION_HEADS = word_set(
    "important clear possible impossible likely unlikely true obvious necessary easy hard difficult "
    "interesting surprising good bad nice great fine strange odd sad funny worth time shame pity "
    "evident apparent certain essential crucial fair unfair safe dangerous normal common rare "
    "amazing"
)
EFFORT_NOUNS = word_set("effort courage money work patience skill practice energy guts nerve strength willpower luck")
DURATION_NOUNS = word_set("while time long ages age year month week day hour minute second moment decade century")
# "how long would it take", "it took forever": the verb's adverb is the duration (blind round 8, class 4)
LENGTH_ADVERBS = word_set("long forever")
PERSON_OBJECTS = word_set("me you him her us them")
QUANTITY_NOUNS = word_set("lot lots deal bit couple plenty amount number")
TIME_WORDS = word_set(
    "o'clock morning evening night noon midnight late early monday tuesday wednesday "
    "thursday friday saturday sunday today tomorrow yesterday"
)


@dataclass(frozen=True)
class EnglishPipeline:
    name: str
    version: str
    nlp: Any


@dataclass(frozen=True)
class PipelinePin:
    """The English pipeline the driver resolved (name and version), which every worker must load."""

    name: str
    version: str


def load_pinned(pin: PipelinePin) -> EnglishPipeline:
    """The pinned pipeline; a worker with another version installed stops the build with one line instead of
    parsing with it (info.json records the driver's pipeline)."""
    pipeline = load_pipeline(pin.name)
    if pipeline.version != pin.version:
        raise MtprobesError(f"spaCy pipeline {pin.name!r} is {pipeline.version} on this worker, {pin.version} on "
                            "the driver: install the same version on every node")
    return pipeline


@cache
def load_pipeline(name: str = "") -> EnglishPipeline:
    """The named spaCy pipeline, or the best installed one; NER is excluded (not needed here)."""
    from builders.core.compat import spacy_english

    probe = spacy_english()
    if not name and not probe.available:
        raise MtprobesError(f"pronouns.v1 needs an English spaCy pipeline: {probe.reason}")
    import spacy

    package = name or probe.name
    try:
        nlp = spacy.load(package, exclude=["ner"])
    except OSError as err:
        raise MtprobesError(f"spaCy pipeline {package!r} cannot be loaded: {err}") from None
    _check_english_parser(package, nlp)
    return EnglishPipeline(package, str(nlp.meta.get("version", "unknown")), nlp)


def _check_english_parser(package: str, nlp: Language) -> None:
    """The extraction reads English dependency parses: another language's pipeline gave a set of nonsense drops
    without a word, one without a parser a traceback (spaCy's E030) in the middle of the build."""
    if nlp.lang != "en" or "parser" not in nlp.pipe_names:
        raise ConfigError(f"config key 'spacy_model': {package!r} is not an English pipeline with a dependency "
                          f"parser (language {nlp.lang!r}, components: {', '.join(nlp.pipe_names) or 'none'}); "
                          "use e.g. en_core_web_sm")


def tokenize_texts(pipeline: EnglishPipeline, texts: Iterable[str]) -> list[list[str]]:
    """Tokens from the pipeline's own tokenizer: the parse later has the same ones (texts are space-normalised)."""
    tokenizer: Language = pipeline.nlp.tokenizer
    return [[t.text for t in doc] for doc in tokenizer.pipe(texts, batch_size=256)]


def parse_texts(pipeline: EnglishPipeline, texts: Sequence[str], batch_size: int) -> list[Doc]:
    return list(pipeline.nlp.pipe(texts, batch_size=batch_size))


def normalise_space(text: str) -> str:
    """One space between words, so spaCy makes no whitespace tokens and token indices match the aligner's."""
    return " ".join(text.split())


def _is_weather(it: Token) -> bool:
    return it.head.lemma_.lower() in WEATHER_VERBS


def _is_raising(it: Token) -> bool:
    """ "it seems that ...", "it seems odd to ...", "it looks as if ...", "it comes down to ..."."""
    verb = it.head
    lemma = verb.lemma_.lower()
    children = list(verb.children)
    if lemma in RAISING_VERBS and any(c.dep_ in {"ccomp", "xcomp", "prep", "advcl"} for c in children):
        return True
    if lemma in RAISING_VERBS and any(
        c.dep_ == "acomp" and any(g.dep_ in {"xcomp", "ccomp"} for g in c.children) for c in children
    ):
        return True
    if lemma == "come" and any(c.lower_ == "down" for c in children):
        return True
    return lemma in {"look", "sound", "feel"} and any(c.lower_ in {"like", "as"} for c in children)


def _takes_time_or_effort(it: Token) -> bool:
    verb = it.head
    while verb.lemma_ in {"go", "have", "need", "use", "begin", "start", "continue"} and any(
        c.dep_ == "xcomp" for c in verb.children
    ):
        verb = next(c for c in verb.children if c.dep_ == "xcomp")
    clausal = any(c.dep_ in {"ccomp", "xcomp", "advcl"} for c in verb.children)
    if verb.lemma_ == "cost":
        # "how much would it cost to fix?"; not "it cost $5" (no clause) nor "we call the vet, it costs a lot"
        # (the clause is an earlier one the parser attached to "cost")
        return any(c.dep_ in {"ccomp", "xcomp", "advcl"} and c.i > it.i for c in verb.children)
    if verb.lemma_ != "take":
        return False
    if any(c.dep_ == "advmod" and c.lower_ in LENGTH_ADVERBS for c in verb.children):
        return True  # "how long would it take him to fix it", "it didn't take long", "it'll take forever"
    # a person object is the one the time is spent by ("it took him three days"), not the cost
    objects = [c for c in verb.children if c.dep_ in {"dobj", "npadvmod"} and c.lower_ not in PERSON_OBJECTS]
    return (clausal and not objects) or any(_costly(o) for o in objects)


def _costly(noun: Token) -> bool:
    """A duration or effort, or a quantity of one ("two hours", "ages", "a lot of nerve", "a great deal of work")."""
    if noun.lemma_.lower() in DURATION_NOUNS or noun.lemma_.lower() in EFFORT_NOUNS:
        return True
    of = [g for c in noun.children if c.dep_ == "prep" and c.lower_ == "of" for g in c.children if g.dep_ == "pobj"]
    return noun.lemma_.lower() in QUANTITY_NOUNS and any(_costly(g) for g in of)


def _is_extraposition(it: Token) -> bool:
    verb = it.head
    # the extraposed clause follows the "it"; a clause before it is a misattached earlier one ("the video will
    # anger them, but it's for you")
    clausal = any(c.dep_ in {"ccomp", "xcomp", "csubj"} and c.i > it.i for c in verb.children)
    attribute = [c for c in verb.children if c.dep_ in {"acomp", "attr", "oprd"}]
    if it.dep_ == "expl":
        return True
    if clausal and any(a.lemma_.lower() in EXTRAPOSITION_HEADS or a.pos_ == "ADJ" for a in attribute):
        return True
    if _takes_time_or_effort(it):
        return True  # "it takes two hours to ...", "it's going to take a while", "it takes courage to ..."
    if verb.lemma_ == "be" and it.dep_ == "nsubj" and not attribute and any(
        c.dep_ == "ccomp" and c.i > it.i for c in verb.children
    ):
        return True  # "it's that those connections define ...", "it is not that we ..."
    return it.dep_ == "dobj" and verb.lemma_ in {"make", "find"} and any(c.dep_ == "ccomp" for c in verb.children)


CLAUSAL_DEPS = frozenset({"ccomp", "xcomp", "csubj", "relcl", "acl"})
COPULAS = word_set("be become remain")
CONDITIONAL_MARKS = word_set("if whether")
SAYING_VERBS = word_set("say put tell")
SPEECH_ADVERBS = word_set("simply mildly bluntly briefly frankly plainly differently shortly honestly")


def _clausal_after(
    node: Token, it: Token, deps: frozenset[str] = CLAUSAL_DEPS, adverbial: bool = True
) -> bool:
    """``node`` governs, after "it", a clause: a that-/to-clause, a relative clause on the predicate noun
    (cleft), and with ``adverbial`` an if/whether-clause or an infinitive adverbial ("for the union to act")."""
    for child in node.children:
        if child.i <= it.i:
            continue
        if child.dep_ in deps:
            return True
        if adverbial and child.dep_ == "advcl" and any(
            g.lower_ in CONDITIONAL_MARKS or (g.dep_ == "aux" and g.lower_ == "to") for g in child.children
        ):
            return True
    return False


def _has_clausal_predicate(it: Token) -> bool:
    """Dependency view of extraposition and clefts: the predicate of "it" (a copula with its noun or
    adjective, a passive verb, a small-clause predicate) governs a clause after it: "It is no coincidence
    that …", "It is to be regretted that …", "It must not be forgotten that …", "It will be our job to …",
    "It would be a good thing if …", "It is a dual momentum that …", "I think it a shame that …"."""
    verb = it.head
    if it.dep_ == "nsubjpass":
        # a passive's purpose infinitive is no extraposed subject: "after it was ridden at 125km/h … to escape
        # police" (NC-2016 dev) is the motorcycle; "It must not be forgotten that …" has a ccomp
        return _clausal_after(verb, it, frozenset({"ccomp", "csubj"}), adverbial=False)
    if it.dep_ != "nsubj":
        return False
    if verb.pos_ in {"NOUN", "ADJ"}:  # small clause: "think it a shame that"
        return _clausal_after(verb, it)
    if verb.lemma_.lower() not in COPULAS:
        return False
    predicates = [c for c in verb.children if c.dep_ in {"attr", "acomp", "oprd"}]
    if predicates and _clausal_after(verb, it, frozenset({"ccomp", "xcomp", "csubj"})):
        return True
    if not predicates and any(  # "as easy as it is to save the world": the predicate is elided
        c.dep_ == "xcomp" and c.i > it.i and any(g.dep_ == "aux" and g.lower_ == "to" for g in c.children)
        for c in verb.children
    ):
        return True
    if any(c.dep_ == "xcomp" and c.tag_ == "VBN" for c in verb.children):  # "it is to be regretted that"
        return _clausal_after(verb, it) or any(_clausal_after(c, it) for c in verb.children if c.dep_ == "xcomp")
    return any(_clausal_after(p, it) for p in predicates) or (
        bool(predicates) and _clausal_after(verb, it, frozenset())
    )


def _discourse_infinitive(verb: Token) -> bool:
    """ "to top it off", "to put it simply", "to sum it up": an adverbial to-infinitive whose verb has a
    particle or a speech adverb, set off from the clause, comments on the text; its "it" is the situation."""
    to = next((c for c in verb.children if c.dep_ == "aux" and c.lower_ == "to"), None)
    if verb.dep_ not in {"advcl", "conj", "relcl", "acl", "xcomp"} or to is None:  # parsers attach it anywhere
        return False
    # set off as a comment: sentence-initial or after a comma ("and, to top it off, …"), not a purpose
    # clause ("She came to pick it up")
    set_off = to.i == to.sent.start or to.doc[to.i - 1].text in {",", "(", "--", "—", "–"}
    return set_off and any(
        c.dep_ == "prt" or (c.dep_ == "advmod" and c.lower_ in SPEECH_ADVERBS) for c in verb.children
    )


def _is_idiom(it: Token) -> bool:
    """ "when it comes to …" (no referent); "he said it: …" (it = the proposition that follows); "back at
    it", "hard at it" (a preposition hanging off an adverb or adjective: the activity, no thing); "it makes
    no sense", "it ain't no sense" (the situation); "to top it off" (``_discourse_infinitive``)."""
    verb = it.head
    if it.dep_ == "pobj":
        return verb.dep_ == "prep" and verb.head.pos_ in {"ADV", "ADJ"}
    if it.dep_ == "dobj" and _discourse_infinitive(verb):
        return True
    if it.dep_ == "nsubj" and verb.lemma_.lower() in {"be", "make"} and any(
        c.dep_ in {"attr", "dobj"} and c.lemma_.lower() == "sense" for c in verb.children
    ):
        return True
    if verb.lemma_.lower() == "come" and any(c.dep_ == "prep" and c.lower_ == "to" for c in verb.children):
        return True
    if it.dep_ == "nsubj" and _as_it_pleases(it):
        return True
    following = [t.text for t in it.doc[it.i + 1 : it.i + 4]]  # "said it:", "put it plainly:"
    return it.dep_ == "dobj" and verb.lemma_.lower() in SAYING_VERBS and ":" in following


PLEASE_OPENERS = word_set("when whenever as if wherever however")


def _as_it_pleases(it: Token) -> bool:
    """ "when it pleases his Majesty", "as it pleases you", "if it please the court": "please" with an object,
    opened by when/as/if before the "it" (blind class B); "it pleases me" alone may be a thing liked."""
    verb = it.head
    if verb.lemma_.lower() != "please" or not any(c.dep_ == "dobj" for c in verb.children):
        return False
    return any(c.lower_ in PLEASE_OPENERS and c.i < it.i and c.dep_ in {"mark", "advmod"} for c in verb.children)


_CLAUSE_END = frozenset({".", "!", "?", ",", ";", ":", "--", "—", "–", '"', "(", ")", "...", "…"})
_OPENER = r"(?:(?:oh|well|but|and|so|yeah|no|look|just|now|hey|okay|ok)\s+)*"
_SUBJECT = r"(?:(?:i|we|you|they|he|she)\s+)?"
_AUX = (
    r"(?:(?:'ve|have|has|'d|do|does|did|n't|not|can|ca|could|will|'ll|wo|would|just|finally|really|to|need|want"
    r"|going|gon|na|must|should|let|'s)\s+)*"
)
_BE = r"(?:'s|is|was|'ll\s+be|will\s+be)"
# Fixed expressions whose "it" refers to nothing (blind round 7, class 1). One row per expression: a pattern
# for the clause words before "it" and one for those after it, both lower-cased, joined by single spaces and
# matched whole up to a punctuation mark, so "I got it from the shop" or "Hold it still" stay referential.
# The third field says the row needs no noun earlier in the text ("The car? It's fine." keeps its referent).
FIXED_IT_EXPRESSIONS: tuple[tuple[str, str, bool], ...] = (
    (_OPENER, _BE + r"\s+(?:so\s+|really\s+|very\s+|a\s+bit\s+|pretty\s+)?complicated", True),
    (_OPENER, _BE + r"\s+(?:all\s+)?over", True),
    (_OPENER, _BE + r"\s+(?:just\s+|totally\s+)?(?:fine|okay|ok|all\s+right|alright)", True),
    (_OPENER, r"(?:'s|is)\s+getting\s+(?:late|dark|cold)", False),
    (_OPENER, _BE + r"\s+(?:my|your|his|her|our|their)\s+turn", False),
    (_OPENER + r"(?:that|this)\s+(?:'s|is|was)(?:\s+(?:not|n't))?", r"", False),  # "That's (not) it"
    (_OPENER + r"(?:is|was)\s+(?:that|this)", r"", False),  # "Is that it?"
    (_OPENER + r"that\s+(?:does|did)", r"", False),  # "That does it"
    (_OPENER + _SUBJECT + _AUX + r"(?:got|get|gets)", r"(?:now)?", False),  # "Got it", "I get it"
    (_OPENER + r"(?:beat|forget|hold)", r"", False),  # imperatives alone in their clause
    (_OPENER + r"cut", r"out", False),
    # blind round 10 (es items), as classes: more imperatives and set phrases whose "it" names nothing
    (_OPENER + _SUBJECT + _AUX + r"spit", r"out", False),  # "Spit it out"
    (_OPENER + r"knock", r"off", False),  # "Knock it off"
    (_OPENER + _SUBJECT + _AUX + r"(?:get|go)\s+on\s+with", r"(?:then|already)?", False),  # "Get on with it"
    (_OPENER + _SUBJECT + _AUX + r"(?:get|gets|got)", r"over\s+with", False),  # "Let's get it over with"
    (_OPENER + r"(?:now\s+)?that\s+you\s+mention", r"", False),  # "Now that you mention it"
    (_OPENER + r"come\s+to\s+think\s+(?:of|about)", r"", False),  # "Come to think of it"
    (_OPENER + _SUBJECT + _AUX + r"(?:take|takes|took|taking)", r"easy", False),
    (_OPENER + _SUBJECT + _AUX + r"(?:put|putting)", r"behind\s+(?:me|us|you|him|her|them)", False),
    (_OPENER + _SUBJECT + r"(?:can|ca|could|will|'ll|wo|n't|not|gon\s+na|going\s+to|to|\s)+make", r"", False),
    (_OPENER + _SUBJECT + r"made", r"(?:home|back|through|out|in\s+time|on\s+time)", False),
    (
        _OPENER + r"(?:nor\s+(?:will|would|is|was))?",
        r"(?:(?:will|wo|would)\s+(?:n't|not)\s+)?be\s+the\s+last(?:\s+time)?",
        False,
    ),
    (r".*\bhow\s+(?:hard|bad|difficult|tough|rough)", r"(?:gets|got|get|is|'s)", False),
    # blind class D: "What is it now?", "What is it this time?": impatience at the situation, no thing asked
    # about ("What is it?" alone may ask what a thing is, so "now" / "this time" must follow)
    (_OPENER + r"what\s+(?:is|'s|was)", r"(?:now|this\s+time)", False),
)


def _clause_words(tokens: Iterable[Token]) -> str:
    words: list[str] = []
    for token in tokens:
        if token.text in _CLAUSE_END:
            break
        words.append(token.lower_.replace("’", "'"))
    return " ".join(words)


def _is_fixed_expression(it: Token) -> bool:
    """ "It's complicated", "That's it", "Got it", "Take it easy", "Forget it": ``FIXED_IT_EXPRESSIONS``."""
    doc = it.doc
    after = _clause_words(doc[it.i + 1 :])
    before = _clause_words(reversed(doc[: it.i]))
    before = " ".join(reversed(before.split()))
    noun_before = any(t.pos_ in {"NOUN", "PROPN"} for t in doc[: it.i])
    return any(
        re.fullmatch(left, before) and re.fullmatch(right, after) and not (alone and noun_before)
        for left, right, alone in FIXED_IT_EXPRESSIONS
    )


# a time of day in one token, which like_num misses: "5:15", "11:30", "9.45", "10pm" (blind class A)
CLOCK_TIME = re.compile(r"(?:[01]?\d|2[0-4])(?:[:.][0-5]\d)?(?:am|pm|a\.m\.|p\.m\.)?")
CLOCK_SUFFIXES = word_set("am pm a.m. p.m.")
# "it's quarter to six", "it's ten past nine": a fraction of the hour before "to/past" and an hour
HOUR_FRACTIONS = word_set("quarter half")
HOUR_LINKS = word_set("to past after till")


def _clock_time(child: Token) -> bool:
    text = child.lower_
    if text in CLOCK_SUFFIXES:
        return True  # "it's 10 pm": the parser makes "pm" the attribute
    if CLOCK_TIME.fullmatch(text) and not text.isdigit():
        return True  # a bare number stays with like_num ("it's 5" may be a size); "5:15" or "10pm" is a time
    return text in HOUR_FRACTIONS and any(
        link.lower_ in HOUR_LINKS and any(g.like_num for g in link.children)
        for link in [*child.children, *child.head.children]
    )


def _is_time_or_cleft(it: Token) -> bool:
    verb = it.head
    if verb.lemma_ != "be":
        return False
    for child in verb.children:
        if child.dep_ in {"attr", "npadvmod", "acomp"} and (
            child.lower_ in TIME_WORDS or child.like_num or _clock_time(child)
        ):
            return True
        if child.dep_ == "attr" and _clefted(child):
            return True
    return False


def _is_event(it: Token) -> bool:
    """ "do it", "did it": "it" stands for an action or event, not for a noun phrase."""
    return it.dep_ == "dobj" and it.head.lemma_.lower() == "do"


def _clefted(attribute: Token) -> bool:
    """ "it was Anna who ...", "it's that contempt that ...": a name or demonstrative phrase with a relative clause."""
    relative = [g for g in attribute.children if g.dep_ == "relcl"]
    if not relative:
        return False
    demonstrative = any(d.lower_ in {"that", "this", "these", "those"} for d in attribute.children if d.dep_ == "det")
    return attribute.pos_ in {"PROPN", "PRON"} or demonstrative


PLEONASTIC_RULES: dict[str, Callable[[Token], bool]] = {
    "event": _is_event,
    "weather": _is_weather,
    "raising": _is_raising,
    "extraposition": _is_extraposition,
    "time_or_cleft": _is_time_or_cleft,
    "clausal_predicate": _has_clausal_predicate,
    "idiom": _is_idiom,
}


def pleonastic_reason(it: Token) -> str:
    """Name of the first rule saying this "it" refers to nothing; '' when it may be referential."""
    if _is_fixed_expression(it):  # read off the words, whatever the parser made of "it" ("That's it": attr)
        return "idiom"
    if it.dep_ == "pobj":  # only the idiom rule reads a prepositional "it" ("back at it")
        return "idiom" if _is_idiom(it) else ""
    if it.dep_ not in {"nsubj", "nsubjpass", "expl", "dobj"}:
        return ""
    for name, rule in PLEONASTIC_RULES.items():
        if rule(it):
            return name
    return ""


def noun_phrase(head: Token) -> tuple[int, int]:
    """Span (start, end) of the pre-modified noun phrase of ``head`` (determiners, adjectives, compounds)."""
    left = [c for c in head.lefts if c.dep_ in {"det", "amod", "compound", "poss", "nummod", "nmod", "case"}]
    start = min([head.i] + [t.left_edge.i for t in left])
    return start, head.i + 1


@cache
def word_index(part_of_speech: str) -> frozenset[str]:
    """The lemmas that the English rule lemmatizer lists for a part of speech ("noun", "adj", "verb"): spaCy's
    English lookup tables, the same in every en_core_web pipeline (57,528 nouns, 20,993 adjectives in 3.8).
    Empty without an installed pipeline or such a table: then no word is judged by them."""
    from builders.core.compat import spacy_english

    probe = spacy_english()
    if not probe.available:
        return frozenset()
    nlp = load_pipeline(probe.name).nlp  # the name a pinned default resolves to: no second load in a worker
    lookups = getattr(nlp.get_pipe("lemmatizer"), "lookups", None) if "lemmatizer" in nlp.pipe_names else None
    if lookups is None or not lookups.has_table("lemma_index"):
        return frozenset()
    return frozenset(lookups.get_table("lemma_index").get(part_of_speech, []))


def morph_string(token: Token) -> str:
    return str(token.morph)
