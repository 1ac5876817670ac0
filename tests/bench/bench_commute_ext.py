"""Benchmarks of commute_ext (prints measured figures; default run well under 3 minutes on 2 CPU cores).

1. decode + filter + embed throughput (tiny random-init open_clip model) and the share of time outside the model,
   on synthetic JPEG/PNG files and, when Debian's openclipart-png is installed, on real clip art;
2. FAISS flat inner-product search vs numpy brute force at identical results (ids equal, scores within 1e-6):
   batched matmul + argpartition (the fair baseline), batched matmul + full argsort, and a per-query loop, all
   measured in one run with the runs interleaved (the cores may be shared); FAISS on all cores, batched;
3. IVF and HNSW build time and recall@15 against exact search on clustered synthetic embeddings;
4. when CUDA is present: the validation's retrieval world through commute_ext.v1 with the bundled tiny CLIP, each
   CUDA precision against CPU fp32 (precision@5, and the share of translations with the same top 5 and the same
   added images).

    .venv/bin/python tests/bench/bench_commute_ext.py [--quick]
"""

from __future__ import annotations

import argparse
import io
import os
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[2]
TINY = REPO / "resources" / "samples" / "commute_ext" / "tiny_clip"
CLIPART = Path("/usr/share/openclipart/png")
CORES = os.cpu_count() or 1


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


GOAL_RATIO = 20.0  # issue #5: FAISS flat search >= 20x numpy brute force at identical results
FAISS_BATCHED, FAISS_LOOP = "FAISS batched", "FAISS per-query loop"
NUMPY_BATCHED = "numpy batched matmul + argpartition"
NUMPY_FULL_SORT = "numpy batched matmul + full argsort"
NUMPY_LOOP = "numpy per-query loop (matvec + argpartition)"
MATMUL_ONLY = "numpy matmul alone (no top-k selection)"


