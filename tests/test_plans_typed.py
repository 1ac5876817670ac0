"""Issue 12: the data that flows from prepare() to process() is typed dataclasses, not ``Any`` or loose dicts."""

from __future__ import annotations

import dataclasses
import importlib

import pytest

PLAN_TYPES = [
    "builders.commute_ext.plan:CommutePlan", "builders.commute_ext.units:SourcePayload",
    "builders.commute_ext.units:TranslationPayload", "builders.commute_ext.units:OriginalImage",
    "builders.pronouns.plan:PronounsPlan", "builders.pronouns.units:DocPayload",
    "builders.pronouns.units:SegmentPayload", "builders.pronouns.units:DocBatch",
    "builders.pronouns.plan:PronounsShared",
    "builders.variations.plan:VariationsPlan", "builders.variations.units:LineBatch",
    "builders.shuffles.plan:ShufflePlan",
]


@pytest.mark.parametrize("name", PLAN_TYPES)
def test_plan_and_payload_fields_are_typed(name: str) -> None:
    module, _, attribute = name.partition(":")
    cls = getattr(importlib.import_module(module), attribute)
    untyped = [f"{f.name}: {f.type}" for f in dataclasses.fields(cls) if "Any" in str(f.type)]
    assert untyped == []


STAGE_FILES = {"invariants": "invariants.py", "card_section": "card.py", "write_extras": "extras.py",
               "prepare": "plan.py", "units": "units.py", "process": "process.py"}


@pytest.mark.parametrize("family", ["commute_ext", "shuffles", "variations", "pronouns"])
def test_every_stage_a_builder_has_lives_in_its_named_file(family: str) -> None:
    """Same stage, same file name in every family, so the data flow can be read from the folder."""
    from pathlib import Path

    from builders.core.builder import Builder
    from builders.core.registry import get_builder_class

    builder = get_builder_class(f"{family}.v1")
    folder = Path(importlib.import_module(f"builders.{family}").__file__ or "").parent
    missing = [file for hook, file in STAGE_FILES.items()
               if getattr(builder, hook) is not getattr(Builder, hook, None) and not (folder / file).is_file()]
    assert missing == []
