"""The input lines of a variations.v1 build in its work folder (issue 26: the driver's memory).

prepare() reads the input one line at a time, parses it and appends it here in batches of ``lines_per_unit``
lines, one pickled tuple per batch (a unit's payload); the driver keeps one byte offset per batch, and a unit's
batch is read back when the executor takes it (``core.lazy.LazySequence``). Workers read nothing from here: a
batch travels with its unit, as before. A word aligner (any ``aligner`` but ``unique``) reads its input from the
work folder too (plan.AlignerInput); its links are attached in a second pass that rewrites the batches, one
line's links at a time.

The file is written and read by the same build (a resumed build runs prepare() again and rewrites it).
"""

from __future__ import annotations

import io
import pickle
from array import array
from pathlib import Path
from typing import Any, BinaryIO

from builders.variations.strategies.base import SentencePair

Line = SentencePair | tuple[str, int]  # a parsed line, or (source id, line) for a line with an empty side


class LineBatches:
    """Batches of ``batch_lines`` consecutive lines (the last one shorter), in input order."""

    def __init__(self, path: Path, batch_lines: int) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.batch_lines = batch_lines
        self.offsets = array("q", [0])  # where each batch starts; the last: where the file ends
        self.lines = 0
        self.sentences = 0  # lines with text on both sides
        self._pending: list[Line] = []
        self._handle: BinaryIO | None = path.open("wb")

    def append(self, line: Line) -> None:
        self._pending.append(line)
        self.lines += 1
        self.sentences += isinstance(line, SentencePair)
        if len(self._pending) == self.batch_lines:
            self._flush()

    def _flush(self) -> None:
        assert self._handle is not None, "appended after close()"
        data = pickle.dumps(tuple(self._pending), protocol=pickle.HIGHEST_PROTOCOL)
        self._handle.write(data)
        self.offsets.append(self.offsets[-1] + len(data))
        self._pending = []

    def close(self) -> None:
        if self._handle is not None:
            if self._pending:
                self._flush()
            self._handle.close()
            self._handle = None

    @property
    def batches(self) -> int:
        return len(self.offsets) - 1

    def read(self, batch: int) -> tuple[Line, ...]:
        with self.path.open("rb") as handle:
            handle.seek(self.offsets[batch])
            data = handle.read(self.offsets[batch + 1] - self.offsets[batch])
        lines: tuple[Line, ...] = pickle.load(io.BytesIO(data))
        return lines

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "_handle": None, "_pending": []}
