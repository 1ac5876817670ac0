"""``variations.v1``: DEL / INS / SUBNUM / SUBGEN minimal pairs of parallel EN–DE text (Fadaee & Monz 2020)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import datasets

from builders.core.builder import Builder, Unit
from builders.core.context import BuildContext, Row
from builders.core.outcome import warn
from builders.core.row_store import RowSet, StoredRows
from builders.variations.card import FIELD_MEANINGS
from builders.variations.config import VariationsConfig
from builders.variations.extras import write_plain
from builders.variations.invariants import record_problems
from builders.variations.plan import VariationsPlan, prepare
from builders.variations.process import process_lines
from builders.variations.strategies.base import StrategyResources
from builders.variations.units import make_units

CITATION = """@inproceedings{fadaee-monz-2020-unreasonable,
    title = "The Unreasonable Volatility of Neural Machine Translation Models",
    author = "Fadaee, Marzieh and Monz, Christof",
    booktitle = "Proceedings of the Fourth Workshop on Neural Generation and Translation",
    year = "2020",
    publisher = "Association for Computational Linguistics",
    pages = "88--96",
    url = "https://aclanthology.org/2020.ngt-1.10",
}"""

_EDIT = {
    "start": datasets.Value("int32"), "end": datasets.Value("int32"),
    "varied_start": datasets.Value("int32"), "varied_end": datasets.Value("int32"),
    "old": datasets.Value("string"), "new": datasets.Value("string"),
}


# eflomal learns its links from the corpus itself: on a few dozen lines most words occur once and it links them
# badly, so the types that need links (DEL, INS, SUBGEN) come out empty with nothing saying why.
SMALL_CORPUS_LINES = 100


def warn_if_too_small_to_align(config: VariationsConfig, per_type: dict[str, int], plan: VariationsPlan,
                               ctx: BuildContext) -> None:
    """Warn (info.json notes.warnings) when a small corpus aligned by a word aligner left a type with no
    variation and drops for unaligned words, and suggest ``aligner: unique``."""
    lines = plan.lines.sentences
    if config.aligner == "unique" or lines >= SMALL_CORPUS_LINES:
        return
    unaligned = {name: n for name, n in ctx.counts.dropped.items() if name.endswith("_not_aligned")}
    empty = [name for name, made in per_type.items() if not made
             and any(reason.startswith(f"{name.lower()}_") for reason in unaligned)]
    if empty:
        warn(ctx, f"variations.v1: {lines} lines are too few for the {config.aligner} aligner: "
                  f"no {', no '.join(empty)} "
                  f"({sum(unaligned.values())} candidates dropped as *_not_aligned); on a corpus this small "
                  "set `aligner: unique` (links a word that occurs once on each side)")


class VariationsBuilder(Builder[VariationsConfig]):
    name = "variations.v1"
    config_class = VariationsConfig
    pretty_name = "Variations: DEL/INS/SUBNUM/SUBGEN minimal pairs for MT volatility"
    description = (
        "Minimal variations of parallel sentences that change one word (or, for SUBGEN, every pronoun of one "
        "gender) on both sides so source and reference stay parallel: DEL removes a frequent adverb, INS inserts "
        "a meaning-light word where a bidirectional n-gram model finds it likely, SUBNUM changes a number by k, "
        "SUBGEN swaps pronoun gender. Each record has the original and varied source and reference and the "
        "character spans of every edit. Use them to measure how much a system's translation changes (volatility) "
        "when the input changes minimally."
    )
    license = "other"
    field_meanings = FIELD_MEANINGS
    languages = ("en", "de")
    identity_keys = ("corpus", "src", "jsonl", "src_lang", "tgt_lang")
    citation = CITATION

    def features(self) -> datasets.Features:
        string = datasets.Value("string")
        return datasets.Features({
            "id": string, "source_id": string, "line": datasets.Value("int32"), "type": string,
            "direction": string,
            "original_src": string, "original_ref": string, "varied_src": string, "varied_ref": string,
            "parameters": {
                "k": datasets.Value("int32"), "word_src": string, "word_ref": string, "new_src": string,
                "new_ref": string, "position": datasets.Value("int32"), "detail": string,
            },
            "edits_src": [_EDIT], "edits_ref": [_EDIT],
        })

    # --- the flow: plan.py -> units.py -> process.py -> extras.py ------------------------------------------
    def prepare(self, ctx: BuildContext) -> VariationsPlan:
        return prepare(self.config, ctx)

    def units(self, plan: VariationsPlan) -> Sequence[Unit]:
        return make_units(plan.lines)

    def shared_plan(self, plan: VariationsPlan) -> StrategyResources:
        return plan.resources  # lexicons and n-gram models; each unit carries its own lines

    def process(self, unit: Unit, plan: StrategyResources, ctx: BuildContext) -> list[Row]:
        return process_lines(self.config, unit.payload, plan, ctx)

    def finalize(self, rows: StoredRows, plan: VariationsPlan, ctx: BuildContext) -> StoredRows:
        per_type: dict[str, int] = {name: 0 for name in self.config.types}
        for row in rows:
            per_type[row.record["type"]] += 1
        ctx.notes["variations_per_type"] = per_type
        ctx.notes["input_lines"] = plan.lines.lines  # empty lines included: the denominator of a yield
        warn_if_too_small_to_align(self.config, per_type, plan, ctx)
        return rows

    # --- outputs ------------------------------------------------------------------------------------------
    def write_extras(self, rows: RowSet, plan: VariationsPlan, out_dir: Path, ctx: BuildContext) -> list[str]:
        return write_plain(rows, self.config, out_dir)

    def extras_problems(self, folder: Path, extras: list[str], rows: RowSet) -> list[str]:
        from builders.core.hashes import expected_text_problems
        from builders.variations.extras import plain_files

        return expected_text_problems(folder, extras, plain_files(rows, self.config))

    def invariants(self, rows: RowSet) -> list[str]:
        problems: list[str] = []
        for row in rows:
            problems += [f"record {row.record.get('id')!r}: {p}" for p in record_problems(row.record)]
        return problems

    def input_citation(self) -> str:
        return ""
