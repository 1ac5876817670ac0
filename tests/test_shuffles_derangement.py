"""Properties of the derangement algorithms of shuffles.v1, on seeded random and exhaustive small cases."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import numpy as np
import pytest

from builders.shuffles.derangement import (
    DerangementImpossible,
    assignment_derangement,
    check_feasible,
    conflicts,
    content_groups,
    is_derangement,
    random_derangement,
    repair,
    shift_derangement,
    similarity_blocks,
    stratified_blocks,
)


def groups_from_sizes(sizes: list[int], seed: int) -> np.ndarray:
    """Labels with the given group sizes, in a seeded random order."""
    labels = np.repeat(np.arange(len(sizes)), sizes)
    return np.random.default_rng(seed).permutation(labels)


def random_sizes(n: int, seed: int, max_share: float) -> list[int]:
    """Random group sizes summing to n with no group above max_share * n (>= 1)."""
    rng = np.random.default_rng(seed)
    cap = max(1, int(max_share * n))
    sizes: list[int] = []
    while sum(sizes) < n:
        sizes.append(int(min(rng.integers(1, cap + 1), n - sum(sizes))))
    return sizes


# (label, group sizes): unique images, Flickr30k-style 5 captions per image, one group at exactly half,
# two halves (only cross pairs allowed), odd n with the largest group at floor(n/2), seeded random reuse.
CASES: list[tuple[str, list[int]]] = [
    ("two unique", [1, 1]),
    ("three unique", [1, 1, 1]),
    ("unique 1000", [1] * 1000),
    ("five captions per image", [5] * 100),
    ("one group at half", [50] + [1] * 50),
    ("two halves", [4, 4]),
    ("odd n, largest floor(n/2)", [4, 3, 2]),
    ("heavy random reuse", random_sizes(400, seed=3, max_share=0.45)),
    ("light random reuse", random_sizes(400, seed=4, max_share=0.02)),
    ("half plus many pairs", [200] + [2] * 100),
]


@pytest.mark.parametrize(("label", "sizes"), CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("seed", [0, 1, 2, 12345])
def test_random_derangement_is_a_derangement_by_content(label: str, sizes: list[int], seed: int) -> None:
    groups = groups_from_sizes(sizes, seed)
    shuffle = random_derangement(groups, np.random.default_rng(seed))
    assert is_derangement(shuffle.perm, groups), label
    again = random_derangement(groups, np.random.default_rng(seed))
    assert np.array_equal(shuffle.perm, again.perm), "same seed must give the same shuffle"


@pytest.mark.parametrize(("label", "sizes"), CASES, ids=[c[0] for c in CASES])
def test_repair_fixes_any_starting_permutation(label: str, sizes: list[int]) -> None:
    """The swap repair works from the worst start (identity: every example congruent) and a random one."""
    groups = groups_from_sizes(sizes, 7)
    n = len(groups)
    for start in (np.arange(n), np.random.default_rng(8).permutation(n)):
        fixed, swaps = repair(start, groups, np.random.default_rng(9))
        assert is_derangement(fixed, groups), label
        assert swaps <= conflicts(start, groups).size


@pytest.mark.parametrize(("label", "sizes"), CASES, ids=[c[0] for c in CASES])
def test_shift_construction_of_the_existence_proof(label: str, sizes: list[int]) -> None:
    groups = groups_from_sizes(sizes, 11)
    assert is_derangement(shift_derangement(groups), groups), label


def test_repair_path_is_used_and_valid_when_draws_run_out() -> None:
    groups = groups_from_sizes([150] + [1] * 150, 5)  # a plain permutation leaves ~75 congruent
    shuffle = random_derangement(groups, np.random.default_rng(0), max_draws=3)
    assert shuffle.method == "repair"
    assert shuffle.first_draw_conflicts > 0
    assert is_derangement(shuffle.perm, groups)


def test_feasibility_matches_brute_force_for_every_labelling_up_to_six() -> None:
    """check_feasible (largest group <= n/2) agrees with an exhaustive search over all permutations."""
    for n in range(1, 7):
        permutations = [np.array(p) for p in itertools.permutations(range(n))]
        for labels in itertools.product(range(n), repeat=n):
            groups = content_groups(labels)
            if labels != tuple(int(g) for g in groups):  # one canonical labelling per partition
                continue
            exists = any(is_derangement(p, groups) for p in permutations)
            try:
                check_feasible(groups)
                feasible = True
            except DerangementImpossible:
                feasible = False
            assert feasible == exists, labels


@pytest.mark.parametrize(
    ("names", "message"),
    [
        (["a.jpg"], "1 of 1"),
        (["a.jpg", "a.jpg", "b.jpg"], "2 of 3"),
        (["x.jpg", "a.jpg", "a.jpg", "a.jpg", "b.jpg", "c.jpg", "a.jpg"], "'a.jpg' is used by 4 of 7"),
    ],
)
def test_impossible_cases_raise_naming_the_image(names: list[str], message: str) -> None:
    groups = content_groups(names)
    with pytest.raises(DerangementImpossible, match=message):
        check_feasible(groups, names)
    with pytest.raises(DerangementImpossible):
        random_derangement(groups, np.random.default_rng(0))


@pytest.mark.parametrize(
    "names",
    [["a", "b", "c", "d"], ["a", "a", "b", "c"], ["a", "a", "b", "b"], ["a", "b", "c", "d", "e"]],
)
def test_rejection_is_uniform_over_all_valid_shuffles(names: list[str]) -> None:
    """Every valid shuffle is drawn, with frequencies a chi-square test cannot tell from uniform."""
    groups = content_groups(names)
    valid = [p for p in itertools.permutations(range(len(names))) if is_derangement(np.array(p), groups)]
    draws = 300 * len(valid)
    counts = Counter(
        tuple(int(x) for x in random_derangement(groups, np.random.default_rng(seed)).perm)
        for seed in range(draws)
    )
    assert set(counts) == set(valid)
    expected = draws / len(valid)
    chi_square = sum((counts[p] - expected) ** 2 / expected for p in valid)
    degrees = len(valid) - 1
    # Wilson-Hilferty upper 99.99% quantile of chi-square (z = 3.72): fails only on a real bias.
    bound = degrees * (1 - 2 / (9 * degrees) + 3.72 * math.sqrt(2 / (9 * degrees))) ** 3 if degrees else 0.0
    assert chi_square <= bound


def clustered_embeddings(n: int, clusters: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((clusters, 32))
    vectors = centres[rng.integers(0, clusters, n)] + 0.3 * rng.standard_normal((n, 32))
    return (vectors / np.linalg.norm(vectors, axis=1, keepdims=True)).astype(np.float32)


def mean_cosine(embeddings: np.ndarray, perm: np.ndarray) -> float:
    return float(np.einsum("ij,ij->i", embeddings, embeddings[perm]).mean())


@pytest.mark.parametrize(("n", "block_size"), [(120, 2048), (300, 64)])
def test_similar_and_dissimilar_order_the_mean_cosine(n: int, block_size: int) -> None:
    embeddings = clustered_embeddings(n, clusters=6, seed=n)
    groups = groups_from_sizes(random_sizes(n, seed=n, max_share=0.05), seed=n)
    similar = assignment_derangement(
        groups, embeddings, most_similar=True, rng=np.random.default_rng(1), block_size=block_size
    )
    dissimilar = assignment_derangement(
        groups, embeddings, most_similar=False, rng=np.random.default_rng(1), block_size=block_size
    )
    random = random_derangement(groups, np.random.default_rng(1))
    for shuffle in (similar, dissimilar):
        assert is_derangement(shuffle.perm, groups)
    assert mean_cosine(embeddings, similar.perm) > mean_cosine(embeddings, random.perm) + 0.2
    assert mean_cosine(embeddings, dissimilar.perm) < mean_cosine(embeddings, random.perm) - 0.2


def test_similar_is_the_optimal_assignment_on_a_small_case() -> None:
    """Exhaustive check: no derangement by content has a larger total cosine than the one returned."""
    embeddings = clustered_embeddings(7, clusters=3, seed=5)
    groups = content_groups(["a", "a", "b", "c", "d", "e", "f"])
    best = max(
        (np.array(p) for p in itertools.permutations(range(7)) if is_derangement(np.array(p), groups)),
        key=lambda p: mean_cosine(embeddings, p),
    )
    found = assignment_derangement(groups, embeddings, most_similar=True, rng=np.random.default_rng(0))
    assert mean_cosine(embeddings, found.perm) == pytest.approx(mean_cosine(embeddings, best), abs=1e-6)


def test_successive_assignment_shuffles_avoid_earlier_pairs() -> None:
    embeddings = clustered_embeddings(60, clusters=4, seed=2)
    groups = groups_from_sizes([2] * 30, seed=2)
    earlier: list[np.ndarray] = []
    for _ in range(3):
        shuffle = assignment_derangement(
            groups, embeddings, most_similar=True, rng=np.random.default_rng(0), forbidden=earlier
        )
        assert is_derangement(shuffle.perm, groups)
        for previous in earlier:
            assert not np.any(previous == shuffle.perm)
        earlier.append(shuffle.perm)


def test_stratified_blocks_partition_and_spread_groups() -> None:
    groups = groups_from_sizes([40] + [1] * 60, seed=1)
    blocks = stratified_blocks(groups, block_size=25, rng=np.random.default_rng(0))
    assert sorted(np.concatenate(blocks).tolist()) == list(range(100))
    assert all(len(b) <= 25 for b in blocks)
    assert all(np.sum(groups[b] == 0) == 10 for b in blocks)  # the big group dealt evenly over 4 blocks


def test_similarity_blocks_keep_neighbours_together() -> None:
    """Blockwise similar pairing on continuous embeddings stays near the exact one; random blocks do not."""
    rng = np.random.default_rng(3)
    low_rank = rng.standard_normal((800, 8)) @ rng.standard_normal((8, 64))
    vectors = low_rank + 0.3 * rng.standard_normal((800, 64))
    embeddings = (vectors / np.linalg.norm(vectors, axis=1, keepdims=True)).astype(np.float32)
    blocks = similarity_blocks(embeddings, 100, np.random.default_rng(0))
    assert sorted(np.concatenate(blocks).tolist()) == list(range(800))
    assert all(len(b) <= 100 for b in blocks)
    groups = np.arange(800)

    def similar_mean(vectors: np.ndarray, block_size: int) -> float:
        labels = groups[: len(vectors)]
        shuffle = assignment_derangement(
            labels, vectors, most_similar=True, rng=np.random.default_rng(0), block_size=block_size
        )
        return mean_cosine(vectors, shuffle.perm)

    exact_mean, blocked_mean = similar_mean(embeddings, 800), similar_mean(embeddings, 100)
    random_blocks = stratified_blocks(groups, 100, np.random.default_rng(0))
    random_blocks_mean = float(np.mean([similar_mean(embeddings[b], 100) for b in random_blocks]))
    assert blocked_mean <= exact_mean + 1e-9
    assert exact_mean - blocked_mean < 0.5 * (exact_mean - random_blocks_mean)
