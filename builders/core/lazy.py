"""A sequence whose items are made when asked for (read from disk, typically), so that a build can hand an
executor millions of units or shards while holding a few at a time, and lines spooled to a file and read back in
order (issue 26: the driver's memory)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import BinaryIO, TypeVar, overload

T = TypeVar("T")


class LazySequence(Sequence[T]):
    """Items ``make(0) .. make(length - 1)``; a slice is another lazy sequence over the same ``make``. Nothing is
    kept: asking twice makes the item twice."""

    def __init__(self, length: int, make: Callable[[int], T], indices: range | None = None) -> None:
        self._make = make
        self._indices = range(length) if indices is None else indices

    def __len__(self) -> int:
        return len(self._indices)

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> LazySequence[T]: ...

    def __getitem__(self, index: int | slice) -> T | LazySequence[T]:
        if isinstance(index, slice):
            return LazySequence(0, self._make, self._indices[index])
        return self._make(self._indices[index])


class SpooledLines:
    """Text lines appended to a file, then counted and read back in order as often as needed (a word aligner's
    input: it reads the corpus a few times but never needs it all in memory). Only ``\n`` ends a line, so any
    other character (``\r``, ``\u2028``) comes back as it went in; a line may not contain ``\n``."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._count = 0
        self._handle: BinaryIO | None = path.open("wb")

    def append(self, line: str) -> None:
        assert self._handle is not None, "appended after close()"
        if "\n" in line:
            raise ValueError(f"{self.path}: a spooled line may not contain a newline: {line[:60]!r}")
        self._handle.write(line.encode() + b"\n")
        self._count += 1

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator[str]:
        assert self._handle is None, "read before close()"
        with self.path.open("rb") as handle:
            for raw in handle:
                yield raw[:-1].decode()
