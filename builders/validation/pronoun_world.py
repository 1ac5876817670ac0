"""The synthetic pronoun world: short EN-DE documents where a later *it* refers back to a concrete noun.

Each document plants one referential *it* whose German translation (er / sie / es) is decided only by the
grammatical gender of its antecedent noun, at a chosen antecedent distance (0 = same sentence, 1-3 = that many
sentences back, with noun-free filler sentences in between). Some documents add a distractor noun (dative, after
a preposition, never the referent) and some a non-referential *it* ("It is raining." -> "Es regnet."), which the
pronouns builder must filter out. Everything comes from ``resources/validation/lexicon.tsv`` and a seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import numpy as np

from builders.core.errors import InputError
from builders.core.resources import resource_path

ARTICLES = {  # gender -> (nominative, accusative, dative) definite article
    "m": ("der", "den", "dem"),
    "f": ("die", "die", "der"),
    "n": ("das", "das", "dem"),
}
PRONOUNS = {"m": "er", "f": "sie", "n": "es"}
NAMES = ("Anna", "Tom", "Lisa", "Paul", "Maria", "Peter", "Eva", "Jan")
# Sentences without nouns or third-person pronouns: they only push the antecedent further back.
FILLERS = (
    ("Nobody said anything.", "Niemand sagte etwas."),
    ("We were very happy.", "Wir waren sehr froh."),
    ("Everyone laughed.", "Alle lachten."),
    ("Then we left.", "Dann gingen wir."),
    ("I was surprised.", "Ich war überrascht."),
    ("We waited.", "Wir warteten."),
    ("Nobody knew why.", "Niemand wusste warum."),
    ("I agreed.", "Ich stimmte zu."),
)
# Pleonastic "it": no antecedent, always "es" (the builder must not turn these into items).
NON_REFERENTIAL = (
    ("It is raining.", "Es regnet."),
    ("It is late.", "Es ist spät."),
    ("It was snowing.", "Es schneite."),
    ("It is getting dark.", "Es wird dunkel."),
)
PREPOSITIONS = (("next to", "neben"), ("behind", "hinter"), ("near", "bei"))
DISTANCES = (0, 1, 2, 3)


@dataclass(frozen=True)
class Noun:
    english: str
    german: str
    gender: str


@dataclass(frozen=True)
class Lexicon:
    nouns: tuple[Noun, ...]
    adjectives: tuple[tuple[str, str], ...]
    verbs: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class WorldDocument:
    english: tuple[str, ...]
    german: tuple[str, ...]
    distance: int  # antecedent distance of the planted "it"
    gender: str


def load_lexicon(path: Path | None = None) -> Lexicon:
    """Read the lexicon TSV (kind, English, German, gender); a malformed line is an error naming it."""
    path = path or resource_path("validation", "lexicon.tsv")
    nouns: list[Noun] = []
    words: dict[str, list[tuple[str, str]]] = {"adj": [], "verb": []}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 4 or fields[0] not in ("noun", "adj", "verb"):
            raise InputError(path, "expected kind<TAB>English<TAB>German<TAB>gender, kind noun|adj|verb", line=number)
        kind, english, german, gender = fields
        if kind == "noun":
            if gender not in ARTICLES:
                raise InputError(path, f"noun gender must be m, f or n, got {gender!r}", line=number)
            nouns.append(Noun(english, german, gender))
        else:
            words[kind].append((english, german))
    if not nouns or not words["adj"] or not words["verb"]:
        raise InputError(path, "the lexicon needs nouns, adjectives and verbs")
    return Lexicon(tuple(nouns), tuple(words["adj"]), tuple(words["verb"]))


Item = TypeVar("Item")


def _pick(rng: np.random.Generator, items: Sequence[Item]) -> Item:
    return items[int(rng.integers(len(items)))]


def _antecedent_sentence(rng: np.random.Generator, lexicon: Lexicon, noun: Noun) -> tuple[str, str]:
    """The noun as subject or object, sometimes with a distractor noun after a preposition."""
    nom, acc, _ = ARTICLES[noun.gender]
    if rng.random() < 0.5:
        english_adj, german_adj = _pick(rng, lexicon.adjectives)
        english = f"The {noun.english} is {english_adj}"
        german = f"{nom.capitalize()} {noun.german} ist {german_adj}"
    else:
        name = _pick(rng, NAMES)
        english_verb, german_verb = _pick(rng, lexicon.verbs)
        english = f"{name} {english_verb} the {noun.english}"
        german = f"{name} {german_verb} {acc} {noun.german}"
    if rng.random() < 0.4:
        other = _pick(rng, [n for n in lexicon.nouns if n != noun])
        english_prep, german_prep = _pick(rng, PREPOSITIONS)
        english += f" {english_prep} the {other.english}"
        german += f" {german_prep} {ARTICLES[other.gender][2]} {other.german}"
    return english + ".", german + "."


def _referring_sentence(rng: np.random.Generator, lexicon: Lexicon, gender: str) -> tuple[str, str]:
    english_adj, german_adj = _pick(rng, lexicon.adjectives)
    pronoun = PRONOUNS[gender]
    forms = (
        (f"It is {english_adj}.", f"{pronoun.capitalize()} ist {german_adj}."),
        (f"It was very {english_adj}.", f"{pronoun.capitalize()} war sehr {german_adj}."),
        (f"Maybe it is {english_adj} now.", f"Vielleicht ist {pronoun} jetzt {german_adj}."),
    )
    return forms[int(rng.integers(len(forms)))]


def _same_sentence(rng: np.random.Generator, lexicon: Lexicon, noun: Noun) -> tuple[str, str]:
    name = _pick(rng, NAMES)
    english_verb, german_verb = _pick(rng, lexicon.verbs)
    english_adj, german_adj = _pick(rng, lexicon.adjectives)
    acc = ARTICLES[noun.gender][1]
    return (
        f"{name} {english_verb} the {noun.english} because it was {english_adj}.",
        f"{name} {german_verb} {acc} {noun.german}, weil {PRONOUNS[noun.gender]} {german_adj} war.",
    )


def make_document(rng: np.random.Generator, lexicon: Lexicon, distance: int) -> WorldDocument:
    noun = _pick(rng, lexicon.nouns)
    pairs: list[tuple[str, str]] = []
    if rng.random() < 0.25:
        pairs.append(_pick(rng, NON_REFERENTIAL))
    if distance == 0:
        pairs.append(_same_sentence(rng, lexicon, noun))
    else:
        pairs.append(_antecedent_sentence(rng, lexicon, noun))
        fillers = rng.choice(len(FILLERS), size=distance - 1, replace=False)
        pairs += [FILLERS[int(i)] for i in fillers]
        pairs.append(_referring_sentence(rng, lexicon, noun.gender))
    return WorldDocument(tuple(p[0] for p in pairs), tuple(p[1] for p in pairs), distance, noun.gender)


def generate(n_documents: int, seed: int, lexicon: Lexicon | None = None) -> list[WorldDocument]:
    """``n_documents`` documents, distances cycling 0-3 so that every distance is equally frequent."""
    lexicon = lexicon or load_lexicon()
    rng = np.random.default_rng(seed)
    return [make_document(rng, lexicon, DISTANCES[i % len(DISTANCES)]) for i in range(n_documents)]


def write_docs_format(documents: Sequence[WorldDocument], prefix: Path) -> tuple[Path, Path]:
    """Write ``<prefix>.en`` / ``<prefix>.de`` in the pronouns builder's ``docs`` input format (``<d>`` lines)."""
    from builders.core.atomic import write_text
    from builders.pronouns.readers import DOC_MARK

    prefix.parent.mkdir(parents=True, exist_ok=True)
    paths = (prefix.with_suffix(".en"), prefix.with_suffix(".de"))
    for path, side in zip(paths, ("english", "german"), strict=True):
        lines = [line for doc in documents for line in (DOC_MARK, *getattr(doc, side))]
        write_text(path, "".join(f"{line}\n" for line in lines))
    return paths
