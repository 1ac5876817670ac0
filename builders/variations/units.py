"""The units of variations.v1: ``lines_per_unit`` input lines each, carried by the unit.

A unit's payload is its own lines (parsed and aligned), read from the work folder when the executor takes the
unit (line_store.py), so the driver holds the units in flight and a worker a unit's lines and the shared strategy
resources (``plan.VariationsPlan.resources``), never the whole corpus (issue 26).
"""

from __future__ import annotations

from dataclasses import dataclass

from builders.core.builder import Unit
from builders.core.lazy import LazySequence
from builders.variations.line_store import Line, LineBatches


@dataclass(frozen=True)
class LineBatch:
    """Consecutive input lines in order: a SentencePair, or (source id, line, reason) for a line left unparsed."""

    pairs: tuple[Line, ...]


def make_units(store: LineBatches) -> LazySequence[Unit]:
    def unit(batch: int) -> Unit:
        return Unit(key=f"lines-{batch * store.batch_lines:07d}", payload=LineBatch(store.read(batch)))

    return LazySequence(store.batches, unit)
