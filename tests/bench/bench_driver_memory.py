"""The driver's memory at corpus scale, without the units' work (run as a script; prints measured figures only).

    .venv/bin/python tests/bench/bench_driver_memory.py [--scaling 1,4,16] [--shard-docs 93] [--workers 2]

pronouns.v1 on ../shared/data/docs-ende/IWSLT2017 dev repeated 1, 4, 16 times (as bench_executors.py makes it:
copies numbered on, so every document has its own id), one fresh driver process per size with a process pool
(tokenising and alignment shards run on its workers): the peak RSS (ru_maxrss) of a driver that runs prepare()
and then takes every unit, pickling its payload as an executor sends it, without processing it. What grows
here grows with the corpus on the driver of a real build (issue 26: it must not); bench_executors.py --scaling
runs the whole builds, minutes per size.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))

DRIVER_CODE = r"""
import json, pickle, resource, sys, tempfile, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from builders.core.context import BuildContext
from builders.core.executors import make_executor
from builders.pronouns.builder import PronounsBuilder
from builders.pronouns.config import PronounsConfig

config = PronounsConfig.from_mapping(json.loads(sys.argv[2]))
builder = PronounsBuilder(config)
ctx = BuildContext(config=config, work_dir=Path(sys.argv[3]), quiet=True,
                   executor=make_executor(config.executor, config.workers))
started = time.perf_counter()
plan = builder.prepare(ctx)
prepared_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
payload_bytes = sum(len(pickle.dumps(unit.payload)) for unit in builder.units(plan))
print(json.dumps({"segments": ctx.notes["segments"], "prepare_kb": prepared_kb, "payload_bytes": payload_bytes,
                  "driver_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                  "links": ctx.unit_inputs["alignment_links"][:16], "wall": time.perf_counter() - started}))
"""


def main() -> None:
    from bench_executors import corpus_files  # beside this file

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", default="IWSLT2017", choices=["IWSLT2017", "NC-2016"])
    parser.add_argument("--scaling", default="1,4,16")
    parser.add_argument("--shard-docs", type=int, default=93)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench_driver_memory_"))
    print(f"pronouns.v1 driver, prepare() + every unit taken, docs-ende/{args.corpus}, shards of {args.shard_docs} "
          f"documents, processes x{args.workers}")
    first = None
    for repeat in (int(x) for x in args.scaling.split(",")):
        src, tgt, _ = corpus_files(args.corpus, repeat, work / f"corpus-x{repeat}")
        config = {"name": "bench", "src": str(src), "tgt": str(tgt), "docs_per_unit": 4, "executor": "processes",
                  "workers": args.workers, "align_shard_docs": args.shard_docs,
                  "alignment_cache": str(work / f"cache-x{repeat}")}
        output = subprocess.run([sys.executable, "-c", DRIVER_CODE, str(REPO), json.dumps(config),
                                 str(work / f"work-x{repeat}")], capture_output=True, text=True)
        if output.returncode != 0:
            raise SystemExit(f"x{repeat} failed:\n{output.stderr[-3000:]}")
        result = json.loads(output.stdout.strip().splitlines()[-1])
        first = first or result
        added = result["segments"] - first["segments"]
        slope = f"{(result['driver_kb'] - first['driver_kb']) * 1024 / added:6.0f} B per added segment" if added else ""
        print(f"  x{repeat:<3} {result['segments']:>7} segments  driver peak {result['driver_kb'] / 1024:5.0f} MB "
              f"(after prepare {result['prepare_kb'] / 1024:5.0f} MB)  {slope}  unit payloads "
              f"{result['payload_bytes'] / 1e6:.1f} MB  links sha256 {result['links']}  {result['wall']:.0f} s",
              flush=True)


if __name__ == "__main__":
    main()
