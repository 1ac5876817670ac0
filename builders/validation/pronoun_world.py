"""The synthetic pronoun world: short EN-DE or EN-FR documents where a later *it* refers back to a concrete noun.

Each document plants one referential *it* whose translation (DE er / sie / es, FR il / elle) is decided only by
the grammatical gender of its antecedent noun, at a chosen antecedent distance (0 = same sentence, 1-3 = that
many sentences back, with noun-free filler sentences in between). Some documents add a distractor noun (after a
preposition, never the referent) and some a non-referential *it* ("It is raining." -> "Es regnet." / "Il
pleut."), which the pronouns builder must filter out. The words come from a lexicon TSV per target language
(``resources/validation/lexicon.tsv``, ``lexicon_fr.tsv``), the sentence frames from a :class:`WorldGrammar`,
and the choices from a seed: both languages draw the same random numbers in the same order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import numpy as np

from builders.core.errors import ConfigError, InputError
from builders.core.resources import resource_path

NAMES = ("Anna", "Tom", "Lisa", "Paul", "Maria", "Peter", "Eva", "Jan")
DISTANCES = (0, 1, 2, 3)


@dataclass(frozen=True)
class Noun:
    english: str
    target: str
    gender: str


@dataclass(frozen=True)
class Adjective:
    """A predicative adjective; in French it agrees with the subject, in German it does not."""

    english: str
    masculine: str
    feminine: str

    def form(self, gender: str) -> str:
        return self.feminine if gender == "f" else self.masculine


@dataclass(frozen=True)
class Lexicon:
    nouns: tuple[Noun, ...]
    adjectives: tuple[Adjective, ...]
    verbs: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class WorldDocument:
    english: tuple[str, ...]
    target: tuple[str, ...]
    distance: int  # antecedent distance of the planted "it"
    gender: str


Pair = tuple[str, str]


@dataclass(frozen=True)
class WorldGrammar:
    """The target side of the world's sentence frames. Placeholders: {Det} / {det} the subject / object
    article of the noun's gender, {noun}, {adj} (agreeing), {name}, {verb}, {Pron} / {pron} the pronoun."""

    lang: str
    lexicon_file: str
    genders: tuple[str, ...]
    subject_articles: Mapping[str, str]
    object_articles: Mapping[str, str]
    pronouns: Mapping[str, str]  # gender -> subject pronoun
    prepositions: tuple[tuple[str, Mapping[str, str]], ...]  # English, gender -> target words before the noun
    fillers: tuple[Pair, ...]  # sentences without nouns or third-person pronouns: only push the antecedent back
    non_referential: tuple[Pair, ...]  # pleonastic "it": the builder must not turn these into items
    described: str  # "The X is ADJ"
    acted_on: str  # "NAME VERB the X"
    referring: tuple[Pair, ...]  # the planted "it" (English with {adj}, target)
    same_sentence: Pair

    def article(self, gender: str, subject: bool) -> str:
        return (self.subject_articles if subject else self.object_articles)[gender]


GERMAN = WorldGrammar(
    lang="de",
    lexicon_file="lexicon.tsv",
    genders=("m", "f", "n"),
    subject_articles={"m": "der", "f": "die", "n": "das"},
    object_articles={"m": "den", "f": "die", "n": "das"},
    pronouns={"m": "er", "f": "sie", "n": "es"},
    prepositions=tuple(
        (english, {"m": f"{german} dem", "f": f"{german} der", "n": f"{german} dem"})
        for english, german in (("next to", "neben"), ("behind", "hinter"), ("near", "bei"))
    ),
    fillers=(
        ("Nobody said anything.", "Niemand sagte etwas."),
        ("We were very happy.", "Wir waren sehr froh."),
        ("Everyone laughed.", "Alle lachten."),
        ("Then we left.", "Dann gingen wir."),
        ("I was surprised.", "Ich war überrascht."),
        ("We waited.", "Wir warteten."),
        ("Nobody knew why.", "Niemand wusste warum."),
        ("I agreed.", "Ich stimmte zu."),
    ),
    non_referential=(
        ("It is raining.", "Es regnet."),
        ("It is late.", "Es ist spät."),
        ("It was snowing.", "Es schneite."),
        ("It is getting dark.", "Es wird dunkel."),
    ),
    described="{Det} {noun} ist {adj}",
    acted_on="{name} {verb} {det} {noun}",
    referring=(
        ("It is {adj}.", "{Pron} ist {adj}."),
        ("It was very {adj}.", "{Pron} war sehr {adj}."),
        ("Maybe it is {adj} now.", "Vielleicht ist {pron} jetzt {adj}."),
    ),
    same_sentence=(
        "{name} {verb} the {noun} because it was {adj}.", "{name} {verb} {det} {noun}, weil {pron} {adj} war."
    ),
)

