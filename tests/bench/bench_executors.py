"""Executors at corpus scale (run as a script; prints measured figures only).

    .venv/bin/python tests/bench/bench_executors.py [--corpus IWSLT2017] [--repeat 1] [--workers 2]
                                                    [--shard-docs 10] [--runs local,processes,...]
                                                    [--skip-builds] [--skip-retrieval]
    .venv/bin/python tests/bench/bench_executors.py --scaling 1,4,16 [--runs ray] [--workers 2]
    .venv/bin/python tests/bench/bench_executors.py --scaling 1,4,16 --builder variations [--runs local,processes]
    .venv/bin/python tests/bench/bench_executors.py --scaling 1,4,16 --builder commute_ext [--runs local,processes]

1. pronouns.v1 on ../shared/data/docs-ende/<corpus> (repeated --repeat times), every build with a cold alignment
   (a fresh cache): local with one alignment shard (today's default), again (eflomal's own noise), then local /
   processes / ray (started by the build, and already running) with alignment shards of --shard-docs documents
   (--runs picks some); sentences/s, speed-up vs the first build, peak RSS of the driver and the summed peak RSS
   of all its worker processes (sampled from /proc every 0.2 s), and the item agreement with the first build
   (Jaccard of the item sets).
   --scaling 1,4,16: the same builds at each multiple of the corpus (copies numbered on, so every document has
   its own id), with the peak RSS of the largest single worker process (VmHWM; Ray's own raylet/GCS/dashboard
   processes left out), the driver's peak through prepare() and at the end (after writing), the pickled size
   of what every worker gets (Builder.shared_plan) and of the units' payloads (what travels per task: the
   object store traffic besides the results), and the wall time of each stage: read+screen, tokenise+align,
   units, finalize+write.
   --builder variations: variations.v1 on the same lines (every line a sentence pair, "<d>" lines included) with
   its defaults (diagonal aligner, INS n-gram models): the pickled plan (what the driver holds), the driver's
   peak RSS after prepare() and at the end, the largest worker's peak, the shared plan and the payloads.
   --builder commute_ext: commute_ext.v1 on CoMMuTE en-de (../shared/data/commute, text only) repeated (record
   ids are positional, so every copy has its own), with the demo's images (img.order cycles over them), tiny
   random-init CLIP model and collection (resources/samples/commute_ext), one caption per line made from the
   correct translation: the same figures as for variations.
2. Retrieval on --vectors synthetic 512-d unit vectors (clustered): exact per-shard top-15 merged vs one flat
   FAISS index (same rows), IVF build time, recall@15 and speed-up vs exact search.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO.parent / "shared" / "data" / "docs-ende"
sys.path.insert(0, str(REPO))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

# Runs in a fresh interpreter per build: its peak RSS is the driver's, the sampler sums the RSS of descendants
# (pool workers, or the raylet and Ray workers of a local Ray cluster started by the build).
SAMPLER_CODE = r"""
import json, os, resource, sys, threading, time
sys.path.insert(0, sys.argv[1])

def descendants_rss_kb(root):
    children = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as handle:
                ppid = int(handle.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(pid))
    total, todo = 0, list(children.get(root, []))
    while todo:
        pid = todo.pop()
        todo += children.get(pid, [])
        try:
            with open(f"/proc/{pid}/status") as handle:
                total += next(int(l.split()[1]) for l in handle if l.startswith("VmRSS:"))
        except (OSError, StopIteration):
            pass
    return total

OWN_CMDLINE = open(f"/proc/{os.getpid()}/cmdline", "rb").read().replace(b"\0", b" ").decode(errors="replace")
RAY_INFRA = ("raylet", "gcs_server", "dashboard", "log_monitor", "monitor.py", "runtime_env", "client_server")

