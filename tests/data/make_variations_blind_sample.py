"""Fix the blind hand-check sample of variations.v1 (issue 16) before anyone looks at the items.

    .venv/bin/python tests/data/make_variations_blind_sample.py [--round 1|2]

Round 1 (``variations_blind_sample.jsonl``): wmt23-ende, rules frozen at 02f1bae, 20 per type, seed 20261125.
Round 2 (``variations_blind2_sample.jsonl``): docs-ende/IWSLT2017-test (reserved TED talks on which no variation
rule was developed; the segments shown in the pronoun blind check, and their context, are left out), rules
frozen at c9f2e57 (after the round-1 fixes), 30 per type, seed 20261126.

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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
DATA = REPO.parent / "shared" / "data" / "wmt23-ende"
sys.path.insert(0, str(REPO))
for variable in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE", "TRANSFORMERS_OFFLINE"):
    os.environ.setdefault(variable, "1")

FIELDS = ("id", "type", "original_src", "original_ref", "varied_src", "varied_ref")
IWSLT_TEST = REPO.parent / "shared" / "data" / "docs-ende" / "IWSLT2017-test"


@dataclass(frozen=True)
class Round:
    name: str  # sample file prefix in tests/data
    input: str  # for the meta file
    src: Path
    tgt: Path
    seed: int
    per_type: int
    frozen_at: str  # the commit whose rules are judged (docs/variations.md names it too)


ROUNDS = {
    1: Round("variations_blind", "../shared/data/wmt23-ende", DATA / "source.en", DATA / "ref.de",
             20261125, 20, "02f1bae"),
    2: Round("variations_blind2", "../shared/data/docs-ende/IWSLT2017-test (no <d> lines; pronoun-check segments "
             "left out)", IWSLT_TEST / "test.en", IWSLT_TEST / "test.de", 20261126, 30, "c9f2e57"),
}


def seen_in_pronoun_check() -> set[str]:
    """English segments (and their context) shown to the readers of the pronoun blind check."""
    seen: set[str] = set()
    for line in (REPO / "tests" / "data" / "pronouns_blind_sample.jsonl").read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        seen.add(" ".join(item["src segment marked"].replace("[[", "").replace("]]", "").split()))
        seen.update(" ".join(text.split()) for text in item["src context"])
    return seen


def plain_lines(chosen: Round, work: Path) -> tuple[Path, Path]:
    """The round's input without document markers (variations.v1 reads one sentence pair per line)."""
    src = [line for line in chosen.src.read_text(encoding="utf-8").splitlines() if line.strip() != "<d>"]
    tgt = [line for line in chosen.tgt.read_text(encoding="utf-8").splitlines() if line.strip() != "<d>"]
    (work / "in.en").write_text("\n".join(src) + "\n", encoding="utf-8")
    (work / "in.de").write_text("\n".join(tgt) + "\n", encoding="utf-8")
    return work / "in.en", work / "in.de"


def build(chosen: Round, work: Path) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    from builders.variations.builder import VariationsBuilder
    from builders.variations.config import VariationsConfig

    src, tgt = plain_lines(chosen, work)
    config = VariationsConfig(name=f"blind-{chosen.name}", src=str(src), tgt=str(tgt))
    folder = VariationsBuilder(config).build(work / "out", overwrite=True, quiet=True)
    lines = (folder / "jsonl" / "test.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines], json.loads((folder / "info.json").read_text(encoding="utf-8"))


def draw(records: list[dict[str, Any]], types: list[str], chosen_round: Round) -> list[dict[str, Any]]:
    """Per type: one variation per source line (seeded), then ``per_type`` of those lines (seeded)."""
    rng = random.Random(chosen_round.seed)
    chosen: list[dict[str, Any]] = []
    for kind in types:
        by_line: dict[int, list[dict[str, Any]]] = defaultdict(list)
        for record in sorted((r for r in records if r["type"] == kind), key=lambda r: r["id"]):
            by_line[record["line"]].append(record)
        one_per_line = [rng.choice(by_line[line]) for line in sorted(by_line)]
        size = min(chosen_round.per_type, len(one_per_line))
        chosen += sorted(rng.sample(one_per_line, size), key=lambda r: r["id"])
    return chosen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--round", type=int, choices=sorted(ROUNDS), default=max(ROUNDS))
    chosen_round = ROUNDS[parser.parse_args().round]
    out = REPO / "tests" / "data" / f"{chosen_round.name}_sample.jsonl"
    if not chosen_round.src.is_file():
        sys.exit(f"{chosen_round.src} not found: the blind check needs ../shared/data")
    with tempfile.TemporaryDirectory() as tmp:
        records, info = build(chosen_round, Path(tmp))
    seen = seen_in_pronoun_check() if chosen_round.name != "variations_blind" else set()
    shown_before = [r for r in records if " ".join(r["original_src"].split()) in seen]
    records = [r for r in records if r not in shown_before]
    per_type: dict[str, int] = info["notes"]["variations_per_type"]
    input_lines = int(info["notes"]["input_lines"])
    lines_per_type = {k: len({r["line"] for r in records if r["type"] == k}) for k in per_type}
    chosen = draw(records, list(per_type), chosen_round)
    sampled = {k: sum(r["type"] == k for r in chosen) for k in per_type}
    text = "".join(json.dumps({f: r[f] for f in FIELDS}, ensure_ascii=False) + "\n" for r in chosen)
    partial = out.with_suffix(".partial")
    partial.write_text(text, encoding="utf-8")
    partial.replace(out)
    meta = {
        "seed": chosen_round.seed, "per_type": chosen_round.per_type, "rules_frozen_at": chosen_round.frozen_at,
        "input": chosen_round.input, "input_lines": input_lines, "variations_per_type": per_type,
        "left_out_shown_in_pronoun_check": len(shown_before), "source_lines_per_type": lines_per_type,
        "per_1000_lines": {k: round(1000 * v / input_lines, 1) for k, v in per_type.items()}, "sampled": sampled,
        "dropped": info["counts"]["dropped"],
    }
    out.with_suffix(".meta.json").write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{chosen_round.input}: {input_lines} lines; {len(shown_before)} variations of lines shown before left out")
    for kind in per_type:
        print(f"  {kind:7s} built {per_type[kind]:6d} from {lines_per_type[kind]:4d} lines "
              f"({1000 * per_type[kind] / input_lines:.1f} per 1,000 lines); sampled {sampled[kind]}")
    print(f"sample: {len(chosen)} items -> {out}")


if __name__ == "__main__":
    main()
