"""Config of pronouns.v1: inputs, the component chosen for each stage, filters, sampling and export."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from builders.core.config import BuildConfig
from builders.core.errors import ConfigError

INPUT_KEYS = {
    "docs": ("src", "tgt"),
    "wmt": ("src", "tgt", "docs_tsv"),
    "opus": ("src", "tgt", "ids"),
    "jsonl": ("jsonl",),
}


@dataclass
class PronounsConfig(BuildConfig):
    # --- input -------------------------------------------------------------------------------------
    input_format: Literal["docs", "wmt", "opus", "jsonl"] = "docs"
    src: str = ""  # English file (docs, wmt, opus)
    tgt: str = ""  # German file (docs, wmt, opus)
    docs_tsv: str = ""  # wmt: domain<TAB>document id per line
    ids: str = ""  # opus: the .ids file
    opus_root: str = ""  # opus: folder with the documents named in .ids (optional existence check)
    jsonl: str = ""  # jsonl: {"doc_id", "src", "tgt"} per line
    corpus: str = ""  # ContraPro "corpus" field; default: the input file stem
    max_tokens: int = 1000  # longer segments are skipped and counted
    # --- components (each chosen by name from a registry) --------------------------------------------
    english_analyser: Literal["spacy"] = "spacy"
    spacy_model: str = ""  # empty: the best installed English pipeline
    german_analyser: Literal["rules", "spacy"] = "rules"  # spacy: a German pipeline when installed
    aligner: Literal["eflomal"] = "eflomal"
    symmetrisation: Literal["grow-diag-final-and", "intersection", "union"] = "grow-diag-final-and"
    coref: Literal["heuristic", "stanza"] = "heuristic"
    # --- alignment -----------------------------------------------------------------------------------
    seed_lexicon: bool = True  # bundled EN-DE seed lexicon as eflomal LEX priors
    priors_in: list[str] = field(default_factory=list)  # eflomal priors files from an earlier corpus
    priors_out: str = ""  # write priors learnt on this corpus here
    alignment_cache: str = "~/.cache/mtprobes/pronouns"  # links are reused from here (empty: work dir only)
    eflomal_samplers: int = 1  # 2+ samplers: slightly steadier links, proportionally slower
    eflomal_rel_iterations: float = 1.0
    # --- filters, sampling, export -------------------------------------------------------------------
    max_ante_distance: int = 3
    # 1 / (gender-agreeing candidates in reach), halved for nouns of several genders: 0.55 keeps only items
    # where the German pronoun's gender leaves one candidate (issue 11: 45 % wrong antecedents at 0.0)
    min_confidence: float = 0.55
    es_unique_antecedent: bool = True  # "es" only when a single neuter candidate is in reach
    per_class: int = 4000  # items per pronoun class after balanced sampling; 0 keeps all
    context_stored: int = 3  # preceding segments stored in each record
    context_sentences: int = 1  # preceding segments in export/context.{en,de}
    docs_per_unit: int = 1
    batch_size: int = 64

    def validate(self) -> None:
        for key in INPUT_KEYS[self.input_format]:
            if not getattr(self, key):
                raise ConfigError(f"config key {key!r}: required when input_format is {self.input_format!r}")
        bounds = {
            "max_tokens": (1, 100_000),
            "max_ante_distance": (0, 20),
            "per_class": (0, 10**9),
            "context_stored": (0, 20),
            "docs_per_unit": (1, 10_000),
            "batch_size": (1, 100_000),
            "eflomal_samplers": (1, 64),
        }
        for key, (low, high) in bounds.items():
            if not low <= getattr(self, key) <= high:
                raise ConfigError(f"config key {key!r}: must be between {low} and {high}")
        if not 0 <= self.context_sentences <= self.context_stored:
            raise ConfigError("config key 'context_sentences': must be between 0 and context_stored")
        if not 0.0 <= self.min_confidence <= 1.0:
            raise ConfigError("config key 'min_confidence': must be between 0 and 1")
        if self.eflomal_rel_iterations <= 0:
            raise ConfigError("config key 'eflomal_rel_iterations': must be > 0")
