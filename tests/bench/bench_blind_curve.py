"""Precision/yield curve over ``min_confidence`` from the judged blind samples of the OpenSubtitles pools
(issue 23; samples fixed by tests/data/make_pronouns_opensubs_sample.py, judgements resolved by
tests/data/blind_check.py).

The samples are stratified (items the default keeps, items it drops), so each judged item stands for
``population / sampled`` items of its stratum: the curve weights them so. Run: ``python
tests/bench/bench_blind_curve.py [--plot docs/figures/blind_curve.png]``; a sample without resolved judgements is
skipped with a line saying so. ``--plot`` also draws each pool's latest rounds: estimated usable share against
items per 1,000 English *it*, one point per uniform threshold, and the default config (its min_confidence and
per-class floors) as a star.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[1] / "data"
SAMPLE_META = re.compile(r"pronouns_opensubs_(ende|enfr)(\d+)_sample\.meta\.json")
THRESHOLDS = (0.0, 0.2, 0.3, 0.4, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 1.0)


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def drawn_rounds() -> list[tuple[str, int]]:
    """Every drawn round of both pools (its sample's meta file), pool by pool, in round order."""
    found = (SAMPLE_META.fullmatch(path.name) for path in DATA.glob("pronouns_opensubs_*_sample.meta.json"))
    return sorted((match[1], int(match[2])) for match in found if match)


Point = tuple[float, float, float]  # (min_confidence, items per 1,000 it, estimated usable %)
# uniform thresholds; the default config as (items per 1,000 it, usable %)
Curve = tuple[list[Point], tuple[float, float] | None]


def curve(pool: str, number: int) -> Curve:
    name = f"{pool}{number}"
    prefix = DATA / f"pronouns_opensubs_{name}"
    judged = Path(f"{prefix}_judgements.jsonl")
    if not judged.is_file():
        print(f"{name}: no resolved judgements yet, skipped")
        return [], None
    sample = read_jsonl(Path(f"{prefix}_sample.jsonl"))
    meta = json.loads(Path(f"{prefix}_sample.meta.json").read_text(encoding="utf-8"))
    usable = {r["id"]: r["usable"] for r in read_jsonl(judged)}
    kept = [s for s in sample if s["kept_by_default"]]
    weight = {True: meta["default_items"] / len(kept),
              False: (meta["relaxed_items"] - meta["default_items"]) / max(len(sample) - len(kept), 1)}
    backend = ", ".join(f"{k}: {v}" for k, v in meta.get("overrides", {}).items()) or "default config"
    print(f"\n## {meta['pool']} (round {number}, {backend}): {len(sample)} judged items; "
          f"population {meta['relaxed_items']} "
          f"with the filter off, {meta['default_items']} at the default; {meta['english_it']} English it\n")
    print("| min_confidence | judged items kept | estimated items | per 1,000 it | estimated usable |")
    print("|---|---|---|---|---|")
    points: list[Point] = []
    for threshold in THRESHOLDS:
        chosen = [s for s in sample if s["confidence"] >= threshold]
        items = sum(weight[s["kept_by_default"]] for s in chosen)
        good = sum(weight[s["kept_by_default"]] for s in chosen if usable[s["id"]])
        print(f"| {threshold} | {len(chosen)} | {items:.0f} | {1000 * items / meta['english_it']:.1f} "
              f"| {100 * good / max(items, 1e-9):.0f} % |")
        if items:
            points.append((threshold, 1000 * items / meta["english_it"], 100 * good / items))
    # the rows are one min_confidence for every class; the default config may differ per class (fr: the pack's
    # min_confidence and class floors), so its own point comes from its stratum
    default = (1000 * meta["default_items"] / meta["english_it"], 100 * sum(usable[s["id"]] for s in kept) / len(kept))
    print(f"\ndefault config (min_confidence and its class floors): {meta['default_items']} items "
          f"({default[0]:.1f} per 1,000 it), {default[1]:.0f} % usable")
    return points, default


def plot(curves: dict[tuple[str, int], Curve], path: Path, latest: int = 3) -> None:
    """Each pool's ``latest`` judged rounds, one panel per pool; written without a timestamp or version in the file,
    so the same judgements give the same bytes."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    pools = sorted({pool for pool, _ in curves})
    figure, axes = plt.subplots(1, len(pools), figsize=(5.5 * len(pools), 4), squeeze=False)
    for axis, pool in zip(axes[0], pools, strict=True):
        rounds = sorted(number for p, number in curves if p == pool and curves[(p, number)][0])[-latest:]
        for number in rounds:
            points, default = curves[(pool, number)]
            line = axis.plot([p[1] for p in points], [p[2] for p in points], marker="o", markersize=3,
                             label=f"round {number}")
            if default:
                axis.plot([default[0]], [default[1]], marker="*", markersize=12, color=line[0].get_color(),
                          markeredgecolor="black", linestyle="none")
        axis.axhline(90, color="grey", linestyle=":", linewidth=1)
        axis.set_title(f"opensubs-{pool}" + (" (DeepL German)" if pool == "ende" else " (human French)"))
        axis.set_xlabel("items per 1,000 English it (estimated)")
        axis.set_ylabel("usable items, % (estimated)")
        axis.legend(fontsize=8)
    figure.suptitle("Judged blind samples: one min_confidence for all classes, from 0 (right) to 0.75 (left); star: "
                    "the default config (its per-class floors); dotted: the 90 % goal", fontsize=9)
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    figure.savefig(partial, format="png", dpi=110, metadata={"Software": None})
    plt.close(figure)
    partial.replace(path)
    print(f"\nwrote {path}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plot", type=Path, default=None, help="also draw the curves into this PNG file")
    args = parser.parse_args()
    curves = {(pool, number): curve(pool, number) for pool, number in drawn_rounds()}  # unjudged: a line, skipped
    if args.plot:
        plot(curves, args.plot)


if __name__ == "__main__":
    main()
