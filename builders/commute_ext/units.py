"""The units of commute_ext.v1: one per ambiguous source, keyed by its record id; the payload is its position."""

from __future__ import annotations

from typing import TYPE_CHECKING

from builders.core.builder import Unit

if TYPE_CHECKING:
    from .plan import CommutePlan


def make_units(plan: CommutePlan) -> list[Unit]:
    return [Unit(key=source["id"], payload=position) for position, source in enumerate(plan.sources)]
