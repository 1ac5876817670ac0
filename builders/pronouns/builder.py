"""pronouns.v1: ContraPro-style contrastive sets for EN "it" -> DE er/sie/es (Müller et al. 2018).

plan.py     prepare(): read the input, tokenise both sides, align the whole corpus once (cached) -> PronounsPlan
units.py    units(): docs_per_unit documents each, carried by the unit (a worker gets plan.shared only)
process.py  process(): parse the documents with spaCy, resolve candidates, apply the paper's filters, make variants
here        finalize(): balanced seeded sampling per pronoun class
extras.py   write_extras(): contrapro.json and text/context
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import datasets

from builders.core.builder import Builder, Unit
from builders.core.context import BuildContext, Row
from builders.core.row_store import RowSet, StoredRows
from builders.pronouns.card import FIELD_MEANINGS
from builders.pronouns.config import PronounsConfig
from builders.pronouns.units import make_units

if TYPE_CHECKING:
    from builders.pronouns.plan import PronounsPlan, PronounsShared

CITATION = """@inproceedings{muller-etal-2018-large,
  title = {A Large-Scale Test Set for the Evaluation of Context-Aware Pronoun Translation
           in Neural Machine Translation},
  author = {M{\\"u}ller, Mathias and Rios, Annette and Voita, Elena and Sennrich, Rico},
  booktitle = {Proceedings of the Third Conference on Machine Translation: Research Papers},
  year = {2018},
  pages = {61--72},
  address = {Brussels, Belgium},
  publisher = {Association for Computational Linguistics},
  doi = {10.18653/v1/W18-6307}
}"""


def _string(names: Sequence[str]) -> dict[str, datasets.Value]:
    return {name: datasets.Value("string") for name in names}


class PronounsBuilder(Builder[PronounsConfig]):
    name = "pronouns.v1"
    config_class = PronounsConfig
    pretty_name = "ContraPro-style EN-DE pronoun contrastive set"
    description = (
        "English sentences with a referential *it* whose German reference translates it as *er*, *sie* or "
        "*es*, with the nominal antecedent found by coreference (same or previous segments) and checked by "
        "word alignment and German noun gender; each item has two contrastive German variants with the other "
        "pronouns. Chain policy: a variant swaps the probed pronoun and every other pronoun or possessive of "
        "the same referent in the segment, each in the case its German clause requires, and nothing of another "
        "referent; items where this cannot be decided are dropped. Method of Müller et al. (2018). "
        "Token ids (src/ref pronoun id, src/ref ante head id) are 1-based positions in the builder's "
        "tokenisation of the segment (spaCy for English, the rule tokenizer for German)."
    )
    license = "other"
    citation = CITATION
    balance_fields = ("pronoun class", "ante distance")
    field_meanings = FIELD_MEANINGS
    identity_keys = ("corpus", "src", "jsonl")
    subset = "default"

    # --- schema ------------------------------------------------------------------------------------------
    def features(self) -> datasets.Features:
        value = datasets.Value
        error = {
            "contrastive": value("string"),
            "replacement": value("string"),
            "replacement gender": value("string"),
            "type": value("string"),
        }
        return datasets.Features(
            {
                "id": value("string"),
                "document id": value("string"),
                "segment id": value("int32"),
                "corpus": value("string"),
                **_string(["src segment", "ref segment", "src pronoun", "ref pronoun"]),
                "ante distance": value("int32"),
                "intrasegmental": value("bool"),
                **_string(
                    ["src ante head", "src ante head lemma", "src ante head pos", "src ante head morpho"]
                ),
                "src ante head id": value("int32"),
                "src ante phrase": value("string"),
                **_string(
                    ["ref ante head", "ref ante head lemma", "ref ante head pos", "ref ante head morpho"]
                ),
                "ref ante head id": value("int32"),
                **_string(["ref ante phrase", "ref ante head gender"]),
                "errors": [error],
                # ours
                "pronoun class": value("string"),
                "src pronoun id": value("int32"),
                "ref pronoun id": value("int32"),
                "src context": [value("string")],
                "ref context": [value("string")],
                "aligner": value("string"),
                "coref backend": value("string"),
                "confidence": value("float32"),
            }
        )

    # --- the flow ----------------------------------------------------------------------------------------
    def prepare(self, ctx: BuildContext) -> PronounsPlan:
        from builders.pronouns.plan import prepare

        return prepare(self.config, ctx)

    def units(self, plan: PronounsPlan) -> Sequence[Unit]:
        return make_units(plan.corpus.documents.documents, self.config.docs_per_unit, plan.corpus.slice)

    def shared_plan(self, plan: PronounsPlan) -> PronounsShared:
        return plan.shared

    def process(self, unit: Unit, plan: PronounsShared, ctx: BuildContext) -> list[Row]:
        from builders.pronouns.process import process_documents

        return process_documents(self.config, unit.payload, plan, ctx)

    # --- whole set -----------------------------------------------------------------------------------------
    def finalize(self, rows: StoredRows, plan: PronounsPlan, ctx: BuildContext) -> StoredRows:
        """Balanced seeded sample per pronoun class: positions are drawn, the rows stay on disk (a pass to find
        each class's positions, one per over-quota class for its left-out items' dropped.jsonl entries)."""
        by_class: dict[str, list[int]] = {}
        for position, row in enumerate(rows):
            by_class.setdefault(row.record["pronoun class"], []).append(position)
        keep: set[int] = set()
        for label, positions in sorted(by_class.items()):
            quota = self.config.per_class or len(positions)
            if len(positions) > quota:
                drawn = ctx.rng("balanced-sample", label).choice(len(positions), size=quota, replace=False)
                chosen = {positions[i] for i in drawn}
                keep.update(chosen)
                self._unkeep_over_quota(rows, set(positions) - chosen, quota, ctx)
            else:
                keep.update(positions)
        sampled = rows.select(keep)
        ctx.notes.update(distribution_notes(row.record for row in sampled))
        return sampled

    @staticmethod
    def _unkeep_over_quota(rows: StoredRows, left_out: set[int], quota: int, ctx: BuildContext) -> None:
        """Count the items a class's sample left out, in their order (one pass; their entries go to disk)."""
        for position, row in enumerate(rows):
            if position in left_out:
                ctx.unkeep("over_quota", **over_quota_details(row.record, quota))
        ctx.spill_dropped()

    def write_extras(self, rows: RowSet, plan: PronounsPlan, out_dir: Path, ctx: BuildContext) -> list[str]:
        from builders.pronouns.extras import write_exports

        return write_exports(
            (r.record for r in rows), out_dir, self.config.context_sentences, self.config.tgt_lang
        )

    def extras_problems(self, folder: Path, extras: list[str], rows: RowSet) -> list[str]:
        from builders.pronouns.extras import export_problems

        return export_problems(
            folder, extras, [r.record for r in rows], self.config.context_sentences, self.config.tgt_lang
        )

    def invariants(self, rows: RowSet) -> list[str]:
        from builders.pronouns.invariants import record_problems
        from builders.pronouns.packs import make_pack

        pack = make_pack(self.config.tgt_lang)
        problems: list[str] = []
        for row in rows:
            problems += [f"{row.record.get('id')}: {p}" for p in record_problems(row.record, pack)]
        counts = Counter(r.record["pronoun class"] for r in rows)
        if self.config.per_class:
            problems += [
                f"class {c!r} has {n} items > per_class {self.config.per_class}"
                for c, n in counts.items()
                if n > self.config.per_class
            ]
        return problems[:200]

    def card_section(self, info: dict[str, Any]) -> str:
        from builders.pronouns.card import pack_section

        return pack_section(self.config.tgt_lang)

    def card_languages(self) -> tuple[str, ...]:
        from builders.pronouns.packs import make_pack

        return make_pack(self.config.tgt_lang).languages

    def input_citation(self) -> str:
        return ""

    def signature_fields(self, ctx: BuildContext) -> dict[str, str]:
        return {k: v for k, v in sorted(ctx.tools.items()) if k in SIGNATURE_TOOLS}


# The tools whose versions change the items. "target_analyser" is recorded by the FR pack only, so EN->DE
# signatures (and bytes) stay as they were.
SIGNATURE_TOOLS = frozenset({"spacy_pipeline", "aligner", "alignment_links", "coref", "target_analyser"})


def distribution_notes(records: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Items per class, per antecedent distance and per both, in one pass over the records."""
    per_class: Counter[str] = Counter()
    per_distance: Counter[int] = Counter()
    cross: Counter[str] = Counter()
    for r in records:
        per_class[r["pronoun class"]] += 1
        per_distance[r["ante distance"]] += 1
        cross[f"{r['pronoun class']}@{r['ante distance']}"] += 1
    return {
        "items_per_class": dict(sorted(per_class.items())),
        "items_per_distance": {str(k): v for k, v in sorted(per_distance.items())},
        "items_per_class_and_distance": dict(sorted(cross.items())),
    }


__all__ = ["PronounsBuilder"]


def over_quota_details(record: dict[str, Any], quota: int) -> dict[str, Any]:
    """dropped.jsonl's entry for an item left out by the balanced sample (``per_class``)."""
    fields = ("id", "document id", "segment id", "src pronoun", "src pronoun id", "confidence", "src segment",
              "ref segment", "ref pronoun")
    return {**{name: record[name] for name in fields}, "per class": quota}
