"""English coreference backends: which nominal antecedents may "it" refer to, best first.

``heuristic`` (the default) proposes nouns in the same and up to N previous segments under parse constraints;
the extraction step then accepts the first one whose aligned German head noun has the gender of the German
pronoun (the ContraPro agreement filter). ``learned`` (coref_learned.py) ranks the same candidates with models
trained on OntoGUM and gives a posterior that extract.py turns into the item's confidence. ``stanza`` uses
Stanza's neural coreference model when it is installed together with its English models (never downloaded by mtprobes).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, Protocol

from builders.core.compat import Probe, probe_module
from builders.core.errors import MtprobesError
from builders.pronouns.german import word_set

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

    from builders.pronouns.coref_learned import Posterior

SUBJECT_DEPS = frozenset({"nsubj", "nsubjpass"})
OBJECT_DEPS = frozenset({"dobj", "obj", "attr", "oprd"})
# Quantity and hedge nouns ("a lot of", "kind of") are never the referent of "it".
LIGHT_NOUNS = word_set("lot lots kind sort bit number couple type deal part percent way bunch fact")
# fixed adverbial phrases: "for example", "for instance", "in fact" name nothing a later "it" picks up
FIXED_PHRASE_NOUNS = {"example": "for", "instance": "for", "case": "in"}
# Time expressions ("this morning", "next year") are adverbials, not referents of "it".
TIME_NOUNS = word_set(
    "morning evening afternoon night day week month year today tonight tomorrow yesterday "
    "moment minute hour second time weekend"
)


@dataclass(frozen=True)
class Candidate:
    sentence: int  # segment index in the document
    head: int  # token index of the head noun
    start: int  # noun phrase span
    end: int
    source: str  # which backend proposed it


class DocumentCoref(Protocol):
    def candidates(self, sentence: int, token: int, max_distance: int) -> list[Candidate]:
        """Antecedent candidates of the pronoun at (sentence, token), most plausible first."""

    def posterior(self, sentence: int, token: int, max_distance: int) -> Posterior | None:
        """The candidates with their probabilities and the pronoun's anaphoricity (learned backends; rule
        and chain backends give None and extract scores their first agreeing candidate by rule)."""


class CorefBackend(Protocol):
    name: str
    version: str

    def resolve(self, docs: Sequence[Doc | None]) -> DocumentCoref:
        """Prepare one document (one spaCy Doc per segment; None for skipped segments)."""


@cache
def person_nouns() -> frozenset[str]:
    from builders.core.resources import resource_path

    lines = resource_path("pronouns", "person_nouns.txt").read_text(encoding="utf-8").splitlines()
    return frozenset(w.strip().lower() for w in lines if w.strip() and not w.startswith("#"))


def _clause_verb(token: Token) -> Token:
    """The verb heading the clause of ``token`` (through prepositions and conjunctions)."""
    node = token.head
    while node.pos_ not in {"VERB", "AUX"} and node.head.i != node.i:
        node = node.head
    return node


def _binding_domain(verb: Token) -> set[int]:
    """The clause verb and the verbs it is an open complement of ("wants to repair": wants, repair)."""
    domain = {verb.i}
    while verb.dep_ in {"xcomp", "conj"} and verb.head.i != verb.i:
        verb = verb.head
        domain.add(verb.i)
    return domain


def _binding_blocks(noun: Token, it: Token) -> bool:
    """Principle B: an object "it" cannot refer to the subject of its own clause ("the machine cleans it"),
    including the controlling subject of an open complement ("the city wants to repair it")."""
    if it.dep_ in SUBJECT_DEPS:
        return False
    return noun.dep_ in SUBJECT_DEPS and _clause_verb(noun).i in _binding_domain(_clause_verb(it))


def _contains(noun: Token, it: Token) -> bool:
    """The pronoun sits inside the noun's own phrase ("the box with it"): not an antecedent."""
    return any(t.i == it.i for t in noun.subtree)


def is_nominal_candidate(noun: Token) -> bool:
    return (
        noun.pos_ == "NOUN"
        and noun.tag_ == "NN"
        and noun.dep_ != "compound"
        and noun.lemma_.lower() not in person_nouns()
        and noun.lower_ not in LIGHT_NOUNS
        and noun.is_alpha
        and noun.dep_ not in {"npadvmod", "tmod", "obl:tmod"}
        and not _predicate_of_a_noun(noun)
        and not _shell_use(noun)
        and not _fixed_phrase(noun)
        and noun.lower_ not in TIME_NOUNS
    )


