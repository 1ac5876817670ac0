"""Config of ``variations.v1``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from builders.core.config import BuildConfig, setting
from builders.core.errors import ConfigError

VARIATION_TYPES = ("DEL", "INS", "SUBNUM", "SUBGEN")


def _default_offsets() -> list[int]:
    return [-5, -4, -3, -2, -1, 1, 2, 3, 4, 5]


# key -> (test, the range in words)
RANGES: dict[str, tuple[Callable[[Any], bool], str]] = {
    "ins_threshold": (lambda v: 0.0 < v <= 1.0, "in (0, 1]"),
    "del_max_shift": (lambda v: 0.0 < v <= 1.0, "in (0, 1]"),
    "ins_max_shift": (lambda v: 0.0 < v <= 1.0, "in (0, 1]"),
    "ins_gap_weight": (lambda v: 0.0 <= v <= 1.0, "in [0, 1]"),
    "ins_min_count": (lambda v: v >= 1, ">= 1"),
    "spacy_batch_size": (lambda v: v >= 1, ">= 1"),
    "lines_per_unit": (lambda v: v >= 1, ">= 1"),
}


@dataclass
class VariationsConfig(BuildConfig):
    src: str = setting("", "source-language file, one segment per line", required="unless jsonl is given")
    tgt: str = setting("", "target-language file, line-aligned with src", required="unless jsonl is given")
    jsonl: str = setting("", 'one {"id", "src", "tgt"} object per line (instead of src/tgt)')
    src_lang: Literal["en", "de"] = setting("en", "source language (the strategies read English and German)")
    tgt_lang: Literal["en", "de"] = setting("de", "target language")
    types: list[str] = setting(list(VARIATION_TYPES), "variation types to make: DEL, INS, SUBNUM, SUBGEN")
    num_offsets: list[int] = setting(_default_offsets(), "SUBNUM: amounts added to a number (never 0)")
    include_years: bool = setting(True, "SUBNUM: also change years")
    include_ordinals: bool = setting(True, "SUBNUM: also change ordinals")
    ins_threshold: float = setting(0.05, "INS: minimum P(w | a, b) of an inserted word between a and b")
    ins_gap_weight: float = setting(0.5, "INS: weight of the gap model against the bigram model")
    ins_min_count: int = setting(2, "INS: minimum corpus count of a context")
    ins_max_shift: float = setting(0.25, "INS: largest relative position shift between the two sides")
    del_max_shift: float = setting(0.3, "DEL without aligner: largest relative shift when sentence counts differ")
    ins_corpus_en: list[str] = setting([], "INS: extra English text files (one sentence per line) for the n-grams")
    ins_additive: bool = setting(
        False, "INS: also insert additive also/auch, which can contradict a contrast in the context (off by default)")
    ins_corpus_de: list[str] = setting([], "INS: extra German text files for the n-grams")
    adverb_lexicon: str = setting("", "DEL: adverb lexicon; empty: the bundled one")
    insertion_lexicon: str = setting("", "INS: insertion lexicon; empty: the bundled one")
    gendered_nouns: bool = setting(True, "SUBGEN: also swap gendered person nouns with their German article")
    gendered_noun_lexicon: str = setting("", "SUBGEN: gendered noun lexicon; empty: the bundled one")
    aligner: Literal["unique", "diagonal", "eflomal"] = setting(
        "diagonal", "linking the two sides: a word aligner (diagonal: deterministic; eflomal: sampled, only its "
        "cache makes a rebuild identical), or a unique occurrence on each side")
    alignment_cache: str = setting(
        "~/.cache/mtprobes/variations", "word aligners: alignments are reused from this folder (empty: next to "
        "the output)")
    spacy_batch_size: int = setting(64, "lines per spaCy batch")
    lines_per_unit: int = setting(32, "lines per work unit (the checkpoint granularity)")
    plain_prefix: str = setting("variations", "file name prefix of the plain/ text exports")

    def validate(self) -> None:
        if bool(self.jsonl) == bool(self.src or self.tgt):
            raise ConfigError("config keys 'src'/'tgt' or 'jsonl': give either both text files or one JSONL file")
        if not self.jsonl and not (self.src and self.tgt):
            raise ConfigError("config keys 'src' and 'tgt': both line-aligned files are needed")
        if {self.src_lang, self.tgt_lang} != {"en", "de"}:
            raise ConfigError(f"config keys 'src_lang'/'tgt_lang': {self.src_lang}-{self.tgt_lang}; variations.v1 "
                              "supports en-de and de-en")
        unknown = sorted(set(self.types) - set(VARIATION_TYPES))
        if unknown or not self.types:
            raise ConfigError(f"config key 'types': {unknown or 'empty'}; choose from {list(VARIATION_TYPES)}")
        if 0 in self.num_offsets or len(set(self.num_offsets)) != len(self.num_offsets):
            raise ConfigError("config key 'num_offsets': offsets must be distinct and never 0")
        if "SUBNUM" in self.types and not self.num_offsets:  # SUBNUM would make nothing and count nothing
            raise ConfigError("config key 'num_offsets': empty, but types has SUBNUM (drop SUBNUM from types)")
        for key, (in_range, bounds) in RANGES.items():  # one message per key, naming only the key that is off
            if not in_range(getattr(self, key)):
                raise ConfigError(f"config key {key!r}: must be {bounds}, got {getattr(self, key)!r}")
        if not self.plain_prefix or "/" in self.plain_prefix:
            raise ConfigError("config key 'plain_prefix': a non-empty file name prefix without '/'")

    @property
    def direction(self) -> str:
        return f"{self.src_lang}-{self.tgt_lang}"

    @property
    def source_lang(self) -> str:
        return self.src_lang

    @property
    def english_path(self) -> str:
        return self.src if self.src_lang == "en" else self.tgt

    @property
    def german_path(self) -> str:
        return self.tgt if self.src_lang == "en" else self.src
