"""The typed units of pronouns.v1: each unit carries its own aligned documents (segments and link lines).

A unit's payload is its slice of the corpus, so what a worker holds is a few documents at a time and the small
shared part of the plan (``plan.PronounsShared``), never the whole corpus: a worker's memory does not grow with
the corpus (issue 26; the links of 10 M pairs would be gigabytes in every worker).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from builders.core.builder import Unit
from builders.core.lazy import LazySequence


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
class DocBatch:
    """The ``docs_per_unit`` documents one unit parses, in corpus order, with their segments and link lines."""

    documents: tuple[DocPayload, ...]


def make_units(documents: int, docs_per_unit: int, documents_of: Callable[[int, int], tuple[DocPayload, ...]]
               ) -> LazySequence[Unit]:
    """Units of ``docs_per_unit`` documents in corpus order; a unit's documents are read (``documents_of``:
    first, stop) when the executor takes it, so the driver holds the few units in flight, not the corpus."""
    def unit(number: int) -> Unit:
        first = number * docs_per_unit
        return Unit(f"docs-{first:07d}", DocBatch(documents_of(first, min(first + docs_per_unit, documents))))

    return LazySequence(-(-documents // docs_per_unit), unit)
