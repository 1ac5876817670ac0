"""The abstract builder: it owns the public flow, a family fills a few hooks.

    plan  = prepare(ctx)                      whole-input passes on the driver -> a picklable plan
    units = units(plan)                       deterministic keys and order
    rows  = executor.map(process, units)      local | processes | ray, results in unit order (checkpointed)
    rows  = finalize(rows, plan, ctx)         sampling -> schema check
    write_dataset(...)                        parquet/JSONL/save_to_disk + write_extras(rows, plan, ...) + card

The builder object holds its config and nothing else: every stage gets what it needs from the plan. The rows
after the units are a view of the checkpoint chunks on disk (core/row_store.py): every later stage iterates it,
one chunk in memory at a time, so the driver's memory does not grow with the rows kept.
"""

from __future__ import annotations

import abc
import platform
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Generic, TypeVar

import datasets

from builders import __version__
from builders.core.checkpoint import Checkpoint
from builders.core.config import BuildConfig
from builders.core.context import BuildContext, Counts, Row
from builders.core.errors import MtprobesError, ValidationFailed
from builders.core.executors import Executor, UnitResult, make_executor, run_unit
from builders.core.lock import OutputLock
from builders.core.outcome import reported_os_errors, warn_if_degenerate
from builders.core.row_store import RowSet, StoredRows
from builders.core.schema import check_record
from builders.core.textio import counting_normalised
from builders.core.writer import RESUMABLE_FILES, OutputPlan, write_dataset

ConfigT = TypeVar("ConfigT", bound=BuildConfig)


@dataclass(frozen=True)
class Unit:
    """A piece of work whose rows are checkpointed together (a range of documents, a shuffle, a batch of lines).

    The payload is small typed data (a family's ``units.py``); the bulk lives in the plan, sent once per worker.
    """

    key: str
    payload: Any = None


