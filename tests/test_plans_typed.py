"""Issue 12: the data that flows from prepare() to process() is typed dataclasses, not ``Any`` or loose dicts."""

from __future__ import annotations

import dataclasses
import importlib

import pytest

PLAN_TYPES = [
    "builders.commute_ext.plan:CommutePlan", "builders.commute_ext.units:SourcePayload",
    "builders.commute_ext.units:TranslationPayload", "builders.commute_ext.units:OriginalImage",
    "builders.pronouns.plan:PronounsPlan", "builders.pronouns.units:DocPayload",
    "builders.pronouns.units:SegmentPayload", "builders.pronouns.units:DocRange",
    "builders.variations.plan:VariationsPlan", "builders.variations.units:LineRange",
    "builders.shuffles.plan:ShufflePlan",
]


@pytest.mark.parametrize("name", PLAN_TYPES)
def test_plan_and_payload_fields_are_typed(name: str) -> None:
    module, _, attribute = name.partition(":")
    cls = getattr(importlib.import_module(module), attribute)
    untyped = [f"{f.name}: {f.type}" for f in dataclasses.fields(cls) if "Any" in str(f.type)]
    assert untyped == []