def _fixed_phrase(noun: Token) -> bool:
    """ "for example", "for instance", "in case": the noun is part of an adverbial formula."""
    preposition = FIXED_PHRASE_NOUNS.get(noun.lower_)
    return preposition is not None and noun.i > 0 and noun.doc[noun.i - 1].lower_ == preposition


def _shell_use(noun: Token) -> bool:
    """ "The problem is that …", "One effect is that …", "Here's the problem: …": the noun announces a clause
    (a shell noun) rather than naming a thing a later "it" picks up (issue 11, second round)."""
    verb = noun.head
    announces = (
        noun.dep_ in SUBJECT_DEPS
        and verb.lemma_.lower() == "be"
        and not any(c.dep_ in {"attr", "acomp", "oprd"} for c in verb.children)
        and any(c.dep_ in {"ccomp", "parataxis"} and c.i > noun.i for c in verb.children)
    )
    following = noun.doc[noun.i + 1] if noun.i + 1 < len(noun.doc) else None
    return announces or (following is not None and following.text in {":", "--", "—", "–"})


def _predicate_of_a_noun(noun: Token) -> bool:
    """ "The tower is a landmark", "made the twenties a sweet spot": the predicate noun names no referent of
    its own, its subject does (but in "It's a fish farm" the predicate is the first name of the referent)."""
    if noun.dep_ == "oprd" and any(c.dep_ == "dobj" and c.pos_ in {"NOUN", "PROPN"} for c in noun.head.children):
        return True  # small clause: "That made the twenties a sweet spot"
    if noun.dep_ == "ccomp" and any(c.dep_ in SUBJECT_DEPS and c.pos_ in {"NOUN", "PROPN"} for c in noun.children):
        return True  # the same small clause as parsed without a verb: the noun heads it, its subject below
    return noun.dep_ in {"attr", "oprd"} and any(
        c.dep_ in SUBJECT_DEPS and c.pos_ in {"NOUN", "PROPN"} for c in noun.head.children
    )


NAMING_VERBS = frozenset({"call", "name", "dub", "label", "term", "nickname", "consider", "deem", "title"})


def name_given(noun: Token) -> bool:
    """A name or predicate given to something else, no mention of its own (blind EN->FR round 10, class 7:
    "hooligans" was recorded for "don't call them hooligans"): an "oprd" of a naming verb or with a direct
    object or passive subject ("they are called hooligans", "people call it a miracle"), a small clause with a
    pronoun subject ("we consider them heroes"), and, for plurals too, the predicates of _predicate_of_a_noun.
    The learned ranker is trained on the same candidates (version 7)."""
    if noun.dep_ == "ccomp" and any(c.dep_ in SUBJECT_DEPS and c.pos_ == "PRON" for c in noun.children):
        return True
    naming = noun.head.lemma_.lower() in NAMING_VERBS or any(
        c.dep_ in {"dobj", "nsubjpass"} for c in noun.head.children)
    return (noun.dep_ == "oprd" and naming) or _predicate_of_a_noun(noun)


PLURAL_SOURCE_PRONOUNS = frozenset({"they"})  # probed by the French pack (ils/elles)


# --- the head noun of a candidate's phrase (EN->FR after round 18, class 1) -------------------------------
# the small model tags a modifier NOUN and leaves the real noun as something else: "the nuclear/NOUN
# warhead/ADJ", "the plastic/NOUN(amod) bottle", "the old stinkin/NOUN(poss) ' shirt"; the modifier was then
# recorded as the English antecedent head
APOSTROPHES = frozenset({"'", "\u2019"})
NOT_A_NOUN_POS = frozenset({"AUX", "ADP", "DET", "CCONJ", "SCONJ", "PART", "PUNCT", "NUM", "VERB"})
# personal pronouns the lexicon also lists as nouns ("he": helium); a mis-tagged noun may be PRON/WDT ("warhead")
PERSONAL_PRONOUN_TAGS = frozenset({"PRP", "PRP$"})
MAX_MODIFIERS_SKIPPED = 3


