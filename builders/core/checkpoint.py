"""Checkpoints of processed units so that ``--resume`` continues where a killed build stopped.

Each chunk (rows + counts of a batch of units) is one atomically written pickle, so a kill leaves either a
whole chunk or none. A header pins builder, config and the hash of every input the units depend on (files,
resources, derived inputs such as alignment links): resuming with other inputs is refused, naming them.

A chunk file starts with an HMAC-SHA256 of its pickle under a random key that the build wrote beside the
header (``key``), so only what this build wrote is ever unpickled: a truncated, damaged or foreign chunk (a file
copied from elsewhere, an older format) fails the check and its units, and all after it, are computed again.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
import pickle
import secrets
import shutil
import signal
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from builders.core.atomic import write_bytes, write_text
from builders.core.context import Counts, Row
from builders.core.errors import MtprobesError
from builders.core.row_store import StoredChunk, StoredRows

log = logging.getLogger("mtprobes")

KEY_FILE = "key"
DIGEST_BYTES = hashlib.sha256().digest_size


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
        self._key = b""
        self._stored: list[StoredChunk] = []  # the chunks of this build so far: the rows, on disk

    def rows(self) -> StoredRows:
        """Every row of the chunks loaded and saved so far, in unit order, read from disk when iterated."""
        return StoredRows(self._key, tuple(self._stored))

    def reset(self) -> Iterator[Chunk]:
        self._start_afresh()
        return iter(())

    def _start_afresh(self) -> None:
        if self.directory.exists():
            shutil.rmtree(self.directory)
        self.directory.mkdir(parents=True)
        # The key first: a kill between the two writes leaves no header, so --resume starts afresh.
        self._key = secrets.token_bytes(32)
        write_bytes(self.directory / KEY_FILE, self._key)
        write_text(self.directory / "header.json", self.header)
        self._next = 0
        self._stored = []

    def load(self, unit_keys: list[str]) -> Iterator[Chunk]:
        """The finished chunks, one at a time (the caller takes their counts; their rows stay on disk and are in
        ``rows()``); damaged ones and all after them are deleted. Must be iterated to the end."""
        header = self.directory / "header.json"
        if not header.exists():
            self._start_afresh()
            return
        if header.read_text(encoding="utf-8") != self.header:
            raise MtprobesError(
                f"{self.directory}: cannot resume, {_differences(header.read_text(encoding='utf-8'), self.header)} "
                "from the interrupted build (use --overwrite to start again)"
            )
        key_path = self.directory / KEY_FILE
        if not key_path.is_file():  # a checkpoint of an older release: none of its chunks can be verified
            log.warning("%s: checkpoint has no key to verify its chunks; starting the units again", self.directory)
            self._start_afresh()
            return
        self._key = key_path.read_bytes()
        self._stored = []
        position = 0
        paths = sorted(self.directory.glob("chunk-*.pkl"))
        for number, path in enumerate(paths):
            chunk = _read_chunk(path, self._key)
            if chunk is None:
                log.warning("%s: checkpoint chunk is damaged or was not written by this build; computing its "
                            "units and the %d after it again", path, len(paths) - number - 1)
                for stale in paths[number:]:
                    stale.unlink()
                break
            if chunk.unit_keys != unit_keys[position : position + len(chunk.unit_keys)]:
                raise MtprobesError(f"{path}: checkpoint does not match the units of this build; use --overwrite")
            position += len(chunk.unit_keys)
            self._stored.append(StoredChunk(path, len(chunk.rows)))
            self._next = len(self._stored)
            yield chunk

    def save(self, unit_keys: list[str], rows: list[Row], counts: Counts) -> None:
        """Write a chunk; its rows are read back from disk when ``rows()`` is iterated, not kept here."""
        payload = pickle.dumps(Chunk(unit_keys=unit_keys, rows=rows, counts=counts), protocol=5)
        digest = hmac.new(self._key, payload, hashlib.sha256).digest()
        path = self.directory / f"chunk-{self._next:06d}.pkl"
        write_bytes(path, digest + payload)
        self._stored.append(StoredChunk(path, len(rows)))
        self._next += 1
        _maybe_die_for_test(self._next)


def read_chunk_rows(path: Path, key: bytes) -> list[Row]:
    """The rows of a chunk this build wrote (and verified when it was saved or loaded)."""
    chunk = _read_chunk(path, key)
    if chunk is None:
        raise MtprobesError(f"{path}: checkpoint chunk changed during the build; run it again with --overwrite")
    return chunk.rows


def _read_chunk(path: Path, key: bytes) -> Chunk | None:
    """The chunk when its digest proves this build wrote it; None otherwise (never unpickled then)."""
    data = memoryview(path.read_bytes())  # slices of a memoryview are not copies
    digest, payload = data[:DIGEST_BYTES], data[DIGEST_BYTES:]
    if not hmac.compare_digest(digest, hmac.new(key, payload, hashlib.sha256).digest()):
        return None
    try:
        chunk = pickle.loads(payload)
    except Exception:  # a chunk of this build whose classes changed since (an upgrade between kill and resume)
        return None
    return chunk if isinstance(chunk, Chunk) else None


def _differences(saved: str, current: str) -> str:
    """What differs between two headers, for the error: the builder, the config, and the inputs by name."""
    try:
        old, new = json.loads(saved), json.loads(current)
        before, after = dict(old["inputs"]), dict(new["inputs"])
    except (ValueError, KeyError, TypeError):
        return "the config or inputs differ"  # a header of an older version
    names = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
    parts = [part for part, differs in (("the builder", old.get("builder") != new.get("builder")),
                                        ("the config", old.get("config") != new.get("config"))) if differs]
    if names:
        parts.append(f"the inputs ({', '.join(names)})")
    if not parts:
        return "the config or inputs differ"
    return " and ".join(parts) + (" differs" if parts in (["the builder"], ["the config"]) else " differ")


def _maybe_die_for_test(chunks_written: int) -> None:
    """Fault injection for the resume tests: SIGKILL this process after N chunks (MTPROBES_TEST_KILL_AFTER_CHUNKS)."""
    kill_after = os.environ.get("MTPROBES_TEST_KILL_AFTER_CHUNKS")
    if kill_after is not None and chunks_written >= int(kill_after):
        os.kill(os.getpid(), signal.SIGKILL)
