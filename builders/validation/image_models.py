"""Train the bundled image-world EN->DE models (`python -m builders.validation.train images`).

Both are tiny Marian models with a local SentencePiece vocabulary, trained on the sentences of the image world
(training seed 1; the validation sets use seed 7), through the shared loop of :mod:`builders.validation.train`:

- ``images-text-only``: a plain Marian model, scored with ``HFSeq2SeqScorer``; it never sees the picture, so it
  cannot tell the two German nouns of an ambiguous English word apart.
- ``images-image-aware``: the same Marian model inside ``FeaturePrefixSeq2Seq`` (a projected CLIP image embedding
  prepended to the encoder output), scored with ``ImageConditionedScorer`` like a real multimodal model. Its
  image features are the L2-normalised image embeddings of the bundled world CLIP (``world-clip``).
- ``shuffled-images`` (control, not bundled): the image-aware architecture trained with the features of other
  scenes (a seeded permutation), which removes the planted signal while keeping the input format.

Training examples are encoded by the scorer's own ``encode`` and the image-aware loss goes through the scorer's
``collate`` and ``decoder_states``, so training and scoring agree token for token and feature for feature.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from builders.core.errors import MtprobesError
from builders.scoring.protocol import ScoringExample
from builders.validation.image_world import Scene, generate
from builders.validation.train import models_root, tokenizer_from_lines, train_model

if TYPE_CHECKING:
    from builders.commute_ext.embed import ClipEncoder

MODES = ("text-only", "image-aware", "shuffled-images")
IMAGE_MODES = frozenset({"image-aware", "shuffled-images"})
WORLD_CLIP = "world-clip"  # folder under the models root: <model name>.json + one checkpoint file
CHECKPOINT_SUFFIXES = (".pt", ".pth", ".bin", ".safetensors")


@dataclass(frozen=True)
class ImageTrainSettings:
    scenes: int = 3000
    seed: int = 1
    vocab_size: int = 100
    d_model: int = 64
    layers: int = 2
    heads: int = 4
    steps: int = 1000
    batch_size: int = 32
    learning_rate: float = 2e-3
    threads: int = 2
    clip: str = ""  # CLIP folder (default: <models root>/world-clip)


def model_folder(out_root: Path, mode: str) -> Path:
    return out_root / f"images-{mode}"


def clip_encoder(folder: Path) -> ClipEncoder:
    """The open_clip model in ``folder``: one model config ``<name>.json`` and at most one checkpoint file.

    Without a checkpoint the model is a seeded random init (the tiny test CLIP); ``identity`` tells them apart.
    """
    from builders.commute_ext.embed import ClipEncoder, ModelSpec

    configs = sorted(folder.glob("*.json"))
    configs = [path for path in configs if path.name != "training.json"]
    checkpoints = sorted(p for p in folder.iterdir() if p.suffix in CHECKPOINT_SUFFIXES) if folder.is_dir() else []
    if len(configs) != 1 or len(checkpoints) > 1:
        raise MtprobesError(
            f"CLIP folder {folder}: expected one model config (<name>.json) and at most one checkpoint "
            f"({', '.join(CHECKPOINT_SUFFIXES)}); found {[p.name for p in configs + checkpoints]}"
        )
    spec = ModelSpec(
        model=configs[0].stem,
        pretrained=str(checkpoints[0]) if checkpoints else "",
        model_config_dir=str(folder),
        device="cpu",
        precision="fp32",
    )
    return ClipEncoder(spec)


def default_clip_folder(models: Path | None = None) -> Path:
    return (models or models_root()) / WORLD_CLIP


def scene_features(scenes: Sequence[Scene], encoder: ClipEncoder, batch: int = 256) -> np.ndarray:
    """(n, dim) float32 L2-normalised image embeddings of the scenes' pictures, in scene order."""
    rows = [encoder.encode_images([s.image() for s in scenes[i : i + batch]]) for i in range(0, len(scenes), batch)]
    return np.concatenate(rows).astype(np.float32)


