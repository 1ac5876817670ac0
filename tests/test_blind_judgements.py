"""The blind hand checks in tests/data: both passes cover their sample, every disagreement has a written
resolution, and the resolved files (the source of the figures in docs/) are what the passes and resolutions give."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

DATA = Path(__file__).parent / "data"


def blind_check() -> ModuleType:
    spec = importlib.util.spec_from_file_location("blind_check", DATA / "blind_check.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


CHECKS = blind_check().CHECKS


@pytest.mark.parametrize("check", CHECKS, ids=lambda c: c.name)
def test_the_resolved_file_is_what_the_two_passes_and_the_resolutions_give(check: Any) -> None:
    module = blind_check()
    records = module.resolve(check)
    committed = [json.loads(line) for line in (DATA / f"{check.name}_judgements.jsonl").read_text().splitlines()]
    assert committed == records


@pytest.mark.parametrize("check", CHECKS, ids=lambda c: c.name)
def test_every_item_of_the_sample_is_judged_on_every_question(check: Any) -> None:
    module = blind_check()
    for reader in "ab":
        for judgement in module.read_jsonl(DATA / f"{check.name}_judgements_{reader}.jsonl"):
            assert all(judgement[q] in check.allowed(q) and type(judgement[q]) in {type(a) for a in check.allowed(q)}
                       for q in check.questions), judgement
            if not all(judgement[q] is True for q in check.questions):
                assert judgement["note"].strip(), f"a 'no' without a note: {judgement[check.id_field]}"


def test_a_variation_is_usable_exactly_when_all_four_criteria_hold() -> None:
    records = [json.loads(line) for line in (DATA / "variations_blind_judgements.jsonl").read_text().splitlines()]
    for record in records:
        criteria = (record["grammatical_en"], record["grammatical_de"], record["parallel"], record["minimal"])
        assert record["usable"] == all(criteria), record["id"]


def test_a_resolution_without_a_disagreement_is_refused(tmp_path: Path) -> None:
    module = blind_check()
    module.RESOLUTIONS[("pronouns_blind", "no-such-item", "usable")] = (True, "")
    with pytest.raises(ValueError, match="resolutions for agreements"):
        module.resolve(module.CHECKS[0])


def test_the_lopes_check_knows_which_side_had_no_item() -> None:
    """A side without an item is None in both passes: their side always has one; ours not in theirs_only."""
    module = blind_check()
    check = next(c for c in module.CHECKS if c.name == "lopes_disagreements")
    sample = module.read_jsonl(DATA / "lopes_disagreements_sample.jsonl")
    for reader in "ab":
        for item, judgement in zip(sample, module.read_jsonl(DATA / f"{check.name}_judgements_{reader}.jsonl"),
                                   strict=True):
            assert (judgement["ours_usable"] is None) == (item["our id"] is None), (reader, item["document"])
