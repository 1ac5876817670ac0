"""The corpus of a pronouns.v1 build in its work folder (issue 26: the driver's memory).

prepare() reads the input one document at a time and writes each document's screened segments here; the
aligner lines and the link lines follow, one line per segment. The driver keeps byte offsets per document only
(a few bytes per document, never per segment); tokenising tasks, alignment shards and units get their slice read
back when the executor takes them (``core.lazy.LazySequence``), so what the driver holds does not grow with the
corpus, except the aligner of an unsharded alignment (set ``align_shard_docs``; docs/cluster.md). Workers read
nothing from here: the slices travel with their tasks, as before.

The files are written and read by the same build (a resumed build runs prepare() again and rewrites them).
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, BinaryIO

from builders.core.record_file import RecordFile

Segment = tuple[str, str, str]  # English, target, "" or the reason it is not analysed (plan.screen)


class DocumentFile:
    """One pickled ``(document id, [segments])`` record per document (``core.record_file``), in corpus order."""

    def __init__(self, path: Path) -> None:
        self.records: RecordFile[tuple[str, list[Segment]]] = RecordFile(path)
        self.segment_starts = array("q", [0])  # the corpus index of each document's first segment; the last: all

    @property
    def path(self) -> Path:
        return self.records.path

    def append(self, doc_id: str, segments: list[Segment]) -> None:
        self.records.append((doc_id, segments))
        self.segment_starts.append(self.segment_starts[-1] + len(segments))

    def close(self) -> None:
        self.records.close()

    @property
    def documents(self) -> int:
        return len(self.records)

    @property
    def segments(self) -> int:
        return int(self.segment_starts[-1])

    def read(self, first: int, stop: int) -> list[tuple[str, list[Segment]]]:
        """The records of documents ``first`` to ``stop - 1``."""
        return self.records.read(first, stop)


class LineFile:
    """One text line per segment (aligner lines, link lines: never a newline inside), in corpus order, with the
    byte offset of each document's first line."""

    def __init__(self, path: Path, segment_starts: Sequence[int]) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._starts = segment_starts
        self.offsets = array("q")
        self._lines = 0
        self._bytes = 0
        self._handle: BinaryIO | None = path.open("wb")

    def write(self, lines: Iterable[str]) -> None:
        assert self._handle is not None, "written after close()"
        for line in lines:
            self._mark_documents()
            data = line.encode() + b"\n"
            self._handle.write(data)
            self._bytes += len(data)
            self._lines += 1

    def _mark_documents(self) -> None:
        """Record the current offset for every document that starts at the next line (empty ones included)."""
        while len(self.offsets) < len(self._starts) and self._starts[len(self.offsets)] == self._lines:
            self.offsets.append(self._bytes)

    def close(self) -> None:
        if self._handle is not None:
            self._mark_documents()
            self._handle.close()
            self._handle = None
            if len(self.offsets) != len(self._starts):
                raise RuntimeError(f"{self.path}: {self._lines} lines for {self._starts[-1]} segments")

    def read(self, first: int, stop: int) -> list[str]:
        """The lines of documents ``first`` to ``stop - 1``."""
        with self.path.open("rb") as handle:
            handle.seek(self.offsets[first])
            data = handle.read(self.offsets[stop] - self.offsets[first])
        return data.decode().split("\n")[:-1]

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "_handle": None}
