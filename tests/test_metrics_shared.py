"""Metrics on the real CoMMuTE layouts in ../shared/data (pairing checks; skipped when the data is absent)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from builders.core.errors import InputError
from builders.metrics.base import MetricInputs
from builders.metrics.commute_metric import CommuteMetric

pytestmark = pytest.mark.shared


def evaluate_commute_files(folder: Path, scores: list[Path]) -> dict:
    return CommuteMetric().evaluate(MetricInputs(folder, tuple(scores)))


def write_scores(path: Path, values: np.ndarray) -> Path:
    path.write_text("".join(f"{v:.6f}\n" for v in values))
    return path


@pytest.mark.parametrize(("pair", "unswapped"), [("en-de", []), ("en-fr", [23, 99]), ("en-cs", [])])
def test_real_commute_layout(shared_data: Path, tmp_path: Path, pair: str, unswapped: list[int]) -> None:
    folder = shared_data / "commute" / pair
    n_lines = len((folder / "src.en").read_text(encoding="utf-8").splitlines())
    rng = np.random.default_rng(0)
    correct = write_scores(tmp_path / "c.txt", rng.uniform(1, 10, n_lines))
    incorrect = write_scores(tmp_path / "i.txt", rng.uniform(1, 10, n_lines))
    result = evaluate_commute_files(folder, [correct, incorrect])
    assert result["sources"] == n_lines // 2
    assert result["unswapped_lines"] == unswapped  # the anchor's own text differences, reported not hidden
    assert 0.0 <= result["GTC"] <= result["TC"] <= 1.0


def test_real_commute_wrong_count(shared_data: Path, tmp_path: Path) -> None:
    folder = shared_data / "commute" / "en-de"
    short = write_scores(tmp_path / "c.txt", np.ones(299))
    with pytest.raises(InputError, match="c.txt: scores file has 299 lines but the set needs 300"):
        evaluate_commute_files(folder, [short, short])
