"""Write a built dataset: parquet shards, JSONL, ``save_to_disk`` copy, extras, card and info.json.

The rows are streamed (a view of the checkpoint chunks, core/row_store.py): a pass per subset and split, a
shard's records in memory at a time, the ``hf/`` copy saved from a memory-mapped Arrow file.

Everything is written into a staging folder next to the destination and moved into place with one rename,
so a reader never sees a half-written dataset.
"""

from __future__ import annotations

import itertools
import json
import logging
import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import datasets
import pyarrow as pa
import pyarrow.parquet as pq

from builders.core.atomic import atomic_path, atomic_text, write_text
from builders.core.card import render_card
from builders.core.context import BuildContext
from builders.core.errors import MtprobesError, OutputExistsError
from builders.core.hashes import hashes_digest, output_hashes
from builders.core.row_store import RowSet
from builders.core.writer_paths import DROPPED_FILE, data_dir_for, jsonl_path_for

if TYPE_CHECKING:
    from builders.core.builder import Builder

INFO_FILE = "info.json"
log = logging.getLogger("mtprobes")


# the checkpoints every build writes (core/checkpoint.py); a family may add its own resumable work files
RESUMABLE_FILES: tuple[str, ...] = ("checkpoint/chunk-*.pkl",)


@dataclass(frozen=True)
class OutputPlan:
    final_dir: Path
    work_dir: Path

    @classmethod
    def for_build(cls, out_root: Path, family: str, config_name: str, version: str) -> OutputPlan:
        final = out_root / family / config_name / f"v{version.split('.')[0]}"
        return cls(final_dir=final, work_dir=final.parent / f".{final.name}.partial")

    def claim(self, *, resume: bool, overwrite: bool) -> None:
        """Called while holding the output lock: recover an interrupted swap, then prepare the work folder."""
        recover_interrupted_swap(self.final_dir)
        resuming_a_replacement = resume and (self.work_dir / "checkpoint" / "header.json").is_file()
        if resume and not self.work_dir.is_dir() and not self.final_dir.exists():
            # --resume of a build that never started (or left nothing worth keeping): say so, then build it all
            log.warning("%s: nothing to resume (no %s/); building from the start", self.final_dir, self.work_dir.name)
        if self.final_dir.exists() and not overwrite and not resuming_a_replacement:
            raise OutputExistsError(f"{self.final_dir} already exists; pass --overwrite to replace it"
                                    + (self._nothing_to_resume() if resume else ""))
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

    def _nothing_to_resume(self) -> str:
        # A work folder without a checkpoint header: a build into this folder (an --overwrite) was killed
        # before its first checkpoint, so the folder still holds the previous build, maybe of another config.
        if self.work_dir.is_dir():
            return (f" (a build replacing it was interrupted before its first checkpoint: nothing to resume, and "
                    f"{self.final_dir.name}/ still holds the previous build; run it again with --overwrite)")
        return " (the build there is complete, nothing to resume)"

    def discard_unless_resumable(self, resumable: tuple[str, ...] = RESUMABLE_FILES) -> None:
        """After a failed or interrupted build: keep the work folder only when it holds files --resume can use
        (``resumable``: glob patterns under the work folder; the builder's ``resumable_files``)."""
        if not any(next(self.work_dir.glob(pattern), None) for pattern in resumable):
            shutil.rmtree(self.work_dir, ignore_errors=True)


def old_dir_prefix(final: Path) -> str:
    return f".{final.name}.old-"


def recover_interrupted_swap(final: Path) -> None:
    """A build killed between the two renames of --overwrite leaves ``.v1.old-<pid>``: put it back when the
    new dataset never arrived, delete it when it did. Only called under the output lock, so no live build
    is in the middle of its swap."""
    if not final.parent.is_dir():
        return
    for old in sorted(final.parent.glob(old_dir_prefix(final) + "*")):
        if final.exists():
            log.warning("%s: removing %s left by an interrupted --overwrite", final, old.name)
            shutil.rmtree(old, ignore_errors=True)
        else:
            log.warning("%s: restoring the previous dataset from %s (an --overwrite was interrupted)", final, old.name)
            os.replace(old, final)


def _records_of(rows: RowSet, subset: str, split: str) -> Iterator[dict[str, Any]]:
    return (row.record for row in rows if row.subset == subset and row.split == split)


ENCODE_BATCH = 1000  # records turned into Arrow at a time: a shard's records are never all Python dicts at once


def _batches(records: Iterator[dict[str, Any]], size: int) -> Iterator[list[dict[str, Any]]]:
    while batch := list(itertools.islice(records, size)):
        yield batch


def _encode_table(records: list[dict[str, Any]], features: datasets.Features) -> pa.Table:
    return pa.Table.from_pylist([features.encode_example(r) for r in records], schema=features.arrow_schema)


def _shard_tables(records: Iterator[dict[str, Any]], features: datasets.Features, shard_size: int,
                  jsonl: TextIO) -> Iterator[pa.Table]:
    """The split's shards as Arrow tables of ``shard_size`` rows (the last one shorter), each one chunk: encoded
    ``ENCODE_BATCH`` records at a time, the records written to the JSONL as they pass."""
    while True:
        parts: list[pa.Table] = []
        for batch in _batches(itertools.islice(records, shard_size), ENCODE_BATCH):
            jsonl.writelines(json.dumps(record, ensure_ascii=False) + "\n" for record in batch)
            parts.append(_encode_table(batch, features))
        if not parts:
            return
        yield pa.concat_tables(parts).combine_chunks()


