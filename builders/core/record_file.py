"""Records of a build in its work folder, pickled one after another, read back one at a time (issue 26).

prepare() appends each record (a unit's payload, typically) as soon as it is made, so the driver does not hold
them all; what it keeps is one byte offset per record (8 bytes). A record is read back when it is asked for,
e.g. by a ``core.lazy.LazySequence`` of units when the executor takes a unit. The file is written and read by the
same build (a resumed build runs prepare() again and rewrites it), so pickle is safe here.
"""

from __future__ import annotations

import io
import pickle
from array import array
from pathlib import Path
from typing import Any, BinaryIO, Generic, TypeVar

T = TypeVar("T")


class RecordFile(Generic[T]):
    """Records ``0 .. len - 1`` in the order they were appended; picklable (offsets and path, no records)."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.offsets = array("q", [0])  # where each record starts; the last: where the file ends
        self._handle: BinaryIO | None = path.open("wb")

    def append(self, record: T) -> None:
        assert self._handle is not None, "appended after close()"
        data = pickle.dumps(record, protocol=pickle.HIGHEST_PROTOCOL)
        self._handle.write(data)
        self.offsets.append(self.offsets[-1] + len(data))

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None

    def __len__(self) -> int:
        return len(self.offsets) - 1

    def read(self, first: int, stop: int | None = None) -> list[T]:
        """Records ``first`` to ``stop - 1`` (``stop`` None: record ``first`` alone), in one read."""
        stop = first + 1 if stop is None else stop
        if not 0 <= first <= stop <= len(self):
            raise IndexError(f"{self.path}: records {first}..{stop} of {len(self)}")
        assert self._handle is None, "read before close()"
        with self.path.open("rb") as handle:
            handle.seek(self.offsets[first])
            data = io.BytesIO(handle.read(self.offsets[stop] - self.offsets[first]))
        return [pickle.load(data) for _ in range(first, stop)]

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "_handle": None}
