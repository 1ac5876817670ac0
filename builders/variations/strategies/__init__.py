"""The four variation types, each a registered strategy (type name -> factory)."""

from __future__ import annotations

from collections.abc import Callable

from builders.variations.strategies.base import Strategy
from builders.variations.strategies.del_ import DeleteAdverb
from builders.variations.strategies.ins import InsertWord
from builders.variations.strategies.subgen import SubstituteGender
from builders.variations.strategies.subnum import SubstituteNumber

STRATEGIES: dict[str, Callable[[], Strategy]] = {
    "DEL": DeleteAdverb,
    "INS": InsertWord,
    "SUBNUM": SubstituteNumber,
    "SUBGEN": SubstituteGender,
}

# File-name part of each type in the authors' plain-text layout (<prefix>.<suffix>.<lang>).
PLAIN_SUFFIX: dict[str, str] = {"DEL": "adv", "INS": "ins", "SUBNUM": "num", "SUBGEN": "prn"}