class Builder(abc.ABC, Generic[ConfigT]):
    # --- declared by subclasses ------------------------------------------------------------------------
    name: ClassVar[str]  # registry name, e.g. "shuffles.v1"
    dataset_version: ClassVar[str] = "1.0.0"
    config_class: ClassVar[type[BuildConfig]]
    pretty_name: ClassVar[str]
    description: ClassVar[str]
    license: ClassVar[str] = "other"
    languages: ClassVar[tuple[str, ...]] = ("en", "de")
    task_categories: ClassVar[tuple[str, ...]] = ("translation",)
    citation: ClassVar[str] = ""
    # Fields whose value distribution `mtprobes inspect` shows (class balance).
    balance_fields: ClassVar[tuple[str, ...]] = ()
    # Config keys that tell two builds apart; with name=default the output path is made of their values.
    identity_keys: ClassVar[tuple[str, ...]] = ()
    # Every top-level record field -> its meaning: the card's "Fields" table (core/fields.py).
    field_meanings: ClassVar[dict[str, str]] = {}
    # Work files (globs under .v1.partial/) that --resume can use: a failed or interrupted build keeps its work
    # folder only when one exists (core/writer.py).
    resumable_files: ClassVar[tuple[str, ...]] = RESUMABLE_FILES

    def __init__(self, config: ConfigT) -> None:
        if not isinstance(config, self.config_class):
            raise MtprobesError(f"{self.name} needs a {self.config_class.__name__}, got {type(config).__name__}")
        self.config: ConfigT = config

    @property
    def family(self) -> str:
        return self.name.rpartition(".")[0]

    @abc.abstractmethod
    def features(self) -> datasets.Features:
        """The record schema; every record is checked against it before writing."""

    @abc.abstractmethod
    def prepare(self, ctx: BuildContext) -> Any:
        """Read and hash the inputs, run the whole-input passes; return the plan (frozen, picklable data)."""

    @abc.abstractmethod
    def units(self, plan: Any) -> Sequence[Unit]:
        """The units of work of a plan, in a deterministic order with unique keys."""

    @abc.abstractmethod
    def process(self, unit: Unit, plan: Any, ctx: BuildContext) -> list[Row]:
        """Turn one unit into rows, counting what was read, kept and dropped (runs on any worker); ``plan`` is
        what ``shared_plan`` returned."""

    def shared_plan(self, plan: Any) -> Any:
        """The part of the plan every worker gets (once). The default is the whole plan; a builder whose units
        carry their own slice of the corpus returns the small rest, so a worker's memory stays flat in corpus
        size."""
        return plan

    # --- optional hooks ------------------------------------------------------------------------------
    def finalize(self, rows: StoredRows, plan: Any, ctx: BuildContext) -> StoredRows:
        """Whole-set steps after all units (balanced sampling: ``rows.select(positions)``); passes over the rows,
        never a copy of them all."""
        return rows

    def write_extras(self, rows: RowSet, plan: Any, out_dir: Path, ctx: BuildContext) -> list[str]:
        """Anchor-compatible files beside the dataset, written in passes over the rows; returns their relative
        paths."""
        return []

    def invariants(self, rows: RowSet) -> list[str]:
        """Builder-specific checks run by `mtprobes validate` (a list of problems; empty when fine)."""
        return []

    def extras_problems(self, folder: Path, extras: list[str], rows: RowSet) -> list[str]:
        """Checks of the extras (paths relative to ``folder``) against the records, run by `mtprobes validate`:
        they re-derive what the files must hold, so an edited file is caught even with its hash updated."""
        return []

    def card_section(self, info: dict[str, Any]) -> str:
        """Builder-specific Markdown for the dataset card (statistics, caveats), rendered from info.json."""
        return ""

    def input_citation(self) -> str:
        """Citation of the input data, written to the card."""
        return ""

    def card_languages(self) -> tuple[str, ...]:
        """Languages in the card's YAML header; builders whose languages come from the config override this."""
        return self.languages

    def signature_fields(self, ctx: BuildContext) -> dict[str, str]:
        """Extra fields for the reproducibility signature (models, tools)."""
        return dict(ctx.tools)

    # --- the public flow -----------------------------------------------------------------------------
    def build(
        self,
        out_root: str | Path,
        *,
        resume: bool = False,
        overwrite: bool = False,
        quiet: bool = False,
    ) -> Path:
        plan = OutputPlan.for_build(Path(out_root), self.family, self.output_name(), self.dataset_version)
        with OutputLock(plan.final_dir), reported_os_errors(plan.final_dir):
            plan.claim(resume=resume, overwrite=overwrite)
            try:
                return self._build_claimed(plan, resume=resume, quiet=quiet)
            except MtprobesError:  # bad input or config: nothing worth resuming unless checkpoints were written
                plan.discard_unless_resumable(self.resumable_files)
                raise
            except KeyboardInterrupt as interrupt:  # Ctrl-C: still a KeyboardInterrupt, noting what was kept
                plan.discard_unless_resumable(self.resumable_files)
                interrupt.add_note(_interrupted_message(plan))
                raise

    def output_name(self) -> str:
        """The <config> part of the output path: ``name``, or one made of the identifying keys when default."""
        from builders.core.naming import output_name

        return output_name(self.config, self.identity_keys)

    def _build_claimed(self, plan: OutputPlan, *, resume: bool, quiet: bool) -> Path:
        executor = make_executor(self.config.executor, self.config.workers, self.config.ray_address)
        ctx = BuildContext(config=self.config, work_dir=plan.work_dir, quiet=quiet, executor=executor)
        with counting_normalised() as normalised:
            build_plan = self.prepare(ctx)
        if normalised:
            ctx.notes["normalised_line_breaks"] = dict(sorted(normalised.items()))
        units = self.units(build_plan)  # not copied: a family may make its units as they are taken (from disk)
        checkpoint = Checkpoint(plan.work_dir / "checkpoint", self.name, self.config.to_dict(), unit_inputs(ctx))
        rows = self._run_units(units, build_plan, ctx, executor, checkpoint, resume)
        rows = self.finalize(rows, build_plan, ctx)
        self.check_rows(rows)
        warn_if_degenerate(ctx, rows, self.name)
        info = self.make_info(rows, ctx)
        write_dataset(self, rows, info, plan, ctx, build_plan)
        return plan.final_dir

    def _run_units(self, units: Sequence[Unit], build_plan: Any, ctx: BuildContext, executor: Executor,
                   checkpoint: Checkpoint, resume: bool) -> StoredRows:
        """Rows of every unit in unit order, as a view of the checkpoint chunks: finished chunks are loaded (their
        counts merged, their rows left on disk), the other units run on the executor and are saved in chunks."""
        keys = [u.key for u in units]
        if len(set(keys)) != len(keys):
            raise MtprobesError(f"{self.name}: unit keys are not unique")
        done = checkpoint.load(keys) if resume else checkpoint.reset()
        ctx.dropped_spill.unlink(missing_ok=True)  # an interrupted build's: its chunks' drops are merged again
        units_done = 0
        for chunk in done:
            units_done += len(chunk.unit_keys)
            ctx.counts.merge(chunk.counts)
            ctx.spill_dropped()
        todo = units[units_done:]
        results = executor.map(run_unit, todo, (self, self.shared_plan(build_plan), ctx.work_dir))
        batch: list[UnitResult] = []
        for result in ctx.track(results, self.name, total=len(todo)):
            batch.append(result)
            if len(batch) >= self.config.checkpoint_every:
                self._save_chunk(checkpoint, batch, ctx)
                batch = []
        if batch:
            self._save_chunk(checkpoint, batch, ctx)
        return checkpoint.rows()

    @staticmethod
    def _save_chunk(checkpoint: Checkpoint, batch: list[UnitResult], ctx: BuildContext) -> None:
        rows = [row for result in batch for row in result.rows]
        counts = Counts()
        for result in batch:
            counts.merge(result.counts)
        checkpoint.save([result.key for result in batch], rows, counts)
        ctx.counts.merge(counts)
        ctx.spill_dropped()

    def check_rows(self, rows: Iterable[Row]) -> None:
        """Schema of every record and unique ids per split, in one pass (the ids seen kept as 8-byte hashes)."""
        features = self.features()
        problems: list[str] = []
        seen: set[bytes] = set()
        for row in rows:
            record_id = row.record.get("id")
            problems += [f"record {record_id!r}: {p}" for p in check_record(row.record, features)]
            if record_id is None:
                continue
            key = id_hash(row.subset, row.split, record_id)
            if key in seen:
                problems.append(f"duplicate record id {record_id!r} in {row.subset}/{row.split}")
            seen.add(key)
            if len(problems) > 20:
                break
        if problems:
            raise ValidationFailed(self.name, problems)

    def make_info(self, rows: Iterable[Row], ctx: BuildContext) -> dict[str, Any]:
        records: dict[str, dict[str, int]] = {}
        for row in rows:
            per_subset = records.setdefault(row.subset, {})
            per_subset[row.split] = per_subset.get(row.split, 0) + 1
        info: dict[str, Any] = {
            "builder": self.name,
            "dataset_version": self.dataset_version,
            "package_version": __version__,
            "python": platform.python_version(),
            "config": self.config.to_dict(),
            "seed": self.config.seed,
            "inputs": dict(sorted(ctx.inputs.items())),
            "resources": dict(sorted(ctx.resources.items())),
            "tools": dict(sorted(ctx.tools.items())),
            "counts": ctx.counts.to_dict(),
            "records": records,
            "notes": dict(ctx.notes),  # no wall time: the same config gives the same bytes, every file included
        }
        info["signature"] = make_signature(self, ctx)
        return info


