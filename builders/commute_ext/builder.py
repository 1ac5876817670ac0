"""commute_ext.v1: CoMMuTE with 4 more images per translation, retrieved with open_clip + FAISS.

    CoMMuTE text + images + captions -> collection (filter, embed, shards) -> FAISS index -> top-k per caption
    -> suppression + pre-selection (or a reviewer's selection) -> records, CoMMuTE files per image slot,
    review page

plan.py prepare() (read, embed, index, retrieve) -> units.py (one unit per ambiguous source) -> process.py
(suppression, selection) -> extras.py (slot files, review page); invariants.py (validate), card.py (card text)
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import datasets

from builders.core.builder import Builder, Unit
from builders.core.context import BuildContext, Row
from builders.core.errors import MtprobesError
from builders.core.row_store import RowSet, StoredRows

from .card import FIELD_MEANINGS
from .config import CommuteExtConfig
from .plan import CommutePlan, prepare
from .process import process_source
from .units import make_units

_IMAGE = {
    "slot": datasets.Value("int32"),
    "kind": datasets.Value("string"),  # original | retrieved
    "uid": datasets.Value("string"),
    "path": datasets.Value("string"),  # img.order entry, or the location inside the collection
    "collection": datasets.Value("string"),
    "sha256": datasets.Value("string"),
    "caption": datasets.Value("string"),  # the collection's own caption of the image
    "similarity": datasets.Value("float64"),  # cosine(query caption, image), rounded to 1e-6
    "rank": datasets.Value("int32"),  # retrieval rank, 0 for the original
}
_CANDIDATE = {
    "rank": datasets.Value("int32"),
    "uid": datasets.Value("string"),
    "path": datasets.Value("string"),
    "collection": datasets.Value("string"),
    "sha256": datasets.Value("string"),
    "caption": datasets.Value("string"),
    "similarity": datasets.Value("float64"),
    "suppressed": datasets.Value("string"),  # "" | near_duplicate | near_original | other_translation
    "duplicate_of": datasets.Value("int32"),
    "selected": datasets.Value("bool"),
}
_TRANSLATION = {
    "line": datasets.Value("int32"),
    "text": datasets.Value("string"),
    "contrast": datasets.Value("string"),  # the incorrect translation on the same CoMMuTE line
    "caption": datasets.Value("string"),  # the unambiguous query caption
    "selected_by": datasets.Value("string"),  # auto | review
    "images": [_IMAGE],
    "candidates": [_CANDIDATE],
}


class CommuteExtBuilder(Builder[CommuteExtConfig]):
    name = "commute_ext.v1"
    config_class = CommuteExtConfig
    pretty_name = "CoMMuTE extended with retrieved images"
    description = """
Each ambiguous English source of CoMMuTE comes with two translations, each fitting one image. This set keeps
the original image and adds the best images retrieved for an unambiguous caption of each translation
(open_clip embeddings, FAISS inner-product search, near-duplicate suppression, optional human review), so a
model's image-awareness can be tested on five images per meaning instead of one.
"""
    license = "cc-by-sa-4.0"
    field_meanings = FIELD_MEANINGS
    identity_keys = ("corpus", "data_dir", "tgt_lang")
    # the collection's embedding shards (store.py), written before any checkpoint: a killed build resumes from them
    resumable_files = (*Builder.resumable_files, "cache/**/shard-*.npy")
    task_categories = ("translation",)
    citation = """@inproceedings{kashani-motlagh-etal-2024-assessing,
  title = {Assessing the Role of Imagery in Multimodal Machine Translation},
  author = {Kashani Motlagh, Nicholas and Davis, Jim and Gwinnup, Jeremy and Erdmann, Grant and Anderson, Tim},
  booktitle = {Proceedings of the Ninth Conference on Machine Translation},
  year = {2024},
  address = {Miami, Florida, USA},
  publisher = {Association for Computational Linguistics},
  pages = {1428--1439},
  url = {https://aclanthology.org/2024.wmt-1.130}
}"""

    def features(self) -> datasets.Features:
        return datasets.Features({
            "id": datasets.Value("string"),
            "lang": datasets.Value("string"),
            "source": datasets.Value("string"),
            "translations": [_TRANSLATION],
        })

    # --- the flow: plan.py -> units.py -> process.py -> extras.py ------------------------------------------
    def prepare(self, ctx: BuildContext) -> CommutePlan:
        return prepare(self.config, ctx)

    def units(self, plan: CommutePlan) -> Sequence[Unit]:
        return make_units(plan)

    def shared_plan(self, plan: CommutePlan) -> None:
        return None  # every unit carries its own source: the plan stays on the driver

    def process(self, unit: Unit, plan: None, ctx: BuildContext) -> list[Row]:
        return process_source(self.config, unit, ctx)

    def card_section(self, info: dict[str, Any]) -> str:
        """Card text: how the images were found, and how to use the slot files and the review page."""
        from .card import retrieval_section

        return retrieval_section(info)

    def finalize(self, rows: StoredRows, plan: CommutePlan, ctx: BuildContext) -> StoredRows:
        if not rows:
            dropped = {k: v for k, v in ctx.counts.dropped.items() if k.startswith("source:")}
            raise MtprobesError(f"{self.name}: no ambiguous source kept ({dropped}); with too_few_candidates the "
                                "collection is too small or too uniform for the requested images per translation")
        return rows

    def write_extras(self, rows: RowSet, plan: CommutePlan, out_dir: Path, ctx: BuildContext) -> list[str]:
        from .extras import write_commute_slots, write_review

        written = write_commute_slots(rows, out_dir, self.config)
        written += write_review(rows, out_dir, self.config)
        return written

    def extras_problems(self, folder: Path, extras: list[str], rows: RowSet) -> list[str]:
        from builders.core.hashes import expected_text_problems

        from .extras import exported_names, slot_files

        return expected_text_problems(folder, extras, slot_files(rows, self.config, exported_names(rows, extras)))

    def invariants(self, rows: RowSet) -> list[str]:
        from .invariants import record_problems

        return [p for row in rows for p in record_problems(row.record, self.config.per_translation)]

    def card_languages(self) -> tuple[str, ...]:
        return ("en", self.config.tgt_lang)  # English sources, the configured CoMMuTE target language

    def input_citation(self) -> str:
        return """@inproceedings{futeral-etal-2023-tackling,
  title = {Tackling Ambiguity with Images: Improved Multimodal Machine Translation and Contrastive Evaluation},
  author = {Futeral, Matthieu and Schmid, Cordelia and Laptev, Ivan and Sagot, Beno{\\^\\i}t and Bawden, Rachel},
  booktitle = {Proceedings of the 61st Annual Meeting of the Association for Computational Linguistics},
  year = {2023},
  pages = {5394--5413}
}"""
