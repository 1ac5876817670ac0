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

from pathlib import Path
from typing import Any

from builders.core.record_file import RecordFile
from builders.variations.strategies.base import SentencePair

# a parsed line, or (source id, line, reason) for a line left unparsed: a side is empty, or a side is too long
Line = SentencePair | tuple[str, int, str]


class LineBatches:
    """Batches of ``batch_lines`` consecutive lines (the last one shorter), in input order, one pickled tuple
    per batch (``core.record_file``)."""

    def __init__(self, path: Path, batch_lines: int) -> None:
        self.records: RecordFile[tuple[Line, ...]] = RecordFile(path)
        self.batch_lines = batch_lines
        self.lines = 0
        self.sentences = 0  # lines with text on both sides
        self._pending: list[Line] = []

    @property
    def path(self) -> Path:
        return self.records.path

    def append(self, line: Line) -> None:
        self._pending.append(line)
        self.lines += 1
        self.sentences += isinstance(line, SentencePair)
        if len(self._pending) == self.batch_lines:
            self._flush()

    def _flush(self) -> None:
        self.records.append(tuple(self._pending))
        self._pending = []

    def close(self) -> None:
        if self._pending:
            self._flush()
        self.records.close()

    @property
    def batches(self) -> int:
        return len(self.records)

    def read(self, batch: int) -> tuple[Line, ...]:
        return self.records.read(batch)[0]

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "_pending": []}
