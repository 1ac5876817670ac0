"""The units of variations.v1: ``lines_per_unit`` input lines each, carried by the unit.

A unit's payload is its own lines (parsed and aligned), so a worker holds a unit's lines and the shared strategy
resources (``plan.VariationsPlan.resources``), never the whole corpus (issue 26).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from builders.core.builder import Unit
from builders.variations.strategies.base import SentencePair


@dataclass(frozen=True)
class LineBatch:
    """Consecutive input lines in order: a SentencePair, or (source id, line) for a line with an empty side."""

    pairs: tuple[SentencePair | tuple[str, int], ...]


def make_units(pairs: Sequence[SentencePair | tuple[str, int]], lines_per_unit: int) -> list[Unit]:
    return [Unit(key=f"lines-{first:07d}", payload=LineBatch(tuple(pairs[first : first + lines_per_unit])))
            for first in range(0, len(pairs), lines_per_unit)]
