"""A sequence whose items are made when asked for (read from disk, typically), so that a build can hand an
executor millions of units or shards while holding a few at a time (issue 26: the driver's memory)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar, overload

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
