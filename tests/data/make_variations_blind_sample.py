"""Fix the blind hand-check sample of variations.v1 (issue 16) before anyone looks at the items.

    .venv/bin/python tests/data/make_variations_blind_sample.py [--out tests/data/variations_blind_sample.jsonl]

Builds variations.v1 with the default config (eflomal alignment, gendered nouns; rules frozen at the commit named
in FROZEN_AT) on ../shared/data/wmt23-ende, the news test set reserved for blind checks, and draws PER_TYPE
variations per type with a fixed seed, at most one per source line (the line's variation drawn first, then the
lines), fewer where a type has fewer lines. Writes id, type, original_src, original_ref, varied_src, varied_ref
per item and a .meta.json beside it (seed, commit, counts, yields). Prints only counts per type and the yield per
1,000 input lines, never an item.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
DATA = REPO.parent / "shared" / "data" / "wmt23-ende"
sys.path.insert(0, str(REPO))
for variable in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE", "TRANSFORMERS_OFFLINE"):
    os.environ.setdefault(variable, "1")

SEED = 20261125
PER_TYPE = 20
FROZEN_AT = "02f1bae"  # the commit whose rules are judged (docs/variations.md names it too)
FIELDS = ("id", "type", "original_src", "original_ref", "varied_src", "varied_ref")


def build(work: Path) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    from builders.variations.builder import VariationsBuilder
    from builders.variations.config import VariationsConfig

    config = VariationsConfig(name="blind-wmt23", src=str(DATA / "source.en"), tgt=str(DATA / "ref.de"))
    folder = VariationsBuilder(config).build(work, overwrite=True, quiet=True)
    lines = (folder / "jsonl" / "test.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines], json.loads((folder / "info.json").read_text(encoding="utf-8"))


def draw(records: list[dict[str, Any]], types: list[str]) -> list[dict[str, Any]]:
    """Per type: one variation per source line (seeded), then PER_TYPE of those lines (seeded)."""
    rng = random.Random(SEED)
    chosen: list[dict[str, Any]] = []
    for kind in types:
        by_line: dict[int, list[dict[str, Any]]] = defaultdict(list)
        for record in sorted((r for r in records if r["type"] == kind), key=lambda r: r["id"]):
            by_line[record["line"]].append(record)
        one_per_line = [rng.choice(by_line[line]) for line in sorted(by_line)]
        chosen += sorted(rng.sample(one_per_line, min(PER_TYPE, len(one_per_line))), key=lambda r: r["id"])
    return chosen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO / "tests" / "data" / "variations_blind_sample.jsonl")
    args = parser.parse_args()
    if not (DATA / "source.en").is_file():
        sys.exit(f"{DATA} not found: the blind check needs ../shared/data/wmt23-ende")
    with tempfile.TemporaryDirectory() as tmp:
        records, info = build(Path(tmp))
    per_type: dict[str, int] = info["notes"]["variations_per_type"]
    input_lines = int(info["notes"]["input_lines"])
    lines_per_type = {k: len({r["line"] for r in records if r["type"] == k}) for k in per_type}
    chosen = draw(records, list(per_type))
    sampled = {k: sum(r["type"] == k for r in chosen) for k in per_type}
    text = "".join(json.dumps({f: r[f] for f in FIELDS}, ensure_ascii=False) + "\n" for r in chosen)
    partial = args.out.with_suffix(".partial")
    partial.write_text(text, encoding="utf-8")
    partial.replace(args.out)
    meta = {
        "seed": SEED, "per_type": PER_TYPE, "rules_frozen_at": FROZEN_AT, "input": "../shared/data/wmt23-ende",
        "input_lines": input_lines, "variations_per_type": per_type, "source_lines_per_type": lines_per_type,
        "per_1000_lines": {k: round(1000 * v / input_lines, 1) for k, v in per_type.items()}, "sampled": sampled,
        "dropped": info["counts"]["dropped"],
    }
    args.out.with_suffix(".meta.json").write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wmt23-ende: {input_lines} lines")
    for kind in per_type:
        print(f"  {kind:7s} built {per_type[kind]:6d} from {lines_per_type[kind]:4d} lines "
              f"({1000 * per_type[kind] / input_lines:.1f} per 1,000 lines); sampled {sampled[kind]}")
    print(f"sample: {len(chosen)} items -> {args.out}")


if __name__ == "__main__":
    main()
