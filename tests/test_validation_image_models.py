"""The image-world models: what each mode trains on, seeded training on a toy budget, loading through the scorers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from builders.commute_ext.embed import ModelSpec, create_open_clip
from builders.core.errors import MtprobesError
from builders.core.resources import resources_root
from builders.validation.image_models import (
    ImageTrainSettings,
    clip_encoder,
    default_clip_folder,
    load_image_model_scorer,
    model_folder,
    scene_features,
    train_image_models,
    training_examples,
)
from builders.validation.image_world import generate
from builders.validation.train import models_root
from builders.variations.volatility import metric_functions

TINY_CLIP = resources_root() / "samples" / "commute_ext" / "tiny_clip"  # config only: a seeded random init
TOY = ImageTrainSettings(
    scenes=64, vocab_size=60, d_model=16, layers=1, heads=2, steps=3, batch_size=8, threads=1, clip=str(TINY_CLIP)
)
BUNDLED = ("text-only", "image-aware")


def test_modes_differ_only_in_the_image() -> None:
    scenes = generate(24, seed=5)
    features = np.arange(24 * 4, dtype=np.float32).reshape(24, 4)
    text, aware, shuffled = (training_examples(scenes, features, mode, 5) for mode in
                             ("text-only", "image-aware", "shuffled-images"))
    pairs = [(s.english, s.german()) for s in scenes]
    for examples in (text, aware, shuffled):
        assert [(e.source, e.target) for e in examples] == pairs
    assert all(e.image is None for e in text)
    assert all(np.array_equal(e.image, row) for e, row in zip(aware, features, strict=True))
    # another scene's picture for most examples, every picture used once: the planted link is cut, the format kept
    given = np.stack([e.image for e in shuffled])
    assert sorted(map(tuple, given)) == sorted(map(tuple, features))
    assert (given != features).any(axis=1).sum() >= 20


def test_unknown_mode_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(MtprobesError, match="unknown image-model mode"):
        train_image_models(tmp_path, TOY, ["text-only", "image-only"])


def test_clip_folder_needs_a_model_config(tmp_path: Path) -> None:
    with pytest.raises(MtprobesError, match="one model config"):
        clip_encoder(tmp_path)


def test_training_is_seeded_and_loads_through_the_scorers(tmp_path: Path) -> None:
    pytest.importorskip("open_clip", reason="the image-world models see scenes through a CLIP encoder")
    import torch

    from builders.scoring.hf import HFSeq2SeqScorer
    from builders.scoring.image import ImageConditionedScorer
    from builders.scoring.protocol import ScoringExample

    torch.set_num_threads(1)
    report = train_image_models(tmp_path / "a", TOY, BUNDLED)
    train_image_models(tmp_path / "b", TOY, BUNDLED)
    assert report["image-aware"]["parameters"] > report["text-only"]["parameters"] > 0  # + the projection
    weights = {"text-only": ["model.safetensors"], "image-aware": ["model.safetensors", "image_prefix.pt"]}
    for mode, files in weights.items():
        for name in files:
            first, again = (model_folder(tmp_path / run, mode) / name for run in ("a", "b"))
            assert first.read_bytes() == again.read_bytes(), (mode, name)
    training = json.loads((model_folder(tmp_path / "a", "image-aware") / "training.json").read_text())
    assert training["clip_identity"].startswith("mtprobes-tiny-clip/random-init")

    text = load_image_model_scorer(model_folder(tmp_path / "a", "text-only"))
    image = load_image_model_scorer(model_folder(tmp_path / "a", "image-aware"))
    assert isinstance(text, HFSeq2SeqScorer) and isinstance(image, ImageConditionedScorer)
    scenes = generate(2, seed=9)
    features = scene_features(scenes, clip_encoder(TINY_CLIP))
    examples = [ScoringExample(scenes[0].english, scenes[0].german(), image=row) for row in features]
    text_scores, image_scores = ([s.sum for s in scorer.score(examples)] for scorer in (text, image))
    assert text_scores[0] == text_scores[1] < 0  # the text model ignores the picture
    assert image_scores[0] != image_scores[1]  # the image-aware one does not
    with pytest.raises(MtprobesError, match="no image"):
        image.score([ScoringExample(scenes[0].english, scenes[0].german())])


@pytest.mark.skipif(
    not all((model_folder(models_root(), mode) / "training.json").is_file() for mode in BUNDLED),
    reason="bundled image models not trained",
)
@pytest.mark.parametrize("mode", BUNDLED)
def test_bundled_models_fit_the_budget(mode: str) -> None:
    folder = model_folder(models_root(), mode)
    training = json.loads((folder / "training.json").read_text())
    size = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
    assert size <= 3_000_000 and training["bytes"] <= 3_000_000
    assert training["seed"] == 1 and training["threads"] == 2 and training["seconds"] > 0
    if mode == "image-aware":
        assert training["clip_identity"] == clip_encoder(default_clip_folder()).identity


@pytest.mark.parametrize(
    ("module", "call", "message"),
    [
        (
            "open_clip",
            lambda: create_open_clip(ModelSpec(pretrained="", model_config_dir=str(TINY_CLIP)), "cpu", "fp32"),
            "CLIP models need open_clip",
        ),
        ("nltk", lambda: metric_functions(["meteor"]), "METEOR scores need nltk"),
    ],
)
def test_a_missing_optional_package_is_one_clear_error(
    module: str, call: Any, message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import builders.core.compat as compat

    def absent(name: str, distribution: str | None = None) -> compat.Probe:
        return compat.Probe(name, False, reason=f"{name} cannot be imported") if name == module else real(name)

    real = compat.probe_module
    monkeypatch.setattr(compat, "probe_module", absent)
    with pytest.raises(MtprobesError, match=f"{message} .*pip install 'mtprobes"):
        call()