def training_examples(scenes: Sequence[Scene], features: np.ndarray | None, mode: str, seed: int) -> list:
    """One example per scene; image-aware: its own picture's features, shuffled-images: another scene's."""
    if mode not in MODES:
        raise MtprobesError(f"unknown image-model mode {mode!r} (known: {', '.join(MODES)})")
    if mode == "text-only":
        return [ScoringExample(s.english, s.german()) for s in scenes]
    if features is None or len(features) != len(scenes):
        raise MtprobesError(f"mode {mode!r} needs one image feature row per scene ({len(scenes)})")
    order = np.arange(len(scenes))
    if mode == "shuffled-images":
        order = np.random.default_rng(seed).permutation(len(scenes))
    return [ScoringExample(s.english, s.german(), image=features[int(o)]) for s, o in zip(scenes, order, strict=True)]


def prefix_loss(model: Any, encoded: Sequence[Any], pad_id: int) -> Any:
    """Mean token cross-entropy of a feature-prefix model, batched by the scorer's own collate."""
    import torch.nn.functional as F

    from builders.scoring.engine import collate
    from builders.scoring.image import stack_features

    batch = collate(encoded, pad_id, int(model.seq2seq.config.decoder_start_token_id), "cpu")
    states = model.decoder_states(batch, stack_features(batch.images))
    logits = model.output_logits(states[batch.score_mask])
    return F.cross_entropy(logits, batch.labels[batch.score_mask])


def _train_one(scenes: Sequence[Scene], features: np.ndarray, mode: str, folder: Path,
               settings: ImageTrainSettings) -> dict[str, Any]:
    from builders.scoring.image import feature_prefix_model
    from builders.validation.train import new_model

    lines = [line for scene in scenes for line in (scene.english, scene.german())]
    tokenizer = tokenizer_from_lines(lines, folder, settings.vocab_size)
    examples = training_examples(scenes, features, mode, settings.seed)
    if mode in IMAGE_MODES:
        wrapped = feature_prefix_model(new_model(tokenizer, settings), features.shape[1], settings.seed)
        model, stats = train_model(examples, tokenizer, settings, model=wrapped, batch_loss=prefix_loss)
        model.save(folder)
    else:
        model, stats = train_model(examples, tokenizer, settings)
        model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return {**stats, "parameters": sum(p.numel() for p in model.parameters())}


def train_image_models(out_root: Path, settings: ImageTrainSettings, modes: Sequence[str]) -> dict[str, dict]:
    """Train and save one model per mode under ``out_root/images-<mode>``; returns figures per model."""
    unknown = [mode for mode in modes if mode not in MODES]
    if unknown:
        raise MtprobesError(f"unknown image-model modes {unknown} (known: {', '.join(MODES)})")
    scenes = generate(settings.scenes, settings.seed)
    features: np.ndarray = np.zeros((len(scenes), 0), dtype=np.float32)
    clip_identity = None
    if IMAGE_MODES.intersection(modes):
        encoder = clip_encoder(Path(settings.clip) if settings.clip else default_clip_folder())
        features, clip_identity = scene_features(scenes, encoder), encoder.identity
    report: dict[str, dict] = {}
    for mode in modes:
        folder = model_folder(out_root, mode)
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
        figures = _train_one(scenes, features, mode, folder, settings)
        figures["bytes"] = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
        training = {"mode": mode, **asdict(settings), **figures}
        if mode in IMAGE_MODES:
            training["clip_identity"] = clip_identity
        (folder / "training.json").write_text(json.dumps(training, indent=1) + "\n", encoding="utf-8")
        report[mode] = figures
    return report


def load_image_model_scorer(folder: Path) -> Any:
    """The scorer of a saved model exactly as `mtprobes score` loads it: HF text adapter or image-conditioned."""
    from builders.scoring.protocol import ScoringOptions
    from builders.scoring.run import ModelSpec, load_scorer

    if not (folder / "config.json").is_file():
        raise MtprobesError(f"bundled model {folder} missing: run `python -m builders.validation.train images`")
    return load_scorer(ModelSpec(model=str(folder)), ScoringOptions(device="cpu"))[1]


def training_record(folder: Path) -> dict[str, Any]:
    path = folder / "training.json"
    if not path.is_file():
        raise MtprobesError(f"{folder}: no training.json (not a bundled model folder)")
    return dict(json.loads(path.read_text(encoding="utf-8")))
