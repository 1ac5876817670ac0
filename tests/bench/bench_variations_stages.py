"""The driver's memory at each stage of a local variations.v1 build (run as a script; prints measured figures).

    .venv/bin/python tests/bench/bench_variations_stages.py [--repeat 4] [--out DIR]

IWSLT2017 dev (../shared/data/docs-ende) repeated --repeat times, a local build (everything on the driver) with a
fresh alignment cache: VmRSS and VmHWM (the process's peak so far) before and after each stage of prepare() (the
n-gram models' completion, the alignment, the diagonal aligner's pair table / EM / decoding per direction, the
links' attachment), when finalize() gets the rows and around the writing (write_dataset). What grows between two
sizes at a stage is what that stage holds per line (issue 26).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
STARTED = time.perf_counter()


def memory_mb() -> tuple[int, int, int]:
    """VmRSS, VmHWM and RssFile (file pages mapped, e.g. a memory-mapped Arrow file: counted in VmRSS, but the
    kernel may drop them) in MB."""
    fields = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines())
    return tuple(int(fields[name].split()[0]) // 1024 for name in ("VmRSS", "VmHWM", "RssFile"))  # type: ignore[return-value]


def log(stage: str) -> None:
    rss, peak, mapped = memory_mb()
    print(f"{time.perf_counter() - STARTED:7.1f} s  {stage:<32} rss {rss:6d} MB  peak {peak:6d} MB  "
          f"of which file pages {mapped:6d} MB", flush=True)


def traced(module: Any, name: str) -> None:
    original = getattr(module, name)

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        log(f"> {name}")
        result = original(*args, **kwargs)
        log(f"< {name}")
        return result

    setattr(module, name, wrapper)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--out", default="")
    args = parser.parse_args()
    import builders.core.builder as core
    import builders.pronouns.align_diagonal as diagonal
    import builders.variations.plan as plan
    from builders.variations.builder import VariationsBuilder
    from builders.variations.config import VariationsConfig

    for module, name in ((plan, "finish_resources"), (plan, "align"), (plan, "attach_links"),
                         (diagonal, "pair_table"), (diagonal, "train_lexicon"), (diagonal, "viterbi_positions"),
                         (core, "write_dataset")):
        traced(module, name)
    import datasets

    traced(datasets.DatasetDict, "save_to_disk")  # logged before the memory-mapped splits are unmapped
    original_finalize = VariationsBuilder.finalize

    def finalize(self: Any, rows: list[Any], build_plan: Any, ctx: Any) -> Any:
        log(f"finalize: {len(rows)} rows")
        return original_finalize(self, rows, build_plan, ctx)

    VariationsBuilder.finalize = finalize  # type: ignore[method-assign]
    work = Path(args.out or tempfile.mkdtemp(prefix="bench_variations_stages_"))
    dev = REPO.parent / "shared" / "data" / "docs-ende" / "IWSLT2017"
    sides = []
    for side in ("en", "de"):
        path = work / f"rep.{side}"
        path.write_text((dev / f"dev.{side}").read_text(encoding="utf-8") * args.repeat, encoding="utf-8")
        sides.append(str(path))
    config = VariationsConfig.from_mapping({"name": "stages", "src": sides[0], "tgt": sides[1],
                                            "alignment_cache": str(work / "cache")})
    log(f"start (x{args.repeat})")
    VariationsBuilder(config).build(work / "out", overwrite=True, quiet=True)
    log("end")
    print(json.dumps({"repeat": args.repeat, "peak_mb": memory_mb()[1]}))


if __name__ == "__main__":
    main()
