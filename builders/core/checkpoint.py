"""Checkpoints of processed units so that ``--resume`` continues where a killed build stopped.

Each chunk (rows + counts of a batch of units) is one atomically written pickle, so a kill leaves either a
whole chunk or none. A header pins builder, config and the hash of every input the units depend on (files,
resources, derived inputs such as alignment links): resuming with other inputs is refused, naming them.
"""

from __future__ import annotations

import json
import os
import pickle
import shutil
import signal
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from builders.core.atomic import write_bytes, write_text
from builders.core.context import Counts, Row
from builders.core.errors import MtprobesError


@dataclass
class Chunk:
    unit_keys: list[str]
    rows: list[Row]
    counts: Counts


class Checkpoint:
    def __init__(self, directory: Path, builder: str, config: dict[str, Any], inputs: dict[str, str]) -> None:
        self.directory = directory
        self.header = json.dumps(
            {"builder": builder, "config": config, "inputs": inputs}, sort_keys=True
        )
        self._next = 0

    def reset(self) -> list[Chunk]:
        if self.directory.exists():
            shutil.rmtree(self.directory)
        self.directory.mkdir(parents=True)
        write_text(self.directory / "header.json", self.header)
        self._next = 0
        return []

    def load(self, unit_keys: list[str]) -> list[Chunk]:
        header = self.directory / "header.json"
        if not header.exists():
            return self.reset()
        if header.read_text(encoding="utf-8") != self.header:
            raise MtprobesError(
                f"{self.directory}: cannot resume, {_differences(header.read_text(encoding='utf-8'), self.header)} "
                "differ from the interrupted build (use --overwrite to start again)"
            )
        chunks: list[Chunk] = []
        position = 0
        for path in sorted(self.directory.glob("chunk-*.pkl")):
            with open(path, "rb") as handle:
                chunk: Chunk = pickle.load(handle)
            if chunk.unit_keys != unit_keys[position : position + len(chunk.unit_keys)]:
                raise MtprobesError(f"{path}: checkpoint does not match the units of this build; use --overwrite")
            position += len(chunk.unit_keys)
            chunks.append(chunk)
        self._next = len(chunks)
        return chunks

    def save(self, unit_keys: list[str], rows: list[Row], counts: Counts) -> None:
        chunk = Chunk(unit_keys=unit_keys, rows=rows, counts=counts)
        write_bytes(self.directory / f"chunk-{self._next:06d}.pkl", pickle.dumps(chunk, protocol=5))
        self._next += 1
        _maybe_die_for_test(self._next)


def _differences(saved: str, current: str) -> str:
    """What differs between two headers, for the error: the inputs by name, else 'the config'."""
    try:
        old, new = json.loads(saved), json.loads(current)
        before, after = dict(old["inputs"]), dict(new["inputs"])
    except (ValueError, KeyError, TypeError):
        return "the config or inputs"  # a header of an older version
    names = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
    return f"the inputs ({', '.join(names)})" if names else "the config or inputs"


def _maybe_die_for_test(chunks_written: int) -> None:
    """Fault injection for the resume tests: SIGKILL this process after N chunks (MTPROBES_TEST_KILL_AFTER_CHUNKS)."""
    kill_after = os.environ.get("MTPROBES_TEST_KILL_AFTER_CHUNKS")
    if kill_after is not None and chunks_written >= int(kill_after):
        os.kill(os.getpid(), signal.SIGKILL)