def _dropped_g(word: Token) -> bool:
    """A dialect participle with its final g written as an apostrophe ("stinkin'", "rockin'")."""
    from builders.pronouns.english import word_index

    following = word.doc[word.i + 1] if word.i + 1 < len(word.doc) else None
    if following is None or following.text not in APOSTROPHES or word.whitespace_ or not word.lower_.endswith("in"):
        return False
    full = word.lower_ + "g"
    return any(full in word_index(pos) for pos in ("adj", "verb", "noun"))


def modifier_word(word: Token) -> bool:
    """A NOUN-tagged word that is no noun: an adjective the lexicon knows only as an adjective ("nuclear",
    "radioactive"), or a dialect participle ("stinkin'")."""
    from builders.pronouns.english import word_index

    nouns = word_index("noun")
    if word.lower_ in nouns or word.lemma_.lower() in nouns:
        return False
    return word.lower_ in word_index("adj") or _dropped_g(word)


def _noun_after(word: Token) -> Token | None:
    """The first word after ``word`` that the lexicon knows as a noun, over apostrophes and adjectives
    ("nuclear warhead", "stinkin' shirt", "radioactive old barrel"); None when another word comes first."""
    from builders.pronouns.english import word_index

    nouns, adjectives = word_index("noun"), word_index("adj")
    for token in word.doc[word.i + 1: word.i + 2 + MAX_MODIFIERS_SKIPPED]:
        if token.is_sent_start:
            return None
        noun = (token.is_alpha and token.pos_ not in NOT_A_NOUN_POS and token.tag_ not in PERSONAL_PRONOUN_TAGS
                and token.lower_ in nouns)
        if noun:
            return token
        if token.text not in APOSTROPHES and not (token.is_alpha and token.lower_ in adjectives):
            return None
    return None


def phrase_head(noun: Token) -> Token | None:
    """The head noun of a NOUN-tagged candidate's phrase: the word itself; for a modifier the model took for a
    noun, the noun after it when the model tagged that one otherwise ("the nuclear/NOUN warhead/ADJ");
    None when the modified noun is NOUN-tagged (a candidate of its own: "the plastic bottle", "the stinkin'
    shirt") or when no noun follows the modifier (then the phrase has no head to record)."""
    if noun.dep_ == "amod" and noun.head.i > noun.i and noun.head.pos_ in {"NOUN", "PROPN"}:
        return None
    if not modifier_word(noun):
        return noun
    after = _noun_after(noun)
    return after if after is not None and after.pos_ not in {"NOUN", "PROPN"} else None


def candidate_span(noun: Token, head: Token) -> tuple[int, int]:
    """The noun phrase of a candidate whose head was repaired: from the modifier's phrase to the head noun."""
    from builders.pronouns.english import noun_phrase

    start, end = noun_phrase(head)
    return min(start, noun_phrase(noun)[0]), end


def is_plural_candidate(noun: Token) -> bool:
    """Antecedent of "they": a plural common noun, persons included ("the researchers ... they"), or the first
    of coordinated nouns ("the table and the lamp ... they")."""
    coordinated = noun.tag_ == "NN" and any(c.dep_ == "conj" and c.pos_ == "NOUN" for c in noun.children)
    return (
        noun.pos_ == "NOUN"
        and (noun.tag_ == "NNS" or coordinated)
        and noun.dep_ not in {"compound", "conj", "npadvmod", "tmod", "obl:tmod"}
        and noun.is_alpha
        and noun.lemma_.lower() not in LIGHT_NOUNS | TIME_NOUNS
    )


EMBEDDING_DEPS = frozenset({"relcl", "ccomp", "advcl", "acl", "xcomp", "pcomp", "csubj"})


def _clause_depth(noun: Token) -> int:
    """How many clauses down the noun sits: main-clause arguments are more salient than embedded ones
    ("a study that the government had done" -> the study)."""
    depth, node = 0, noun
    while node.head.i != node.i:  # the root is its own head
        depth += node.dep_ in EMBEDDING_DEPS
        node = node.head
    return depth


def _role_rank(noun: Token) -> int:
    if noun.dep_ in SUBJECT_DEPS:
        return 0
    return 1 if noun.dep_ in OBJECT_DEPS else 2


