"""Config of commute_ext.v1 (every key can be overridden with ``--set key=value``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from builders.core.config import BuildConfig, setting
from builders.core.errors import ConfigError


@dataclass
class CommuteExtConfig(BuildConfig):
    data_dir: str = setting("", "CoMMuTE folder: src.en, correct.<tgt_lang>, incorrect.<tgt_lang>, img.order",
                            required="always")
    tgt_lang: str = setting("de", "target language code of the CoMMuTE files")
    image_dir: str = setting("", "CoMMuTE images; empty: <data_dir>/images")
    captions: str = setting("", "one caption per CoMMuTE line: .txt, or the .tsv of `mtprobes caption-template`",
                            required="always")
    missing_original: Literal["error", "drop"] = setting("error", "a missing or undecodable CoMMuTE image")
    collection: list[str] = setting(
        [], "image collections to retrieve from: folders, .tar shards, .parquet, .npz embeddings; globs ok",
        required="always")
    collection_format: Literal["auto", "folder", "webdataset", "parquet", "npz"] = setting(
        "auto", "format of the collections; auto: from each path")
    parquet_image_column: str = setting("", "parquet: image column; empty: detected")
    npz_features_key: str = setting("", "npz: key of the feature array; empty: detected")
    min_side: int = setting(64, "filter: smallest image side in pixels (paper value)")
    max_aspect: float = setting(2.5, "filter: largest long/short side ratio (paper value)")
    model: str = setting("ViT-B-32", "open_clip architecture, or local-dir:<folder>")
    pretrained: str = setting("laion2b_s34b_b79k", 'open_clip weights tag or local file; "" = random init (tests)')
    model_config_dir: str = setting("", "folder with a custom open_clip model config")
    init_seed: int = setting(0, "seed of a random-init model")
    device: Literal["auto", "cpu", "cuda"] = setting("auto", "where CLIP runs")
    precision: Literal["auto", "fp32", "fp16", "bf16"] = setting("auto", "CLIP precision (auto: fp32)")
    batch_size: int = setting(64, "images per CLIP batch")
    decode_workers: int = setting(0, "image decoding threads per embedding task (0: none)")
    embed_shard_size: int = setting(4096, "collection items per cached embedding shard (its batches run in parallel)")
    cache_dir: str = setting("", "embedding cache; empty: the work folder (kept for --resume, removed after)")
    index: Literal["auto", "flat", "exact-shards", "ivf", "hnsw"] = setting(
        "auto", "FAISS search: flat; exact-shards (exact top-k per store shard, merged; no index in RAM); "
        "ivf/hnsw approximate; auto: exact below index_threshold")
    index_threshold: int = setting(2_000_000, "collection size above which auto uses an approximate index")
    index_auto_kind: Literal["ivf", "hnsw"] = setting("ivf", "the approximate index auto chooses")
    ivf_nlist: int = setting(0, "IVF lists; 0: from the collection size")
    ivf_nprobe: int = setting(64, "IVF lists searched per query")
    hnsw_m: int = setting(32, "HNSW links per node")
    hnsw_ef_search: int = setting(128, "HNSW search breadth")
    recall_sample: int = setting(200, "queries checked against exact search to report recall (0: none)")
    candidates: int = setting(15, "images retrieved per translation before selection")
    per_translation: int = setting(4, "images kept per translation")
    near_duplicate_cosine: float = setting(0.95, "candidates closer than this to a kept image are dropped")
    selection: str = setting("", "JSON exported from the review page (overrides automatic selection)")
    export_images: bool = setting(False, "copy originals and selected images into commute/images/")
    review_thumbnail_px: int = setting(128, "thumbnail size on the review page")

    def validate(self) -> None:
        # Every missing input at once: a starting config from `mtprobes config commute_ext` lacks all three.
        missing = [repr(key) for key in ("data_dir", "captions") if not getattr(self, key)]
        if not self.collection:
            missing.append("'collection' (give at least one image collection)")
        if missing:
            raise ConfigError(f"config key {', '.join(missing)}: required")
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
