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
    distance: int  # antecedent distance of the planted "it" (or "they")
    gender: str
    plural: bool = False  # the antecedent is a plural noun, the pronoun English "they"


Pair = tuple[str, str]


@dataclass(frozen=True)
class Frames:
    """Sentence frames for one grammatical number, as (English, target) templates. Placeholders: {noun}, {adj}
    (agreeing), {name}, {verb}; target only: {Det} / {det} the subject / object article of the noun's gender,
    {Pron} / {pron} the pronoun."""

    subject_articles: Mapping[str, str]
    object_articles: Mapping[str, str]
    pronouns: Mapping[str, str]  # gender -> subject pronoun
    described: Pair  # "The X is ADJ"
    acted_on: Pair  # "NAME VERB the X"
    referring: tuple[Pair, ...]  # the planted pronoun
    same_sentence: Pair


@dataclass(frozen=True)
class WorldGrammar:
    """The target side of the world: its frames, fillers and pleonastic sentences."""

    lang: str
    lexicon_file: str
    genders: tuple[str, ...]
    prepositions: tuple[tuple[str, Mapping[str, str]], ...]  # English, gender -> target words before the noun
    fillers: tuple[Pair, ...]  # sentences without nouns or third-person pronouns: only push the antecedent back
    non_referential: tuple[Pair, ...]  # pleonastic "it": the builder must not turn these into items
    singular: Frames
    # documents whose antecedent is a plural noun and whose pronoun is "they" (share 0: none, and no random
    # draw, so a grammar without plurals gives the same documents as before plurals existed)
    plural: Frames | None = None
    plural_share: float = 0.0


GERMAN = WorldGrammar(
    lang="de",
    lexicon_file="lexicon.tsv",
    genders=("m", "f", "n"),
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
    singular=Frames(
        subject_articles={"m": "der", "f": "die", "n": "das"},
        object_articles={"m": "den", "f": "die", "n": "das"},
        pronouns={"m": "er", "f": "sie", "n": "es"},
        described=("The {noun} is {adj}", "{Det} {noun} ist {adj}"),
        acted_on=("{name} {verb} the {noun}", "{name} {verb} {det} {noun}"),
        referring=(
            ("It is {adj}.", "{Pron} ist {adj}."),
            ("It was very {adj}.", "{Pron} war sehr {adj}."),
            ("Maybe it is {adj} now.", "Vielleicht ist {pron} jetzt {adj}."),
        ),
        same_sentence=(
            "{name} {verb} the {noun} because it was {adj}.", "{name} {verb} {det} {noun}, weil {pron} {adj} war."
        ),
    ),
)

