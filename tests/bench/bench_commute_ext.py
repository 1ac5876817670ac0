"""Benchmarks of commute_ext (prints measured figures; default run well under 3 minutes on 2 CPU cores).

1. decode + filter + embed throughput (tiny random-init open_clip model) and the share of time outside the model,
   on synthetic JPEG/PNG files and, when Debian's openclipart-png is installed, on real clip art;
2. FAISS flat inner-product search vs numpy brute force at identical results (ids equal, scores within 1e-6);
3. IVF and HNSW build time and recall@15 against exact search on clustered synthetic embeddings.

    .venv/bin/python tests/bench/bench_commute_ext.py [--quick]
"""

from __future__ import annotations

import argparse
import io
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[2]
TINY = REPO / "resources" / "samples" / "commute_ext" / "tiny_clip"
CLIPART = Path("/usr/share/openclipart/png")


def synthetic_images(folder: Path, count: int, seed: int) -> None:
    from PIL import Image, ImageDraw

    rng = np.random.default_rng(seed)
    folder.mkdir(parents=True, exist_ok=True)
    for index in range(count):
        width, height = (int(v) for v in rng.integers(48, 640, size=2))
        image = Image.new("RGB", (width, height), tuple(int(c) for c in rng.integers(0, 256, 3)))
        draw = ImageDraw.Draw(image)
        for _ in range(5):
            x, y = int(rng.integers(0, width)), int(rng.integers(0, height))
            draw.ellipse((x, y, x + 40, y + 40), fill=tuple(int(c) for c in rng.integers(0, 256, 3)))
        fmt = "JPEG" if index % 2 else "PNG"
        buffer = io.BytesIO()
        image.save(buffer, format=fmt)
        (folder / f"{index:05d}.{fmt.lower()}").write_bytes(buffer.getvalue())


def embed_throughput(folder: Path, workers: int, label: str) -> None:
    from builders.commute_ext.embed import ClipEncoder, ModelSpec
    from builders.commute_ext.filters import ImageFilter
    from builders.commute_ext.readers import ReaderOptions, open_readers
    from builders.commute_ext.store import StorePass, build_store

    encoder = ClipEncoder(ModelSpec("mtprobes-tiny-clip", "", str(TINY), 0, "cpu", "fp32"))
    encoder.encode_texts(["warm up"])  # model loading is not part of the throughput
    in_model = [0.0]
    original = encoder.encode_pixels

    def timed(tensors: Any) -> np.ndarray:
        started = time.perf_counter()
        try:
            return original(tensors)
        finally:
            in_model[0] += time.perf_counter() - started

    encoder.encode_pixels = timed  # type: ignore[method-assign]
    with tempfile.TemporaryDirectory() as store:
        started = time.perf_counter()
        view = build_store(open_readers([str(folder)], "auto", ReaderOptions()), encoder, ImageFilter(),
                           StorePass(Path(store), {"bench": label}, [str(folder)], batch_size=64,
                                     decode_workers=workers))
        total = time.perf_counter() - started
    counts = view.counts
    print(f"  {label}, decode_workers={workers}: {counts.read} files ({counts.kept} kept, dropped "
          f"{dict(counts.dropped)}) in {total:.2f} s = {counts.read / total:.0f} images/s; "
          f"time outside the model {100 * (1 - in_model[0] / total):.0f}%")


def unit_rows(n: int, dim: int, seed: int) -> np.ndarray:
    rows = np.random.default_rng(seed).normal(size=(n, dim)).astype(np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def clustered(n: int, dim: int, clusters: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(clusters, dim))
    points = (centres[rng.integers(0, clusters, n)] + rng.normal(scale=0.6, size=(n, dim))).astype(np.float32)
    return points / np.linalg.norm(points, axis=1, keepdims=True)


def best_of(repeat: int, run: Any) -> tuple[float, Any]:
    times, result = [], None
    for _ in range(repeat):
        started = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - started)
    return min(times), result


