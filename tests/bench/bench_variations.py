"""Speed of variations.v1 on WMT24 EN–DE (../shared/data/wmt24-ende) and of the volatility analysis on 10k pairs.

    .venv/bin/python tests/bench/bench_variations.py [--pairs 10000] [--out /tmp/bench_variations]

Prints: build time, variations per second (whole build, and generation alone after spaCy), counts per type;
analysis time for N pairs with distances, BLEU, METEOR (when WordNet is installed) and LengthRatio, and, separately,
TER on --ter-pairs pairs (sacrebleu's TER takes 20–90 ms per paragraph-length segment; --full runs every metric
on all N pairs, --jobs N spreads the metrics over N processes).

No MT system is run here: the "translations" for the analysis are the references and seeded perturbations of
them (word drops and swaps), which exercises exactly the same code and gives the timing; the figures it writes
illustrate the plots, not a system's volatility.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "wmt24-ende"


def bench_build(out: Path) -> tuple[Path, dict[str, float]]:
    from builders.core.context import BuildContext
    from builders.variations.builder import VariationsBuilder
    from builders.variations.config import VariationsConfig

    config = VariationsConfig(name="bench", src=str(DATA / "source.en"), tgt=str(DATA / "ref.de"))
    started = time.perf_counter()
    folder = VariationsBuilder(config).build(out, overwrite=True, quiet=True)
    build_s = time.perf_counter() - started
    # generation alone: analyse once, then time process() over all units
    builder = VariationsBuilder(config)
    ctx = BuildContext(config=config, work_dir=Path(tempfile.mkdtemp()), quiet=True)
    started = time.perf_counter()
    plan = builder.prepare(ctx)
    units = builder.units(plan)
    prepare_s = time.perf_counter() - started
    started = time.perf_counter()
    made = sum(len(builder.process(unit, builder.shared_plan(plan), ctx)) for unit in units)
    generate_s = time.perf_counter() - started
    return folder, {"build_s": build_s, "prepare_s": prepare_s, "generate_s": generate_s, "variations": made}


def synthetic_pairs(folder: Path, n: int):  # type: ignore[no-untyped-def]
    import numpy as np
    import pandas as pd

    records = [json.loads(line) for line in (folder / "jsonl" / "test.jsonl").read_text(encoding="utf-8").splitlines()]
    rng = np.random.default_rng(13)
    rows = []
    for index in range(n):
        record = records[index % len(records)]
        words = record["varied_ref"].split()
        if rng.random() < 0.3 and len(words) > 4:  # a "volatile" output: drop or swap a few words
            for _ in range(int(rng.integers(1, 6))):
                i, j = sorted(rng.integers(0, len(words), size=2))
                words[i], words[j] = words[j], words[i]
            words = [w for w in words if rng.random() > 0.05]
        rows.append({"id": f"{record['id']}#{index // len(records)}", "source_id": f"{record['source_id']}#"
                     f"{index // len(records)}", "type": record["type"], "k": record["parameters"]["k"],
                     "original_ref": record["original_ref"], "varied_ref": record["varied_ref"],
                     "hyp_original": record["original_ref"], "hyp_varied": " ".join(words)})
    return pd.DataFrame(rows)


def bench_analysis(folder: Path, n: int, out: Path, metrics: tuple[str, ...], jobs: int) -> dict[str, float]:
    from builders.variations.volatility import VolatilitySettings, analyze_volatility, write_result

    pairs = synthetic_pairs(folder, n)
    started = time.perf_counter()
    result = analyze_volatility(pairs, VolatilitySettings(metrics=metrics, jobs=jobs))
    analysis_s = time.perf_counter() - started
    write_result(result, out / "analysis")
    return {"pairs": n, "analysis_s": analysis_s, "oscillation_sources": len(result.oscillation)}


def wordnet_present() -> bool:
    try:
        from nltk.corpus import wordnet

        wordnet.ensure_loaded()
    except LookupError:
        return False
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pairs", type=int, default=10_000)
    parser.add_argument("--ter-pairs", type=int, default=500, help="pairs for the separate TER timing")
    parser.add_argument("--full", action="store_true", help="all four metrics on all --pairs (slow: TER)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "bench_variations")
    args = parser.parse_args()
    if not DATA.is_dir():
        raise SystemExit(f"{DATA} is absent")
    folder, build = bench_build(args.out)
    info = json.loads((folder / "info.json").read_text(encoding="utf-8"))
    lines = sum(1 for _ in (DATA / "source.en").open(encoding="utf-8"))
    print(f"WMT24 EN-DE: {lines} lines -> {build['variations']} variations {info['notes']['variations_per_type']}")
    print(f"build (read, spaCy, n-grams, generate, write): {build['build_s']:.1f} s = "
          f"{build['variations'] / build['build_s']:.0f} variations/s, {lines / build['build_s']:.0f} lines/s")
    print(f"  of which spaCy + n-gram preparation {build['prepare_s']:.1f} s; generation alone "
          f"{build['generate_s']:.2f} s = {build['variations'] / build['generate_s']:.0f} variations/s")
    meteor = ("meteor",) if wordnet_present() else ()
    runs = [(args.pairs, ("bleu", *meteor, "ter", "length_ratio"))] if args.full else [
        (args.ter_pairs, ("ter",)), (args.pairs, ("bleu", *meteor, "length_ratio"))]
    for pairs, metrics in runs:
        analysis = bench_analysis(folder, pairs, args.out, metrics, args.jobs)
        print(f"volatility analysis: {pairs} pairs (distances + {','.join(metrics)}; jobs={args.jobs}) in "
              f"{analysis['analysis_s']:.1f} s = {pairs / analysis['analysis_s']:.0f} pairs/s")
    print(f"outputs of the last run in {args.out / 'analysis'}")


if __name__ == "__main__":
    main()
