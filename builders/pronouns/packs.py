"""Language packs of pronouns.v1: what changes with the target language, behind one interface.

A pack gives the target pronoun inventory (gender and number of every testable form), the English words it
probes, the target tokenizer and analyser, the target-side filters and the contrastive variants with their
agreement repair. The English analysis, the eflomal alignment, the coreference candidates and the antecedent
agreement filter (``extract.choose_antecedent``) are shared by every pack. ``Segment.german`` holds the
target-language tokens whatever the pack (the name predates the packs).

Packs are chosen by the config key ``tgt_lang`` and imported on first use, like builders.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, Protocol

from builders.core.errors import MtprobesError

if TYPE_CHECKING:
    from spacy.tokens import Token

    from builders.core.context import BuildContext
    from builders.pronouns.config import PronounsConfig
    from builders.pronouns.coref import DocumentCoref
    from builders.pronouns.extract import Found, Segment
    from builders.pronouns.german import GToken


@dataclass(frozen=True)
class PronounForm:
    """Gender and number of a testable target pronoun."""

    gender: str  # Masc / Fem / Neut
    number: str  # Sing / Plur


class LanguagePack(Protocol):
    code: str  # the value of tgt_lang
    languages: tuple[str, ...]  # card languages
    source_pronouns: frozenset[str]  # lower-cased English words that are candidates
    forms: Mapping[str, PronounForm]  # testable target pronouns (lower case) -> gender, number
    seed_lexicon: str  # bundled resources/pronouns file of EN-target alignment priors
    word_lists: tuple[str, ...]  # bundled resources/pronouns files the extraction reads (hashed into info.json)
    default_coref: str  # the coreference backend of ``coref: auto`` (chosen on the blind checks, docs/coref.md)
    min_confidence: float  # ``min_confidence: null`` with the pack's default_coref (GENERIC_MIN_CONFIDENCE else)
    class_min_confidence: Mapping[str, float]  # per-class confidence floors of ``class_min_confidence: null``

    def tokenize(self, text: str) -> list[GToken]:
        """Target tokens with character offsets (what the aligner and the record ids use)."""

    def analyser(self, config: PronounsConfig) -> Any:
        """The target analyser object (noun_entry, pronoun_number), one per process."""

    def record_analyser(self, config: PronounsConfig, ctx: BuildContext) -> dict[str, str]:
        """Record the analyser as a tool; returns its entries for the components note."""

    def prepare(self, analyser: Any, texts: Sequence[str]) -> None:
        """Analyse a document's target segments in one batch before extraction (no-op when lazy)."""

    def extract(
        self,
        segments: Sequence[Segment],
        coref: DocumentCoref,
        sentence: int,
        token: Token,
        config: PronounsConfig,
        analyser: Any,
    ) -> Found:
        """One kept candidate, or raise extract.Drop with the reason."""

    def phrase_start(self, tokens: list[GToken], head: int) -> int:
        """First token of the target noun phrase headed by ``head``."""

    def noun_pos(self, number: str) -> str:
        """The ``ref ante head pos`` tag written in records."""


# One line per pack: "module:Class", imported on first use.
PACKS: dict[str, str] = {
    "de": "builders.pronouns.german_pack:GermanPack",
    "fr": "builders.pronouns.french_pack:FrenchPack",
}


@cache
def make_pack(code: str) -> LanguagePack:
    if code not in PACKS:
        raise MtprobesError(f"unknown tgt_lang {code!r} (language packs: {', '.join(sorted(PACKS))})")
    module_name, _, class_name = PACKS[code].partition(":")
    pack: LanguagePack = getattr(importlib.import_module(module_name), class_name)()
    return pack


def other_forms(pack: LanguagePack, pronoun: str) -> list[tuple[str, PronounForm]]:
    """The testable forms of the same number and another gender: one contrastive variant each."""
    own = pack.forms[pronoun.lower()]
    return [
        (word, form)
        for word, form in pack.forms.items()
        if form.number == own.number and form.gender != own.gender
    ]


def resolved_coref(config: PronounsConfig) -> str:
    """The coreference backend a build uses: the config's, or the language pack's for ``coref: auto``."""
    return config.coref if config.coref != "auto" else make_pack(config.tgt_lang).default_coref


# The ContraPro rule with the heuristic resolver: keep an item only when the target pronoun's gender leaves one
# candidate (confidence 1 / agreeing candidates). A pack's own value was judged with its default resolver only.
GENERIC_MIN_CONFIDENCE = 0.55


def min_confidence_of(config: PronounsConfig) -> float:
    """The min_confidence a build uses: the config's, or the language pack's for ``min_confidence: null``."""
    if config.min_confidence is not None:
        return config.min_confidence
    pack = make_pack(config.tgt_lang)
    return pack.min_confidence if resolved_coref(config) == pack.default_coref else GENERIC_MIN_CONFIDENCE


def class_floors(config: PronounsConfig) -> Mapping[str, float]:
    """The per-class confidence floors a build uses: the config's, or the language pack's when it sets none."""
    if config.class_min_confidence is None:
        return make_pack(config.tgt_lang).class_min_confidence
    return config.class_min_confidence


def confidence_floor(min_confidence: float, floors: Mapping[str, float], pronoun_class: str) -> float:
    """The confidence an item of this class needs: ``min_confidence``, or its class's floor when higher."""
    return max(min_confidence, floors.get(pronoun_class, 0.0))
