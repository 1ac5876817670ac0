"""Figure 1 (distance vs span of change, minor/major regions) and Figure 3 (oscillation ranges) as PNG."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

TYPE_COLOURS = {"DEL": "#1b9e77", "INS": "#d95f02", "SUBNUM": "#7570b3", "SUBGEN": "#e7298a"}


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def figure1(pairs: pd.DataFrame, path: Path, unit: str = "subword", threshold: int = 10) -> Path:
    """Scatter of Levenshtein distance (x) against span of change (y), one colour per variation type."""
    from builders.core.atomic import atomic_path

    plt = _pyplot()
    figure, axis = plt.subplots(figsize=(6.4, 5.2), dpi=120)
    distance, span = pairs[f"{unit}_distance"], pairs[f"{unit}_span"]
    x_top = max(threshold * 2.5, float(distance.max() if len(pairs) else 0) * 1.05 + 1)
    y_top = max(threshold * 2.5, float(span.max() if len(pairs) else 0) * 1.05 + 1)
    axis.add_patch(plt.Rectangle((-1, -1), threshold + 1, threshold + 1, color="#d9f0d3", zorder=0,
                                 label=f"minor (both < {threshold})"))
    axis.add_patch(plt.Rectangle((threshold, threshold), x_top, y_top, color="#fddbc7", zorder=0,
                                 label=f"major (both > {threshold})"))
    jitter_base = (pairs.index.to_numpy() % 7 - 3) * 0.06  # deterministic jitter so equal points stay visible
    for type_name, group in pairs.groupby("type", sort=True):
        jitter = jitter_base[group.index]
        axis.scatter(group[f"{unit}_distance"] + jitter, group[f"{unit}_span"] - jitter, s=10, alpha=0.6,
                     color=TYPE_COLOURS.get(str(type_name), "grey"), label=f"{type_name} ({len(group)})", zorder=2)
    axis.set_xlim(-0.5, x_top)
    axis.set_ylim(-0.5, y_top)
    axis.set_xlabel(f"Levenshtein distance ({unit} units)")
    axis.set_ylabel(f"span of change ({unit} units)")
    axis.set_title("Translation of original vs variation")
    axis.legend(loc="lower right", fontsize=8)  # distance <= span: that corner stays empty
    figure.tight_layout()
    with atomic_path(path) as tmp:
        figure.savefig(tmp, format="png")
    plt.close(figure)
    return path


def figure3(oscillation: pd.DataFrame, path: Path, bins: tuple[float, ...] = (0, 1, 5, 10, 20, 30, 50, 1e9)) -> Path:
    """Bars: share of sources whose oscillation range falls in each bin, one group of bars per metric."""
    import numpy as np

    from builders.core.atomic import atomic_path

    plt = _pyplot()
    metrics = [c.removesuffix("_range") for c in oscillation.columns if c.endswith("_range")]
    labels = [f"{bins[i]:g}–{bins[i + 1]:g}" if bins[i + 1] < 1e9 else f"≥{bins[i]:g}" for i in range(len(bins) - 1)]
    figure, axis = plt.subplots(figsize=(7.2, 4.2), dpi=120)
    width = 0.8 / max(1, len(metrics))
    positions = np.arange(len(labels))
    for offset, metric in enumerate(metrics):
        values = oscillation[f"{metric}_range"].to_numpy(dtype=float)
        if metric == "length_ratio":
            values = values * 100  # as a percentage of the reference length, comparable with the others
        counts, _ = np.histogram(values, bins=np.array(bins))
        shares = counts / max(1, len(values)) * 100
        axis.bar(positions + offset * width - 0.4 + width / 2, shares, width, label=metric)
    axis.set_xticks(positions, labels)
    axis.set_xlabel("oscillation range over a source's variations (points; LengthRatio × 100)")
    axis.set_ylabel("% of sources")
    axis.set_title(f"Oscillation of sentence scores ({len(oscillation)} sources)")
    axis.legend(fontsize=8)
    figure.tight_layout()
    with atomic_path(path) as tmp:
        figure.savefig(tmp, format="png")
    plt.close(figure)
    return path
