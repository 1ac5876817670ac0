"""PNG plots of metric results (matplotlib, Agg backend, no timestamps: same results, same bytes)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from builders.metrics.contrapro import DISTANCE_ORDER

_PNG_METADATA = {"Software": None}  # matplotlib's version string would make the bytes depend on the install


def _figure(width: float = 6.4, height: float = 4.0) -> tuple[Any, Any]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(width, height), dpi=100)
    return figure, axes


def _save(figure: Any, path: Path) -> Path:
    import matplotlib.pyplot as plt

    from builders.core.atomic import atomic_path

    figure.tight_layout()
    with atomic_path(path) as tmp:
        figure.savefig(tmp, format="png", metadata=_PNG_METADATA)
    plt.close(figure)
    return path


def accuracy_by_distance(results: Sequence[dict[str, Any]], path: Path) -> Path:
    """Grouped bars: ContraPro accuracy per antecedent distance, one colour per system."""
    distances = [d for d in DISTANCE_ORDER if any(d in r["by_distance"] for r in results)]
    figure, axes = _figure()
    width = 0.8 / max(len(results), 1)
    for index, result in enumerate(results):
        cells = [result["by_distance"].get(d) for d in distances]
        heights = [c["accuracy"] if c else 0.0 for c in cells]
        errors = [
            [c["accuracy"] - c["ci95"]["low"] if c else 0.0 for c in cells],
            [c["ci95"]["high"] - c["accuracy"] if c else 0.0 for c in cells],
        ]
        positions = [x + (index - (len(results) - 1) / 2) * width for x in range(len(distances))]
        axes.bar(positions, heights, width, yerr=errors, capsize=3, label=result.get("system", f"system {index}"))
    axes.set_xticks(range(len(distances)), distances)
    axes.set_xlabel("antecedent distance (sentences)")
    axes.set_ylabel("accuracy (95% bootstrap CI)")
    axes.set_ylim(0, 1.05)
    axes.axhline(1 / 3, color="grey", linestyle=":", linewidth=1, label="chance (3 pronouns)")
    axes.legend(fontsize=8)
    axes.set_title("ContraPro accuracy by antecedent distance")
    return _save(figure, path)


def awareness_violins(results: Sequence[dict[str, Any]], path: Path) -> Path:
    """Violin plot of per-segment Δ (congruent - incongruent, pooled over shuffles) per system."""
    figure, axes = _figure()
    data = [[d for deltas in r["deltas"].values() for d in deltas] for r in results]
    labels = [r.get("system", f"system {i}") for i, r in enumerate(results)]
    # A violin of a constant sample has no width: matplotlib then draws nothing, so jitter-free points show it.
    spread = [i for i, d in enumerate(data) if len(set(d)) > 1]
    if spread:
        axes.violinplot([data[i] for i in spread], positions=[i + 1 for i in spread], showmeans=True)
    for index, values in enumerate(data):
        if len(set(values)) <= 1:
            axes.plot([index + 1] * len(values), values, "o", markersize=3)
    axes.axhline(0.0, color="grey", linestyle=":", linewidth=1)
    axes.set_xlim(0.4, len(labels) + 0.6)
    axes.set_xticks(
        range(1, len(labels) + 1), [f"{label}\np={r['fisher_p']:.2g}" for label, r in zip(labels, results, strict=True)]
    )
    axes.set_ylabel("Δ per segment (congruent − incongruent)")
    axes.set_title("Image awareness (Elliott 2018)")
    return _save(figure, path)


def commute_perplexities(results: Sequence[dict[str, Any]], path: Path) -> Path:
    """Perplexity of the correct translation with the correct, incorrect (and mixup) image, per system."""
    figure, axes = _figure(width=max(6.4, 2.2 * len(results)))
    colours = {"correct image": "tab:green", "incorrect image": "tab:red", "mixup image": "tab:blue"}
    position = 1.0
    ticks, tick_labels = [], []
    for index, result in enumerate(results):
        views = result["perplexity_views"]
        start = position
        for name, values in views.items():
            box = axes.boxplot([values], positions=[position], widths=0.6, patch_artist=True, showfliers=False)
            box["boxes"][0].set_facecolor(colours.get(name, "grey"))
            position += 0.8
        ticks.append((start + position - 0.8) / 2)
        tick_labels.append(result.get("system", f"system {index}"))
        position += 0.8
    axes.set_xticks(ticks, tick_labels)
    axes.set_yscale("log")
    axes.set_ylabel("perplexity of the correct translation")
    from matplotlib.patches import Patch

    axes.legend(handles=[Patch(color=c, label=n) for n, c in colours.items()], fontsize=8)
    axes.set_xlim(0.3, position - 0.5)
    axes.set_title("CoMMuTE: correct translation, by image shown")
    return _save(figure, path)


def commute_temperature(results: Sequence[dict[str, Any]], path: Path) -> Path:
    """Fig. 5 of Kashani Motlagh et al. 2024: TC and IC (solid, dashed) against the softmax temperature."""
    figure, axes = _figure()
    for index, result in enumerate(results):
        rows = result["by_temperature"]
        temperatures = [row["temperature"] for row in rows]
        system = result.get("system", f"system {index}")
        line = axes.plot(temperatures, [row["TC"] for row in rows], marker="o", label=f"{system} TC")[0]
        axes.plot(temperatures, [row["IC"] for row in rows], marker="s", linestyle="--", color=line.get_color(),
                  label=f"{system} IC")
    axes.set_xlabel("temperature T")
    axes.set_ylabel("score")
    axes.set_ylim(-0.02, 1.02)
    axes.legend(fontsize=8)
    axes.set_title("CoMMuTE under temperature scaling")
    return _save(figure, path)


PLOTS = {
    "contrapro": ("accuracy_by_distance.png", accuracy_by_distance),
    "awareness": ("awareness_violins.png", awareness_violins),
    "commute": ("commute_perplexity.png", commute_perplexities),
    "commute-temperature": ("commute_temperature.png", commute_temperature),
}
