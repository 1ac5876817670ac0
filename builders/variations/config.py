"""Config of ``variations.v1``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from builders.core.config import BuildConfig
from builders.core.errors import ConfigError

VARIATION_TYPES = ("DEL", "INS", "SUBNUM", "SUBGEN")


def _default_offsets() -> list[int]:
    return [-5, -4, -3, -2, -1, 1, 2, 3, 4, 5]


@dataclass
class VariationsConfig(BuildConfig):
    # Input: line-aligned source and target files, or JSONL with {"id", "src", "tgt"} per line.
    src: str = ""
    tgt: str = ""
    jsonl: str = ""
    # The pair: English-German in either direction (the strategies read English and German).
    src_lang: Literal["en", "de"] = "en"
    tgt_lang: Literal["en", "de"] = "de"
    types: list[str] = field(default_factory=lambda: list(VARIATION_TYPES))
    # SUBNUM
    num_offsets: list[int] = field(default_factory=_default_offsets)
    include_years: bool = True
    include_ordinals: bool = True
    # INS: threshold on P(w | a, b); extra monolingual text (one sentence per line) for the n-gram models
    ins_threshold: float = 0.05
    ins_gap_weight: float = 0.5
    ins_min_count: int = 2
    ins_max_shift: float = 0.25
    # DEL without an aligner, when the two sides of a line split into different numbers of sentences
    del_max_shift: float = 0.3
    ins_corpus_en: list[str] = field(default_factory=list)
    ins_corpus_de: list[str] = field(default_factory=list)
    # Lexicons ("" = the bundled ones)
    adverb_lexicon: str = ""
    insertion_lexicon: str = ""
    # SUBGEN: also swap gendered person nouns with their German article (man/woman, der Mann/die Frau)
    gendered_nouns: bool = False
    gendered_noun_lexicon: str = ""
    # Linking the two sides: "unique" (a unique occurrence on each side) or "eflomal" (pronouns builder aligner)
    aligner: Literal["unique", "eflomal"] = "unique"
    align_cache_dir: str = ""
    spacy_batch_size: int = 64
    lines_per_unit: int = 32
    plain_prefix: str = "variations"

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
        if not 0.0 < self.ins_threshold <= 1.0:
            raise ConfigError("config key 'ins_threshold': must be in (0, 1]")
        if not 0.0 < self.del_max_shift <= 1.0:
            raise ConfigError("config key 'del_max_shift': must be in (0, 1]")
        if self.ins_min_count < 1 or not 0.0 < self.ins_max_shift <= 1.0:
            raise ConfigError("config keys 'ins_min_count' (>= 1) and 'ins_max_shift' (0 < x <= 1): out of range")
        if not 0.0 <= self.ins_gap_weight <= 1.0:
            raise ConfigError("config key 'ins_gap_weight': must be in [0, 1]")
        if self.spacy_batch_size < 1 or self.lines_per_unit < 1:
            raise ConfigError("config keys 'spacy_batch_size' and 'lines_per_unit': must be >= 1")
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
