"""Figure 3 of the volatility analysis on the degenerate input a weak model gives (identical translations)."""

from __future__ import annotations

import pytest


def test_figure3_accepts_a_mean_that_rounds_outside_min_and_max(tmp_path) -> None:
    pytest.importorskip("matplotlib", reason="the figures need matplotlib")
    import pandas as pd

    from builders.variations.plots import figure3

    mean = sum([0.1, 0.1, 0.1]) / 3  # 0.10000000000000002 > 0.1: a negative error bar before the fix
    oscillation = pd.DataFrame({"bleu_mean": [mean], "bleu_min": [0.1], "bleu_max": [0.1], "bleu_range": [0.0]})
    assert figure3(oscillation, tmp_path / "figure3.png").stat().st_size > 0