# French: nouns with a consonant-initial lemma only (an elided article l' would hide the gender in the text),
# adjectives agree with the pronoun (the builder's agreement repair makes the variant), verbs in the passé
# composé with avoir (no agreement with a following object). No sentence outside the planted one has a noun:
# "tout le monde", "personne", "d'accord" would be candidate antecedents.
FRENCH = WorldGrammar(
    lang="fr",
    lexicon_file="lexicon_fr.tsv",
    genders=("m", "f"),
    subject_articles={"m": "le", "f": "la"},
    object_articles={"m": "le", "f": "la"},
    pronouns={"m": "il", "f": "elle"},
    prepositions=(
        ("next to", {"m": "à côté du", "f": "à côté de la"}),
        ("behind", {"m": "derrière le", "f": "derrière la"}),
        ("near", {"m": "près du", "f": "près de la"}),
    ),
    fillers=(
        ("We said nothing.", "Nous n'avons rien dit."),
        ("We were very happy.", "Nous étions très contents."),
        ("We all laughed.", "Nous avons tous ri."),
        ("Then we left.", "Puis nous sommes partis."),
        ("I was surprised.", "J'étais surpris."),
        ("We waited.", "Nous avons attendu."),
        ("We did not know why.", "Nous ne savions pas pourquoi."),
        ("I nodded.", "J'ai acquiescé."),
    ),
    non_referential=(
        ("It is raining.", "Il pleut."),
        ("It is late.", "Il est tard."),
        ("It was snowing.", "Il neigeait."),
        ("It is cold.", "Il fait froid."),
    ),
    described="{Det} {noun} est {adj}",
    acted_on="{name} {verb} {det} {noun}",
    referring=(
        ("It is {adj}.", "{Pron} est {adj}."),
        ("It was very {adj}.", "{Pron} était très {adj}."),
        ("Maybe it is {adj} now.", "{Pron} est peut-être {adj} maintenant."),
    ),
    same_sentence=(
        "{name} {verb} the {noun} because it was {adj}.", "{name} {verb} {det} {noun} car {pron} était {adj}."
    ),
)

GRAMMARS: dict[str, WorldGrammar] = {grammar.lang: grammar for grammar in (GERMAN, FRENCH)}


def grammar_for(lang: str) -> WorldGrammar:
    if lang not in GRAMMARS:
        raise ConfigError(f"the pronoun world has no target language {lang!r} (known: {', '.join(GRAMMARS)})")
    return GRAMMARS[lang]


def load_lexicon(path: Path | None = None, grammar: WorldGrammar = GERMAN) -> Lexicon:
    """Read a lexicon TSV (kind, English, target, gender or feminine form); a malformed line is an error naming it."""
    path = path or resource_path("validation", grammar.lexicon_file)
    nouns: list[Noun] = []
    adjectives: list[Adjective] = []
    verbs: list[tuple[str, str]] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 4 or fields[0] not in ("noun", "adj", "verb"):
            raise InputError(path, "expected kind<TAB>English<TAB>target<TAB>gender, kind noun|adj|verb", line=number)
        kind, english, target, last = fields
        if kind == "noun":
            if last not in grammar.genders:
                raise InputError(path, f"noun gender must be {', '.join(grammar.genders)}, got {last!r}", line=number)
            nouns.append(Noun(english, target, last))
        elif kind == "adj":
            adjectives.append(Adjective(english, target, target if last == "-" else last))
        else:
            verbs.append((english, target))
    if not nouns or not adjectives or not verbs:
        raise InputError(path, "the lexicon needs nouns, adjectives and verbs")
    return Lexicon(tuple(nouns), tuple(adjectives), tuple(verbs))


Item = TypeVar("Item")


def _pick(rng: np.random.Generator, items: Sequence[Item]) -> Item:
    return items[int(rng.integers(len(items)))]


def _fill(template: str, grammar: WorldGrammar, gender: str, **words: str) -> str:
    det = grammar.article(gender, subject=False)
    pron = grammar.pronouns[gender]
    subject = grammar.article(gender, subject=True)
    return template.format(Det=subject.capitalize(), det=det, pron=pron, Pron=pron.capitalize(), **words)