def per_query_topk(vectors: np.ndarray, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """numpy brute force as commonly written: one matrix-vector product and one argpartition per query."""
    found_scores, found_ids = [], []
    for query in queries:
        scores = vectors @ query
        top = np.argpartition(-scores, k - 1)[:k]
        order = np.lexsort((top, -scores[top]))  # best score first, lower id on ties (as brute_force_topk)
        found_ids.append(top[order])
        found_scores.append(scores[top[order]])
    return np.stack(found_scores), np.stack(found_ids)


def full_sort_topk(vectors: np.ndarray, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """numpy brute force with one matrix product and a full (stable) argsort of every row."""
    scores = queries @ vectors.T
    ids = np.argsort(-scores, axis=1, kind="stable")[:, :k]
    return np.take_along_axis(scores, ids, axis=1), ids


def faiss_per_query(index: Any, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """FAISS one query at a time, on one thread: OpenMP start-up costs more than it saves on a single query."""
    import faiss

    from builders.commute_ext.index import search

    threads = faiss.omp_get_max_threads()
    faiss.omp_set_num_threads(1)
    try:
        found = [search(index, query[None], k) for query in queries]
    finally:
        faiss.omp_set_num_threads(threads)
    return np.concatenate([f[0] for f in found]), np.concatenate([f[1] for f in found])


def interleaved_best(runs: dict[str, Any], repeat: int) -> tuple[dict[str, float], dict[str, Any]]:
    """Best-of-``repeat`` seconds per run, the runs taking turns, so load from other processes hits all alike."""
    seconds: dict[str, float] = {name: float("inf") for name in runs}
    results: dict[str, Any] = {}
    for _ in range(repeat):
        for name, run in runs.items():
            started = time.perf_counter()
            results[name] = run()
            seconds[name] = min(seconds[name], time.perf_counter() - started)
    return seconds, results


def flat_vs_numpy(n: int, dim: int, queries: int, k: int, repeat: int) -> None:
    """FAISS IndexFlatIP vs numpy brute force: queries/s of each, measured in one run, and the ratios."""
    import faiss

    from builders.commute_ext.index import IndexSettings, brute_force_topk, build_index, search

    vectors, query_rows = unit_rows(n, dim, 1), unit_rows(queries, dim, 2)  # float32, C-contiguous
    index = build_index([vectors], dim, IndexSettings(kind="flat"))
    few = query_rows[: max(1, queries // 10)]  # the slow per-query loops run on a tenth of the queries
    faiss.omp_set_num_threads(CORES)
    batched, loop, full = (NUMPY_BATCHED, NUMPY_LOOP, NUMPY_FULL_SORT)
    # name -> (its query rows, run); every result is checked against the batched numpy reference
    runs: dict[str, tuple[np.ndarray, Any]] = {
        FAISS_BATCHED: (query_rows, lambda: search(index, query_rows, k)),
        batched: (query_rows, lambda: brute_force_topk(vectors, query_rows, k)),
        full: (query_rows, lambda: full_sort_topk(vectors, query_rows, k)),
        loop: (few, lambda: per_query_topk(vectors, few, k)),
        FAISS_LOOP: (few, lambda: faiss_per_query(index, few, k)),
        MATMUL_ONLY: (query_rows, lambda: query_rows @ vectors.T),
    }
    load = os.getloadavg()[0]
    seconds, results = interleaved_best({name: run for name, (_, run) in runs.items()}, repeat)
    rate = {name: len(rows) / seconds[name] for name, (rows, _) in runs.items()}
    print(f"  {n} x {dim} float32 vectors, {queries} queries, top-{k}, FAISS threads {faiss.omp_get_max_threads()}, "
          f"best of {repeat} (runs interleaved), load average before {load:.2f}")
    for name, (rows, _) in runs.items():
        same = "" if name == MATMUL_ONLY else \
            f"; identical ids, scores within 1e-6: {identical(results[name], results[batched], len(rows))}"
        print(f"    {name:46s} {rate[name]:8.1f} q/s ({len(rows)} queries){same}")
    fair = rate[FAISS_BATCHED] / rate[batched]
    print(f"    FAISS batched vs {batched} (the fair baseline): {fair:.1f}x; vs {full}: "
          f"{rate[FAISS_BATCHED] / rate[full]:.1f}x; vs {loop}: {rate[FAISS_BATCHED] / rate[loop]:.1f}x; "
          f"FAISS per-query loop vs {loop}: {rate[FAISS_LOOP] / rate[loop]:.1f}x")
    gflops = 2 * n * dim * rate[FAISS_BATCHED] / 1e9  # multiply-adds of the exact inner products
    from_product = rate[FAISS_BATCHED] / rate[MATMUL_ONLY]  # the fair ratio if numpy's top-k were free
    print(f"    FAISS batched (products + top-k) runs at {gflops:.0f} GFLOP/s of exact products, {from_product:.1f}x "
          f"the speed of numpy's bare matmul without any top-k; numpy batched spends "
          f"{100 * rate[batched] / rate[MATMUL_ONLY]:.0f}% of its time in that matmul, the rest in a single-threaded "
          "argpartition over the whole score matrix")
    if fair >= GOAL_RATIO:
        print(f"    goal >= {GOAL_RATIO:.0f}x vs the fair baseline: met ({fair:.1f}x)")
        return
    print(f"    goal >= {GOAL_RATIO:.0f}x vs the fair baseline: NOT MET ({fair:.1f}x). Exact search must do every "
          "n x d product on both sides; FAISS only does them faster and selects the top-k more cheaply. "
          "Only approximate indexes (section 3) skip products, at recall < 1.")


def identical(found: tuple[np.ndarray, np.ndarray], reference: tuple[np.ndarray, np.ndarray], rows: int) -> bool:
    scores, ids = found
    return bool(np.array_equal(ids, reference[1][:rows])) and float(np.abs(scores - reference[0][:rows]).max()) <= 1e-6


def approximate(n: int, dim: int, clusters: int, k: int, sample: int) -> None:
    from builders.commute_ext.index import IndexSettings, brute_force_topk, build_index, measure_recall, search

    vectors = clustered(n, dim, clusters, 3)
    queries = unit_rows(1000, dim, 4)
    flat = build_index([vectors], dim, IndexSettings(kind="flat"))
    seconds, results = interleaved_best({"flat": lambda: search(flat, queries, k),
                                         "numpy": lambda: brute_force_topk(vectors, queries, k)}, 2)
    flat_time, numpy_time, exact_ids = seconds["flat"], seconds["numpy"], results["numpy"][1]
    print(f"  exact search on the same data: FAISS flat {len(queries) / flat_time:.0f} q/s, "
          f"numpy {len(queries) / numpy_time:.0f} q/s")
    settings = {
        "ivf": IndexSettings(kind="ivf", ivf_nlist=256, ivf_nprobe=16, recall_sample=sample, recall_k=k),
        "hnsw": IndexSettings(kind="hnsw", hnsw_m=32, hnsw_ef_search=128, recall_sample=sample, recall_k=k),
    }
    for kind, setting in settings.items():
        build_time, index = best_of(1, lambda setting=setting: build_index([vectors], dim, setting))
        for effort in (1, 4):  # the configured search effort, then 4x (nprobe / efSearch)
            if kind == "ivf":
                index.nprobe = setting.ivf_nprobe * effort
                detail = f"nlist {index.nlist}, nprobe {index.nprobe}"
            else:
                index.hnsw.efSearch = setting.hnsw_ef_search * effort
                detail = f"M {setting.hnsw_m}, efSearch {index.hnsw.efSearch}"
            recall = measure_recall(index, [vectors], setting)  # at this search effort
            search_time, (_, found) = best_of(2, lambda index=index: search(index, queries, k))
            far = np.mean([len(set(a) & set(b)) / k for a, b in zip(exact_ids.tolist(), found.tolist(), strict=True)])
            print(f"  {kind} ({detail}) on {n} x {dim} clustered ({clusters} clusters): build {build_time:.1f} s, "
                  f"recall@{k} {recall:.3f} ({sample} queries near the data; {far:.3f} for 1000 random queries), "
                  f"search {len(queries) / search_time:.0f} q/s = {numpy_time / search_time:.1f}x numpy brute "
                  f"force, {flat_time / search_time:.1f}x FAISS flat")


DEVICE_RUNS = (("cpu", "fp32"), ("cuda", "fp32"), ("cuda", "fp16"), ("cuda", "bf16"))  # the first is the reference


def retrieval_on_devices(work: Path, runs: tuple[tuple[str, str], ...] = DEVICE_RUNS) -> None:
    import torch

    from builders.validation.clip_train import FOLDER
    from builders.validation.image_world import load_senses
    from builders.validation.retrieval import CAPTION, TOP_K, build_retrieval_set, judge, read_records, write_world
    from builders.validation.train import models_root

    world = write_world(work / "world")
    senses = {CAPTION.format(cue=sense.cue): sense.key for sense in load_senses()}

    def ranked(set_dir: Path) -> dict[tuple[str, int], tuple[list[str], list[str]]]:
        return {
            (record["id"], t["line"]): (
                [c["path"] for c in sorted(t["candidates"], key=lambda c: c["rank"]) if c["rank"] <= TOP_K],
                [i["path"] for i in t["images"] if i["kind"] == "retrieved"],
            )
            for record in read_records(set_dir)
            for t in record["translations"]
        }

    reference = None
    gpu = torch.cuda.get_device_name() if torch.cuda.is_available() else "no GPU"
    print(f"4. retrieval world through commute_ext.v1, bundled tiny CLIP, {gpu}, against {runs[0]}:")
    for device, precision in runs:
        started = time.perf_counter()
        set_dir = build_retrieval_set(
            world, work / f"{device}-{precision}", models_root() / FOLDER, "image-world", None, device, precision
        )
        seconds = time.perf_counter() - started
        claim, found = judge(set_dir, senses), ranked(set_dir)
        reference = found if reference is None else reference
        same_top = np.mean([found[key][0] == reference[key][0] for key in reference])
        same_added = np.mean([found[key][1] == reference[key][1] for key in reference])
        print(
            f"  {device} {precision}: precision@{TOP_K} {claim.precision_at_5:.3f}, {len(reference)} translations, "
            f"same top {TOP_K} {same_top:.1%}, same added images {same_added:.1%} ({seconds:.1f} s build)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="smaller sizes (smoke run)")
    parser.add_argument("--devices-only", action="store_true", help="only part 4 (CPU against CUDA)")
    args = parser.parse_args()
    import torch

    if args.devices_only or torch.cuda.is_available():
        with tempfile.TemporaryDirectory() as tmp:
            retrieval_on_devices(Path(tmp), DEVICE_RUNS if torch.cuda.is_available() else DEVICE_RUNS[:1])
        if args.devices_only:
            return
    scale = 0.1 if args.quick else 1.0
    import faiss

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
    print("2. FAISS flat vs numpy brute force (exact search, identical results)")
    for size in (20_000, 100_000):
        flat_vs_numpy(int(size * scale), 512, 1000, 15, repeat=2 if args.quick else 3)
    print("3. approximate indexes on clustered embeddings")
    approximate(int(50_000 * scale), 512, 500, 15, 500)


if __name__ == "__main__":
    main()
