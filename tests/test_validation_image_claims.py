"""Image-world claims on the bundled models: Elliott's awareness test (shuffles.v1) and the CoMMuTE metrics."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from builders.core.errors import MtprobesError
from builders.core.resources import resources_root
from builders.validation.image_claims import (
    SHUFFLES,
    AwarenessClaim,
    CommuteClaim,
    awareness_table,
    commute_table,
    judge_commute,
    validate_awareness,
    validate_commute,
)
from builders.validation.image_models import default_clip_folder, model_folder
from builders.validation.train import models_root

TINY_CLIP = resources_root() / "samples" / "commute_ext" / "tiny_clip"
BUNDLED = all((model_folder(models_root(), mode) / "training.json").is_file() for mode in ("text-only", "image-aware"))
needs_models = pytest.mark.skipif(
    not (BUNDLED and default_clip_folder().is_dir()), reason="bundled image models or world CLIP not trained"
)


@pytest.fixture(scope="module")
def claims(tmp_path_factory: pytest.TempPathFactory) -> tuple[AwarenessClaim, CommuteClaim]:
    import torch

    torch.set_num_threads(1)
    work = tmp_path_factory.mktemp("image-claims")
    return validate_awareness(work / "awareness"), validate_commute(work / "commute")


@needs_models
def test_image_aware_model_passes_elliotts_test_and_text_only_has_delta_zero(
    claims: tuple[AwarenessClaim, CommuteClaim],
) -> None:
    awareness, _ = claims
    table = awareness_table(awareness)
    assert awareness.passed, table
    image, text = awareness.results["image"], awareness.results["text"]
    assert image["fisher_p"] <= 0.005 and image["delta_awareness_mean"] > 0
    assert all(s["wilcoxon_p"] < 0.005 for s in image["shuffles"].values())
    assert len(image["shuffles"]) == SHUFFLES and awareness.segments >= 300
    assert awareness.zero_deltas["text"] == awareness.segments * SHUFFLES
    assert text["delta_awareness_mean"] == 0.0 and text["fisher_p"] == 1.0 and not text["aware"]
    assert "PASS" in table and "2000/2000" in table


@needs_models
def test_commute_metrics_text_only_by_construction_image_aware_consistent(
    claims: tuple[AwarenessClaim, CommuteClaim],
) -> None:
    _, commute = claims
    table = commute_table(commute)
    assert commute.passed, table
    text, image = commute.scores["text"], commute.scores["image"]
    assert (text["TC"], text["GTC"], text["IC"], text["GIC"]) == (0.5, 0.0, 0.0, 0.0)
    assert commute.ties["text"] == 0
    assert image["IC"] > 0.8 and image["TC"] > 0.8
    assert "PASS" in table


@needs_models
def test_claims_fail_when_the_image_model_cannot_see(tmp_path: Path) -> None:
    """The planted signal removed: the text-only model judged as if it were the image-aware one."""
    import torch

    torch.set_num_threads(1)
    awareness = validate_awareness(tmp_path / "awareness", image_model="images-text-only")
    assert not awareness.passed
    assert any("image-aware model not aware" in reason for reason in awareness.reasons)
    commute = validate_commute(tmp_path / "commute", image_model="images-text-only")
    assert not commute.passed and commute.scores["image"]["IC"] == 0.0
    assert "FAIL" in commute_table(commute) and "FAIL" in awareness_table(awareness)


@needs_models
def test_features_of_another_clip_are_refused(tmp_path: Path) -> None:
    with pytest.raises(MtprobesError, match="trained on features of CLIP"):
        validate_commute(tmp_path, clip=TINY_CLIP)


def test_missing_models_are_named(tmp_path: Path) -> None:
    with pytest.raises(MtprobesError, match="images-text-only"):
        validate_awareness(tmp_path / "work", tmp_path / "no-models")


def _scores(tc: float, ic: float, gtc: float = 0.0) -> dict[str, float]:
    return {"TC": tc, "IC": ic, "GTC": gtc, "GIC": 0.0, "sources": 10}


@pytest.mark.parametrize(
    ("text", "image", "passed"),
    [
        (_scores(0.5, 0.0), _scores(0.9, 0.85), True),
        (_scores(0.45, 0.0), _scores(0.9, 0.85), False),  # a tie in the text-only perplexities
        (_scores(0.5, 0.0, gtc=0.1), _scores(0.9, 0.85), False),
        (_scores(0.5, 0.0), _scores(0.9, 0.8), False),  # IC must exceed 0.8
    ],
)
def test_commute_judgement_thresholds(text: dict[str, float], image: dict[str, float], passed: bool) -> None:
    claim = judge_commute({"text": "t", "image": "i"}, {"text": {"scores": text, "ties": 0},
                                                        "image": {"scores": image, "ties": 0}})
    assert claim.passed is passed
    assert bool(claim.reasons) is not passed
    assert np.isfinite(claim.scores["image"]["IC"])
