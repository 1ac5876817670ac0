"""Config of ``shuffles.v1``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from builders.core.config import BuildConfig, setting
from builders.core.errors import ConfigError

Policy = Literal["random", "similar", "dissimilar"]


@dataclass
class ShufflesConfig(BuildConfig):
    input_format: Literal["multi30k", "jsonl", "hf"] = setting(
        "multi30k", "multi30k: <data_dir>/<split>.<src_lang|tgt_lang|images.txt> (.gz accepted); jsonl; "
        "hf: a Hugging Face dataset folder (save_to_disk) with an image column")
    data_dir: str = setting("", "Multi30K folder", required="input_format multi30k")
    split: str = setting("test_2016_flickr", "split name (file prefix in multi30k, split in hf)")
    src_lang: str = setting("en", "source language code")
    tgt_lang: str = setting("de", "target language code")
    jsonl: str = setting("", "one object per line with the src/ref/image fields named below",
                         required="input_format jsonl")
    hf_path: str = setting("", "dataset folder written by save_to_disk", required="input_format hf")
    src_field: str = setting("src", "source field name (jsonl, hf)")
    ref_field: str = setting("ref", "reference field name (jsonl, hf)")
    image_field: str = setting("image", "image field name (jsonl, hf)")
    features: str = setting("", "optional image feature matrix (.npy, one row per line)")
    embeddings: str = setting("", "optional embeddings (.npy, e.g. CLIP) for similar/dissimilar; default: features")
    image_dir: str = setting("", "optional image folder (an image's identity is its file hash)")
    shuffles: int = setting(5, "number of incongruent pairings (derangements) drawn")
    policy: Policy = setting("random", "random, or similar/dissimilar distractors by cosine (needs features)")
    max_draws: int = setting(64, "uniform rejection draws before the swap repair (random policy)")
    block_size: int = setting(2048, "exact assignment up to this many examples, stratified blocks above")
    mixup_shuffles: int = setting(1, "the first N shuffles also get mixup baselines")
    mixup_images: bool = setting(True, "mixup also blends pixels when image_dir is given")

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
