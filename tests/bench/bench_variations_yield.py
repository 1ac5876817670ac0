"""Yield of variations.v1 per type: variations per 1,000 input lines, on WMT24 EN–DE (../shared/data/wmt24-ende)
or any line-aligned pair given with --src/--tgt, with the default config (the deterministic `diagonal` aligner,
gendered nouns).

    .venv/bin/python tests/bench/bench_variations_yield.py [--src F.en --tgt F.de] [--out /tmp/bench_yield]

Prints: lines read, variations and distinct source lines per type, variations per 1,000 lines, and the drop
reasons of each type (how many candidates each rule rejected). Skips with a message when the data is absent.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from collections import Counter
from pathlib import Path

os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "wmt24-ende"
DROP_PREFIX = {"DEL": "del_", "INS": "ins_", "SUBNUM": "subnum_", "SUBGEN": "subgen_"}


def yields(folder: Path) -> dict[str, dict[str, object]]:
    info = json.loads((folder / "info.json").read_text(encoding="utf-8"))
    records = [json.loads(line) for line in (folder / "jsonl" / "test.jsonl").read_text(encoding="utf-8").splitlines()]
    lines = max(1, int(info["notes"]["input_lines"]))
    dropped: dict[str, int] = info["counts"]["dropped"]
    table: dict[str, dict[str, object]] = {}
    for kind, count in info["notes"]["variations_per_type"].items():
        table[kind] = {
            "variations": count,
            "source_lines": len({r["line"] for r in records if r["type"] == kind}),
            "per_1000_lines": round(1000 * count / lines, 1),
            "drops": dict(Counter({k: v for k, v in dropped.items() if k.startswith(DROP_PREFIX[kind])}).most_common()),
        }
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--src", default=str(DATA / "source.en"))
    parser.add_argument("--tgt", default=str(DATA / "ref.de"))
    parser.add_argument("--out", default="")
    args = parser.parse_args()
    if not (Path(args.src).is_file() and Path(args.tgt).is_file()):
        print(f"skipped: {args.src} / {args.tgt} not found (../shared absent)")
        return
    from builders.variations.builder import VariationsBuilder
    from builders.variations.config import VariationsConfig

    out = Path(args.out or tempfile.mkdtemp(prefix="bench_yield_"))
    config = VariationsConfig(name="bench-yield", src=args.src, tgt=args.tgt)
    folder = VariationsBuilder(config).build(out, overwrite=True, quiet=True)
    info = json.loads((folder / "info.json").read_text(encoding="utf-8"))
    lines = int(info["notes"]["input_lines"])
    print(f"{args.src}: {lines} lines")
    for kind, row in yields(folder).items():
        print(f"  {kind:7s} {row['variations']:6d} variations from {row['source_lines']:5d} lines = "
              f"{row['per_1000_lines']:8.1f} per 1,000 lines; drops {row['drops']}")


if __name__ == "__main__":
    main()
