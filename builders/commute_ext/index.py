"""FAISS index over the stored embeddings (inner product = cosine on L2-normalised vectors).

Exact flat search by default; above ``auto_threshold`` vectors an IVF or HNSW index, whose recall@k against
exact search is measured on a seeded sample of queries and reported. A GPU copy is used for search when
FAISS sees a GPU (faiss-gpu builds); the CPU index is what is saved, so a saved index loads anywhere.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from builders.core.atomic import atomic_path, write_text

if TYPE_CHECKING:
    import numpy as np

    from .store import StoreView


@dataclass(frozen=True)
class IndexSettings:
    kind: str = "auto"  # auto | flat | exact-shards | ivf | hnsw
    auto_threshold: int = 2_000_000  # auto picks flat below this many vectors
    auto_kind: str = "ivf"  # what auto picks above the threshold
    ivf_nlist: int = 0  # 0 = 4 * sqrt(n), at most n / 39 (FAISS wants ~39 training points per list)
    ivf_nprobe: int = 64
    hnsw_m: int = 32
    hnsw_ef_construction: int = 80
    hnsw_ef_search: int = 128
    recall_sample: int = 200
    recall_k: int = 15
    seed: int = 0

    def chosen_kind(self, n: int) -> str:
        if self.kind != "auto":
            return self.kind
        return "flat" if n < self.auto_threshold else self.auto_kind


def _ivf_lists(n: int, settings: IndexSettings) -> int:
    if settings.ivf_nlist:
        return min(settings.ivf_nlist, max(1, n))
    return max(1, min(int(4 * n**0.5), n // 39))


def _new_flat(dim: int) -> Any:
    import faiss

    return faiss.IndexFlatIP(dim)


def _new_ivf(dim: int, n: int, settings: IndexSettings) -> Any:
    import faiss

    index = faiss.IndexIVFFlat(faiss.IndexFlatIP(dim), dim, _ivf_lists(n, settings), faiss.METRIC_INNER_PRODUCT)
    index.cp.seed = settings.seed  # k-means initialisation is seeded: same data, same index
    index.nprobe = settings.ivf_nprobe
    return index


def _new_hnsw(dim: int, settings: IndexSettings) -> Any:
    import faiss

    index = faiss.IndexHNSWFlat(dim, settings.hnsw_m, faiss.METRIC_INNER_PRODUCT)
    index.hnsw.efConstruction = settings.hnsw_ef_construction
    index.hnsw.efSearch = settings.hnsw_ef_search
    return index


class ExactShards:
    """Exact inner-product search over the shards of a store: a FAISS flat top-k per shard, merged globally.

    Each ``add`` is one shard (a store block, which may live on another machine's shared storage). The merged
    candidates are re-scored in float64 and ordered by (score desc, row asc), so the result does not depend on
    how the store is sharded, nor on float32 rounding or FAISS's order among equal scores: it is the exact
    top-k of one flat index over the whole store, with ties broken by the lower row.
    """

    is_trained = True

    def __init__(self, dim: int) -> None:
        self.dim = dim
        self.shards: list[Any] = []
        self.vectors: list[np.ndarray] = []

    @property
    def ntotal(self) -> int:
        return sum(len(v) for v in self.vectors)

    def add(self, block: np.ndarray) -> None:
        flat = _new_flat(self.dim)
        flat.add(block)
        self.shards.append(flat)
        self.vectors.append(block)

    def search(self, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        import numpy as np

        # a margin beyond k: rows whose float32 score ties or nearly ties the k-th are re-scored as well
        per_shard = k + 8
        ids, start = [], 0
        for flat, vectors in zip(self.shards, self.vectors, strict=True):
            _, found = flat.search(queries, min(per_shard, len(vectors)))
            ids.append(np.where(found >= 0, found + start, -1))
            start += len(vectors)
        candidates = np.concatenate(ids, axis=1)
        store = np.concatenate(self.vectors) if len(self.vectors) > 1 else self.vectors[0]
        exact = np.einsum("qd,qcd->qc", queries.astype(np.float64),
                          store[np.maximum(candidates, 0)].astype(np.float64))
        exact[candidates < 0] = -np.inf
        order = np.lexsort((candidates, -exact), axis=1)[:, :k]
        return (np.take_along_axis(exact, order, axis=1).astype(np.float32),
                np.take_along_axis(candidates, order, axis=1))


FACTORIES: dict[str, Callable[[int, int, IndexSettings], Any]] = {
    "flat": lambda dim, _n, _s: _new_flat(dim),
    "exact-shards": lambda dim, _n, _s: ExactShards(dim),
    "ivf": _new_ivf,
    "hnsw": lambda dim, _n, s: _new_hnsw(dim, s),
}
# Indexes that are only a view of the store: nothing to train, nothing to save.
STORE_VIEWS = frozenset({"exact-shards"})


def build_index(vectors_by_block: list[np.ndarray], dim: int, settings: IndexSettings) -> Any:
    """A CPU index over the blocks (added block by block, so the store need not fit in memory twice)."""
    import numpy as np

    n = sum(len(block) for block in vectors_by_block)
    kind = settings.chosen_kind(n)
    index = FACTORIES[kind](dim, n, settings)
    if not index.is_trained:
        index.train(_training_sample(vectors_by_block, n, settings))
    for block in vectors_by_block:
        if len(block):
            index.add(np.ascontiguousarray(block, dtype=np.float32))
    return index


def _training_sample(blocks: list[np.ndarray], n: int, settings: IndexSettings) -> np.ndarray:
    import numpy as np

    wanted = min(n, 256 * 1024)  # FAISS itself samples at most 256 points per list
    rows = np.sort(np.random.default_rng(settings.seed).choice(n, size=wanted, replace=False))
    offsets = np.cumsum([0] + [len(b) for b in blocks])
    parts = [blocks[b][rows[(rows >= offsets[b]) & (rows < offsets[b + 1])] - offsets[b]] for b in range(len(blocks))]
    return np.ascontiguousarray(np.concatenate(parts), dtype=np.float32)


def for_search(index: Any) -> Any:
    """A GPU copy when FAISS has GPUs (flat and IVF; HNSW has no GPU version), else the index itself."""
    from builders.core.compat import faiss_gpus

    if faiss_gpus() <= 0 or "HNSW" in type(index).__name__ or isinstance(index, ExactShards):
        return index
    import faiss

    return faiss.index_cpu_to_all_gpus(index)


def search(index: Any, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """(scores, row ids), best first; k is capped at the index size."""
    import numpy as np

    k = min(k, int(index.ntotal))
    if k == 0:
        return np.zeros((len(queries), 0), np.float32), np.zeros((len(queries), 0), np.int64)
    scores, ids = index.search(np.ascontiguousarray(queries, dtype=np.float32), k)
    return scores, ids


def brute_force_topk(vectors: np.ndarray, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Exact top-k by inner product in numpy: the reference FAISS results are checked against."""
    import numpy as np

    scores = np.asarray(queries, np.float32) @ np.asarray(vectors, np.float32).T
    k = min(k, scores.shape[1])
    top = np.argpartition(-scores, k - 1, axis=1)[:, :k] if k < scores.shape[1] else np.tile(
        np.arange(scores.shape[1]), (len(scores), 1))
    top_scores = np.take_along_axis(scores, top, axis=1)
    order = np.lexsort((top, -top_scores), axis=1)  # best score first, lower id on ties
    return np.take_along_axis(top_scores, order, axis=1), np.take_along_axis(top, order, axis=1)


def exact_topk_blocks(blocks: list[np.ndarray], queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Exact top-k over a store block by block (memory stays at one block of scores)."""
    import numpy as np

    best_scores = np.zeros((len(queries), 0), np.float32)
    best_ids = np.zeros((len(queries), 0), np.int64)
    start = 0
    for block in blocks:
        if len(block):
            scores, ids = brute_force_topk(block, queries, k)
            best_scores = np.concatenate([best_scores, scores], axis=1)
            best_ids = np.concatenate([best_ids, ids + start], axis=1)
            order = np.lexsort((best_ids, -best_scores), axis=1)[:, :k]
            best_scores = np.take_along_axis(best_scores, order, axis=1)
            best_ids = np.take_along_axis(best_ids, order, axis=1)
        start += len(block)
    return best_scores, best_ids


def measure_recall(index: Any, blocks: list[np.ndarray], settings: IndexSettings) -> float:
    """recall@k of ``index`` against exact search, on stored vectors perturbed by seeded noise as queries."""
    import numpy as np

    n = sum(len(b) for b in blocks)
    rng = np.random.default_rng(settings.seed + 1)
    sample = min(settings.recall_sample, n)
    if sample == 0:
        return 1.0
    offsets = np.cumsum([0] + [len(b) for b in blocks])
    rows = np.sort(rng.choice(n, size=sample, replace=False))
    block_of = np.searchsorted(offsets, rows, side="right") - 1
    queries = np.stack([blocks[b][r - offsets[b]] for b, r in zip(block_of, rows, strict=True)]).astype(np.float32)
    # noise of norm ~0.5: queries near the data but not on it, as caption queries are
    queries = queries + rng.normal(0, 0.5 / queries.shape[1] ** 0.5, queries.shape).astype(np.float32)
    queries /= np.linalg.norm(queries, axis=1, keepdims=True)
    _, exact = exact_topk_blocks(blocks, queries, settings.recall_k)
    _, found = search(index, queries, settings.recall_k)
    hits = sum(len(set(e.tolist()) & set(f.tolist())) for e, f in zip(exact, found, strict=True))
    return hits / exact.size


def recall_on_queries(blocks: list[np.ndarray], queries: np.ndarray, found: np.ndarray, k: int, sample: int,
                      seed: int) -> float:
    """recall@k of results already found for real queries (e.g. the captions) against exact search."""
    import numpy as np

    rows = np.sort(np.random.default_rng(seed).choice(len(queries), size=min(sample, len(queries)), replace=False))
    if len(rows) == 0:
        return 1.0
    _, exact = exact_topk_blocks(blocks, queries[rows], k)
    hits = sum(len(set(e.tolist()) & set(f.tolist())) for e, f in zip(exact, found[rows], strict=True))
    return hits / exact.size


def index_for_store(view: StoreView, settings: IndexSettings, cache: Path | None) -> tuple[Any, dict[str, Any]]:
    """Load the saved index for this store and settings, or build, measure and save one."""
    blocks = [block for _, block in view.iter_blocks()]
    key = {"store": view.fingerprint, "settings": asdict(settings), "n": len(view)}
    if cache is not None and (cache / "index.json").exists():
        saved = json.loads((cache / "index.json").read_text(encoding="utf-8"))
        if saved["key"] == key:
            return load_index(cache / "index.faiss"), saved["report"]
    index = build_index(blocks, view.dim, settings)
    kind = settings.chosen_kind(len(view))
    report: dict[str, Any] = {"kind": kind, "vectors": len(view), "dim": view.dim}
    if kind in STORE_VIEWS:
        report["shards"] = len(blocks)
        return index, report
    if kind != "flat":
        report[f"recall_at_{settings.recall_k}_near_data_queries"] = round(measure_recall(index, blocks, settings), 4)
        report["recall_queries"] = min(settings.recall_sample, len(view))
    if cache is not None:
        save_index(index, cache / "index.faiss")
        write_text(cache / "index.json", json.dumps({"key": key, "report": report}, sort_keys=True))
    return index, report


def save_index(index: Any, path: Path) -> None:
    import faiss

    with atomic_path(path) as tmp:
        faiss.write_index(index, str(tmp))


def load_index(path: Path) -> Any:
    import faiss

    return faiss.read_index(str(path))
