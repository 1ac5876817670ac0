"""The units of variations.v1: ranges of ``lines_per_unit`` input lines of the plan."""

from __future__ import annotations

from dataclasses import dataclass

from builders.core.builder import Unit


@dataclass(frozen=True)
class LineRange:
    """Input lines ``first`` (inclusive) to ``stop`` (exclusive), as positions in the plan's pairs."""

    first: int
    stop: int


def make_units(lines: int, lines_per_unit: int) -> list[Unit]:
    return [Unit(key=f"lines-{first:07d}", payload=LineRange(first, min(first + lines_per_unit, lines)))
            for first in range(0, lines, lines_per_unit)]
