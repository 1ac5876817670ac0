"""Our files as the anchors' own evaluation scripts read them.

ContraPro's and CoMMuTE's `evaluate.py` cannot be vendored or downloaded here, so these tests restate, in our own
words, exactly how those scripts read their inputs (which fields, which types, how many lines, which comparison)
and check that built sets and `mtprobes score` outputs satisfy it and give our metric's figures:

- ContraPro: `contrapro.json` is a JSON list; per item the script reads one score line for the reference and
  then one per entry of `errors`, lower-cases `src pronoun` / `ref pronoun`, compares `ante distance` with 3
  (so it must be an integer), groups by `intrasegmental` (true/false/null) and, verbose, prints `src segment`,
  `ref segment`, `src ante phrase`, `ref ante phrase`. An item is right when the reference's score is strictly
  lower than every variant's (default, negative log-probabilities).
- CoMMuTE: `correct` and `incorrect` files are read whole, outer newlines stripped, split on newlines, each line
  a float; accuracy is the share of lines with correct < incorrect.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_load_dataset_cache import build_demo

from builders.core.resources import resource_path
from builders.scoring.protocol import ScoringOptions
from builders.scoring.run import ModelSpec, run_scoring

TEXT_MODEL = resource_path("models", "pronouns-sentence")


@pytest.fixture(scope="module")
def sets(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    pytest.importorskip("transformers", reason="scoring needs transformers")
    out = tmp_path_factory.mktemp("anchor-sets")
    return {
        "pronouns": build_demo("pronouns", out, alignment_cache=str(out / "align-cache")),
        "commute_ext": build_demo("commute_ext", out),
    }


def _score(set_dir: Path, out: Path, name: str) -> None:
    run_scoring(set_dir, out, ModelSpec(str(TEXT_MODEL)), ScoringOptions(device="cpu"), name=name)


def contrapro_client_total(reference: Path, scores: Path) -> tuple[int, int]:
    """(correct, total) the way ContraPro's evaluate.py counts them, field and type checks included."""
    items = json.loads(reference.read_text(encoding="utf-8"))
    assert isinstance(items, list)
    lines = iter(scores.read_text(encoding="utf-8").split("\n"))
    correct = 0
    for item in items:
        assert isinstance(item["src pronoun"], str) and isinstance(item["ref pronoun"], str)
        assert isinstance(item["ante distance"], int) and not isinstance(item["ante distance"], bool)
        assert item["intrasegmental"] in (True, False, None)
        assert all(isinstance(item[k], str) for k in ("src segment", "ref segment", "src ante phrase",
                                                      "ref ante phrase"))
        reference_score = float(next(lines))
        variant_scores = [float(next(lines)) for _ in item["errors"]]
        correct += all(reference_score < v for v in variant_scores)
    assert [line for line in lines if line] == [], "scores left over after the last item"
    return correct, len(items)


def commute_client_accuracy(correct: Path, incorrect: Path) -> float:
    def read(path: Path) -> list[float]:
        return [float(line) for line in path.read_text(encoding="utf-8").strip("\n").split("\n")]

    pairs = list(zip(read(correct), read(incorrect), strict=True))
    return sum(c < i for c, i in pairs) / len(pairs)


def test_contrapro_client_reads_a_built_set_and_our_scores(sets: dict[str, Path], tmp_path: Path) -> None:
    from builders.metrics.base import MetricInputs
    from builders.metrics.contrapro_metric import ContraProMetric

    _score(sets["pronouns"], tmp_path, "sentence")
    correct, total = contrapro_client_total(sets["pronouns"] / "contrapro.json", tmp_path / "sentence.scores")
    ours = ContraProMetric().evaluate(MetricInputs(sets["pronouns"], (tmp_path / "sentence.scores",)))
    assert (correct, total) == (ours["total"]["correct"], ours["total"]["total"]) and total > 0


def test_commute_client_reads_our_slot0_files(sets: dict[str, Path], tmp_path: Path) -> None:
    from builders.metrics.base import MetricInputs
    from builders.metrics.commute_metric import CommuteMetric

    _score(sets["commute_ext"], tmp_path, "text")
    correct, incorrect = tmp_path / "text.correct.txt", tmp_path / "text.incorrect.txt"
    slot0 = sets["commute_ext"] / "commute" / "slot0"
    assert len(correct.read_text(encoding="utf-8").splitlines()) == len(
        (slot0 / "src.en").read_text(encoding="utf-8").splitlines())
    ours = CommuteMetric().evaluate(MetricInputs(slot0, (correct, incorrect)))
    assert commute_client_accuracy(correct, incorrect) == pytest.approx(ours["TC"])
