"""The typed units of pronouns.v1: aligned documents in the plan, and the ranges of them each unit processes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from builders.core.builder import Unit


@dataclass(frozen=True)
class SegmentPayload:
    src: str
    tgt: str
    forward: str  # eflomal's link lines ("i-j", source-target), symmetrised by the unit that parses the segment
    reverse: str
    skipped: str  # "" or the reason the segment is not analysed


@dataclass(frozen=True)
class DocPayload:
    index: int
    doc_id: str
    segments: tuple[SegmentPayload, ...]


@dataclass(frozen=True)
class DocRange:
    """Documents ``first`` (inclusive) to ``stop`` (exclusive) of the plan: the plan travels once per worker,
    a unit only says which of its documents to parse."""

    first: int
    stop: int


def make_units(documents: Sequence[DocPayload], docs_per_unit: int) -> list[Unit]:
    return [
        Unit(f"docs-{first:07d}", DocRange(first, min(first + docs_per_unit, len(documents))))
        for first in range(0, len(documents), docs_per_unit)
    ]
