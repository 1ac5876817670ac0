"""Byte-identity of built datasets across two versions of the code (issue 26: rows streamed from disk).

Builds every case below with the code on PYTHONPATH into ``--out`` and writes ``manifest.json`` there: the sha256
of every output file (info.json and README.md included) per case. Run it once with the old tree, once with the new,
then ``--compare A B`` prints the cases and files that differ (exit 1 when any does).

    PYTHONPATH=/tmp/ref python tests/bench/compare_outputs.py --out /tmp/before --no-kill
    PYTHONPATH=$PWD     python tests/bench/compare_outputs.py --out /tmp/after
    python tests/bench/compare_outputs.py --compare /tmp/before /tmp/after

Configs name ``{resources}`` of THIS checkout (the script's), so both trees record the same paths in info.json.
A case with a kill count is built with MTPROBES_TEST_KILL_AFTER_CHUNKS (SIGKILL after that many checkpoint
chunks), then again with --resume; ``--no-kill`` builds it in one go (the reference, with the old code). Caches
(alignment, embeddings) are emptied before each build and have one path for both trees (info.json records it).
Real data: variations on ../shared/data/wmt24-ende, pronouns on ../shared/data/docs-ende/IWSLT2017 dev.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "resources" / "samples"
DATA = REPO.parent / "shared" / "data"
IWSLT = DATA / "docs-ende" / "IWSLT2017"
WMT24 = DATA / "wmt24-ende"
CACHE_ROOT = Path(tempfile.gettempdir()) / "mtprobes-compare-outputs-cache"

# case -> (family, sample yaml or None, --set overrides, kill after N chunks then --resume (0: no kill))
CASES: dict[str, tuple[str, str | None, list[str], int]] = {
    "pronouns-demo": ("pronouns", "pronouns/demo.yaml", [], 0),
    "pronouns-demo-per-class": ("pronouns", "pronouns/demo.yaml", ["per_class=2"], 0),
    "pronouns-demo-processes": ("pronouns", "pronouns/demo.yaml", ["executor=processes", "workers=2"], 0),
    "pronouns-fr-demo": ("pronouns", "pronouns/demo_fr.yaml", [], 0),
    "variations-demo": ("variations", "variations/demo.yaml", [], 0),
    "variations-demo-shards": ("variations", "variations/demo.yaml", ["shard_size=7"], 0),
    "shuffles-demo": ("shuffles", "shuffles/demo.yaml", ["shard_size=9"], 0),
    "commute_ext-demo": ("commute_ext", "commute_ext/demo.yaml", [], 0),
    "variations-wmt24": ("variations", None, [f"src={WMT24 / 'source.en'}", f"tgt={WMT24 / 'ref.de'}",
                                              "name=wmt24", "shard_size=300"], 0),
    "variations-wmt24-processes": ("variations", None, [f"src={WMT24 / 'source.en'}", f"tgt={WMT24 / 'ref.de'}",
                                                        "name=wmt24", "shard_size=300", "executor=processes",
                                                        "workers=2"], 0),
    "variations-wmt24-resume": ("variations", None, [f"src={WMT24 / 'source.en'}", f"tgt={WMT24 / 'ref.de'}",
                                                     "name=wmt24", "checkpoint_every=2"], 3),
    "pronouns-iwslt-dev": ("pronouns", None, [f"src={IWSLT / 'dev.en'}", f"tgt={IWSLT / 'dev.de'}", "name=iwslt",
                                              "per_class=0", "docs_per_unit=1", "checkpoint_every=2"], 0),
    "pronouns-iwslt-dev-sampled-resume": ("pronouns", None, [f"src={IWSLT / 'dev.en'}", f"tgt={IWSLT / 'dev.de'}",
                                                             "name=iwslt", "per_class=4", "docs_per_unit=1",
                                                             "checkpoint_every=2"], 2),
}


def tree_digest(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def run_case(name: str, out: Path, scratch: Path, kill: bool) -> dict[str, str]:
    family, sample, overrides, kill_after = CASES[name]
    config = scratch / f"{name}.yaml"
    text = (SAMPLES / sample).read_text(encoding="utf-8") if sample else "name: real\n"
    config.write_text(text.replace("{resources}", str(REPO / "resources")), encoding="utf-8")
    cache = {"pronouns": "alignment_cache", "variations": "alignment_cache", "commute_ext": "cache_dir"}
    cold = CACHE_ROOT / name  # the same path for both trees (info.json records it), emptied before each build
    shutil.rmtree(cold, ignore_errors=True)
    fresh = [f"{cache[family]}={cold}"] if family in cache else []
    sets = [arg for item in [*overrides, *fresh] for arg in ("--set", item)]
    command = [sys.executable, "-m", "builders", "-q", "build", family, "--config", str(config), *sets,
               "--out", str(out / name)]
    if kill and kill_after:
        env = {**os.environ, "MTPROBES_TEST_KILL_AFTER_CHUNKS": str(kill_after)}
        killed = subprocess.run(command, capture_output=True, text=True, env=env)
        if killed.returncode != -9:
            raise SystemExit(f"{name}: expected a SIGKILL, got {killed.returncode}: {killed.stderr[-2000:]}")
        command.append("--resume")
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{name}: build failed ({done.returncode}): {done.stderr[-3000:]}")
    (info,) = (out / name).rglob("info.json")
    return tree_digest(info.parent)


def compare(before: Path, after: Path) -> int:
    old = json.loads((before / "manifest.json").read_text(encoding="utf-8"))
    new = json.loads((after / "manifest.json").read_text(encoding="utf-8"))
    differing = 0
    for case in sorted(old.keys() | new.keys()):
        a, b = old.get(case), new.get(case)
        if a is None or b is None:
            print(f"{case}: only in {'after' if a is None else 'before'}")
            differing += 1
            continue
        files = sorted(f for f in a.keys() | b.keys() if a.get(f) != b.get(f))
        print(f"{case}: {len(a)} files, {'identical' if not files else f'{len(files)} differ: {files[:8]}'}")
        differing += bool(files)
    return 1 if differing else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--cases", default=",".join(CASES), help="comma-separated case names")
    parser.add_argument("--no-kill", action="store_true", help="build resume cases without the kill (old code)")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"))
    args = parser.parse_args()
    if args.compare:
        raise SystemExit(compare(*args.compare))
    if args.out is None:
        parser.error("--out or --compare is needed")
    scratch = args.out / "scratch"
    scratch.mkdir(parents=True, exist_ok=True)
    manifest: dict[str, Any] = {}
    for name in args.cases.split(","):
        started = time.perf_counter()
        manifest[name] = run_case(name, args.out / "builds", scratch, kill=not args.no_kill)
        print(f"{name}: {len(manifest[name])} files in {time.perf_counter() - started:.0f} s", flush=True)
        (args.out / "manifest.json").write_text(json.dumps(manifest, indent=1, sort_keys=True), encoding="utf-8")


if __name__ == "__main__":
    main()