# VmHWM (the process's own peak RSS) of every process that runs units: pool workers, ray:: workers
def worker_peaks_kb(root, peaks):
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmdline = open(f"/proc/{pid}/cmdline", "rb").read().replace(b"\0", b" ").decode(errors="replace")
            status = open(f"/proc/{pid}/status").read()
        except OSError:
            continue
        # a forked pool worker has the driver's command line, which names RAY_INFRA (this code): not infra
        if int(pid) == root or (cmdline != OWN_CMDLINE and any(name in cmdline for name in RAY_INFRA)):
            continue
        if "ray::" in cmdline or f"PPid:\t{root}\n" in status:
            hwm = next((int(l.split()[1]) for l in status.splitlines() if l.startswith("VmHWM:")), 0)
            peaks[pid] = max(peaks.get(pid, 0), hwm)

peak = [0]
peaks = {}
done = threading.Event()
def sample():
    while not done.wait(0.2):
        peak[0] = max(peak[0], descendants_rss_kb(os.getpid()))
        worker_peaks_kb(os.getpid(), peaks)
threading.Thread(target=sample, daemon=True).start()

# the units and the shared plan of a builder class, measured as the driver makes them (pickled sizes)
def measure_units(builder_class, measured):
    import pickle
    original_units, original_shared = builder_class.units, builder_class.shared_plan
    def units(self, plan):
        made = original_units(self, plan)
        sizes = [len(pickle.dumps(u.payload)) for u in made]
        measured.update(units=len(made), unit_bytes_total=sum(sizes), unit_bytes_max=max(sizes))
        return made
    def shared_plan(self, plan):
        shared = original_shared(self, plan)
        measured["shared_plan_bytes"] = len(pickle.dumps((self, shared)))
        return shared
    builder_class.units, builder_class.shared_plan = units, shared_plan

"""

BUILD_CODE = SAMPLER_CODE + r"""
from builders.pronouns.builder import PronounsBuilder
from builders.pronouns.config import PronounsConfig
import pickle
from builders.pronouns import plan as plan_module
measured = {"stages": {}}
def timed(name, function):
    def wrapper(*args, **kwargs):
        started = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            measured["stages"][name] = measured["stages"].get(name, 0.0) + time.perf_counter() - started
    return wrapper
