"""The units of commute_ext.v1 and the typed data the plan holds for them.

One unit per ambiguous source, keyed by its record id; its payload is the source's :class:`SourcePayload`
(both translations with their retrieved candidates). A unit carries its own source, and workers get nothing else
of the plan, so a worker's memory does not grow with the number of sources (issue 26). The payloads are in the
work folder (``plan.CommutePlan.sources``): a unit's is read back when the executor takes the unit, so the
driver holds the units in flight, not every source.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from builders.core.builder import Unit
from builders.core.lazy import LazySequence

from .select import Candidate

if TYPE_CHECKING:
    from .plan import CommutePlan


@dataclass(frozen=True)
class OriginalImage:
    name: str  # the img.order entry
    sha256: str
    similarity: float  # cosine(query caption, original image), rounded to 1e-6


@dataclass(frozen=True)
class TranslationPayload:
    line: int
    text: str
    contrast: str  # the incorrect translation on the same CoMMuTE line
    caption: str  # the unambiguous query caption
    original: OriginalImage
    candidates: tuple[Candidate, ...]  # top-k in rank order
    pairwise: tuple[tuple[float, ...], ...]  # cosine between candidates i and j
    to_original: tuple[float, ...]  # cosine between each candidate and the original image


@dataclass(frozen=True)
class SourcePayload:
    id: str
    source: str
    translations: tuple[TranslationPayload, TranslationPayload]
    choice: dict[str, list[str]] | None  # a reviewer's uids per translation ("0", "1"), None: pre-select
    selection_file: str


def make_units(plan: CommutePlan) -> LazySequence[Unit]:
    def unit(index: int) -> Unit:
        (source,) = plan.sources.read(index)
        return Unit(key=source.id, payload=source)

    return LazySequence(len(plan.sources), unit)
