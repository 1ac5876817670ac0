"""open_clip image/text encoder: batched, fp16/bf16 on GPU, fp32 on CPU, L2-normalised float32 output.

Real weights and the random-init test model go through the same call,
``open_clip.create_model_and_transforms(model, pretrained=...)``: ``pretrained`` is an open_clip tag
(``laion2b_s34b_b79k``, read from the local cache) or a local checkpoint file; empty means random init, seeded
in a forked torch RNG so no global random state changes. ``model_config_dir`` registers extra model configs
(JSON files named after the model) with ``open_clip.add_model_config``.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from builders.core.context import sha256_file
from builders.core.errors import ConfigError, MtprobesError

if TYPE_CHECKING:
    import numpy as np
    from PIL import Image

PRECISIONS = {"fp32": "float32", "fp16": "float16", "bf16": "bfloat16"}


@dataclass(frozen=True)
class ModelSpec:
    model: str = "ViT-B-32"
    pretrained: str = "laion2b_s34b_b79k"
    model_config_dir: str = ""
    init_seed: int = 0
    device: str = "auto"  # auto | cpu | cuda
    precision: str = "auto"  # auto | fp32 | fp16 | bf16


def resolve_device_precision(device: str, precision: str) -> tuple[str, str]:
    """auto: cuda when a GPU is usable, else cpu; fp32 on both; half precision on CPU is refused.

    fp32 on CUDA gave the same candidates and images as CPU fp32 on the validation's retrieval world (H100), where
    fp16 changed 6 % of the translations' images and bf16 half of them (docs/commute_ext.md, bench_commute_ext.py):
    a set should not depend on the machine that built it.
    """
    from builders.core.compat import torch_device

    chosen_device = torch_device() if device == "auto" else device
    if chosen_device == "cuda" and torch_device() != "cuda":
        raise ConfigError("config key 'device': cuda requested but torch sees no usable GPU")
    chosen_precision = "fp32" if precision == "auto" else precision
    if chosen_device == "cpu" and chosen_precision != "fp32":
        raise ConfigError(f"config key 'precision': {chosen_precision} is for GPUs; use fp32 (or auto) on CPU")
    return chosen_device, chosen_precision


def create_open_clip(spec: ModelSpec, device: str, precision: str) -> tuple[Any, Any, Any]:
    """(model, preprocess, tokenizer) through ``open_clip.create_model_and_transforms``, for inference and training.

    Extra configs are registered from ``spec.model_config_dir``; a random init is seeded with ``spec.init_seed`` in
    a forked torch RNG; loading errors become one MtprobesError naming the model and weights.
    """
    from builders.core.compat import require_module

    require_module("open_clip", "CLIP models", "ml", "open_clip_torch")
    import open_clip
    import torch

    if spec.model_config_dir:
        open_clip.add_model_config(Path(spec.model_config_dir))
    try:
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(spec.init_seed)
            quiet = logging.getLogger()
            level = quiet.level
            quiet.setLevel(logging.ERROR)  # open_clip logs a warning for the intended random init
            try:
                model, _, preprocess = open_clip.create_model_and_transforms(
                    spec.model, pretrained=spec.pretrained or None, precision=precision, device=device,
                )
            finally:
                quiet.setLevel(level)
    except Exception as err:  # open_clip raises RuntimeError/ValueError/OSError for missing configs/weights
        raise MtprobesError(
            f"cannot load open_clip model {spec.model!r} with pretrained={spec.pretrained!r}: {err} "
            "(weights must be in the local cache or given as a file path; set HF_HUB_OFFLINE=1 to forbid "
            "downloads)"
        ) from None
    return model, preprocess, open_clip.get_tokenizer(spec.model)


class ClipEncoder:
    def __init__(self, spec: ModelSpec) -> None:
        self.spec = spec
        self.device, self.precision = resolve_device_precision(spec.device, spec.precision)

    @cached_property
    def _loaded(self) -> tuple[Any, Any, Any]:
        precision = "fp32" if self.device == "cpu" else self.precision
        model, preprocess, tokenizer = create_open_clip(self.spec, self.device, precision)
        model.eval()
        return model, preprocess, tokenizer

    @property
    def identity(self) -> str:
        """Names the exact weights: tag or file hash, or the random-init seed and config hash."""
        spec = self.spec
        if not spec.pretrained:
            weights = f"random-init(seed={spec.init_seed},config={self._config_hash()})"
        elif Path(spec.pretrained).is_file():
            weights = "file:" + sha256_file(Path(spec.pretrained))[:16]
        else:
            weights = spec.pretrained
        return f"{spec.model}/{weights}/{self.precision}"

    def _config_hash(self) -> str:
        if self.spec.model_config_dir:
            path = Path(self.spec.model_config_dir) / f"{self.spec.model}.json"
            if path.is_file():
                return sha256_file(path)[:12]
        import open_clip

        config = open_clip.get_model_config(self.spec.model) or {}
        return hashlib.sha256(json.dumps(config, sort_keys=True).encode()).hexdigest()[:12]

    @cached_property
    def dim(self) -> int:
        import open_clip

        config = open_clip.get_model_config(self.spec.model) if not self.spec.model.startswith(("hf-hub:",
                                                                                              "local-dir:")) else None
        if config and "embed_dim" in config:
            return int(config["embed_dim"])
        return int(self.encode_texts(["a photo"]).shape[1])

    def preprocess(self, image: Image.Image) -> Any:
        return self._loaded[1](image)

    def encode_pixels(self, tensors: Sequence[Any]) -> np.ndarray:
        """Embed preprocessed image tensors (from :meth:`preprocess`)."""
        import torch

        model = self._loaded[0]
        batch = torch.stack(list(tensors)).to(self.device, dtype=getattr(torch, PRECISIONS[self.precision]))
        with torch.inference_mode():
            return _normalise(model.encode_image(batch))

    def encode_images(self, images: Sequence[Image.Image]) -> np.ndarray:
        return self.encode_pixels([self.preprocess(image) for image in images])

    def encode_texts(self, texts: Sequence[str]) -> np.ndarray:
        import torch

        model, _, tokenizer = self._loaded
        tokens = tokenizer(list(texts)).to(self.device)
        with torch.inference_mode():
            return _normalise(model.encode_text(tokens))


def _normalise(features: Any) -> np.ndarray:
    import numpy as np

    array = features.float().cpu().numpy().astype(np.float32)
    norms = np.linalg.norm(array, axis=1, keepdims=True)
    return array / np.maximum(norms, 1e-12)
