"""Config of pronouns.v1: inputs, the component chosen for each stage, filters, sampling and export."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from builders.core.config import BuildConfig, setting
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
    input_format: Literal["docs", "wmt", "opus", "jsonl"] = setting(
        "docs", "docs: line-aligned files with <d> document breaks; wmt: plus a docs TSV; opus: plus .ids; jsonl")
    src: str = setting("", "English file, one segment per line", required="input_format docs, wmt or opus")
    tgt: str = setting("", "target-language file (German; French with tgt_lang fr), line-aligned with src",
                      required="input_format docs, wmt or opus")
    docs_tsv: str = setting("", "domain<TAB>document id per line", required="input_format wmt")
    ids: str = setting("", "the OPUS .ids file naming each line's documents", required="input_format opus")
    opus_root: str = setting("", "folder with the documents named in .ids (optional existence check)")
    jsonl: str = setting("", 'one {"doc_id", "src", "tgt"} object per line', required="input_format jsonl")
    max_tokens: int = setting(1000, "longer segments are skipped and counted")
    # --- language pack (builders/pronouns/packs.py) ---------------------------------------------------
    tgt_lang: Literal["de", "fr"] = setting(
        "de", "target language pack: de (it -> er/sie/es) or fr (it/they -> il/elle/ils/elles)")
    # --- components (each chosen by name from a registry) --------------------------------------------
    english_analyser: Literal["spacy"] = setting("spacy", "English parser that finds 'it' and its antecedents")
    spacy_model: str = setting("", "English spaCy pipeline; empty: the best installed one")
    german_analyser: Literal["rules", "spacy"] = setting(
        "rules", "German pronoun/gender analysis: bundled rules, or a German spaCy pipeline when installed")
    aligner: Literal["diagonal", "eflomal"] = setting(
        "diagonal", "word aligner: diagonal (deterministic: the same links on every machine) or eflomal (sampled "
        "from /dev/urandom: only its cache makes a rebuild identical)")
    symmetrisation: Literal["grow-diag-final-and", "intersection", "union"] = setting(
        "grow-diag-final-and", "how the two alignment directions are combined")
    coref: Literal["auto", "heuristic", "learned", "stanza"] = setting(
        "auto", "coreference: auto (the language pack's choice: heuristic for de, learned for fr), the rule "
        "heuristic, learned (ranker and anaphoricity trained on OntoGUM, bundled; see docs/coref.md), or stanza")
    # --- alignment -----------------------------------------------------------------------------------
    seed_lexicon: bool = setting(True, "use the bundled seed lexicon of the language pack as alignment priors")
    priors_in: list[str] = setting([], "alignment priors files (eflomal's format) learnt on an earlier corpus")
    priors_out: str = setting("", "write the priors learnt on this corpus here")
    alignment_cache: str = setting(
        "~/.cache/mtprobes/pronouns", "alignments are reused from this folder (empty: work folder only)")
    eflomal_samplers: int = setting(1, "eflomal samplers; 2+ give slightly steadier links, proportionally slower")
    eflomal_rel_iterations: float = setting(1.0, "eflomal iteration multiplier")
    # Part of the signature: the shard plan, not the executor, decides the links.
    align_shard_docs: int = setting(
        0, "documents per alignment shard, each aligned as one executor task (0: the whole corpus at once)")
    align_shard_priors: bool = setting(True, "shards after the first are aligned with priors learnt on the first")
    # --- filters, sampling, export -------------------------------------------------------------------
    max_ante_distance: int = setting(3, "farthest antecedent, in segments before the pronoun")
    # coref heuristic: 1 / (gender-agreeing candidates in reach), halved for nouns of several genders: 0.55 keeps
    # only items where the German pronoun's gender leaves one candidate (issue 11: 45 % wrong antecedents at 0.0).
    # coref learned: the calibrated probability that the antecedent is right (docs/coref.md)
    min_confidence: float | None = setting(
        None, "items with a lower filter confidence are dropped and counted; null: the language pack's (0.55; fr "
        "with its default resolver: 0.3, with the class floors il 0.55 and ils 0.85)")
    # fr: il 0.55 and ils 0.85, chosen on judged blind items (docs/pronouns-fr.md, "Where it stands")
    class_min_confidence: dict[str, float] | None = setting(
        None, "per pronoun class, a higher confidence floor than min_confidence, e.g. {ils: 0.85}; null: the "
        "language pack's (fr: il 0.55, ils 0.85; de: none); {} turns them off")
    es_unique_antecedent: bool = setting(True, '"es" only when a single neuter candidate is in reach')
    per_class: int = setting(4000, "items per pronoun class after balanced sampling; 0 keeps all")
    context_stored: int = setting(3, "preceding segments stored in each record")
    context_sentences: int = setting(1, "preceding segments written to export/context.{en,de}")
    docs_per_unit: int = setting(1, "documents per work unit (the checkpoint granularity)")
    batch_size: int = setting(64, "segments per parser batch")

    def to_dict(self) -> dict[str, Any]:
        values = super().to_dict()
        if values["tgt_lang"] == "de":
            # the key came with the language packs: left out at its default so that EN-DE sets keep the
            # info.json and signature (hence the bytes) they had before it existed
            del values["tgt_lang"]
        if values["min_confidence"] is None:
            # written as the value the build used: EN-DE sets keep the info.json (and bytes) of the explicit 0.55
            from builders.pronouns.packs import min_confidence_of

            values["min_confidence"] = min_confidence_of(self)
        if values["class_min_confidence"] is None:
            # left out at its default, like tgt_lang: builds that do not set it keep their info.json and bytes
            del values["class_min_confidence"]
        return values

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
            "align_shard_docs": (0, 10**9),
        }
        for key, (low, high) in bounds.items():
            if not low <= getattr(self, key) <= high:
                raise ConfigError(f"config key {key!r}: must be between {low} and {high}")
        if not 0 <= self.context_sentences <= self.context_stored:
            raise ConfigError("config key 'context_sentences': must be between 0 and context_stored")
        if self.min_confidence is not None and not 0.0 <= self.min_confidence <= 1.0:
            raise ConfigError("config key 'min_confidence': must be between 0 and 1")
        if any(not 0.0 <= floor <= 1.0 for floor in (self.class_min_confidence or {}).values()):
            raise ConfigError("config key 'class_min_confidence': every floor must be between 0 and 1")
        self._check_floor_classes()
        if self.align_shard_docs and self.priors_out:
            raise ConfigError("config key 'priors_out': learn priors on one shard (align_shard_docs: 0)")
        if self.tgt_lang != "de" and self.german_analyser != "rules":
            raise ConfigError("config key 'german_analyser': only for tgt_lang de (the fr pack uses spaCy French)")
        if self.eflomal_rel_iterations <= 0:
            raise ConfigError("config key 'eflomal_rel_iterations': must be > 0")

    def _check_floor_classes(self) -> None:
        """A floor keyed by a word that is no pronoun class of the target language (a typo, "Ils", or "ils" with
        tgt_lang de) would apply to no item: the build would run as if it were not there."""
        from builders.core.registry import did_you_mean
        from builders.pronouns.packs import make_pack  # on use, like the packs themselves

        classes = sorted(make_pack(self.tgt_lang).forms)
        for word in sorted(self.class_min_confidence or {}):
            if word not in classes:
                raise ConfigError(
                    f"config key 'class_min_confidence': {word!r} is not a pronoun class of tgt_lang "
                    f"{self.tgt_lang!r} ({', '.join(classes)}){did_you_mean(word, classes)}")