class HeuristicDocument:
    def __init__(self, docs: Sequence[Doc | None]) -> None:
        self.docs = docs

    def candidates(self, sentence: int, token: int, max_distance: int) -> list[Candidate]:
        doc = self.docs[sentence]
        if doc is None:
            return []
        it = doc[token]
        accepts = is_plural_candidate if it.lower_ in PLURAL_SOURCE_PRONOUNS else is_nominal_candidate
        found: list[tuple[tuple[int, int, int, int], Candidate]] = []
        for distance in range(0, max_distance + 1):
            index = sentence - distance
            other = self.docs[index] if index >= 0 else None
            if other is None:
                continue
            for word in other:
                noun = phrase_head(word) if accepts(word) and not name_given(word) else None
                if noun is None:
                    continue
                if distance == 0 and (noun.i >= token or _binding_blocks(noun, it) or _contains(noun, it)):
                    continue
                start, end = candidate_span(word, noun)
                # by distance, then main clause before embedded ones, subjects before objects before the rest;
                # in the same segment the nearest first, in earlier ones the leftmost
                order = (
                    distance,
                    _clause_depth(noun),
                    _role_rank(noun),
                    -noun.i if distance == 0 else noun.i,
                )
                found.append((order, Candidate(index, noun.i, start, end, "heuristic")))
        return [c for _, c in sorted(found, key=lambda item: item[0])]

    def posterior(self, sentence: int, token: int, max_distance: int) -> Posterior | None:
        return None


class HeuristicBackend:
    name = "heuristic"
    version = "1"

    def resolve(self, docs: Sequence[Doc | None]) -> DocumentCoref:
        return HeuristicDocument(docs)


def stanza_probe() -> Probe:
    return probe_module("stanza")


class ChainDocument:
    """Coreference chains from a neural model, as (segment, start, end) mentions per chain."""

    def __init__(self, docs: Sequence[Doc | None], chains: list[list[tuple[int, int, int]]]) -> None:
        self.docs = docs
        self.chain_of: dict[tuple[int, int], int] = {}
        self.chains = chains
        for number, chain in enumerate(chains):
            for sentence, start, end in chain:
                if end - start == 1:
                    self.chain_of[(sentence, start)] = number

    def candidates(self, sentence: int, token: int, max_distance: int) -> list[Candidate]:
        number = self.chain_of.get((sentence, token))
        if number is None:
            return []
        found = []
        for mention_sentence, start, end in self.chains[number]:
            doc = self.docs[mention_sentence]
            if doc is None or not 0 <= sentence - mention_sentence <= max_distance:
                continue
            if mention_sentence == sentence and start >= token:
                continue
            root = doc[start:end].root
            head = phrase_head(root) if root.pos_ == "NOUN" and root.tag_ == "NN" else None
            if head is not None:
                span = candidate_span(root, head)
                found.append(Candidate(mention_sentence, head.i, span[0], span[1], "stanza"))
        return sorted(found, key=lambda c: (sentence - c.sentence, -c.head))

    def posterior(self, sentence: int, token: int, max_distance: int) -> Posterior | None:
        return None


class StanzaBackend:
    """Stanza's coreference model over our tokens (pretokenised); models must already be installed."""

    name = "stanza"

    def __init__(self) -> None:
        probe = stanza_probe()
        if not probe.available:
            raise MtprobesError(f"coref backend 'stanza' is not usable: {probe.reason}")
        self.version = probe.version
        self._pipeline: Any = None

    def _load(self) -> Any:
        if self._pipeline is None:
            import stanza

            try:
                self._pipeline = stanza.Pipeline(
                    lang="en",
                    processors="tokenize,coref",
                    tokenize_pretokenized=True,
                    download_method=None,
                    logging_level="WARN",
                )
            except Exception as err:  # missing model files surface as various errors
                raise MtprobesError(f"stanza English coref models are not installed: {err}"[:400]) from None
        return self._pipeline

    def resolve(self, docs: Sequence[Doc | None]) -> DocumentCoref:
        sentences = [[t.text for t in doc] if doc is not None else ["."] for doc in docs]
        result = self._load()(sentences)
        chains = [[(m.sentence, m.start_word, m.end_word) for m in chain.mentions] for chain in result.coref]
        return ChainDocument(docs, chains)


def learned_backend() -> CorefBackend:
    from builders.pronouns.coref_learned import LearnedBackend  # imports this module: loaded on demand

    return LearnedBackend()


COREF_BACKENDS: dict[str, Callable[[], CorefBackend]] = {
    "learned": learned_backend,
    "heuristic": HeuristicBackend,
    "stanza": StanzaBackend,
}


@cache
def make_backend(name: str) -> CorefBackend:
    """One backend object per name and process (neural models load once)."""
    return COREF_BACKENDS[name]()
