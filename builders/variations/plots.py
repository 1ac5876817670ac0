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


def figure3(oscillation: pd.DataFrame, path: Path) -> Path:
    """Figure 3 of the paper: per metric, each source's mean over its variations (point) with the oscillation
    range (error bar from min to max), sources sorted by the mean."""
    import numpy as np

    from builders.core.atomic import atomic_path

    plt = _pyplot()
    metrics = [c.removesuffix("_range") for c in oscillation.columns if c.endswith("_range")]
    figure, axes = plt.subplots(1, max(1, len(metrics)), figsize=(3.2 * max(1, len(metrics)), 3.6), dpi=120,
                                squeeze=False)
    for axis, metric in zip(axes[0], metrics, strict=False):
        ordered = oscillation.sort_values(f"{metric}_mean", kind="stable")
        mean = ordered[f"{metric}_mean"].to_numpy(dtype=float)
        # A mean of equal values can round just outside [min, max]; matplotlib refuses negative error bars.
        below = np.clip(mean - ordered[f"{metric}_min"].to_numpy(dtype=float), 0.0, None)
        above = np.clip(ordered[f"{metric}_max"].to_numpy(dtype=float) - mean, 0.0, None)
        axis.errorbar(np.arange(len(mean)), mean, yerr=[below, above], fmt="o", markersize=2, elinewidth=0.6)
        label = "LengthRatio (%)" if metric == "length_ratio" else metric.upper()
        axis.set_title(label, fontsize=9)
        axis.set_xlabel("source (sorted by mean)", fontsize=8)
    figure.suptitle(f"Oscillation over SUBNUM variations ({len(oscillation)} sources)", fontsize=10)
    figure.tight_layout()
    with atomic_path(path) as tmp:
        figure.savefig(tmp, format="png")
    plt.close(figure)
    return path
