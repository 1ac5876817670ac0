"""The claim table of `mtprobes validate-sets`: every entry resolves, names are checked, the report says FAIL."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path

import pytest

from builders.core.errors import ConfigError
from builders.validation.suite import CLAIMS, ClaimResult, ClaimSpec, render_report, run_claim, select_claims


@pytest.mark.parametrize("spec", CLAIMS, ids=[spec.key for spec in CLAIMS])
def test_every_claim_points_at_real_functions(spec: ClaimSpec) -> None:
    module = importlib.import_module(spec.module)
    assert callable(getattr(module, spec.run)) and callable(getattr(module, spec.table))


def test_selection_keeps_the_suite_order_and_suggests_names() -> None:
    assert [s.key for s in select_claims(["retrieval", "pronouns"])] == ["pronouns", "retrieval"]
    assert [s.key for s in select_claims()] == [s.key for s in CLAIMS]
    with pytest.raises(ConfigError, match="did you mean 'awareness'"):
        select_claims(["awarenes"])


@dataclass
class Verdict:
    passed: bool
    work: Path


def validate_toy(work: Path, models: Path | None, flavour: str = "plain") -> Verdict:
    return Verdict(passed=flavour == "good", work=work)


def toy_table(claim: Verdict) -> str:
    return f"work folder {claim.work.name}\n"


def test_run_claim_passes_options_and_the_report_shows_failures(tmp_path: Path) -> None:
    spec = ClaimSpec("toy", "Toy claim", __name__, "validate_toy", "toy_table", options=("flavour",))
    good = run_claim(spec, tmp_path, None, {"flavour": "good", "unrelated": 1})
    bad = run_claim(spec, tmp_path, None, {})
    assert good.passed and not bad.passed and good.claim.work == tmp_path / "toy"
    report = render_report([good, bad])
    assert "| toy | PASS |" in report and "| toy | FAIL |" in report
    assert report.count("## Toy claim") == 2 and "work folder toy" in report
    assert isinstance(good, ClaimResult) and good.seconds >= 0
