"""Write a built dataset: parquet shards, JSONL, ``save_to_disk`` copy, extras, card and info.json.

Everything is written into a staging folder next to the destination and moved into place with one rename,
so a reader never sees a half-written dataset.
"""

from __future__ import annotations

import json
import os
import shutil
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import datasets
import pyarrow as pa
import pyarrow.parquet as pq

from builders.core.atomic import atomic_path, write_text
from builders.core.card import render_card
from builders.core.context import BuildContext, Row
from builders.core.errors import MtprobesError, OutputExistsError
from builders.core.writer_paths import data_dir_for, jsonl_path_for

if TYPE_CHECKING:
    from builders.core.builder import Builder

INFO_FILE = "info.json"


@dataclass(frozen=True)
class OutputPlan:
    final_dir: Path
    work_dir: Path

    @classmethod
    def for_build(cls, out_root: Path, family: str, config_name: str, version: str) -> OutputPlan:
        final = out_root / family / config_name / f"v{version.split('.')[0]}"
        return cls(final_dir=final, work_dir=final.parent / f".{final.name}.partial")

    def claim(self, *, resume: bool, overwrite: bool) -> None:
        if self.final_dir.exists() and not overwrite:
            raise OutputExistsError(
                f"{self.final_dir} already exists; pass --overwrite to replace it"
                + (" (the build there is complete, nothing to resume)" if resume else "")
            )
        try:
            self.work_dir.mkdir(parents=True, exist_ok=True)
            probe = self.work_dir / ".write-test"
            probe.write_text("ok")
            probe.unlink()
        except OSError as err:
            raise MtprobesError(f"{self.work_dir.parent}: output directory is not writable ({err.strerror})") from None
        if not resume and any(self.work_dir.iterdir()):
            shutil.rmtree(self.work_dir)
            self.work_dir.mkdir(parents=True)


def group_rows(rows: list[Row]) -> dict[str, dict[str, list[dict[str, Any]]]]:
    grouped: dict[str, dict[str, list[dict[str, Any]]]] = defaultdict(lambda: defaultdict(list))
    for row in rows:
        grouped[row.subset][row.split].append(row.record)
    return {subset: dict(splits) for subset, splits in sorted(grouped.items())}


def _encode_table(records: list[dict[str, Any]], features: datasets.Features) -> pa.Table:
    return pa.Table.from_pylist([features.encode_example(r) for r in records], schema=features.arrow_schema)


def _write_parquet_shards(table: pa.Table, directory: Path, split: str, shard_size: int) -> list[str]:
    shards = max(1, -(-table.num_rows // shard_size))
    written = []
    for index in range(shards):
        path = directory / f"{split}-{index:05d}-of-{shards:05d}.parquet"
        with atomic_path(path) as tmp:
            pq.write_table(table.slice(index * shard_size, shard_size), tmp, compression="zstd")
        written.append(path.name)
    return written


def _write_jsonl(records: list[dict[str, Any]], path: Path) -> None:
    with atomic_path(path) as tmp, open(tmp, "w", encoding="utf-8", newline="\n") as handle:
        for record in records:
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")


def _save_to_disk(tables: dict[str, pa.Table], features: datasets.Features, directory: Path, fingerprint: str) -> None:
    datasets.disable_progress_bars()  # our own progress bar covers the build; theirs would print per split
    dataset_dict = datasets.DatasetDict()
    for split, table in tables.items():
        info = datasets.DatasetInfo(features=features)
        dataset_dict[split] = datasets.Dataset(
            table, info=info, split=datasets.NamedSplit(split), fingerprint=f"{fingerprint}-{split}"
        )
    dataset_dict.save_to_disk(str(directory))


def write_dataset(builder: Builder[Any], rows: list[Row], info: dict[str, Any], plan: OutputPlan,
                  ctx: BuildContext, build_plan: Any = None) -> None:
    staging = plan.work_dir / "output"
    if staging.exists():
        shutil.rmtree(staging)
    staging.mkdir(parents=True)
    features = builder.features()
    fingerprint = info["signature"].encode().hex()[:32]
    files: dict[str, list[str]] = {}
    for subset, splits in group_rows(rows).items():
        data_dir = staging / data_dir_for(subset)
        data_dir.mkdir(parents=True, exist_ok=True)
        files[subset] = []
        tables = {split: _encode_table(records, features) for split, records in splits.items()}
        for split, records in splits.items():
            names = _write_parquet_shards(tables[split], data_dir, split, builder.config.shard_size)
            files[subset] += [f"{data_dir_for(subset)}/{n}" for n in names]
            _write_jsonl(records, staging / jsonl_path_for(subset, split))
        _save_to_disk(tables, features, staging / "hf" / subset, fingerprint)
    info["files"] = files
    info["extras"] = builder.write_extras(rows, build_plan, staging, ctx)
    write_text(staging / INFO_FILE, json.dumps(info, indent=2, ensure_ascii=False) + "\n")
    write_text(staging / "README.md", render_card(builder, info))
    _swap_into_place(staging, plan)


def _swap_into_place(staging: Path, plan: OutputPlan) -> None:
    final = plan.final_dir
    final.parent.mkdir(parents=True, exist_ok=True)
    old = final.parent / f".{final.name}.old-{os.getpid()}"
    if final.exists():
        os.replace(final, old)
    os.replace(staging, final)
    if old.exists():
        shutil.rmtree(old)
    shutil.rmtree(plan.work_dir, ignore_errors=True)
