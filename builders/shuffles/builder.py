"""``shuffles.v1``: incongruent image pairings for image-awareness tests (Elliott 2018).

A multimodal test set is written once with its own images (``congruent``) and k times with the images
shuffled (``random1..k``), each shuffle a seeded derangement by content: no example keeps its image or any
image of the same content. Beside the dataset: image-order files and permuted / all-zero / mixup features.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

import datasets

from builders.core.builder import Builder, Unit
from builders.core.compat import package_version
from builders.core.context import BuildContext, Row
from builders.core.row_store import RowSet, StoredRows
from builders.shuffles.card import FIELD_MEANINGS
from builders.shuffles.config import ShufflesConfig
from builders.shuffles.extras import write_all_extras
from builders.shuffles.invariants import find_problems
from builders.shuffles.plan import ShufflePlan, prepare
from builders.shuffles.process import process_shuffle
from builders.shuffles.units import make_units

ELLIOTT_2018 = """@inproceedings{elliott-2018-adversarial,
  title = {Adversarial Evaluation of Multimodal Machine Translation},
  author = {Elliott, Desmond},
  booktitle = {Proceedings of the 2018 Conference on Empirical Methods in Natural Language Processing},
  year = {2018},
  address = {Brussels, Belgium},
  publisher = {Association for Computational Linguistics},
  pages = {2974--2978}
}"""

MULTI30K = """@inproceedings{elliott-etal-2016-multi30k,
  title = {Multi30K: Multilingual English-German Image Descriptions},
  author = {Elliott, Desmond and Frank, Stella and Sima'an, Khalil and Specia, Lucia},
  booktitle = {Proceedings of the 5th Workshop on Vision and Language},
  year = {2016},
  address = {Berlin, Germany},
  publisher = {Association for Computational Linguistics},
  pages = {70--74}
}"""


class ShufflesBuilder(Builder[ShufflesConfig]):
    name: ClassVar[str] = "shuffles.v1"
    config_class = ShufflesConfig
    pretty_name: ClassVar[str] = "Incongruent image pairings (image-awareness shuffles)"
    description: ClassVar[str] = """
Image-awareness test sets in the style of Elliott (2018): the same source/reference pairs shown with their
own image (subset `congruent`) and with shuffled images (subsets `random1`, `random2`, ...). A model that uses
the image should translate worse with a wrong one. Every shuffle is a seeded derangement *by content*: no
example is shown its own image, nor another copy of the same image (same file hash when image files were
given, same file name otherwise), and every shuffle uses each image exactly as often as the original set does.
`input_image` is the image to show the model; `image` is the example's own image. The seed of each shuffle is
in `seed` and `info.json`; image-order files and permuted, all-zero and mixup feature baselines are under
`extras/`.
"""
    license: ClassVar[str] = "other"
    task_categories: ClassVar[tuple[str, ...]] = ("translation",)
    citation: ClassVar[str] = ELLIOTT_2018
    balance_fields: ClassVar[tuple[str, ...]] = ("shuffle",)
    field_meanings: ClassVar[dict[str, str]] = FIELD_MEANINGS
    identity_keys: ClassVar[tuple[str, ...]] = ("corpus", "jsonl", "hf_path", "split")
    # The keys that name a build per input format (a JSONL input has no split: its output split is "test").
    identity_keys_by_format: ClassVar[dict[str, tuple[str, ...]]] = {
        "multi30k": ("corpus", "split"),
        "jsonl": ("corpus", "jsonl"),
        "hf": ("corpus", "hf_path", "split"),
    }

    def features(self) -> datasets.Features:
        string, int32 = datasets.Value("string"), datasets.Value("int32")
        return datasets.Features(
            {
                "id": string,
                "line": int32,
                "src": string,
                "ref": string,
                "image": string,
                "image_sha256": string,
                "input_image": string,
                "distractor_image": string,
                "distractor_sha256": string,
                "distractor_line": int32,
                "distractor_uses": int32,
                "congruent": datasets.Value("bool"),
                "shuffle": int32,
                "seed": datasets.Value("int64"),
                "policy": string,
                "cosine_to_distractor": datasets.Value("float64"),
            }
        )

    def prepare(self, ctx: BuildContext) -> ShufflePlan:
        plan = prepare(self.config, ctx)
        ctx.add_tool("numpy", package_version("numpy"))
        if self.config.policy != "random":
            ctx.add_tool("scipy", package_version("scipy"))
        return plan

    def units(self, plan: ShufflePlan) -> Sequence[Unit]:
        return make_units(self.config.shuffles)

    def process(self, unit: Unit, plan: ShufflePlan, ctx: BuildContext) -> list[Row]:
        return process_shuffle(self.config, unit.payload, unit.key, plan, ctx)

    def output_name(self) -> str:
        from builders.core.naming import output_name

        return output_name(self.config, self.identity_keys_by_format[self.config.input_format])

    def finalize(self, rows: StoredRows, plan: ShufflePlan, ctx: BuildContext) -> StoredRows:
        """Warn when shuffles repeat each other (a tiny set may allow a single derangement)."""
        from builders.core.outcome import warn

        perms = [tuple(int(i) for i in s.perm) for s in plan.shuffles]
        repeats = len(perms) - len(set(perms))
        if repeats:
            warn(ctx, f"{self.name}: {repeats} of the {len(perms)} shuffles repeat an earlier one (only "
                      f"{len(set(perms))} distinct); with {len(plan.data)} examples there is little room to shuffle")
        return rows

    def write_extras(self, rows: RowSet, plan: ShufflePlan, out_dir: Path, ctx: BuildContext) -> list[str]:
        return write_all_extras(plan, self.config, out_dir)

    def invariants(self, rows: RowSet) -> list[str]:
        by_subset: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for row in rows:
            by_subset[row.subset].append(row.record)
        return find_problems(by_subset)

    def extras_problems(self, folder: Path, extras: list[str], rows: RowSet) -> list[str]:
        from builders.shuffles.invariants import order_file_problems

        by_subset: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for row in rows:
            by_subset[row.subset].append(row.record)
        return order_file_problems(folder, extras, by_subset)

    def card_languages(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys((self.config.src_lang, self.config.tgt_lang)))  # e.g. Multi30K en-fr, en-cs

    def input_citation(self) -> str:
        return MULTI30K if self.config.input_format == "multi30k" else ""

    def card_section(self, info: dict[str, Any]) -> str:
        """Statistics of the shuffles for the dataset card (from info.json notes)."""
        from builders.shuffles.card import statistics_section

        return statistics_section(info.get("notes", {}))