plan_module._aligned = timed("tokenise+align", plan_module._aligned)
original_prepare = PronounsBuilder.prepare
def prepare(self, ctx):
    plan = original_prepare(self, ctx)
    measured["prepare_driver_kb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # peak through prepare()
    return plan
PronounsBuilder.prepare = timed("prepare", prepare)
measure_units(PronounsBuilder, measured)
original_finalize = PronounsBuilder.finalize
def finalize(self, rows, plan, ctx):
    measured["finalize_at"] = time.perf_counter()
    return original_finalize(self, rows, plan, ctx)
PronounsBuilder.finalize = finalize

config = PronounsConfig.from_mapping(json.loads(sys.argv[2]))
started = time.perf_counter()
folder = PronounsBuilder(config).build(sys.argv[3], overwrite=True, quiet=True)
wall = time.perf_counter() - started
driver_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # the build's peak, before the items are read below
done.set()
stages = measured.pop("stages")
units_s = measured.pop("finalize_at") - started - stages["prepare"]  # prepare runs first, once
measured["stages"] = {"read+screen": stages["prepare"] - stages["tokenise+align"],
                      "tokenise+align": stages["tokenise+align"], "units": units_s,
                      "finalize+write": wall - stages["prepare"] - units_s}
if config.executor == "ray":
    import ray
    ray.shutdown()
records = [json.loads(line) for line in open(folder / "jsonl" / "test.jsonl", encoding="utf-8")] if (
    folder / "jsonl" / "test.jsonl").exists() else []
items = sorted(f"{r['id']}|{r['ref pronoun']}|{r['src ante head id']}|{r['ref ante head id']}" for r in records)
print(json.dumps({"wall": wall, "driver_kb": driver_kb,
                  "workers_kb": peak[0], "worker_max_kb": max(peaks.values(), default=0),
                  "worker_processes": len(peaks), "items": items, **measured}))
"""


# variations.v1 and commute_ext.v1 (--builder): the plan is what the driver holds between prepare() and the end;
# the builder class is named by the 5th argument (module:class)
PLAN_CODE = SAMPLER_CODE + r"""
import importlib, pickle
module, _, name = sys.argv[4].partition(":")
Builder = getattr(importlib.import_module(module), name)
measured = {}
original_prepare = Builder.prepare
def prepare(self, ctx):
    started = time.perf_counter()
    plan = original_prepare(self, ctx)
    measured.update(prepare_s=time.perf_counter() - started, plan_bytes=len(pickle.dumps(plan)),
                    prepare_driver_kb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
    return plan
Builder.prepare = prepare
measure_units(Builder, measured)
config = Builder.config_class.from_mapping(json.loads(sys.argv[2]))
started = time.perf_counter()
folder = Builder(config).build(sys.argv[3], overwrite=True, quiet=True)
wall = time.perf_counter() - started
done.set()
records = sum(1 for _ in open(folder / "jsonl" / "test.jsonl", encoding="utf-8"))
print(json.dumps({"wall": wall, "driver_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                  "workers_kb": peak[0], "worker_max_kb": max(peaks.values(), default=0),
                  "worker_processes": len(peaks), "records": records, **measured}))
"""
VARIATIONS = "builders.variations.builder:VariationsBuilder"
COMMUTE_EXT = "builders.commute_ext.builder:CommuteExtBuilder"
COMMUTE = REPO.parent / "shared" / "data" / "commute" / "en-de"
COMMUTE_SAMPLE = REPO / "resources" / "samples" / "commute_ext"


def scaling(args: argparse.Namespace, work: Path) -> None:
    """Memory and stage times at growing multiples of the corpus: is a worker's peak flat in corpus size?"""
    if args.builder == "variations":
        return variations_scaling(args, work)
    if args.builder == "commute_ext":
        return commute_scaling(args, work)
    print(f"1. pronouns.v1 on docs-ende/{args.corpus}, scaling {args.scaling}, {os.cpu_count()} CPUs, "
          f"load average before {os.getloadavg()[0]:.2f}")
    for repeat in (int(x) for x in args.scaling.split(",")):
        src, tgt, segments = corpus_files(args.corpus, repeat, work / f"corpus-x{repeat}")
        base = {"name": "bench", "src": str(src), "tgt": str(tgt), "per_class": 0, "docs_per_unit": 4,
                "checkpoint_every": 16, "align_shard_docs": args.shard_docs, "workers": args.workers}
        for executor in args.runs.split(","):
            result = run_build(f"{executor}-x{repeat}", {**base, "executor": executor}, work)
            stages = "  ".join(f"{k} {v:.1f} s" for k, v in result["stages"].items())
            print(f"  x{repeat:<3} {segments:>7} segments  {executor:<9} wall {result['wall']:6.1f} s  "
                  f"{segments / result['wall']:6.1f} sentences/s  largest worker peak "
                  f"{result['worker_max_kb'] / 1024:6.0f} MB ({result['worker_processes']} worker processes)  "
                  f"driver peak after prepare {result['prepare_driver_kb'] / 1024:5.0f} MB, at the end "
                  f"{result['driver_kb'] / 1024:5.0f} MB  all descendants {worker_mb(result)}")
            print_units(result, f"  stages: {stages}")


def print_units(result: dict[str, Any], stages: str = "") -> None:
    """The second line of every scaling row: what each worker and unit carries."""
    print(f"        shared plan (per worker) {result['shared_plan_bytes']} B;  {result['units']} units, "
          f"payloads {result['unit_bytes_total'] / 1e6:.2f} MB in all, largest {result['unit_bytes_max']} B"
          f"{';' if stages else ''}{stages}  (load average {os.getloadavg()[0]:.2f})", flush=True)


def print_memory_row(repeat: int, lines: int, executor: str, result: dict[str, Any]) -> None:
    """One scaling row of a line-based builder: wall time, plan size, driver and worker peaks, records."""
    print(f"  x{repeat:<3} {lines:>7} lines  {executor:<9} wall {result['wall']:6.1f} s  "
          f"plan {result['plan_bytes']} B  driver peak after prepare "
          f"{result['prepare_driver_kb'] / 1024:5.0f} MB, at the end {result['driver_kb'] / 1024:5.0f} MB  "
          f"largest worker peak {result['worker_max_kb'] / 1024:5.0f} MB "
          f"({result['worker_processes']} worker processes)  {result['records']} records")
    print_units(result)


def variations_scaling(args: argparse.Namespace, work: Path) -> None:
    print(f"1. variations.v1 on docs-ende/{args.corpus}, scaling {args.scaling}, {os.cpu_count()} CPUs, "
          f"load average before {os.getloadavg()[0]:.2f}")
    for repeat in (int(x) for x in args.scaling.split(",")):
        src, tgt, _ = corpus_files(args.corpus, repeat, work / f"corpus-x{repeat}")
        lines = sum(1 for _ in src.open(encoding="utf-8"))
        for executor in args.runs.split(","):
            label = f"variations-{executor}-x{repeat}"
            config = {"name": "bench", "src": str(src), "tgt": str(tgt), "executor": executor,
                      "workers": args.workers}
            result = run_build(label, config, work, PLAN_CODE, VARIATIONS)
            print_memory_row(repeat, lines, executor, result)


def commute_scaling(args: argparse.Namespace, work: Path) -> None:
    print(f"1. commute_ext.v1 on CoMMuTE en-de text, scaling {args.scaling}, {os.cpu_count()} CPUs, "
          f"load average before {os.getloadavg()[0]:.2f}")
    demo = {"model": "mtprobes-tiny-clip", "pretrained": "", "model_config_dir": str(COMMUTE_SAMPLE / "tiny_clip"),
            "init_seed": 0, "device": "cpu", "batch_size": 16, "embed_shard_size": 24, "near_duplicate_cosine": 0.995,
            "tgt_lang": "de", "collection": [str(COMMUTE_SAMPLE / "collection")],
            "image_dir": str(COMMUTE_SAMPLE / "commute" / "images")}
    for repeat in (int(x) for x in args.scaling.split(",")):
        data, captions, lines = commute_files(repeat, work / f"commute-x{repeat}")
        for executor in args.runs.split(","):
            label = f"commute-{executor}-x{repeat}"
            config = {**demo, "name": "bench", "data_dir": str(data), "captions": str(captions),
                      "executor": executor, "workers": args.workers}
            result = run_build(label, config, work, PLAN_CODE, COMMUTE_EXT, "cache_dir")
            print_memory_row(repeat, lines, executor, result)


def commute_files(repeat: int, work: Path) -> tuple[Path, Path, int]:
    """CoMMuTE en-de text ``repeat`` times over, img.order cycling over the sample's images, and a caption per
    line (the lower-cased correct translation: the tiny model is random, any text does)."""
    images = sorted(p.name for p in (COMMUTE_SAMPLE / "commute" / "images").iterdir())
    columns = {name: (COMMUTE / name).read_text(encoding="utf-8").splitlines()
               for name in ("src.en", "correct.de", "incorrect.de")}
    lines = len(columns["src.en"]) * repeat
    data = work / "en-de"
    data.mkdir(parents=True, exist_ok=True)
    for name, column in columns.items():
        (data / name).write_text("".join(line + "\n" for line in column * repeat), encoding="utf-8")
    (data / "img.order").write_text("".join(images[n % len(images)] + "\n" for n in range(lines)), encoding="utf-8")
    captions = work / "captions.txt"
    captions.write_text("".join(f"a photo showing {line.lower().rstrip('.')}\n"
                                for line in columns["correct.de"] * repeat), encoding="utf-8")
    return data, captions, lines


def corpus_files(corpus: str, repeat: int, work: Path) -> tuple[Path, Path, int]:
    src, tgt = DOCS / corpus / "dev.en", DOCS / corpus / "dev.de"
    en, de = src.read_text(encoding="utf-8"), tgt.read_text(encoding="utf-8")
    segments = sum(1 for line in en.splitlines() if line.strip() != "<d>") * repeat
    if repeat == 1:
        return src, tgt, segments
    work.mkdir(parents=True, exist_ok=True)
    (work / "rep.en").write_text(en * repeat, encoding="utf-8")
    (work / "rep.de").write_text(de * repeat, encoding="utf-8")
    return work / "rep.en", work / "rep.de", segments


def run_build(label: str, config: dict[str, Any], work: Path, code: str = BUILD_CODE, builder: str = "",
              cache_key: str = "alignment_cache") -> dict[str, Any]:
    config = {**config, cache_key: str(work / f"cache-{label}")}  # cold: a fresh alignment (or store) cache
    output = subprocess.run([sys.executable, "-c", code, str(REPO), json.dumps(config), str(work / label), builder],
                            capture_output=True, text=True)
    if output.returncode != 0:
        raise SystemExit(f"{label} failed:\n{output.stderr[-3000:]}")
    return json.loads(output.stdout.strip().splitlines()[-1])


def running_ray_cluster(cpus: int) -> str:
    """A Ray cluster started here, before the build (as on a real cluster): its start is not part of the build.
    Its processes inherit PYTHONPATH, so the build's workers import this checkout. Stopped at exit."""
    try:
        import ray
    except ImportError:
        return ""
    import atexit

    os.environ["PYTHONPATH"] = str(REPO)
    context = ray.init(num_cpus=cpus, include_dashboard=False, log_to_driver=False,
                       _temp_dir=tempfile.mkdtemp(prefix="ray-", dir="/tmp"))
    atexit.register(ray.shutdown)
    return str(context.address_info["gcs_address"])


def worker_mb(result: dict[str, Any]) -> str:
    return f"{result['workers_kb'] / 1024:.0f} MB" if result["workers_kb"] else "n/a"


def jaccard(a: list[str], b: list[str]) -> float:
    union = set(a) | set(b)
    return len(set(a) & set(b)) / len(union) if union else 1.0


def builds(args: argparse.Namespace, work: Path) -> None:
    src, tgt, segments = corpus_files(args.corpus, args.repeat, work / "corpus")
    base = {"name": "bench", "src": str(src), "tgt": str(tgt), "per_class": 0, "docs_per_unit": 4,
            "checkpoint_every": 16}
    sharded = {**base, "align_shard_docs": args.shard_docs}
    runs = {
        "local": ("local, 1 shard", {**base, "executor": "local"}),
        "local-again": ("local, 1 shard (2nd draw)", {**base, "executor": "local"}),
        "local-shards": (f"local, shards of {args.shard_docs}", {**sharded, "executor": "local"}),
        "processes": (f"processes x{args.workers}", {**sharded, "executor": "processes", "workers": args.workers}),
        "ray": (f"ray x{args.workers}", {**sharded, "executor": "ray", "workers": args.workers}),
    }
    print(f"1. pronouns.v1 on docs-ende/{args.corpus} x{args.repeat}: {segments} segments, cold alignment, "
          f"{os.cpu_count()} CPUs, load average before {os.getloadavg()[0]:.2f}")
    results: dict[str, dict[str, Any]] = {}
    for key in args.runs.split(","):
        if key in runs:
            label, config = runs[key]
            results[label] = run_build(key, config, work)
    address = running_ray_cluster(args.workers) if "ray-running" in args.runs.split(",") else ""
    if address:  # started only now: idle Ray processes do not slow the other builds
        label = f"ray x{args.workers}, running cluster"
        config = {**sharded, "executor": "ray", "workers": args.workers, "ray_address": address}
        results[label] = run_build("ray-running", config, work)
        results[label]["workers_kb"] = 0  # its workers belong to the cluster started here, not to the build
    first = next(iter(results.values()))["wall"]
    for label, result in results.items():
        print(f"  {label:<28} {segments / result['wall']:7.1f} sentences/s  {result['wall']:6.1f} s  "
              f"speed-up {first / result['wall']:.2f}x  driver peak {result['driver_kb'] / 1024:.0f} MB  "
              f"workers peak (sum) {worker_mb(result)}  items {len(result['items'])}")
    items = {label: result["items"] for label, result in results.items()}
    labels = list(items)
    print(f"  item agreement with {labels[0]!r} (Jaccard of id|pronoun|antecedents):")
    for other in labels[1:]:
        print(f"    {other}: {jaccard(items[labels[0]], items[other]):.3f}")
    print(f"  (load average after {os.getloadavg()[0]:.2f})")


def retrieval(vectors: int, shards: int, queries: int) -> None:
    import faiss
    import numpy as np

    from builders.commute_ext.index import IndexSettings, build_index, search

    dim, k = 512, 15
    rng = np.random.default_rng(0)
    centres = rng.normal(size=(1000, dim)).astype(np.float32)
    started = time.perf_counter()
    blocks = []
    for first in range(0, vectors, 100_000):
        size = min(100_000, vectors - first)
        block = centres[rng.integers(0, 1000, size)] + rng.normal(scale=0.6, size=(size, dim)).astype(np.float32)
        blocks.append(block / np.linalg.norm(block, axis=1, keepdims=True))
    store = np.concatenate(blocks)
    query = store[rng.choice(vectors, queries, replace=False)] + rng.normal(
        scale=0.5 / dim**0.5, size=(queries, dim)).astype(np.float32)
    query /= np.linalg.norm(query, axis=1, keepdims=True)
    print(f"\n2. retrieval: {vectors} x {dim} synthetic vectors ({time.perf_counter() - started:.1f} s to draw), "
          f"{queries} queries, top-{k}, FAISS on {faiss.omp_get_max_threads()} threads")
    flat = faiss.IndexFlatIP(dim)
    flat.add(store)
    started = time.perf_counter()
    flat_scores, flat_ids = flat.search(query, k)
    flat_s = time.perf_counter() - started
    exact = build_index(np.array_split(store, shards), dim, IndexSettings(kind="exact-shards"))
    started = time.perf_counter()
    shard_scores, shard_ids = search(exact, query, k)
    shard_s = time.perf_counter() - started
    same_rows = np.mean([set(a) == set(b) for a, b in zip(shard_ids.tolist(), flat_ids.tolist(), strict=True)])
    print(f"  one flat index: search {flat_s:.2f} s; exact-shards ({shards} shards, merged): search {shard_s:.2f} s")
    print(f"  exact-shards vs flat: same top-{k} rows for {same_rows:.4f} of queries, same order "
          f"{np.mean(np.all(shard_ids == flat_ids, axis=1)):.4f}, max |score diff| "
          f"{np.abs(shard_scores - flat_scores).max():.1e}")
    settings = IndexSettings(kind="ivf", ivf_nprobe=64)
    started = time.perf_counter()
    ivf = build_index(blocks, dim, settings)
    build_s = time.perf_counter() - started
    ivf.nprobe = settings.ivf_nprobe
    started = time.perf_counter()
    _, ivf_ids = ivf.search(query, k)
    ivf_s = time.perf_counter() - started
    recall = np.mean([len(set(a) & set(b)) / k for a, b in zip(ivf_ids.tolist(), flat_ids.tolist(), strict=True)])
    print(f"  IVF ({ivf.nlist} lists, nprobe {ivf.nprobe}): build {build_s:.1f} s, search {ivf_s:.3f} s, "
          f"recall@{k} {recall:.4f}, speed-up vs exact flat search {flat_s / ivf_s:.1f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", default="IWSLT2017", choices=["IWSLT2017", "NC-2016"])
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--shard-docs", type=int, default=10)
    parser.add_argument("--vectors", type=int, default=1_000_000)
    parser.add_argument("--shards", type=int, default=10)
    parser.add_argument("--queries", type=int, default=1000)
    parser.add_argument("--runs", default="local,local-again,local-shards,processes,ray,ray-running",
                        help="builds to run, in order; speed-ups are relative to the first")
    parser.add_argument("--scaling", default="", help="e.g. 1,4,16: memory and stage times per corpus multiple")
    parser.add_argument("--builder", default="pronouns", choices=["pronouns", "variations", "commute_ext"],
                        help="with --scaling: which builder")
    parser.add_argument("--skip-builds", action="store_true")
    parser.add_argument("--skip-retrieval", action="store_true")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench_executors_"))
    if not args.skip_builds:
        needed = COMMUTE if args.builder == "commute_ext" else DOCS
        if needed.is_dir():
            scaling(args, work) if args.scaling else builds(args, work)
        else:
            print(f"{needed} is absent: the build figures are skipped")
    if not args.skip_retrieval:
        retrieval(args.vectors, args.shards, args.queries)


if __name__ == "__main__":
    main()
