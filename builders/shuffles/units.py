"""The units of shuffles.v1: one per subset (``congruent``, ``random1..k``); the payload is the shuffle number."""

from __future__ import annotations

from builders.core.builder import Unit

CONGRUENT = "congruent"


def subset_name(shuffle: int) -> str:
    return CONGRUENT if shuffle == 0 else f"random{shuffle}"


def make_units(shuffles: int) -> list[Unit]:
    return [Unit(key=subset_name(i), payload=i) for i in range(shuffles + 1)]