# French: nouns with a consonant-initial lemma only (an elided article l' would hide the gender in the text),
# adjectives agree with the pronoun (the builder's agreement repair makes the variant), verbs in the passé
# composé with avoir (no agreement with a following object). No sentence outside the planted one has a noun:
# "tout le monde", "personne", "d'accord" would be candidate antecedents. A quarter of the documents plant
# "they" -> ils / elles with a plural antecedent (the FR pack's own classes).
FRENCH = WorldGrammar(
    lang="fr",
    lexicon_file="lexicon_fr.tsv",
    genders=("m", "f"),
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
    singular=Frames(
        subject_articles={"m": "le", "f": "la"},
        object_articles={"m": "le", "f": "la"},
        pronouns={"m": "il", "f": "elle"},
        described=("The {noun} is {adj}", "{Det} {noun} est {adj}"),
        acted_on=("{name} {verb} the {noun}", "{name} {verb} {det} {noun}"),
        referring=(
            ("It is {adj}.", "{Pron} est {adj}."),
            ("It was very {adj}.", "{Pron} était très {adj}."),
            ("Maybe it is {adj} now.", "{Pron} est peut-être {adj} maintenant."),
        ),
        same_sentence=(
            "{name} {verb} the {noun} because it was {adj}.", "{name} {verb} {det} {noun} car {pron} était {adj}."
        ),
    ),
    plural=Frames(
        subject_articles={"m": "les", "f": "les"},
        object_articles={"m": "les", "f": "les"},
        pronouns={"m": "ils", "f": "elles"},
        described=("The {noun} are {adj}", "{Det} {noun} sont {adj}"),
        acted_on=("{name} {verb} the {noun}", "{name} {verb} {det} {noun}"),
        referring=(
            ("They are {adj}.", "{Pron} sont {adj}."),
            ("They were very {adj}.", "{Pron} étaient très {adj}."),
            ("Maybe they are {adj} now.", "{Pron} sont peut-être {adj} maintenant."),
        ),
        same_sentence=(
            "{name} {verb} the {noun} because they were {adj}.",
            "{name} {verb} {det} {noun} car {pron} étaient {adj}.",
        ),
    ),
    plural_share=0.25,
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

# Plurals the world uses: only nouns and adjectives whose plural is the singular + s in English and French
# (no table of irregular plurals to keep right); the others stay singular-only.
ENGLISH_IRREGULAR = frozenset({"mouse", "sheep", "fish", "goose", "child", "man", "woman", "foot", "tooth"})


def english_plural(word: str) -> str | None:
    if word in ENGLISH_IRREGULAR or word.endswith(("s", "x", "z", "sh", "ch", "y", "f", "fe", "o")):
        return None
    return word + "s"


def french_plural(word: str) -> str | None:
    return None if word.endswith(("s", "x", "z", "au", "eu", "al", "ou", "ail")) else word + "s"


def has_plural(noun: Noun) -> bool:
    return english_plural(noun.english) is not None and french_plural(noun.target) is not None


def adjective_form(adjective: Adjective, gender: str, plural: bool) -> str:
    form = adjective.form(gender)
    return form + "s" if plural and not form.endswith(("s", "x")) else form


@dataclass(frozen=True)
class Referent:
    """The antecedent: a lexicon noun, used in the singular or (with the plural frames) in the plural."""

    noun: Noun
    frames: Frames
    plural: bool

    def fill(self, pair: Pair, adjective: Adjective | None = None, name: str = "",
             verb: tuple[str, str] = ("", "")) -> Pair:
        gender = self.noun.gender
        pronoun = self.frames.pronouns[gender]
        english_noun = english_plural(self.noun.english) if self.plural else self.noun.english
        target_noun = french_plural(self.noun.target) if self.plural else self.noun.target
        english = pair[0].format(noun=english_noun, adj=adjective.english if adjective else "", name=name,
                                 verb=verb[0])
        target = pair[1].format(
            noun=target_noun, adj=adjective_form(adjective, gender, self.plural) if adjective else "", name=name,
            verb=verb[1], Det=self.frames.subject_articles[gender].capitalize(),
            det=self.frames.object_articles[gender], pron=pronoun, Pron=pronoun.capitalize(),
        )
        return english, target


def _pick(rng: np.random.Generator, items: Sequence[Item]) -> Item:
    return items[int(rng.integers(len(items)))]


def _antecedent_sentence(rng: np.random.Generator, lexicon: Lexicon, grammar: WorldGrammar, referent: Referent) -> Pair:
    """The noun as subject or object, sometimes with a (singular) distractor noun after a preposition."""
    if rng.random() < 0.5:
        english, target = referent.fill(referent.frames.described, _pick(rng, lexicon.adjectives))
    else:
        name = _pick(rng, NAMES)
        english, target = referent.fill(referent.frames.acted_on, name=name, verb=_pick(rng, lexicon.verbs))
    if rng.random() < 0.4:
        other = _pick(rng, [n for n in lexicon.nouns if n != referent.noun])
        english_prep, target_prep = _pick(rng, grammar.prepositions)
        english += f" {english_prep} the {other.english}"
        target += f" {target_prep[other.gender]} {other.target}"
    return english + ".", target + "."


def _referring_sentence(rng: np.random.Generator, lexicon: Lexicon, referent: Referent) -> Pair:
    adjective = _pick(rng, lexicon.adjectives)
    return referent.fill(referent.frames.referring[int(rng.integers(len(referent.frames.referring)))], adjective)


def _same_sentence(rng: np.random.Generator, lexicon: Lexicon, referent: Referent) -> Pair:
    name = _pick(rng, NAMES)
    verb = _pick(rng, lexicon.verbs)
    return referent.fill(referent.frames.same_sentence, _pick(rng, lexicon.adjectives), name=name, verb=verb)


def make_document(rng: np.random.Generator, lexicon: Lexicon, distance: int,
                  grammar: WorldGrammar = GERMAN) -> WorldDocument:
    plural = grammar.plural is not None and rng.random() < grammar.plural_share
    frames = grammar.plural if plural and grammar.plural is not None else grammar.singular
    nouns = [n for n in lexicon.nouns if has_plural(n)] if plural else lexicon.nouns
    referent = Referent(_pick(rng, nouns), frames, plural)
    pairs: list[Pair] = []
    if rng.random() < 0.25:
        pairs.append(_pick(rng, grammar.non_referential))
    if distance == 0:
        pairs.append(_same_sentence(rng, lexicon, referent))
    else:
        pairs.append(_antecedent_sentence(rng, lexicon, grammar, referent))
        fillers = rng.choice(len(grammar.fillers), size=distance - 1, replace=False)
        pairs += [grammar.fillers[int(i)] for i in fillers]
        pairs.append(_referring_sentence(rng, lexicon, referent))
    english, target = (tuple(p[side] for p in pairs) for side in (0, 1))
    return WorldDocument(english, target, distance, referent.noun.gender, plural)


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
