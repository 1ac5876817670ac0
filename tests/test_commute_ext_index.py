"""commute_ext: FAISS retrieval against numpy brute force, approximate indexes, suppression and selection."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from builders.commute_ext.index import (
    IndexSettings,
    brute_force_topk,
    build_index,
    exact_topk_blocks,
    load_index,
    measure_recall,
    save_index,
    search,
)
from builders.commute_ext.select import (
    NEAR_DUPLICATE,
    NEAR_ORIGINAL,
    OTHER_TRANSLATION,
    SELECTION_FORMAT,
    Candidate,
    apply_choice,
    preselect,
    read_selection,
    suppress,
)
from builders.core.errors import InputError


def unit_vectors(n: int, dim: int, seed: int) -> np.ndarray:
    vectors = np.random.default_rng(seed).normal(size=(n, dim)).astype(np.float32)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def clustered(n: int, dim: int, clusters: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(clusters, dim))
    points = centres[rng.integers(0, clusters, n)] + rng.normal(scale=0.35, size=(n, dim))
    points = points.astype(np.float32)
    return points / np.linalg.norm(points, axis=1, keepdims=True)


@pytest.mark.parametrize(("n", "k", "blocks"), [(3000, 15, 1), (3000, 15, 4), (10, 15, 1), (1, 1, 1)])
def test_flat_search_equals_numpy_brute_force(n: int, k: int, blocks: int) -> None:
    vectors = unit_vectors(n, 64, seed=n)
    queries = unit_vectors(50, 64, seed=99)
    index = build_index(np.array_split(vectors, blocks), 64, IndexSettings(kind="flat"))
    scores, ids = search(index, queries, k)
    ref_scores, ref_ids = brute_force_topk(vectors, queries, k)
    assert ids.shape == (50, min(k, n))
    assert np.array_equal(ids, ref_ids)
    assert np.allclose(scores, ref_scores, atol=1e-6, rtol=0)
    block_scores, block_ids = exact_topk_blocks(np.array_split(vectors, 3), queries, k)
    assert np.array_equal(block_ids, ref_ids) and np.allclose(block_scores, ref_scores, atol=1e-6, rtol=0)


@pytest.mark.parametrize("shards", [1, 3, 8])
def test_exact_shards_equal_one_exact_search_whatever_the_sharding(shards: int) -> None:
    vectors = unit_vectors(4000, 64, seed=5)
    vectors[1000] = vectors[3000] = vectors[17]  # exact ties across shards: the lower row comes first
    queries = np.concatenate([vectors[17:18], unit_vectors(49, 64, seed=6)])
    index = build_index(np.array_split(vectors, shards), 64, IndexSettings(kind="exact-shards"))
    scores, ids = search(index, queries, 15)
    ref_scores, ref_ids = brute_force_topk(vectors, queries, 15)
    assert ids[0, :3].tolist() == [17, 1000, 3000]
    assert np.array_equal(ids, ref_ids)
    assert np.allclose(scores, ref_scores, atol=1e-6, rtol=0)


def test_brute_force_orders_ties_by_id() -> None:
    vectors = np.array([[1, 0], [0, 1], [1, 0], [0.6, 0.8]], np.float32)
    scores, ids = brute_force_topk(vectors, np.array([[1, 0]], np.float32), 3)
    assert ids.tolist() == [[0, 2, 3]]
    assert np.allclose(scores, [[1, 1, 0.6]])


@pytest.mark.parametrize("kind", ["ivf", "hnsw"])
def test_approximate_indexes_reach_high_recall_on_clustered_data(kind: str) -> None:
    vectors = clustered(6000, 32, 40, seed=1)
    settings = IndexSettings(kind=kind, ivf_nprobe=8, recall_sample=100, seed=3)
    index = build_index([vectors[:2500], vectors[2500:]], 32, settings)
    recall = measure_recall(index, [vectors], settings)
    assert 0.9 <= recall <= 1.0
    flat_recall = measure_recall(build_index([vectors], 32, IndexSettings(kind="flat")), [vectors], settings)
    assert flat_recall == 1.0


def test_ivf_with_a_single_probe_is_measurably_worse() -> None:
    """The recall measurement must be able to fail: one probe of many lists misses neighbours."""
    vectors = unit_vectors(4000, 32, seed=5)  # no cluster structure: the hard case for IVF
    settings = IndexSettings(kind="ivf", ivf_nlist=64, ivf_nprobe=1, recall_sample=100)
    assert measure_recall(build_index([vectors], 32, settings), [vectors], settings) < 0.8


def test_auto_switches_kind_at_the_threshold() -> None:
    settings = IndexSettings(auto_threshold=1000, auto_kind="hnsw")
    assert settings.chosen_kind(999) == "flat"
    assert settings.chosen_kind(1000) == "hnsw"
    assert IndexSettings(kind="ivf").chosen_kind(5) == "ivf"


def test_saved_index_gives_identical_results(tmp_path: Path) -> None:
    vectors = clustered(3000, 32, 20, seed=2)
    queries = unit_vectors(20, 32, seed=4)
    settings = IndexSettings(kind="ivf", ivf_nprobe=4, seed=7)
    index = build_index([vectors], 32, settings)
    save_index(index, tmp_path / "index.faiss")
    loaded = load_index(tmp_path / "index.faiss")
    for a, b in zip(search(index, queries, 15), search(loaded, queries, 15), strict=True):
        assert np.array_equal(a, b)
    rebuilt = build_index([vectors], 32, settings)  # seeded k-means: the same index again
    assert np.array_equal(search(rebuilt, queries, 15)[1], search(index, queries, 15)[1])


def cand(rank: int, row: int, similarity: float, uid: str = "") -> Candidate:
    return Candidate(row, uid or f"u{row}", f"s{row}", "c", "", similarity, rank)


def test_suppression_reasons() -> None:
    candidates = [cand(1, 10, 0.9), cand(2, 11, 0.8), cand(3, 12, 0.7), cand(4, 13, 0.6), cand(5, 14, 0.5)]
    pairwise = np.eye(5)
    pairwise[1, 0] = pairwise[0, 1] = 0.97  # rank 2 duplicates rank 1
    pairwise[2, 1] = pairwise[1, 2] = 0.99  # rank 3 duplicates rank 2, which is suppressed: it stays
    to_original = [0.1, 0.1, 0.1, 0.96, 0.1]  # rank 4 looks like the original image
    other_best = {14: 0.55}  # rank 5 fits the other translation better
    judged = suppress(candidates, pairwise.tolist(), to_original, other_best, threshold=0.95)
    assert [c.suppressed for c in judged] == ["", NEAR_DUPLICATE, "", NEAR_ORIGINAL, OTHER_TRANSLATION]
    assert judged[1].duplicate_of == 1
    chosen = preselect(judged, 2)
    assert [c.rank for c in chosen if c.selected] == [1, 3]
    assert [c.rank for c in preselect(judged, 4) if c.selected] == [1, 3]  # fewer selectable than asked


def test_reviewer_choice_is_validated(tmp_path: Path) -> None:
    candidates = [cand(r, r, 1 - r / 10) for r in range(1, 6)]
    chosen = apply_choice(candidates, ["u5", "u2"], 2, "x", tmp_path / "sel.json")
    assert [c.uid for c in chosen if c.selected] == ["u2", "u5"]
    with pytest.raises(InputError, match=r"sel.json: x: \['u9'\] not among the retrieved candidates"):
        apply_choice(candidates, ["u1", "u9"], 2, "x", tmp_path / "sel.json")
    with pytest.raises(InputError, match="selects 1 distinct images, expected 2"):
        apply_choice(candidates, ["u1", "u1"], 2, "x", tmp_path / "sel.json")


@pytest.mark.parametrize(
    ("content", "message"),
    [("{not json", "not a JSON selection file"), ('{"format": "other"}', "expected a JSON object"),
     (json.dumps({"format": SELECTION_FORMAT, "selections": {"a": {"0": "u1"}}}), "must map record ids")],
)
def test_bad_selection_files(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "selection.json"
    path.write_text(content)
    with pytest.raises(InputError, match=message):
        read_selection(path)


def test_index_is_saved_and_reused_for_the_same_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from builders.commute_ext import index as index_module
    from builders.commute_ext.embed import ClipEncoder, ModelSpec
    from builders.commute_ext.filters import ImageFilter
    from builders.commute_ext.readers import NpzEmbeddingReader, ReaderOptions
    from builders.commute_ext.store import StorePass, build_store

    sample = Path(__file__).resolve().parents[1] / "resources" / "samples" / "commute_ext" / "tiny_clip"
    encoder = ClipEncoder(ModelSpec("mtprobes-tiny-clip", "", str(sample), 0, "cpu", "fp32"))
    npz = tmp_path / "emb.npz"
    np.savez(npz, uid=np.array([f"u{i}" for i in range(800)]), feats=clustered(800, 32, 8, seed=9))
    view = build_store([NpzEmbeddingReader(npz, ReaderOptions())], encoder, ImageFilter(),
                       StorePass(tmp_path / "store", {"k": 1}, [str(npz)], shard_size=300))
    settings = IndexSettings(kind="hnsw", recall_sample=50)
    first, report = index_module.index_for_store(view, settings, tmp_path / "store")
    assert report["kind"] == "hnsw" and report["vectors"] == 800 and report["recall_at_15_near_data_queries"] >= 0.9
    assert (tmp_path / "store" / "index.faiss").is_file()

    def no_rebuild(*args: object) -> None:
        raise AssertionError("the saved index should have been loaded")

    monkeypatch.setattr(index_module, "build_index", no_rebuild)
    loaded, again = index_module.index_for_store(view, settings, tmp_path / "store")
    assert again == report
    queries = unit_vectors(10, 32, seed=1)
    assert np.array_equal(search(loaded, queries, 15)[1], search(first, queries, 15)[1])
    with pytest.raises(AssertionError, match="should have been loaded"):  # other settings: a new index
        index_module.index_for_store(view, IndexSettings(kind="ivf"), tmp_path / "store")
