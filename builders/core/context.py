"""Per-build state handed to builder hooks: config, counters, seeded RNGs, progress, provenance."""

from __future__ import annotations

import hashlib
import json
import logging
import zlib
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from builders.core.config import BuildConfig
from builders.core.errors import InputError
from builders.core.paths import NOT_REGULAR, resolve_input
from builders.core.progress import track

T = TypeVar("T")
S = TypeVar("S")
R = TypeVar("R")
log = logging.getLogger("mtprobes")


@dataclass
class Row:
    """One output record, with the split and subset (Hub config) it belongs to."""

    split: str
    record: dict[str, Any]
    subset: str = "default"


def sha256_file(path: str | Path, chunk_size: int = 1 << 20) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while block := handle.read(chunk_size):
            digest.update(block)
    return digest.hexdigest()


def _existing_file(path: str | Path) -> Path:
    path = Path(path)
    if path.is_symlink():
        resolve_input(path)  # a link loop is named as such, not as "file not found"
    if not path.is_file():
        raise InputError(path, "is a directory, expected a file" if path.is_dir() else
                         NOT_REGULAR if path.exists() else "file not found")
    return path


@dataclass
class Counts:
    """Candidates read, kept, and dropped per named reason; read == kept + sum(dropped) must hold.

    ``dropped_candidates`` has one entry per dropped candidate (its reason and what the family knows of it:
    where it was, confidence ...), in the order they were dropped; it travels with the counts of a unit back
    to the driver, so the build writes it (``dropped.jsonl``) in unit order whatever the executor."""

    read: int = 0
    kept: int = 0
    dropped: Counter[str] = field(default_factory=Counter)
    dropped_candidates: list[dict[str, Any]] = field(default_factory=list)

    def merge(self, other: Counts) -> None:
        self.read += other.read
        self.kept += other.kept
        self.dropped.update(other.dropped)
        self.dropped_candidates.extend(other.dropped_candidates)

    def record_drop(self, reason: str, n: int, details: dict[str, Any]) -> None:
        """Count ``n`` candidates under ``reason``, one ``dropped.jsonl`` entry each (so the two always agree)."""
        self.dropped[reason] += n
        self.dropped_candidates.extend({"reason": reason, **details} for _ in range(n))

    def to_dict(self) -> dict[str, Any]:
        return {"read": self.read, "kept": self.kept, "dropped": dict(sorted(self.dropped.items()))}


@dataclass
class BuildContext:
    config: BuildConfig
    work_dir: Path
    quiet: bool = False
    counts: Counts = field(default_factory=Counts)
    inputs: dict[str, str] = field(default_factory=dict)
    resources: dict[str, str] = field(default_factory=dict)
    tools: dict[str, str] = field(default_factory=dict)
    notes: dict[str, Any] = field(default_factory=dict)
    # what prepare() derived that the units depend on (name -> sha256 or version: alignment links, the resolved
    # pipeline); pinned by the checkpoint only, not written to info.json
    unit_inputs: dict[str, str] = field(default_factory=dict)
    executor: Any = None  # core.executors.Executor of the build (None: in this process); prepare() may map on it

    # --- dropped candidates on disk ---------------------------------------------------------------------
    @property
    def dropped_spill(self) -> Path:
        """Where the build keeps the dropped candidates it has counted so far (dropped.jsonl's lines)."""
        return self.work_dir / "dropped.partial.jsonl"

    def spill_dropped(self) -> None:
        """Move the dropped candidates held in memory to the end of ``dropped_spill`` (the build calls it after
        each checkpoint chunk): each one carries its segments' text, so the driver does not hold them for the
        whole corpus (issue 26). Their order is kept, so dropped.jsonl's bytes do not change."""
        candidates = self.counts.dropped_candidates
        if candidates:
            self.dropped_spill.parent.mkdir(parents=True, exist_ok=True)
            with self.dropped_spill.open("a", encoding="utf-8", newline="\n") as handle:
                handle.writelines(json.dumps(record, ensure_ascii=False) + "\n" for record in candidates)
            candidates.clear()

    # --- counting -------------------------------------------------------------------------------------
    def read(self, n: int = 1) -> None:
        self.counts.read += n

    def keep(self, n: int = 1) -> None:
        self.counts.kept += n

    def drop(self, reason: str, n: int = 1, **details: Any) -> None:
        """A candidate that was read and not kept, under a named reason (counted in info.json); ``details`` say
        which candidate and why (place, text, confidence: JSON values), written to ``dropped.jsonl``."""
        self.counts.record_drop(reason, n, details)

    def unkeep(self, reason: str, n: int = 1, **details: Any) -> None:
        """Move kept candidates to a drop reason (e.g. over a sampling quota)."""
        self.counts.kept -= n
        self.counts.record_drop(reason, n, details)

    # --- provenance -----------------------------------------------------------------------------------
    def add_input(self, path: str | Path) -> Path:
        """Record an input file's sha256 (raises naming the file when it is missing)."""
        path = _existing_file(path)
        self.inputs[str(path)] = sha256_file(path)
        return path

    def add_resource(self, name: str, path: str | Path) -> Path:
        path = _existing_file(path)
        self.resources[name] = sha256_file(path)
        return path

    def add_tool(self, name: str, version: str) -> None:
        self.tools[name] = version

    # --- randomness and progress -----------------------------------------------------------------------
    def rng(self, *keys: str | int) -> np.random.Generator:
        """A generator seeded by the config seed and the given keys: independent of call order."""
        entropy = [self.config.seed] + [zlib.crc32(str(k).encode()) for k in keys]
        return np.random.default_rng(np.random.SeedSequence(entropy))

    def track(self, items: Iterable[T], description: str, total: int | None = None) -> Iterator[T]:
        return track(items, description, total=total, quiet=self.quiet)

    def map(self, task: Callable[[T, S], R], items: Sequence[T], shared: S) -> list[R]:
        """``task(item, shared)`` for every item on the build's executor, results in item order (sharded
        whole-input passes of prepare(); ``task`` must be a module-level function)."""
        return list(self.imap(task, items, shared))

    def imap(self, task: Callable[[T, S], R], items: Sequence[T], shared: S) -> Iterator[R]:
        """Like ``map``, one result at a time as it comes (in item order), for passes whose results are written
        out rather than kept."""
        from builders.core.executors import LocalExecutor

        executor = self.executor or LocalExecutor()
        return executor.map(task, items, shared)
