"""The global pre-pass of ``shuffles.v1``: read inputs, group images by content, draw every shuffle."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from builders.core.context import BuildContext
from builders.core.errors import ConfigError, InputError
from builders.shuffles.config import ShufflesConfig
from builders.shuffles.derangement import (
    DerangementImpossible,
    Shuffle,
    assignment_derangement,
    check_feasible,
    content_groups,
    expected_conflicts,
    random_derangement,
)
from builders.shuffles.readers import (
    ImageTextSet,
    hash_images,
    load_features,
    read_jsonl,
    read_multi30k,
    resolve_image_files,
    unit_embeddings,
)
from builders.shuffles.readers_hf import read_hf


@dataclass
class ShufflePlan:
    data: ImageTextSet
    split: str
    sha256: list[str | None]  # per example, None without image files
    content_keys: list[str]  # "sha256:<hex>" or "name:<file name>"
    groups: np.ndarray
    uses: np.ndarray  # per example: how many examples show the same content
    image_sources: list[Path | bytes] = field(default_factory=list)  # per example; empty without images
    features: np.ndarray | None = None
    embeddings: np.ndarray | None = None
    seeds: list[int] = field(default_factory=list)
    shuffles: list[Shuffle] = field(default_factory=list)

    def cosines(self, perm: np.ndarray) -> np.ndarray | None:
        if self.embeddings is None:
            return None
        return np.einsum("ij,ij->i", self.embeddings, self.embeddings[perm]).astype(np.float64)


_READERS: dict[str, Callable[[ShufflesConfig], ImageTextSet]] = {
    "multi30k": lambda c: read_multi30k(Path(c.data_dir), c.split, c.src_lang, c.tgt_lang),
    "jsonl": lambda c: read_jsonl(Path(c.jsonl), c.src_field, c.ref_field, c.image_field),
    "hf": lambda c: read_hf(Path(c.hf_path), c.split, c.src_field, c.ref_field, c.image_field),
}


def output_split(config: ShufflesConfig) -> str:
    """The HF split name: the Multi30K or HF input split (made a valid split name), ``test`` for JSONL."""
    if config.input_format == "jsonl":
        return "test"
    cleaned = "".join(ch if ch.isalnum() or ch == "_" else "_" for ch in config.split)
    return cleaned or "test"


def shuffle_seed(ctx: BuildContext, index: int) -> int:
    """The seed of shuffle ``index``: ``numpy.random.default_rng(seed)`` redraws it on its own."""
    return int(ctx.rng("shuffle", index).integers(0, 2**32))


def prepare(config: ShufflesConfig, ctx: BuildContext) -> ShufflePlan:
    config.require_input()
    data = _READERS[config.input_format](config)
    for path in data.inputs:
        ctx.add_input(path)
    sources, sha = _image_sources(data, config, ctx)
    keys = [f"sha256:{s}" if s else f"name:{name}" for s, name in zip(sha, data.images, strict=True)]
    groups = content_groups(keys)
    try:
        check_feasible(groups, data.images)
    except DerangementImpossible as err:
        raise InputError(data.image_list, str(err)) from None
    uses = np.bincount(groups)[groups]
    plan = ShufflePlan(data, output_split(config), sha, keys, groups, uses, sources)
    _load_vectors(plan, config, ctx)
    _draw_shuffles(plan, config, ctx)
    ctx.notes.update(statistics(plan, config))
    return plan


def _image_sources(
    data: ImageTextSet, config: ShufflesConfig, ctx: BuildContext
) -> tuple[list[Path | bytes], list[str | None]]:
    """Per example: the image (embedded bytes, or a file under image_dir) and its sha256; none without."""
    if data.embedded is not None:
        if config.image_dir:
            raise ConfigError(
                f"config key 'image_dir': the image column of {data.image_list} already holds the image "
                "bytes; leave image_dir empty"
            )
        return list(data.embedded), [hashlib.sha256(b).hexdigest() for b in data.embedded]
    if not config.image_dir:
        return [], [None] * len(data)
    files = resolve_image_files(data, Path(config.image_dir))
    hashes = hash_images(files)
    listing = "\n".join(f"{name}\t{digest}" for name, digest in sorted(hashes.items()))
    digest = hashlib.sha256(listing.encode()).hexdigest()
    ctx.inputs[f"{config.image_dir} ({len(hashes)} image files)"] = digest
    return [files[name] for name in data.images], [hashes[name] for name in data.images]


def _load_vectors(plan: ShufflePlan, config: ShufflesConfig, ctx: BuildContext) -> None:
    if config.features:
        path = ctx.add_input(config.features)
        plan.features = load_features(path, plan.data)
        plan.embeddings = unit_embeddings(plan.features, path)
    if config.embeddings:
        path = ctx.add_input(config.embeddings)
        plan.embeddings = unit_embeddings(load_features(path, plan.data), path)


def _draw_shuffles(plan: ShufflePlan, config: ShufflesConfig, ctx: BuildContext) -> None:
    for index in range(1, config.shuffles + 1):
        seed = shuffle_seed(ctx, index)
        rng = np.random.default_rng(seed)
        if config.policy == "random":
            shuffle = random_derangement(plan.groups, rng, config.max_draws)
        else:
            assert plan.embeddings is not None  # the config requires features or embeddings for this policy
            shuffle = assignment_derangement(
                plan.groups,
                plan.embeddings,
                most_similar=config.policy == "similar",
                rng=rng,
                block_size=config.block_size,
                forbidden=[s.perm for s in plan.shuffles],
            )
        plan.seeds.append(seed)
        plan.shuffles.append(shuffle)


def statistics(plan: ShufflePlan, config: ShufflesConfig) -> dict[str, Any]:
    """Figures for info.json and the card: reuse, per-shuffle method, reused distractors, mean cosine."""
    n = len(plan.data)
    reused = plan.uses > 1
    per_shuffle: dict[str, dict[str, Any]] = {}
    for index, (seed, shuffle) in enumerate(zip(plan.seeds, plan.shuffles, strict=True), start=1):
        cosines = plan.cosines(shuffle.perm)
        per_shuffle[f"random{index}"] = {
            "seed": seed,
            "method": shuffle.method,
            "draws": shuffle.draws,
            "repair_swaps": shuffle.repairs,
            "first_draw_congruent": None if shuffle.method == "assignment" else shuffle.first_draw_conflicts,
            "share_distractor_reused": round(float(reused[shuffle.perm].mean()), 6),
            "mean_cosine_to_distractor": None if cosines is None else round(float(cosines.mean()), 6),
        }
    means = [s["mean_cosine_to_distractor"] for s in per_shuffle.values()]
    return {
        "policy": config.policy,
        "content_key": "sha256 of the image file" if plan.image_sources else "image file name",
        "examples": n,
        "distinct_images": int(plan.groups.max()) + 1,
        "reused_images": int((np.bincount(plan.groups) > 1).sum()),
        "share_examples_with_reused_image": round(float(reused.mean()), 6),
        # A plain uniform permutation (the anchor code) leaves sum(s^2)/n examples congruent on average.
        "expected_congruent_plain_permutation": round(expected_conflicts(plan.groups), 6),
        "seeds": {name: s["seed"] for name, s in per_shuffle.items()},
        "shuffles": per_shuffle,
        "mean_cosine_to_distractor": None if None in means else round(float(np.mean(means)), 6),
        "mean_cosine_any_pair": _mean_pair_cosine(plan.embeddings),
    }


def _mean_pair_cosine(embeddings: np.ndarray | None) -> float | None:
    """Mean cosine over all ordered pairs of distinct examples: the level a random pairing sits at."""
    if embeddings is None or len(embeddings) < 2:
        return None
    n = len(embeddings)
    total = embeddings.sum(axis=0, dtype=np.float64)
    self_similarity = float((np.linalg.norm(embeddings, axis=1) ** 2).sum())
    return round((float(total @ total) - self_similarity) / (n * (n - 1)), 6)
