"""Config of commute_ext.v1 (every key can be overridden with ``--set key=value``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from builders.core.config import BuildConfig
from builders.core.errors import ConfigError


@dataclass
class CommuteExtConfig(BuildConfig):
    # CoMMuTE input: the folder with src.en, correct.<tgt_lang>, incorrect.<tgt_lang>, img.order
    data_dir: str = ""
    tgt_lang: str = "de"
    image_dir: str = ""  # "" = <data_dir>/images
    captions: str = ""  # one caption per CoMMuTE line: .txt, or the .tsv written by `mtprobes caption-template`
    missing_original: Literal["error", "drop"] = "error"  # a missing or undecodable CoMMuTE image
    # image collection to retrieve from (folders, .tar webdataset shards, .parquet, .npz embeddings; globs ok)
    collection: list[str] = field(default_factory=list)
    collection_format: Literal["auto", "folder", "webdataset", "parquet", "npz"] = "auto"
    parquet_image_column: str = ""
    npz_features_key: str = ""
    # filters (paper values)
    min_side: int = 64
    max_aspect: float = 2.5
    # open_clip model (paper: ViT-B-32 / laion2b_s34b_b79k); pretrained "" = random init (tests only)
    model: str = "ViT-B-32"
    pretrained: str = "laion2b_s34b_b79k"
    model_config_dir: str = ""
    init_seed: int = 0
    device: Literal["auto", "cpu", "cuda"] = "auto"
    precision: Literal["auto", "fp32", "fp16", "bf16"] = "auto"
    batch_size: int = 64
    decode_workers: int = 0
    embed_shard_size: int = 4096
    cache_dir: str = ""  # "" = inside the build's work folder (kept for --resume, removed after success)
    # FAISS index
    # exact-shards: exact top-k per store shard merged globally (same rows as one flat index, no index in RAM
    # beyond the store); ivf/hnsw: approximate, for stores that do not fit
    index: Literal["auto", "flat", "exact-shards", "ivf", "hnsw"] = "auto"
    # exact search stays cheap for the few hundred caption queries of CoMMuTE: approximate only for huge collections
    index_threshold: int = 2_000_000
    index_auto_kind: Literal["ivf", "hnsw"] = "ivf"
    ivf_nlist: int = 0
    ivf_nprobe: int = 64
    hnsw_m: int = 32
    hnsw_ef_search: int = 128
    recall_sample: int = 200
    # selection
    candidates: int = 15
    per_translation: int = 4
    near_duplicate_cosine: float = 0.95
    selection: str = ""  # JSON exported from the review page
    # extras
    export_images: bool = False  # copy originals + selected images into commute/images/ (img.order then points there)
    review_thumbnail_px: int = 128

    def validate(self) -> None:
        for key in ("data_dir", "captions"):
            if not getattr(self, key):
                raise ConfigError(f"config key {key!r}: required")
        if not self.collection:
            raise ConfigError("config key 'collection': give at least one image collection")
        positive = ("min_side", "batch_size", "embed_shard_size", "candidates", "per_translation",
                    "review_thumbnail_px", "index_threshold", "ivf_nprobe", "hnsw_m", "hnsw_ef_search")
        for key in positive:
            if getattr(self, key) < 1:
                raise ConfigError(f"config key {key!r}: must be >= 1")
        if self.per_translation > self.candidates:
            raise ConfigError("config key 'per_translation': cannot exceed 'candidates'")
        if self.max_aspect < 1:
            raise ConfigError("config key 'max_aspect': must be >= 1 (long side / short side)")
        if not -1 <= self.near_duplicate_cosine <= 1:
            raise ConfigError("config key 'near_duplicate_cosine': must be in [-1, 1]")
        if self.decode_workers < 0 or self.recall_sample < 0 or self.ivf_nlist < 0:
            raise ConfigError("config keys 'decode_workers', 'recall_sample', 'ivf_nlist': must be >= 0")