def flat_vs_numpy(n: int, dim: int, queries: int, k: int) -> None:
    from builders.commute_ext.index import IndexSettings, brute_force_topk, build_index, search

    vectors, query_rows = unit_rows(n, dim, 1), unit_rows(queries, dim, 2)
    index = build_index([vectors], dim, IndexSettings(kind="flat"))

    def one_at_a_time(find: Any, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        found = [find(row[None]) for row in rows]
        return np.concatenate([f[0] for f in found]), np.concatenate([f[1] for f in found])

    modes = {
        f"{queries} queries batched": (query_rows, lambda q: brute_force_topk(vectors, q, k),
                                       lambda q: search(index, q, k)),
        "50 queries one at a time": (query_rows[:50], lambda q: one_at_a_time(
            lambda row: brute_force_topk(vectors, row, k), q), lambda q: one_at_a_time(
            lambda row: search(index, row, k), q)),
    }
    import faiss

    threads = faiss.omp_get_max_threads()
    for label, (rows, with_numpy, with_faiss) in modes.items():
        numpy_time, (ref_scores, ref_ids) = best_of(2, lambda rows=rows, run=with_numpy: run(rows))
        for faiss_threads in sorted({threads, 1}, reverse=True):
            faiss.omp_set_num_threads(faiss_threads)  # single queries suffer from OpenMP overhead on busy cores
            faiss_time, (scores, ids) = best_of(2, lambda rows=rows, run=with_faiss: run(rows))
            same = bool(np.array_equal(ids, ref_ids)) and float(np.abs(scores - ref_scores).max()) <= 1e-6
            print(f"  flat search, {n} x {dim}, {label}, top-{k}: FAISS ({faiss_threads} thread(s)) "
                  f"{len(rows) / faiss_time:.0f} q/s, numpy {len(rows) / numpy_time:.0f} q/s, "
                  f"ratio {numpy_time / faiss_time:.1f}x, identical ids and scores within 1e-6: {same}")
        faiss.omp_set_num_threads(threads)
    naive_time, (naive_scores, naive_ids) = best_of(1, lambda: naive_topk(vectors, query_rows, k))
    _, (ref_scores, ref_ids) = best_of(1, lambda: brute_force_topk(vectors, query_rows, k))
    same = bool(np.array_equal(naive_ids, ref_ids)) and float(np.abs(naive_scores - ref_scores).max()) <= 1e-6
    faiss_time, _ = best_of(2, lambda: search(index, query_rows, k))
    print(f"  for reference, numpy with a full argsort per query (the naive way): {len(query_rows) / naive_time:.0f}"
          f" q/s, FAISS {naive_time / faiss_time:.1f}x faster, identical: {same}")


def naive_topk(vectors: np.ndarray, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    scores = queries @ vectors.T
    ids = np.argsort(-scores, axis=1, kind="stable")[:, :k]
    return np.take_along_axis(scores, ids, axis=1), ids


def approximate(n: int, dim: int, clusters: int, k: int, sample: int) -> None:
    from builders.commute_ext.index import IndexSettings, brute_force_topk, build_index, measure_recall, search

    vectors = clustered(n, dim, clusters, 3)
    queries = unit_rows(1000, dim, 4)
    flat = build_index([vectors], dim, IndexSettings(kind="flat"))
    flat_time, _ = best_of(1, lambda: search(flat, queries, k))
    numpy_time, (_, exact_ids) = best_of(1, lambda: brute_force_topk(vectors, queries, k))
    print(f"  exact search on the same data: FAISS flat {len(queries) / flat_time:.0f} q/s, "
          f"numpy {len(queries) / numpy_time:.0f} q/s")
    settings = {
        "ivf": IndexSettings(kind="ivf", ivf_nlist=256, ivf_nprobe=16, recall_sample=sample, recall_k=k),
        "hnsw": IndexSettings(kind="hnsw", hnsw_m=32, hnsw_ef_search=128, recall_sample=sample, recall_k=k),
    }
    for kind, setting in settings.items():
        build_time, index = best_of(1, lambda setting=setting: build_index([vectors], dim, setting))
        recall = measure_recall(index, [vectors], setting)
        for effort in (1, 4):  # the configured search effort, then 4x (nprobe / efSearch)
            if kind == "ivf":
                index.nprobe = setting.ivf_nprobe * effort
                detail = f"nlist {index.nlist}, nprobe {index.nprobe}"
            else:
                index.hnsw.efSearch = setting.hnsw_ef_search * effort
                detail = f"M {setting.hnsw_m}, efSearch {index.hnsw.efSearch}"
            search_time, (_, found) = best_of(1, lambda index=index: search(index, queries, k))
            far = np.mean([len(set(a) & set(b)) / k for a, b in zip(exact_ids.tolist(), found.tolist(), strict=True)])
            print(f"  {kind} ({detail}) on {n} x {dim} clustered ({clusters} clusters): build {build_time:.1f} s, "
                  f"recall@{k} {recall:.3f} ({sample} queries near the data; {far:.3f} for 1000 random queries), "
                  f"search {len(queries) / search_time:.0f} q/s = {numpy_time / search_time:.1f}x numpy brute "
                  f"force, {flat_time / search_time:.1f}x FAISS flat")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="smaller sizes (smoke run)")
    args = parser.parse_args()
    scale = 0.1 if args.quick else 1.0
    import faiss
    import torch

    print(f"commute_ext bench: torch threads {torch.get_num_threads()}, FAISS threads {faiss.omp_get_max_threads()}")
    print("1. decode + filter + embed (tiny open_clip, CPU fp32)")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "synthetic"
        synthetic_images(folder, int(600 * scale), seed=0)
        for workers in (0, 2):
            embed_throughput(folder, workers, "synthetic JPEG/PNG 48-640 px")
        if CLIPART.is_dir():
            clipart = Path(tmp) / "clipart"
            clipart.mkdir()
            for index, path in enumerate(sorted(CLIPART.rglob("*.png"))[: int(600 * scale)]):
                (clipart / f"{index:05d}.png").write_bytes(path.read_bytes())  # a link out would be dropped
            embed_throughput(clipart, 2, "openclipart-png (real clip art)")
        else:
            print("  openclipart-png not installed (apt-get install openclipart-png): real clip art skipped")
    print("2. FAISS flat vs numpy brute force")
    flat_vs_numpy(int(100_000 * scale), 512, 1000, 15)
    print("3. approximate indexes on clustered embeddings")
    approximate(int(50_000 * scale), 512, 500, 15, 500)


if __name__ == "__main__":
    main()
