"""Train the bundled tiny CLIP on the image world (`python -m builders.validation.clip_train`).

The model is an open_clip ``CLIP`` (small ViT image tower, small text transformer over open_clip's own BPE
tokenizer) registered under the name ``mtprobes-world-clip``; it is created, and later loaded, through
``open_clip.create_model_and_transforms`` exactly as real CLIP weights are, so ``commute_ext.v1`` and the scorer's
image features use it through their ordinary code path::

    open_clip.add_model_config("resources/models/world-clip")
    open_clip.create_model_and_transforms("mtprobes-world-clip",
                                          pretrained="resources/models/world-clip/open_clip_model.safetensors")

Training data: scenes of ``image_world.generate(n, seed)``; each picture is paired with a caption derived from its
scene: the full ``Scene.caption`` ("a red flying bat on the left") or, for some pairs, a shorter one naming fewer
attributes ("a photo of a flying bat", "a red flying bat", "a flying bat on the left") so that the text tower
also learns captions that name the sense alone (those are the retrieval queries). Several pictures in a batch can
fit one caption, so the contrastive loss uses multi-positive targets: every picture whose scene agrees with
everything a caption names is a positive of that caption (the plain CLIP loss when all captions differ).
The 49408-row token embedding keeps its seeded random init (frozen: captions use a few dozen of its rows, and
updating all 1.6 M values every step would cost CPU for nothing).
Weights are stored in fp16 (that embedding dominates the size); the in-memory model is rounded
the same way before it is returned, so loading the file gives exactly the trained model. Seeded, CPU, an
explicit thread count: same seed and threads, same bytes.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from builders.core.errors import MtprobesError
from builders.validation.image_world import COLOURS, POSITIONS, Scene, generate, load_senses

CLIP_NAME = "mtprobes-world-clip"
FOLDER = "world-clip"
CHECKPOINT = "open_clip_model.safetensors"
SIZE_BUDGET_BYTES = 5_000_000

# Caption forms: which scene attributes (sense, colour, position) a caption names, and how it reads.
CAPTION_FORMS: tuple[tuple[tuple[bool, bool, bool], str], ...] = (
    ((True, True, True), "a {colour} {cue} {position}"),  # == Scene.caption
    ((True, False, False), "a photo of a {cue}"),
    ((True, True, False), "a {colour} {cue}"),
    ((True, False, True), "a {cue} {position}"),
)


@dataclass(frozen=True)
class ClipSettings:
    scenes: int = 4800
    seed: int = 1
    steps: int = 1500
    batch_size: int = 64
    learning_rate: float = 2e-3
    full_caption_share: float = 0.55  # the rest is spread evenly over the shorter caption forms
    threads: int = 2
    embed_dim: int = 64
    image_size: int = 64  # the world's pictures: no resizing
    patch_size: int = 16  # 16 patches: 4x fewer tokens than 8 px patches, and it learned faster here
    vision_width: int = 96
    vision_layers: int = 3
    vision_head_width: int = 32
    text_width: int = 32  # the token embedding is 49408 x text_width: the largest tensor by far
    text_heads: int = 2
    text_layers: int = 2
    context_length: int = 16


def model_config(settings: ClipSettings) -> dict[str, Any]:
    """The open_clip model config (the JSON ``add_model_config`` registers)."""
    return {
        "embed_dim": settings.embed_dim,
        "vision_cfg": {
            "image_size": settings.image_size,
            "layers": settings.vision_layers,
            "width": settings.vision_width,
            "head_width": settings.vision_head_width,
            "patch_size": settings.patch_size,
        },
        "text_cfg": {
            "context_length": settings.context_length,
            "vocab_size": 49408,  # open_clip's BPE tokenizer: the ids it emits need every row
            "width": settings.text_width,
            "heads": settings.text_heads,
            "layers": settings.text_layers,
        },
    }


def write_model_config(folder: Path, settings: ClipSettings) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{CLIP_NAME}.json"
    path.write_text(json.dumps(model_config(settings), indent=1) + "\n", encoding="utf-8")
    return path


def create_clip(config_path: Path, seed: int, pretrained: str = "") -> tuple[Any, Any, Any]:
    """(model, preprocess, tokenizer) through the loader commute_ext uses; random init seeded in a forked RNG."""
    from builders.commute_ext.embed import ModelSpec, create_open_clip

    spec = ModelSpec(CLIP_NAME, pretrained, str(config_path.parent), seed, "cpu", "fp32")
    return create_open_clip(spec, "cpu", "fp32")


@dataclass(frozen=True)
class WorldData:
    pixels: Any  # float tensor [n, 3, H, W], preprocessed as at inference
    attributes: np.ndarray  # [n, 3]: sense, colour, position index
    tokens: Any  # long tensor [n, forms, context_length]


def scene_attributes(scene: Scene, sense_index: dict[str, int]) -> tuple[int, int, int]:
    return sense_index[scene.sense.key], COLOURS.index(scene.colour), POSITIONS.index(scene.position)


def caption_text(scene: Scene, form: int) -> str:
    return CAPTION_FORMS[form][1].format(cue=scene.sense.cue, colour=scene.colour.english,
                                         position=scene.position.english)


def world_data(scenes: Sequence[Scene], preprocess: Any, tokenizer: Any) -> WorldData:
    """Pictures preprocessed once (no augmentation) and every caption form tokenized once."""
    import torch

    sense_index = {sense.key: i for i, sense in enumerate(load_senses())}
    pixels = torch.stack([preprocess(scene.image()) for scene in scenes])
    attributes = np.asarray([scene_attributes(scene, sense_index) for scene in scenes], dtype=np.int64)
    texts = sorted({caption_text(scene, form) for scene in scenes for form in range(len(CAPTION_FORMS))})
    token_of = dict(zip(texts, tokenizer(texts), strict=True))
    tokens = torch.stack([torch.stack([token_of[caption_text(scene, form)] for form in range(len(CAPTION_FORMS))])
                          for scene in scenes])
    return WorldData(pixels, attributes, tokens)


def positives(attributes: np.ndarray, forms: np.ndarray) -> np.ndarray:
    """``[i, j]`` is True when picture i fits caption j: it agrees with every attribute caption j names."""
    named = np.asarray([CAPTION_FORMS[f][0] for f in forms], dtype=bool)  # [batch, 3]
    agree = attributes[:, None, :] == attributes[None, :, :]  # [picture, caption, 3]
    return np.all(agree | ~named[None, :, :], axis=2)


def contrastive_loss(image_features: Any, text_features: Any, logit_scale: Any, fits: Any) -> Any:
    """Symmetric CLIP loss with soft targets spread over all positives of a row (picture) or column (caption)."""
    import torch

    logits = logit_scale.exp().clamp(max=100) * image_features @ text_features.T
    fits = fits.float()
    per_picture = -(fits / fits.sum(1, keepdim=True) * torch.log_softmax(logits, dim=1)).sum(1).mean()
    per_caption = -(fits / fits.sum(0, keepdim=True) * torch.log_softmax(logits, dim=0)).sum(0).mean()
    return (per_picture + per_caption) / 2


def train_clip(model: Any, data: WorldData, settings: ClipSettings) -> dict[str, Any]:
    """AdamW with linear warm-up and cosine decay; batches and caption forms from a seeded generator."""
    import math

    import torch
    import torch.nn.functional as functional

    rng = np.random.default_rng(settings.seed)
    # The 49408 x width token embedding keeps its seeded random init: the world's captions use a few dozen of its
    # rows, distinct random vectors suffice for them, updating all 1.6 M values every step costs CPU for nothing.
    model.token_embedding.requires_grad_(False)
    trained = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(trained, lr=settings.learning_rate, weight_decay=0.0, fused=True)
    warmup = max(1, settings.steps // 20)

    def factor(step: int) -> float:
        if step < warmup:
            return (step + 1) / warmup
        return 0.5 * (1 + math.cos(math.pi * (step - warmup) / max(1, settings.steps - warmup)))

    schedule = torch.optim.lr_scheduler.LambdaLR(optimizer, factor)
    short_share = (1 - settings.full_caption_share) / (len(CAPTION_FORMS) - 1)
    form_p = [settings.full_caption_share] + [short_share] * (len(CAPTION_FORMS) - 1)
    count = len(data.attributes)
    model.train()
    losses = []
    started = time.perf_counter()
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(settings.seed)
        for _ in range(settings.steps):
            chosen = rng.choice(count, size=min(settings.batch_size, count), replace=False)
            forms = rng.choice(len(CAPTION_FORMS), size=len(chosen), p=form_p)
            index = torch.from_numpy(chosen)
            tokens = data.tokens[index, torch.from_numpy(forms)]
            images = functional.normalize(model.encode_image(data.pixels[index]), dim=-1)
            texts = functional.normalize(model.encode_text(tokens), dim=-1)
            fits = torch.from_numpy(positives(data.attributes[chosen], forms))
            loss = contrastive_loss(images, texts, model.logit_scale, fits)
            optimizer.zero_grad(set_to_none=False)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(trained, 1.0)
            optimizer.step()
            schedule.step()
            losses.append(float(loss.detach()))
    model.eval()
    return {"train_seconds": round(time.perf_counter() - started, 1), "first_loss": round(losses[0], 4),
            "final_loss": round(float(np.mean(losses[-50:])), 4)}


def half_state(model: Any) -> dict[str, Any]:
    """fp16 copies of the float weights (what is stored); the model is set to exactly these values."""
    import torch

    state = {k: (v.detach().to(torch.float16) if v.is_floating_point() else v.detach()).contiguous()
             for k, v in model.state_dict().items()}
    model.load_state_dict(state)  # copy_ casts back to fp32: the in-memory model now equals the file
    return state


def save_clip(model: Any, folder: Path) -> Path:
    from safetensors.torch import save_file

    path = folder / CHECKPOINT
    save_file(half_state(model), str(path))
    return path


def check_loads(model: Any, config_path: Path, checkpoint: Path) -> None:
    """Loading the file through open_clip must give the in-memory weights exactly (fp16 -> fp32 is exact)."""
    import torch

    loaded, _, _ = create_clip(config_path, seed=0, pretrained=str(checkpoint))
    expected = model.state_dict()
    for key, value in loaded.state_dict().items():
        if value.dtype != torch.float32 or not torch.equal(value, expected[key]):
            raise MtprobesError(f"{checkpoint}: {key} does not load as the trained fp32 weights")


def train_world_clip(out_root: Path, settings: ClipSettings | None = None) -> dict[str, Any]:
    """Train, save and check ``out_root/world-clip`` (config, checkpoint, training.json); returns the figures."""
    return train_clip_folder(out_root / FOLDER, settings or ClipSettings())[1]


def train_clip_folder(folder: Path, settings: ClipSettings) -> tuple[Any, dict[str, Any]]:
    """Train into ``folder`` (replaced only when complete); returns the in-memory model (equal to the file's
    weights) and the figures."""
    import shutil

    import torch

    started = time.perf_counter()
    torch.set_num_threads(settings.threads)
    staging = folder.with_name(f".{folder.name}.tmp")
    shutil.rmtree(staging, ignore_errors=True)  # left by an interrupted run
    config_path = write_model_config(staging, settings)
    model, preprocess, tokenizer = create_clip(config_path, settings.seed)
    data = world_data(generate(settings.scenes, settings.seed), preprocess, tokenizer)
    data_seconds = round(time.perf_counter() - started, 1)
    figures = train_clip(model, data, settings)
    checkpoint = save_clip(model, staging)
    check_loads(model, config_path, checkpoint)
    size = sum(p.stat().st_size for p in staging.iterdir() if p.is_file())
    figures |= {"data_seconds": data_seconds, "seconds": round(time.perf_counter() - started, 1),
                "bytes": size, "parameters": sum(p.numel() for p in model.parameters()), "weights": "fp16",
                "torch": torch.__version__}
    if size > SIZE_BUDGET_BYTES:
        raise MtprobesError(f"{CLIP_NAME}: {size} bytes on disk exceed the {SIZE_BUDGET_BYTES} byte budget")
    training = {"model": CLIP_NAME, "checkpoint": CHECKPOINT, "caption_forms": [f for _, f in CAPTION_FORMS],
                **asdict(settings), **figures}
    (staging / "training.json").write_text(json.dumps(training, indent=1) + "\n", encoding="utf-8")
    _replace_folder(staging, folder)
    return model, figures


def _replace_folder(staging: Path, folder: Path) -> None:
    """Swap the finished folder in, so a reader polling for it never sees a half-written model."""
    import shutil

    if folder.exists():
        old = folder.with_name(f".{folder.name}.old")
        shutil.rmtree(old, ignore_errors=True)
        folder.rename(old)
        staging.rename(folder)
        shutil.rmtree(old)
    else:
        staging.rename(folder)


def main(argv: Sequence[str] | None = None) -> None:
    from builders.validation.train import models_root

    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--out", type=Path, default=None, help="models root (default: resources/models)")
    parser.add_argument("--steps", type=int, default=ClipSettings.steps)
    parser.add_argument("--threads", type=int, default=ClipSettings.threads)
    args = parser.parse_args(argv)
    figures = train_world_clip(args.out or models_root(), ClipSettings(steps=args.steps, threads=args.threads))
    print(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
