"""Speed of shuffles.v1 on the 29,000-line Multi30K train image list (prints measured figures).

    .venv/bin/python tests/bench/bench_shuffles.py [--quick]

* shuffles/s of the random policy (uniform rejection) against a plain ``numpy`` permutation (the anchor);
* the same with heavy reuse (Flickr30k-style 5 captions per image; one image on half the lines), where
  the swap repair takes over;
* the similar/dissimilar policies (assignment in blocks) on synthetic 512-d embeddings, with the
  nearest-neighbour bound no pairing can beat;
* one whole build (k=5, no features) with its wall time.

Uses ../shared/data/multi30k/train.images.txt when present, else 29,000 synthetic unique names.
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import numpy as np

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from builders.shuffles.derangement import (  # noqa: E402
    Shuffle,
    assignment_derangement,
    conflicts,
    content_groups,
    is_derangement,
    random_derangement,
)

SHARED = REPO.parent / "shared" / "data" / "multi30k"
T = TypeVar("T")


def train_names() -> tuple[list[str], str]:
    path = SHARED / "train.images.txt"
    if path.is_file():
        return path.read_text(encoding="utf-8").splitlines(), str(path)
    return [f"{i:09d}.jpg" for i in range(29_000)], "synthetic (shared data absent)"


def rate(function: Callable[[int], T], repeats: int) -> tuple[float, list[T]]:
    """Calls per second of function(seed) over ``repeats`` seeds, and the results."""
    started = time.perf_counter()
    results = [function(seed) for seed in range(repeats)]
    return repeats / (time.perf_counter() - started), results


def bench_random(label: str, groups: np.ndarray, repeats: int) -> None:
    per_second, shuffles = rate(lambda s: random_derangement(groups, np.random.default_rng(s)), repeats)
    plain, perms = rate(lambda s: np.random.default_rng(s).permutation(len(groups)), repeats)
    assert all(is_derangement(s.perm, groups) for s in shuffles)
    methods = ",".join(sorted({s.method for s in shuffles}))
    congruent = np.mean([conflicts(p, groups).size for p in perms])
    draws = np.mean([s.draws for s in shuffles])
    print(
        f"{label:<44} {per_second:9.1f} shuffles/s  (plain permutation {plain:9.1f}/s,"
        f" x{plain / per_second:.1f} faster; it leaves {congruent:.2f} congruent on average)"
        f"  method={methods} mean draws={draws:.2f}"
    )


def continuous_embeddings(n: int) -> np.ndarray:
    """Synthetic 512-d embeddings on a noisy 16-d subspace (neighbourhoods without hard clusters)."""
    rng = np.random.default_rng(0)
    low_rank = rng.standard_normal((n, 16)) @ rng.standard_normal((16, 512))
    vectors = low_rank + 0.3 * rng.standard_normal((n, 512))
    return (vectors / np.linalg.norm(vectors, axis=1, keepdims=True)).astype(np.float32)


def nearest_neighbour_bound(embeddings: np.ndarray, sample: int = 1000) -> float:
    """Mean cosine to each example's nearest other example (on a sample): no pairing can beat it."""
    rows = np.random.default_rng(1).choice(len(embeddings), size=sample, replace=False)
    scores = embeddings[rows] @ embeddings.T
    scores[np.arange(sample), rows] = -np.inf
    return float(scores.max(axis=1).mean())


def bench_policies(groups: np.ndarray, repeats: int) -> None:
    embeddings = continuous_embeddings(len(groups))
    random = random_derangement(groups, np.random.default_rng(0))
    baseline = np.einsum("ij,ij->i", embeddings, embeddings[random.perm]).mean()
    for most_similar, label in ((True, "similar"), (False, "dissimilar")):

        def draw(seed: int, most_similar: bool = most_similar) -> Shuffle:
            rng = np.random.default_rng(seed)
            return assignment_derangement(groups, embeddings, most_similar=most_similar, rng=rng)

        per_second, shuffles = rate(draw, repeats)
        assert all(is_derangement(s.perm, groups) for s in shuffles)
        cosine = np.einsum("ij,ij->i", embeddings, embeddings[shuffles[0].perm]).mean()
        print(f"{label + ' policy, blocks of 2048, 512-d':<44} {per_second:9.3f} shuffles/s  "
              f"(mean cosine to distractor {cosine:.3f}; random {baseline:.3f})")
    print(f"{'':<44} nearest-neighbour bound for similar: {nearest_neighbour_bound(embeddings):.3f}")


def bench_build(shuffles: int) -> None:
    from builders.shuffles.builder import ShufflesBuilder
    from builders.shuffles.config import ShufflesConfig

    if not SHARED.is_dir():
        print("whole build: skipped (../shared/data/multi30k absent)")
        return
    config = ShufflesConfig(name="bench", data_dir=str(SHARED), split="train", shuffles=shuffles)
    with tempfile.TemporaryDirectory() as out:
        started = time.perf_counter()
        ShufflesBuilder(config).build(out, overwrite=True, quiet=True)
        seconds = time.perf_counter() - started
    records = 29_000 * (shuffles + 1)
    print(f"whole build, train, k={shuffles} ({records} records): {seconds:.1f} s "
          f"({records / seconds:,.0f} records/s)")


def main() -> None:
    import os

    quick = "--quick" in sys.argv
    started = time.perf_counter()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs (figures are wall-clock)")
    names, source = train_names()
    print(f"image list: {source} ({len(names)} lines, {len(set(names))} distinct)")
    unique = content_groups(names)
    n = len(names)
    repeats = 5 if quick else 20
    bench_random("random, Multi30K train (unique images)", unique, repeats)
    five = np.random.default_rng(1).permutation(np.arange(n) // 5)
    bench_random("random, 5 captions per image", five, repeats)
    labels = np.concatenate([np.zeros(n // 2, dtype=np.int64), np.arange(1, n - n // 2 + 1)])
    half = np.random.default_rng(2).permutation(labels)
    bench_random("random, one image on half the lines", half, repeats)
    bench_policies(unique, 1)
    bench_build(2 if quick else 5)
    wall = time.perf_counter() - started
    print(f"CPU time {time.process_time():.1f} s of {wall:.1f} s wall (the rest: waiting for CPU or disk)")


if __name__ == "__main__":
    main()