def _write_split(records: Iterator[dict[str, Any]], total: int, features: datasets.Features, shard_size: int,
                 data_dir: Path, split: str, jsonl: Path, arrow: Path) -> list[str]:
    """One pass over a split's records: each shard one parquet file written from one single-chunk table (as the
    slices of a whole-split table were: the same bytes), the JSONL, and the shard as record batches of the Arrow
    IPC file that the ``hf/`` copy is saved from (memory-mapped, so never in memory whole)."""
    shards = max(1, -(-total // shard_size))
    written: list[str] = []
    with atomic_text(jsonl) as handle, pa.ipc.new_file(str(arrow), features.arrow_schema) as ipc:
        for index, table in enumerate(_shard_tables(records, features, shard_size, handle)):
            path = data_dir / f"{split}-{index:05d}-of-{shards:05d}.parquet"
            with atomic_path(path) as shard:
                pq.write_table(table, shard, compression="zstd")
            written.append(path.name)
            ipc.write_table(table)
    if len(written) != shards:  # the info's record counts and the rows disagree: a bug, never a wrong file name
        raise MtprobesError(f"{data_dir.name}/{split}: {len(written)} shards written, {shards} counted")
    return written


def _write_dropped(ctx: BuildContext, path: Path) -> None:
    """dropped.jsonl: the candidates spilled during the build, then those still in memory, in the order counted."""
    ctx.spill_dropped()
    with atomic_path(path) as tmp:
        if ctx.dropped_spill.is_file():  # else none was dropped: the file stays empty
            shutil.copyfile(ctx.dropped_spill, tmp)


def _save_to_disk(arrows: dict[str, Path], features: datasets.Features, directory: Path, fingerprint: str) -> None:
    """The ``hf/`` copy, from each split's Arrow IPC file memory-mapped (zero-copy: pages are read as saved)."""
    datasets.disable_progress_bars()  # our own progress bar covers the build; theirs would print per split
    dataset_dict = datasets.DatasetDict()
    for split, arrow in arrows.items():
        table = pa.ipc.open_file(pa.memory_map(str(arrow))).read_all()  # the map lives as long as the table
        info = datasets.DatasetInfo(features=features)
        dataset_dict[split] = datasets.Dataset(
            table, info=info, split=datasets.NamedSplit(split), fingerprint=f"{fingerprint}-{split}"
        )
    dataset_dict.save_to_disk(str(directory))


def write_dataset(builder: Builder[Any], rows: RowSet, info: dict[str, Any], plan: OutputPlan,
                  ctx: BuildContext, build_plan: Any = None) -> None:
    """Write the dataset from passes over ``rows`` (one per subset and split; ``info["records"]`` has their
    sizes, from make_info): only a shard's records are in memory at a time."""
    staging = plan.work_dir / "output"
    if staging.exists():
        shutil.rmtree(staging)
    staging.mkdir(parents=True)
    try:
        _write_staging(builder, rows, info, staging, ctx, build_plan)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)  # never leave a half-written copy (the checkpoints stay)
        raise
    finally:
        shutil.rmtree(_arrow_dir(staging), ignore_errors=True)
    _swap_into_place(staging, plan)


def _arrow_dir(staging: Path) -> Path:
    """The splits' Arrow IPC files: in the work folder, beside (not in) the staging folder that is hashed."""
    return staging.parent / "arrow"


def _write_staging(builder: Builder[Any], rows: RowSet, info: dict[str, Any], staging: Path,
                   ctx: BuildContext, build_plan: Any) -> None:
    features = builder.features()
    fingerprint = info["signature"].encode().hex()[:32]
    files: dict[str, list[str]] = {}
    for subset, sizes in sorted(info["records"].items()):
        data_dir = staging / data_dir_for(subset)
        data_dir.mkdir(parents=True, exist_ok=True)
        arrow_dir = _arrow_dir(staging) / data_dir_for(subset)
        arrow_dir.mkdir(parents=True, exist_ok=True)
        files[subset] = []
        arrows: dict[str, Path] = {}
        for split, total in sizes.items():
            arrows[split] = arrow_dir / f"{split}.arrow"
            names = _write_split(_records_of(rows, subset, split), total, features, builder.config.shard_size,
                                 data_dir, split, staging / jsonl_path_for(subset, split), arrows[split])
            files[subset] += [f"{data_dir_for(subset)}/{n}" for n in names]
        _save_to_disk(arrows, features, staging / "hf" / subset, fingerprint)
        shutil.rmtree(arrow_dir)
    info["files"] = files
    info["extras"] = builder.write_extras(rows, build_plan, staging, ctx)
    _write_dropped(ctx, staging / DROPPED_FILE)
    # Every file's sha256, and the signature over them: validate finds any file edited, added or removed.
    info["files_sha256"] = output_hashes(staging)
    info["file_sizes"] = {name: (staging / name).stat().st_size for name in info["files_sha256"]}
    info["signature"] = f"{info['signature']}|files:{hashes_digest(info['files_sha256'])}"
    write_text(staging / INFO_FILE, json.dumps(info, indent=2, ensure_ascii=False) + "\n")
    write_text(staging / "README.md", render_card(builder, info))


def _swap_into_place(staging: Path, plan: OutputPlan) -> None:
    final = plan.final_dir
    final.parent.mkdir(parents=True, exist_ok=True)
    old = final.parent / f"{old_dir_prefix(final)}{os.getpid()}"
    if final.exists():
        os.replace(final, old)
    os.replace(staging, final)
    if old.exists():
        shutil.rmtree(old)
    shutil.rmtree(plan.work_dir, ignore_errors=True)
