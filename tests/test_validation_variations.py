"""Validation of variations.v1 on the bundled context-free model: volatility figures computed end to end, and a
claim that fails when the variations do not reach the model or the translations are not stable."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

import pytest

from builders.core.errors import MtprobesError
from builders.validation.train import models_root
from builders.validation.variations import VariationsClaim

MODEL_DIR = models_root() / "pronouns-sentence"
needs_model = pytest.mark.skipif(not (MODEL_DIR / "config.json").is_file(), reason="bundled pronoun models not trained")
DOCUMENTS = 200  # ~130 DEL pairs; the full claim uses 800


@dataclass(frozen=True)
class Run:
    work: Path
    claim: VariationsClaim

    @property
    def set_dir(self) -> Path:
        return self.work / "sets" / "variations" / "pronoun-world" / "v1"

    def hyp(self, name: str) -> Path:
        return self.work / "translations" / f"{name}.hyp"


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Run:
    if not (MODEL_DIR / "config.json").is_file():
        pytest.skip("bundled pronoun models not trained")
    import torch

    from builders.validation.variations import validate_variations

    torch.set_num_threads(1)
    work = tmp_path_factory.mktemp("variations")
    return Run(work, validate_variations(work, documents=DOCUMENTS))


@needs_model
def test_claim_runs_end_to_end_on_real_changed_outputs(run: Run) -> None:
    from builders.validation.variations import KINDS, variations_table

    claim = run.claim
    table = variations_table(claim)
    assert claim.passed, table
    # the world has adverbs (very/sehr, now/jetzt) but no numbers and no he/she: only DEL can be built
    assert claim.counts["DEL"] >= 100 and claim.counts["SUBNUM"] == claim.counts["SUBGEN"] == 0
    assert set(claim.zero_kinds) == {k for k in KINDS if not claim.counts[k]}
    assert claim.zero_kinds["SUBNUM"] == "no candidate in the input"
    assert 10 < claim.distinct_sources < claim.counts["DEL"]  # the world repeats its sentence templates
    figures = claim.figures["DEL"]
    assert all(math.isfinite(v) for v in figures.values())
    # "changed" is the share of pairs whose two translation files differ: recount it from the files themselves
    original = run.hyp("original").read_text(encoding="utf-8").splitlines()
    varied = run.hyp("varied").read_text(encoding="utf-8").splitlines()
    assert len(original) == len(varied) == claim.counts["DEL"]
    changed = sum(a != b for a, b in zip(original, varied, strict=True)) / len(original)
    assert figures["translation_changed"] == pytest.approx(changed, abs=1e-4) and changed > 0.5
    assert figures["mean_word_distance"] > 1.0 and figures["mean_subword_distance"] > 1.0
    assert claim.control["translation_changed"] == 0.0 and claim.control["mean_subword_distance"] == 0.0
    # the analysis wrote its usual outputs, and the claim's figures are the ones in its summary
    summary = json.loads((run.work / "volatility" / "summary.json").read_text(encoding="utf-8"))
    assert summary["by_type"]["DEL"]["pairs"] == claim.counts["DEL"]
    assert summary["by_type"]["DEL"]["word_minor"] == figures["word_minor"]
    assert (run.work / "volatility" / "figure1_distance_vs_span.png").stat().st_size > 1000
    for kind in KINDS:
        assert f"| {kind} | {claim.counts[kind]} |" in table
    assert "Claim: PASS" in table


def _judge(run: Run, varied_hyp: str, control_hyp: str, bleu: float | None = None) -> list[str]:
    from builders.validation.variations import corpus_bleu, judge, measure, read_records, volatility_settings

    settings = volatility_settings(MODEL_DIR)
    varied = measure(run.set_dir, run.hyp("original"), run.hyp(varied_hyp), settings)
    control = measure(run.set_dir, run.hyp("original"), run.hyp(control_hyp), settings)
    records = read_records(run.set_dir)
    if bleu is None:
        originals = run.hyp("original").read_text(encoding="utf-8").splitlines()
        bleu = corpus_bleu(originals, [r["original_ref"] for r in records])
    return judge(run.claim.counts, varied, control, bleu)[2]


@needs_model
def test_identical_pairs_give_zero_volatility_and_fail_the_claim(run: Run) -> None:
    # control.hyp is the original sources translated again through the real path: feeding it as the "varied"
    # translations is the set with its signal removed (every variation identical to its original)
    from builders.validation.variations import control_figures, measure, volatility_settings

    result = measure(run.set_dir, run.hyp("original"), run.hyp("control"), volatility_settings(MODEL_DIR))
    assert result.summary["by_type"]["DEL"]["translation_changed"] == 0.0
    assert control_figures(result)["mean_word_distance"] == 0.0
    reasons = _judge(run, varied_hyp="control", control_hyp="control")
    assert len(reasons) == 1 and "DEL: no varied translation differs" in reasons[0]


@needs_model
def test_unstable_control_fails_the_claim(run: Run) -> None:
    # a "second translation of the originals" that differs (here: the varied outputs) is decoding noise
    reasons = _judge(run, varied_hyp="varied", control_hyp="varied")
    assert len(reasons) == 1 and reasons[0].startswith("control: the originals translated twice differ")


@needs_model
def test_outputs_that_are_not_translations_fail_the_claim(run: Run) -> None:
    from builders.validation.variations import MIN_ORIGINAL_BLEU, corpus_bleu, read_records

    # the same outputs paired with the wrong references (shifted by one) are not translations of them
    originals = run.hyp("original").read_text(encoding="utf-8").splitlines()
    references = [r["original_ref"] for r in read_records(run.set_dir)]
    shifted = corpus_bleu(originals, references[1:] + references[:1])
    assert shifted < MIN_ORIGINAL_BLEU
    reasons = _judge(run, varied_hyp="varied", control_hyp="control", bleu=shifted)
    assert len(reasons) == 1 and "not translations" in reasons[0]


@needs_model
def test_a_world_without_variations_fails_and_says_why(tmp_path: Path) -> None:
    from builders.validation.variations import validate_variations, variations_table

    claim = validate_variations(tmp_path, documents=1)  # one document with no adverb: nothing to vary
    assert not claim.passed and claim.reasons == ["no variation was built from the world"]
    assert claim.counts == {"DEL": 0, "INS": 0, "SUBNUM": 0, "SUBGEN": 0}
    assert "Claim: FAIL: no variation was built" in variations_table(claim)


def test_missing_model_is_one_clear_error(tmp_path: Path) -> None:
    from builders.validation.variations import validate_variations

    with pytest.raises(MtprobesError, match=r"pronouns-sentence missing"):
        validate_variations(tmp_path / "work", models=tmp_path)
