"""Derangements by content: permutations in which no example is paired with an image of its own content.

Examples are labelled with content groups (same image file, same file hash): ``perm[i]`` is the example whose
image example ``i`` receives, and a valid shuffle has ``groups[perm[i]] != groups[i]`` for every ``i``.

Existence (Hall's theorem): the ``s`` members of a group must all receive images from the ``n - s`` examples
outside it, so every group needs ``s <= n / 2``. That is also sufficient: sort the examples by group, largest
first, and shift by the largest group size ``m``; each group is a contiguous run of length ``<= m <= n - m``
and the shift moves every member past its own run without wrapping back into it (see ``shift_derangement``).

Random policy: draw uniform permutations and keep the first that is a derangement (exactly uniform over all
valid shuffles; a draw succeeds with probability about ``exp(-sum(s^2)/n)``, ~1/e with unique images). When
reuse makes that unlikely within ``max_draws`` draws, one permutation is repaired by swaps instead: a
conflicting ``i`` (group ``G``) is swapped with a ``j`` where neither ``j`` nor the image at ``j`` belong to
``G``. At most ``s`` examples have group ``G`` and at most ``s`` images have group ``G``, and ``i`` counts in
both, so at least ``n - 2s + 1 >= 1`` partners exist; each swap fixes ``i`` and never breaks ``j``, so the
repair ends after at most one swap per conflict (it changes only those few positions of a uniform draw).

Similar / dissimilar policies: an assignment problem (``scipy.optimize.linear_sum_assignment``) over cosine
scores with same-content pairs forbidden, exact up to ``block_size`` examples and in group-stratified random
blocks above it; a final repair guarantees the derangement whatever the blocks did.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import numpy as np

from builders.core.errors import MtprobesError

# Random draws tried before repairing (failure chance with unique images: (1 - 1/e)^64 ~ 2e-13).
DEFAULT_MAX_DRAWS = 64
# Random partners tried for one conflict before scanning all valid partners (the scan is O(n), always works).
_RANDOM_PARTNER_TRIES = 32
# Power iterations for the principal axis that splits similarity blocks (converged enough to split by).
_POWER_ITERATIONS = 8
_AXIS_SAMPLE = 1024


class DerangementImpossible(MtprobesError):
    """No permutation avoids same-content pairs: one content group covers more than half of the examples."""

    def __init__(self, group_size: int, total: int, group_label: str) -> None:
        self.group_size = group_size
        self.total = total
        self.group_label = group_label
        super().__init__(
            f"no incongruent shuffle exists: image {group_label} is used by {group_size} of {total} "
            f"examples, but every image may be used by at most half of them ({total // 2}) so that each "
            "example can receive an image of different content"
        )


@dataclass(frozen=True)
class Shuffle:
    """One derangement and how it was made ('rejection' = exactly uniform, 'repair', 'assignment').

    ``first_draw_conflicts``: examples the first plain permutation left with an image of their own content
    (what a shuffle without the derangement constraint would have kept congruent).
    """

    perm: np.ndarray
    method: str
    draws: int = 0
    repairs: int = 0
    first_draw_conflicts: int = 0


def content_groups(keys: Sequence[Hashable]) -> np.ndarray:
    """Integer labels (0..g-1, in order of first appearance) for content keys such as names or hashes."""
    labels: dict[Hashable, int] = {}
    return np.fromiter((labels.setdefault(k, len(labels)) for k in keys), dtype=np.int64, count=len(keys))


def check_feasible(groups: np.ndarray, describe: Sequence[str] | None = None) -> None:
    """Raise :class:`DerangementImpossible` naming the largest group when it covers more than half."""
    n = len(groups)
    if n == 0:
        raise MtprobesError("no examples to shuffle")
    sizes = np.bincount(groups)
    largest = int(sizes.argmax())
    if 2 * int(sizes[largest]) > n:
        first = int(np.flatnonzero(groups == largest)[0])
        label = repr(describe[first]) if describe is not None else f"group {largest}"
        raise DerangementImpossible(int(sizes[largest]), n, label)


def conflicts(perm: np.ndarray, groups: np.ndarray) -> np.ndarray:
    """Indices that receive an image of their own content."""
    return np.flatnonzero(groups[perm] == groups)


def expected_conflicts(groups: np.ndarray) -> float:
    """Mean number of examples a uniform permutation gives an image of their own content: sum(s^2) / n."""
    sizes = np.bincount(groups).astype(np.float64)
    return float((sizes**2).sum() / len(groups))


def is_derangement(perm: np.ndarray, groups: np.ndarray) -> bool:
    n = len(groups)
    is_permutation = perm.shape == (n,) and np.array_equal(np.sort(perm), np.arange(n))
    return bool(is_permutation and conflicts(perm, groups).size == 0)


def shift_derangement(groups: np.ndarray) -> np.ndarray:
    """The constructive derangement of the existence proof (deterministic; used as a reference in tests)."""
    check_feasible(groups)
    sizes = np.bincount(groups)
    order = np.lexsort((np.arange(len(groups)), groups, -sizes[groups]))
    shift = int(sizes.max())
    perm = np.empty(len(groups), dtype=np.int64)
    perm[order] = order[(np.arange(len(groups)) + shift) % len(groups)]
    return perm


def repair(perm: np.ndarray, groups: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, int]:
    """Swap conflicting positions with valid partners until none is left; returns (perm, swaps)."""
    perm = perm.copy()
    n = len(groups)
    swaps = 0
    for i in conflicts(perm, groups):
        group = groups[i]
        if groups[perm[i]] != group:  # fixed by an earlier swap
            continue
        partner = -1
        for j in rng.integers(0, n, size=_RANDOM_PARTNER_TRIES):
            if groups[j] != group and groups[perm[j]] != group:
                partner = int(j)
                break
        if partner < 0:
            valid = np.flatnonzero((groups != group) & (groups[perm] != group))
            if valid.size == 0:  # impossible when check_feasible passed (see the module docstring)
                raise MtprobesError(f"internal error: no swap partner for example {i}")
            partner = int(valid[rng.integers(valid.size)])
        perm[i], perm[partner] = perm[partner], perm[i]
        swaps += 1
    return perm, swaps


def random_derangement(
    groups: np.ndarray, rng: np.random.Generator, max_draws: int = DEFAULT_MAX_DRAWS
) -> Shuffle:
    """A uniform random derangement by content when a few draws find one, else a repaired permutation.

    A draw has no conflict with probability about ``exp(-expected_conflicts)``; when that makes success
    within ``max_draws`` unlikely (heavy reuse), the draws are skipped and the first permutation is repaired.
    """
    check_feasible(groups)
    n = len(groups)
    perm = rng.permutation(n)
    first_conflicts = int(conflicts(perm, groups).size)
    if expected_conflicts(groups) > math.log(max_draws):
        repaired, swaps = repair(perm, groups, rng)
        return Shuffle(repaired, "repair", draws=1, repairs=swaps, first_draw_conflicts=first_conflicts)
    for draw in range(1, max_draws + 1):
        if draw > 1:
            perm = rng.permutation(n)
        if conflicts(perm, groups).size == 0:
            return Shuffle(perm, "rejection", draws=draw, first_draw_conflicts=first_conflicts)
    repaired, swaps = repair(perm, groups, rng)
    return Shuffle(repaired, "repair", draws=max_draws, repairs=swaps, first_draw_conflicts=first_conflicts)


def stratified_blocks(groups: np.ndarray, block_size: int, rng: np.random.Generator) -> list[np.ndarray]:
    """Random blocks of at most ``block_size`` examples with every group spread evenly over them."""
    n = len(groups)
    count = -(-n // block_size)
    if count <= 1:
        return [np.arange(n)]
    shuffled = rng.permutation(n)
    sizes = np.bincount(groups)
    # Largest groups first, so dealing round-robin puts their members into different blocks.
    dealt = shuffled[np.lexsort((groups[shuffled], -sizes[groups[shuffled]]))]
    return [np.sort(dealt[b::count]) for b in range(count)]


def similarity_blocks(embeddings: np.ndarray, block_size: int, rng: np.random.Generator) -> list[np.ndarray]:
    """Blocks of at most ``block_size`` similar examples: recursive halving along the top principal axis.

    Keeps near neighbours together so the blockwise assignment of the similar policy loses little against
    the exact one (random blocks would split most nearest-neighbour pairs).
    """
    blocks: list[np.ndarray] = []
    pending = [np.arange(len(embeddings))]
    while pending:
        members = pending.pop()
        if len(members) <= block_size:
            blocks.append(np.sort(members))
            continue
        # The axis is estimated on a sample (plenty for a split direction); all members are projected on it.
        sample = embeddings[rng.choice(members, size=min(len(members), _AXIS_SAMPLE), replace=False)]
        centred = sample - sample.mean(axis=0)
        axis = rng.standard_normal((embeddings.shape[1],), dtype=np.float32)
        for _ in range(_POWER_ITERATIONS):
            axis = centred.T @ (centred @ axis)
            axis /= max(float(np.linalg.norm(axis)), 1e-12)
        projection = (embeddings @ axis)[members]  # a full product reads less memory than gathering rows
        ordered = members[np.argsort(projection, kind="stable")]
        pending += [ordered[: len(ordered) // 2], ordered[len(ordered) // 2 :]]
    return sorted(blocks, key=lambda block: int(block[0]))


def assignment_derangement(
    groups: np.ndarray,
    embeddings: np.ndarray,
    *,
    most_similar: bool,
    rng: np.random.Generator,
    block_size: int = 2048,
    forbidden: Sequence[np.ndarray] = (),
) -> Shuffle:
    """Derangement maximising (similar) or minimising (dissimilar) the total cosine to the distractor.

    ``embeddings`` must be L2-normalised rows. ``forbidden`` holds earlier shuffles whose pairs are avoided
    where possible, so successive shuffles give each example its next-best distractor.
    """
    from scipy.optimize import linear_sum_assignment

    check_feasible(groups)
    perm = np.arange(len(groups))
    if most_similar:
        blocks = similarity_blocks(embeddings, block_size, rng)
    else:  # any random block holds dissimilar pairs; stratifying keeps every block feasible
        blocks = stratified_blocks(groups, block_size, rng)
    for block in blocks:
        scores = embeddings[block] @ embeddings[block].T
        cost = -scores.astype(np.float64) if most_similar else scores.astype(np.float64)
        cost[groups[block][:, None] == groups[block][None, :]] = np.inf
        strict = cost.copy()
        position = np.full(len(groups), -1, dtype=np.int64)
        position[block] = np.arange(len(block))
        for earlier in forbidden:
            inside = position[earlier[block]]
            rows = np.flatnonzero(inside >= 0)
            strict[rows, inside[rows]] = np.inf
        columns = _solve(strict, linear_sum_assignment)
        if columns is None:
            columns = _solve(cost, linear_sum_assignment)
        if columns is not None:
            perm[block] = block[columns]
    perm, swaps = repair(perm, groups, rng)
    return Shuffle(perm, "assignment", repairs=swaps)


def _solve(cost: np.ndarray, solver: object) -> np.ndarray | None:
    try:
        rows, columns = solver(cost)  # type: ignore[operator]
    except ValueError:  # "cost matrix is infeasible": too many forbidden pairs in this block
        return None
    result = np.empty(len(rows), dtype=np.int64)
    result[rows] = columns
    return result
