"""The wall time of a pronouns.v1 build on a cluster, simulated from measured per-segment costs (a script).

    .venv/bin/python tests/bench/simulate_cluster.py [--pairs 22000000] [--workers 64] [--shard-segments 9000]

A build is: the driver's serial read+screen; the alignment (tokenising chunks and alignment shards as tasks; the
first shard alone first, since its priors go to every other shard); the units (``docs_per_unit`` documents each)
as tasks, at most 4 per worker in flight, results taken in order; finalize+write on the driver. Every worker
pays a start-up (imports, spaCy pipeline, German noun lexicon) before its first unit. Tasks are list-scheduled
(the next task goes to the first free worker), documents get the segment counts of IWSLT2017 dev's talks drawn
with a fixed seed. Two sets of per-segment costs are simulated: measured on an idle core (units; eflomal-era
measurement, the units did not change since) and as measured under load on this shared 2-core machine
(2026-11-26, docs/cluster.md). Prints the time of each stage and the bounding one.
"""

from __future__ import annotations

import argparse
import heapq
import random
from dataclasses import dataclass
from pathlib import Path

DOCS = Path(__file__).resolve().parents[3] / "shared" / "data" / "docs-ende"


@dataclass(frozen=True)
class Costs:
    """Seconds of one core per segment, per stage, and fixed seconds."""

    name: str
    read: float  # driver, serial: read, screen, hash, build the documents
    align: float  # tokenise + align, per segment, on workers (the first shard serial)
    units: float  # parse, coreference, filters, per segment, on workers
    write: float  # driver, serial
    worker_start: float  # imports + pipeline + lexicon, once per worker


IDLE = Costs("idle-core rates", read=0.05e-3 / 2, align=0.35e-3, units=2.0e-3, write=2e-6, worker_start=7.0)
LOADED = Costs("rates measured under load here", read=0.05e-3, align=1.3e-3, units=7.6e-3, write=2e-6,
               worker_start=10.0)


def talk_lengths() -> list[int]:
    """Segments per document of IWSLT2017 dev (93 talks), the distribution documents are drawn from."""
    path = DOCS / "IWSLT2017" / "dev.en"
    if not path.is_file():
        return [96]
    lengths: list[int] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() == "<d>":
            lengths.append(0)
        elif lengths:
            lengths[-1] += 1
    return [n for n in lengths if n]


def makespan(tasks: list[float], workers: int, ready: list[float]) -> float:
    """List scheduling: each task (seconds) goes to the worker free first; ``ready`` is when each can start."""
    free = list(ready)
    heapq.heapify(free)
    end = max(ready)
    for seconds in tasks:
        start = heapq.heappop(free)
        heapq.heappush(free, start + seconds)
        end = max(end, start + seconds)
    return end


def simulate(pairs: int, workers: int, shard_segments: int, docs_per_unit: int, costs: Costs) -> dict[str, float]:
    rng = random.Random(26)
    lengths = talk_lengths()
    documents: list[int] = []
    while sum(documents) < pairs:
        documents.append(rng.choice(lengths))
    stages = {"read+screen (driver)": pairs * costs.read}
    start = [costs.worker_start] * workers  # workers start while the driver reads: overlapping
    shards = [shard_segments] * (pairs // shard_segments) + ([pairs % shard_segments] if pairs % shard_segments else [])
    first = shards[0] * costs.align
    rest = makespan([n * costs.align for n in shards[1:]], workers, [0.0] * workers)
    stages["align: first shard (serial)"] = first
    stages["align: other shards"] = rest
    units = [sum(documents[i : i + docs_per_unit]) * costs.units for i in range(0, len(documents), docs_per_unit)]
    stages["units"] = makespan(units, workers, [max(0.0, s - stages["read+screen (driver)"] - first - rest)
                                                for s in start])
    stages["finalize+write (driver)"] = pairs * costs.write
    return stages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pairs", type=int, default=22_000_000)
    parser.add_argument("--workers", type=int, default=64)
    parser.add_argument("--shard-segments", type=int, default=9000)
    parser.add_argument("--docs-per-unit", type=int, default=4)
    args = parser.parse_args()
    for costs in (IDLE, LOADED):
        stages = simulate(args.pairs, args.workers, args.shard_segments, args.docs_per_unit, costs)
        total = sum(stages.values())
        bound = max(stages, key=lambda name: stages[name])
        print(f"{args.pairs:,} pairs, {args.workers} workers, alignment shards of {args.shard_segments:,} segments, "
              f"{costs.name}: {total / 60:.1f} min (bounding stage: {bound})")
        for name, seconds in stages.items():
            print(f"  {name:<30} {seconds / 60:7.1f} min")


if __name__ == "__main__":
    main()
