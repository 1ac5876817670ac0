"""The kept rows of a build, read back from its checkpoint chunks on disk (issue 26).

The driver never holds every row: ``StoredRows`` is a sized, re-iterable view whose iteration reads one chunk
at a time, so finalize, the checks, the info and the writer each make a pass (or a few) over the rows with
one chunk in memory. A family that samples keeps positions (ints) and returns ``select(positions)``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from builders.core.context import Row


class RowSet(Protocol):
    """What the hooks get: rows to iterate (more than once) and count; a list of rows is one too."""

    def __iter__(self) -> Iterator[Row]: ...

    def __len__(self) -> int: ...


@dataclass(frozen=True)
class StoredChunk:
    path: Path
    rows: int


@dataclass(frozen=True)
class StoredRows:
    """Rows of the checkpoint chunks in order, or only those at ``keep`` (positions among all of them)."""

    key: bytes  # the checkpoint's HMAC key: a chunk is only unpickled when this build wrote it
    chunks: tuple[StoredChunk, ...]
    keep: frozenset[int] | None = None

    def __len__(self) -> int:
        return sum(chunk.rows for chunk in self.chunks) if self.keep is None else len(self.keep)

    def __iter__(self) -> Iterator[Row]:
        from builders.core.checkpoint import read_chunk_rows

        start = 0
        for chunk in self.chunks:
            if self.keep is None or any(p in self.keep for p in range(start, start + chunk.rows)):
                for position, row in enumerate(read_chunk_rows(chunk.path, self.key), start):
                    if self.keep is None or position in self.keep:
                        yield row
            start += chunk.rows

    def select(self, positions: Iterable[int]) -> StoredRows:
        """The rows at ``positions`` (0-based, in this view's order), in their order."""
        if self.keep is None:
            return StoredRows(self.key, self.chunks, frozenset(positions))
        underlying = sorted(self.keep)
        return StoredRows(self.key, self.chunks, frozenset(underlying[p] for p in positions))