def _interrupted_message(plan: OutputPlan) -> str:
    if plan.work_dir.is_dir():
        return (f"{plan.final_dir}: interrupted; the finished units are kept in {plan.work_dir.name}/: run the same "
                "command with --resume to go on from them")
    return f"{plan.final_dir}: interrupted before the first checkpoint; nothing was kept"


def id_hash(subset: str, split: str, record_id: Any) -> bytes:
    """8 bytes naming a record id within its split (a collision, 1 in 2**64 per pair, would report a false
    duplicate: the build fails loudly, it never writes a duplicate)."""
    import hashlib

    return hashlib.blake2b(repr((subset, split, record_id)).encode(), digest_size=8).digest()


def unit_inputs(ctx: BuildContext) -> dict[str, str]:
    """What the units' rows depend on besides the config, named: input files, resources (priors, lexicons) and
    what prepare() derived (alignment links, the resolved pipeline). A checkpoint pins them, so --resume
    refuses to mix rows computed from two of them."""
    return {**{f"input:{path}": digest for path, digest in ctx.inputs.items()},
            **{f"resource:{name}": digest for name, digest in ctx.resources.items()},
            **ctx.unit_inputs}


def make_signature(builder: Builder[Any], ctx: BuildContext) -> str:
    """A sacrebleu-style one-line identity of the build: same signature, same bytes."""
    import hashlib
    import json

    config_hash = hashlib.sha256(json.dumps(builder.config.to_dict(), sort_keys=True).encode()).hexdigest()[:10]
    inputs_hash = hashlib.sha256(json.dumps(sorted(ctx.inputs.values())).encode()).hexdigest()[:10]
    resources_hash = hashlib.sha256(json.dumps(sorted(ctx.resources.items())).encode()).hexdigest()[:10]
    parts = [
        f"mtprobes:{__version__}",
        f"builder:{builder.name}",
        f"data:{builder.dataset_version}",
        f"config:{builder.config.name}@{config_hash}",
        f"seed:{builder.config.seed}",
        f"inputs:{inputs_hash}",
        f"resources:{resources_hash}",
    ]
    parts += [f"{k}:{v}" for k, v in sorted(builder.signature_fields(ctx).items())]
    return "|".join(parts)
