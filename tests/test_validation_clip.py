"""The bundled tiny CLIP: seeded training is reproducible, and the saved file loads through commute_ext's real
ClipEncoder path as exactly the trained model."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch

from builders.commute_ext.embed import ClipEncoder, ModelSpec
from builders.validation.clip_train import (
    CHECKPOINT,
    CLIP_NAME,
    FOLDER,
    SIZE_BUDGET_BYTES,
    ClipSettings,
    create_clip,
    positives,
    train_clip_folder,
)
from builders.validation.image_world import generate
from builders.validation.train import models_root

TOY = ClipSettings(scenes=48, steps=4, batch_size=16, threads=1)


def encoder(folder: Path, pretrained: bool = True, init_seed: int = 0) -> ClipEncoder:
    checkpoint = str(folder / CHECKPOINT) if pretrained else ""
    return ClipEncoder(ModelSpec(model=CLIP_NAME, pretrained=checkpoint, model_config_dir=str(folder),
                                 init_seed=init_seed, device="cpu", precision="fp32"))


@pytest.fixture(scope="module")
def toy(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Any, dict[str, Any]]:
    folder = tmp_path_factory.mktemp("toy-a") / FOLDER
    model, figures = train_clip_folder(folder, TOY)
    return folder, model, figures


def test_same_seed_same_bytes_other_seed_other_weights(toy: tuple[Path, Any, dict[str, Any]], tmp_path: Path) -> None:
    folder, model, figures = toy
    again, _ = train_clip_folder(tmp_path / "again" / FOLDER, TOY)
    train_clip_folder(tmp_path / "other" / FOLDER, ClipSettings(**{**TOY.__dict__, "seed": 2}))
    first = (folder / CHECKPOINT).read_bytes()
    assert (tmp_path / "again" / FOLDER / CHECKPOINT).read_bytes() == first
    assert (tmp_path / "other" / FOLDER / CHECKPOINT).read_bytes() != first
    config = f"{CLIP_NAME}.json"
    assert (tmp_path / "again" / FOLDER / config).read_bytes() == (folder / config).read_bytes()
    assert all(torch.equal(a, b) for a, b in zip(model.state_dict().values(), again.state_dict().values(), strict=True))
    training = json.loads((folder / "training.json").read_text())
    assert training["steps"] == TOY.steps and training["bytes"] == figures["bytes"]
    assert figures["bytes"] == sum(p.stat().st_size for p in folder.iterdir() if p.name != "training.json")
    assert not any(p.name.startswith(".") for p in folder.parent.iterdir())  # staging swapped in, nothing left


def test_saved_file_loads_as_the_trained_model(toy: tuple[Path, Any, dict[str, Any]]) -> None:
    folder, model, _ = toy
    _, preprocess, tokenizer = create_clip(folder / f"{CLIP_NAME}.json", seed=0)
    scenes = generate(6, seed=5)
    captions = [s.caption for s in scenes]
    with torch.inference_mode():
        images = torch.nn.functional.normalize(model.encode_image(torch.stack([preprocess(s.image())
                                                                               for s in scenes])), dim=-1)
        texts = torch.nn.functional.normalize(model.encode_text(tokenizer(captions)), dim=-1)
    loaded = encoder(folder)
    assert loaded.identity.startswith(f"{CLIP_NAME}/file:")
    np.testing.assert_allclose(loaded.encode_images([s.image() for s in scenes]), images.numpy(), atol=1e-6)
    np.testing.assert_allclose(loaded.encode_texts(captions), texts.numpy(), atol=1e-6)
    loaded_weights = loaded._loaded[0].state_dict()
    assert all(v.dtype == torch.float32 for v in loaded_weights.values())
    # training moved the weights away from the seeded init, except the token embedding (frozen by design)
    initial = encoder(folder, pretrained=False, init_seed=TOY.seed)._loaded[0].state_dict()
    changed = {k for k in loaded_weights if not torch.equal(loaded_weights[k], initial[k].half().float())}
    assert "token_embedding.weight" not in changed
    assert {"visual.conv1.weight", "text_projection", "transformer.resblocks.0.mlp.c_fc.weight"} <= changed


@pytest.mark.parametrize(
    ("attributes", "forms", "expected"),
    [
        # same sense, other colour: the full caption of one does not fit the other, "a photo of a <cue>" does
        ([[0, 1, 2], [0, 3, 2]], [0, 1], [[True, True], [False, True]]),
        # other sense: nothing fits across, whatever the caption names
        ([[0, 1, 2], [1, 1, 2]], [3, 2], [[True, False], [False, True]]),
        # colour-only agreement is not enough for "a <colour> <cue>" when the sense differs; position form fits
        ([[4, 1, 2], [4, 1, 0]], [2, 3], [[True, False], [True, True]]),
    ],
)
def test_multi_positive_targets(attributes: list[list[int]], forms: list[int], expected: list[list[bool]]) -> None:
    fits = positives(np.asarray(attributes), np.asarray(forms))
    assert fits.tolist() == expected


def test_bundled_model_within_budget_and_loads() -> None:
    folder = models_root() / FOLDER
    if not (folder / CHECKPOINT).is_file():
        pytest.fail(f"{folder} missing: run `python -m builders.validation.clip_train`")
    size = sum(p.stat().st_size for p in folder.iterdir() if p.is_file())
    assert size <= SIZE_BUDGET_BYTES
    training = json.loads((folder / "training.json").read_text())
    assert training["model"] == CLIP_NAME and training["threads"] == 2
    clip = encoder(folder)
    scenes = generate(16, seed=3)  # one picture per sense: its full caption should be its best match
    similarity = clip.encode_images([s.image() for s in scenes]) @ clip.encode_texts([s.caption for s in scenes]).T
    assert (similarity.argmax(axis=1) == np.arange(16)).mean() >= 0.75
