"""Config of ``shuffles.v1``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from builders.core.config import BuildConfig
from builders.core.errors import ConfigError

Policy = Literal["random", "similar", "dissimilar"]


@dataclass
class ShufflesConfig(BuildConfig):
    # Input: Multi30K layout (<data_dir>/<split>.<src_lang|tgt_lang|images.txt>, .gz accepted), JSONL, or a
    # Hugging Face dataset folder (save_to_disk; `split` picks the split) with an image column.
    input_format: Literal["multi30k", "jsonl", "hf"] = "multi30k"
    data_dir: str = ""
    split: str = "test_2016_flickr"
    src_lang: str = "en"
    tgt_lang: str = "de"
    jsonl: str = ""
    hf_path: str = ""
    src_field: str = "src"
    ref_field: str = "ref"
    image_field: str = "image"
    # Optional image feature matrix (.npy, one row per line) and image folder (content = file hash).
    features: str = ""
    # Optional embeddings (.npy, e.g. CLIP) for the similar/dissimilar policies; default: the pooled features.
    embeddings: str = ""
    image_dir: str = ""
    # Shuffles.
    shuffles: int = 5
    policy: Policy = "random"
    max_draws: int = 64  # uniform rejection draws before the swap repair (random policy)
    block_size: int = 2048  # exact assignment up to this many examples, stratified blocks above
    # Baselines: mixup (features and, with image_dir, pixels) for the first `mixup_shuffles` shuffles.
    mixup_shuffles: int = 1
    mixup_images: bool = True

    def validate(self) -> None:
        # The input path is checked when a build starts (require_input): `mtprobes config` prints defaults.
        if not 1 <= self.shuffles <= 1000:
            raise ConfigError(f"config key 'shuffles': must be between 1 and 1000, got {self.shuffles}")
        if self.policy != "random" and not (self.features or self.embeddings):
            raise ConfigError(
                f"config key 'policy': {self.policy!r} ranks distractors by cosine and needs 'features' or "
                "'embeddings' (a .npy with one image vector per line)"
            )
        if self.max_draws < 1:
            raise ConfigError("config key 'max_draws': must be >= 1")
        if self.block_size < 2:
            raise ConfigError("config key 'block_size': must be >= 2")
        if not 0 <= self.mixup_shuffles <= self.shuffles:
            raise ConfigError(
                f"config key 'mixup_shuffles': must be between 0 and shuffles ({self.shuffles}), "
                f"got {self.mixup_shuffles}"
            )

    def require_input(self) -> None:
        """The input path the chosen format needs; called when a build starts."""
        key = {"multi30k": "data_dir", "jsonl": "jsonl", "hf": "hf_path"}[self.input_format]
        if not getattr(self, key):
            raise ConfigError(f"config key {key!r}: required when input_format is {self.input_format!r}")