def _antecedent_sentence(rng: np.random.Generator, lexicon: Lexicon, grammar: WorldGrammar, noun: Noun) -> Pair:
    """The noun as subject or object, sometimes with a distractor noun after a preposition."""
    if rng.random() < 0.5:
        adjective = _pick(rng, lexicon.adjectives)
        english = f"The {noun.english} is {adjective.english}"
        target = _fill(grammar.described, grammar, noun.gender, noun=noun.target, adj=adjective.form(noun.gender))
    else:
        name = _pick(rng, NAMES)
        english_verb, target_verb = _pick(rng, lexicon.verbs)
        english = f"{name} {english_verb} the {noun.english}"
        target = _fill(grammar.acted_on, grammar, noun.gender, name=name, verb=target_verb, noun=noun.target)
    if rng.random() < 0.4:
        other = _pick(rng, [n for n in lexicon.nouns if n != noun])
        english_prep, target_prep = _pick(rng, grammar.prepositions)
        english += f" {english_prep} the {other.english}"
        target += f" {target_prep[other.gender]} {other.target}"
    return english + ".", target + "."


def _referring_sentence(rng: np.random.Generator, lexicon: Lexicon, grammar: WorldGrammar, gender: str) -> Pair:
    adjective = _pick(rng, lexicon.adjectives)
    english, target = grammar.referring[int(rng.integers(len(grammar.referring)))]
    return english.format(adj=adjective.english), _fill(target, grammar, gender, adj=adjective.form(gender))


def _same_sentence(rng: np.random.Generator, lexicon: Lexicon, grammar: WorldGrammar, noun: Noun) -> Pair:
    name = _pick(rng, NAMES)
    english_verb, target_verb = _pick(rng, lexicon.verbs)
    adjective = _pick(rng, lexicon.adjectives)
    english, target = grammar.same_sentence
    return (
        english.format(name=name, verb=english_verb, noun=noun.english, adj=adjective.english),
        _fill(target, grammar, noun.gender, name=name, verb=target_verb, noun=noun.target,
              adj=adjective.form(noun.gender)),
    )


def make_document(rng: np.random.Generator, lexicon: Lexicon, distance: int,
                  grammar: WorldGrammar = GERMAN) -> WorldDocument:
    noun = _pick(rng, lexicon.nouns)
    pairs: list[Pair] = []
    if rng.random() < 0.25:
        pairs.append(_pick(rng, grammar.non_referential))
    if distance == 0:
        pairs.append(_same_sentence(rng, lexicon, grammar, noun))
    else:
        pairs.append(_antecedent_sentence(rng, lexicon, grammar, noun))
        fillers = rng.choice(len(grammar.fillers), size=distance - 1, replace=False)
        pairs += [grammar.fillers[int(i)] for i in fillers]
        pairs.append(_referring_sentence(rng, lexicon, grammar, noun.gender))
    return WorldDocument(tuple(p[0] for p in pairs), tuple(p[1] for p in pairs), distance, noun.gender)


def generate(n_documents: int, seed: int, lexicon: Lexicon | None = None, lang: str = "de") -> list[WorldDocument]:
    """``n_documents`` documents, distances cycling 0-3 so that every distance is equally frequent."""
    grammar = grammar_for(lang)
    lexicon = lexicon or load_lexicon(grammar=grammar)
    rng = np.random.default_rng(seed)
    return [make_document(rng, lexicon, DISTANCES[i % len(DISTANCES)], grammar) for i in range(n_documents)]


def write_docs_format(documents: Sequence[WorldDocument], prefix: Path, lang: str = "de") -> tuple[Path, Path]:
    """Write ``<prefix>.en`` / ``<prefix>.<lang>`` in the pronouns builder's ``docs`` input format (``<d>`` lines)."""
    from builders.core.atomic import write_text
    from builders.pronouns.readers import DOC_MARK

    prefix.parent.mkdir(parents=True, exist_ok=True)
    paths = (prefix.with_suffix(".en"), prefix.with_suffix(f".{lang}"))
    for path, side in zip(paths, ("english", "target"), strict=True):
        lines = [line for doc in documents for line in (DOC_MARK, *getattr(doc, side))]
        write_text(path, "".join(f"{line}\n" for line in lines))
    return paths
