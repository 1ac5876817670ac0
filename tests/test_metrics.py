"""Table-driven tests of the papers' metrics on hand-computed values."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from builders.core.errors import InputError, MtprobesError
from builders.metrics import awareness, commute, contrapro, stats
from builders.scoring.scores_io import read_scores

# --- ContraPro ---------------------------------------------------------------------------------------------

RECORDS = [
    {
        "src pronoun": "it",
        "ref pronoun": "er",
        "ante distance": 0,
        "intrasegmental": True,
        "errors": [{"contrastive": "a"}, {"contrastive": "b"}],
    },
    {
        "src pronoun": "it",
        "ref pronoun": "sie",
        "ante distance": 1,
        "intrasegmental": False,
        "errors": [{"contrastive": "a"}, {"contrastive": "b"}],
    },
    {
        "src pronoun": "It",
        "ref pronoun": "Es",
        "ante distance": 5,
        "intrasegmental": False,
        "errors": [{"contrastive": "a"}, {"contrastive": "b"}],
    },
    {
        "src pronoun": "it",
        "ref pronoun": "er",
        "ante distance": 2,
        "intrasegmental": None,
        "errors": [{"contrastive": "a"}],
    },
]
# item 1: ref best; item 2: one variant better; item 3: tie (an error, as ContraPro's '<'); item 4: ref best.
SCORES = np.array([1.0, 2.0, 3.0, 2.0, 1.5, 3.0, 1.0, 1.0, 2.0, 0.5, 0.7])


@pytest.mark.parametrize(
    ("lower_is_better", "expected"),
    [(True, [True, False, False, True]), (False, [False, False, False, False])],
)
def test_contrapro_decisions(lower_is_better: bool, expected: list[bool]) -> None:
    assert contrapro.decisions(RECORDS, SCORES, lower_is_better=lower_is_better).tolist() == expected


@pytest.mark.parametrize(
    ("group", "key", "correct", "total"),
    [
        ("total", None, 2, 4),
        ("by_pair", "it:er", 2, 2),
        ("by_pair", "it:sie", 0, 1),
        ("by_pair", "it:es", 0, 1),
        ("by_distance", "0", 1, 1),
        ("by_distance", "1", 0, 1),
        ("by_distance", "2", 1, 1),
        ("by_distance", ">3", 0, 1),
        ("by_intrasegmental", "true", 1, 1),
        ("by_intrasegmental", "false", 0, 2),
        ("by_intrasegmental", "null", 1, 1),
    ],
)
def test_contrapro_accuracy_table(group: str, key: str | None, correct: int, total: int) -> None:
    result = contrapro.evaluate_contrapro(RECORDS, SCORES, resamples=200)
    cell = result[group] if key is None else result[group][key]
    assert (cell["correct"], cell["total"]) == (correct, total)
    assert cell["accuracy"] == pytest.approx(correct / total)


def test_contrapro_distance_3_absent_and_ci_brackets_estimate() -> None:
    result = contrapro.evaluate_contrapro(RECORDS, SCORES, resamples=500, seed=1)
    assert "3" not in result["by_distance"]
    ci = result["total"]["ci95"]
    assert ci["low"] <= ci["estimate"] == 0.5 <= ci["high"]
    again = contrapro.evaluate_contrapro(RECORDS, SCORES, resamples=500, seed=1)
    assert again["total"]["ci95"] == ci


@pytest.mark.parametrize("n_lines", [10, 12])
def test_contrapro_wrong_line_count_names_both_counts(n_lines: int) -> None:
    with pytest.raises(InputError, match=rf"has {n_lines} lines .* need 11"):
        contrapro.decisions(RECORDS, np.zeros(n_lines), scores_path="s.txt")


def test_contrapro_mcnemar_against_second_system() -> None:
    better_b = SCORES.copy()
    better_b[4] = 2.5  # item 2 becomes correct for system b
    result = contrapro.evaluate_contrapro(RECORDS, SCORES, compare_scores=better_b, resamples=100)
    assert result["compare"]["total"]["correct"] == 3
    test = result["compare"]["mcnemar"]
    assert (test["only_a"], test["only_b"], test["both"], test["neither"]) == (0, 1, 2, 1)
    assert test["p_exact"] == pytest.approx(1.0)


def test_contrapro_json_missing_field(tmp_path: Path) -> None:
    path = tmp_path / "contrapro.json"
    path.write_text(json.dumps([{"src pronoun": "it", "errors": [{}]}]))
    with pytest.raises(InputError, match="item 1 lacks field"):
        contrapro.load_contrapro_json(path)


# --- score files ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("1.0\nnan\n", r"s\.txt:2: score is nan"),
        ("1.0\n2.0\ninf\n", r"s\.txt:3: score is inf"),
        ("1.0\n-Infinity\n", r"s\.txt:2: score is -Infinity"),
        ("1.0\nabc\n", r"s\.txt:2: not a number"),
    ],
)
def test_read_scores_names_bad_line(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "s.txt"
    path.write_text(content)
    with pytest.raises(InputError, match=message):
        read_scores(path)


def test_read_scores_count(tmp_path: Path) -> None:
    path = tmp_path / "s.txt"
    path.write_text("1\n2\n3\n")
    assert read_scores(path, 3).tolist() == [1.0, 2.0, 3.0]
    with pytest.raises(InputError, match="has 3 lines but the set needs 4"):
        read_scores(path, 4)


# --- statistics ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "cells", "p_exact", "chi2"),
    [
        ([1, 1, 1, 0, 0, 1], [0, 0, 1, 0, 1, 1], (2, 1, 2, 1), 1.0, 0.0),
        ([1] * 10 + [0], [0] * 10 + [0], (10, 0, 0, 1), 2 * 0.5**10, 8.1),
        ([1, 0], [1, 0], (0, 0, 1, 1), 1.0, 0.0),
    ],
)
def test_mcnemar(a: list[int], b: list[int], cells: tuple[int, ...], p_exact: float, chi2: float) -> None:
    result = stats.mcnemar(np.array(a, bool), np.array(b, bool))
    assert (result.only_a, result.only_b, result.both, result.neither) == cells
    assert result.p_exact == pytest.approx(p_exact)
    assert result.chi2 == pytest.approx(chi2)


def test_bootstrap_constant_and_seeded() -> None:
    constant = stats.bootstrap_mean_ci([1, 1, 1, 1])
    assert (constant.low, constant.estimate, constant.high) == (1.0, 1.0, 1.0)
    values = np.r_[np.ones(30), np.zeros(70)]
    first = stats.bootstrap_mean_ci(values, seed=5)
    assert first == stats.bootstrap_mean_ci(values, seed=5)
    assert first.low < 0.3 < first.high and first.high - first.low < 0.25


def test_fisher_hand_computed() -> None:
    # X = -2 ln(1/64 * 3/64); chi-square survival with 4 dof is exp(-x/2) (1 + x/2).
    x = -2 * (math.log(1 / 64) + math.log(3 / 64))
    statistic, p, dof = stats.fisher_combine([1 / 64, 3 / 64])
    assert dof == 4 and statistic == pytest.approx(x)
    assert p == pytest.approx(math.exp(-x / 2) * (1 + x / 2))
    with pytest.raises(MtprobesError):
        stats.fisher_combine([1.5])


# --- awareness -------------------------------------------------------------------------------------------------

CONGRUENT = [10.0, 20.0, 30.0, 40.0, 50.0, 60.0]
SHUFFLE_A = [9.0, 18.0, 27.0, 36.0, 45.0, 54.0]  # deltas 1..6, all positive: exact one-sided p = 1/64
SHUFFLE_B = [9.0, 22.0, 27.0, 36.0, 45.0, 54.0]  # deltas 1,-2,3,4,5,6: W+ = 19, p = 3/64


def test_awareness_hand_computed() -> None:
    result = awareness.awareness_test(CONGRUENT, {"random0": SHUFFLE_A, "random1": SHUFFLE_B})
    assert result["shuffles"]["random0"]["delta_awareness"] == pytest.approx(3.5)
    assert result["shuffles"]["random1"]["delta_awareness"] == pytest.approx(17 / 6)
    assert result["shuffles"]["random0"]["wilcoxon_p"] == pytest.approx(1 / 64)
    assert result["shuffles"]["random1"]["wilcoxon_p"] == pytest.approx(3 / 64)
    assert result["delta_awareness_mean"] == pytest.approx((3.5 + 17 / 6) / 2)
    assert result["delta_awareness_std"] == pytest.approx(abs(3.5 - 17 / 6) / math.sqrt(2))
    x = -2 * (math.log(1 / 64) + math.log(3 / 64))
    assert result["fisher_p"] == pytest.approx(math.exp(-x / 2) * (1 + x / 2))  # 0.00602
    assert result["aware"] is False  # 0.00602 > 0.005: just fails


def test_awareness_passes_with_more_evidence_and_fails_for_text_only() -> None:
    rng = np.random.default_rng(0)
    congruent = rng.normal(1.0, 0.1, 40)
    shuffles = {f"random{i}": congruent - np.abs(rng.normal(0.2, 0.05, 40)) for i in range(3)}
    assert awareness.awareness_test(congruent, shuffles)["aware"] is True
    text_only = awareness.awareness_test(congruent, {f"random{i}": congruent for i in range(3)})
    assert text_only["aware"] is False and text_only["fisher_p"] == 1.0
    assert text_only["delta_awareness_mean"] == 0.0


@pytest.mark.parametrize(("lower_is_better", "sign"), [(False, 1.0), (True, -1.0)])
def test_awareness_delta_direction(lower_is_better: bool, sign: float) -> None:
    deltas = awareness.segment_deltas(np.array([2.0, 3.0]), np.array([1.0, 1.0]), lower_is_better=lower_is_better)
    assert deltas.tolist() == [sign * 1.0, sign * 2.0]


# --- CoMMuTE family -----------------------------------------------------------------------------------------

# ppl[n, t, i]: source 0 is fully consistent, source 1 only passes TC under image 0.
PPL = np.array([[[2.0, 5.0], [4.0, 3.0]], [[2.0, 1.0], [3.0, 6.0]]])
CORRECT_LINES = np.array([2.0, 3.0, 2.0, 6.0])
INCORRECT_LINES = np.array([4.0, 5.0, 3.0, 1.0])


def test_commute_lines_to_pairs() -> None:
    pairs = commute.pairs_from_lines(CORRECT_LINES, INCORRECT_LINES, sources=["s", "s", "u", "u"])
    np.testing.assert_array_equal(pairs.ppl, PPL)


@pytest.mark.parametrize(
    ("ppl", "expected"),
    [
        (PPL, {"TC": 0.75, "IC": 0.5, "GTC": 0.5, "GIC": 0.5}),
        (
            np.array([[[2.0, 2.0], [4.0, 4.0]], [[5.0, 5.0], [1.0, 1.0]]]),
            {"TC": 0.5, "IC": 0.0, "GTC": 0.0, "GIC": 0.0},
        ),
    ],
    ids=["hand", "text-only"],
)
def test_commute_consistency(ppl: np.ndarray, expected: dict[str, float]) -> None:
    scores = commute.consistency_scores(ppl)
    assert {k: scores[k] for k in expected} == expected


def test_commute_mixup_rates_and_identities() -> None:
    # mixup[n, i, t]; one mixup image per source, so both lines carry the same pair of perplexities.
    mixup = np.array([[[3.0, 3.5], [3.0, 3.5]], [[5.0, 2.0], [5.0, 2.0]]])
    rates = commute.mixup_rates(PPL, mixup)
    assert {k: rates[k] for k in ("IPR", "INR", "CPR", "CNR")} == {"IPR": 0.5, "INR": 0.25, "CPR": 0.25, "CNR": 0.0}
    assert rates["identities_hold"] is True and rates["mixup_ties"] == 0
    tied = commute.mixup_rates(PPL, np.full((2, 2, 2), 3.0))
    assert tied["identities_hold"] is False and tied["mixup_ties"] == 4


def test_commute_mixup_from_lines() -> None:
    mixup = commute.mixup_from_lines(np.array([3.0, 3.5]), np.array([3.5, 3.0]))
    np.testing.assert_array_equal(mixup, [[[3.0, 3.5], [3.0, 3.5]]])


def test_commute_unpaired_source_is_an_error() -> None:
    with pytest.raises(InputError, match=":2: consecutive lines must share"):
        commute.pairs_from_lines(CORRECT_LINES, INCORRECT_LINES, sources=["s", "x", "u", "u"], origin="src.en")


def test_commute_unswapped_texts_are_reported() -> None:
    pairs = commute.pairs_from_lines(
        CORRECT_LINES[:2], INCORRECT_LINES[:2], correct_texts=["a", "b"], incorrect_texts=["b", "a!"]
    )
    assert pairs.unswapped == (1,)


@pytest.mark.parametrize(
    ("ppl_a", "ppl_b", "max_choice", "min_choice"),
    [
        # The pre-2024 rule, kept as tie_break="fewest-replaced" (the paper's Eq. 10 is tested in
        # test_metrics_papers.py). Originals fail; (1,0) and (1,1) pass -> fewest replacements wins: (1,0).
        ([[3.0, 1.0], [2.0, 4.0]], [[2.0, 5.0], [3.0, 3.0]], (1, 0, True), (0, 0, False)),
        # (1,0) and (2,0) both pass with one replacement -> larger margin: (2,0) (log 8/3 > log 4/3).
        ([[3.0, 1.0, 1.0], [2.0, 4.0, 8.0]], [[2.0], [3.0]], (2, 0, True), (0, 0, False)),
        # originals pass: the max oracle keeps them; the min oracle looks for a failing pair.
        ([[1.0, 9.0], [5.0, 5.0]], [[2.0, 2.0], [3.0, 3.0]], (0, 0, True), (1, 0, False)),
    ],
)
def test_commute_oracle_fewest_replaced_tie_breaks(
    ppl_a: list[list[float]],
    ppl_b: list[list[float]],
    max_choice: tuple[int, int, bool],
    min_choice: tuple[int, int, bool],
) -> None:
    a, b = np.array(ppl_a), np.array(ppl_b)
    best = commute.oracle_choice(a, b, "max", "fewest-replaced")
    worst = commute.oracle_choice(a, b, "min", "fewest-replaced")
    assert (best.image_a, best.image_b, best.gic) == max_choice
    assert (worst.image_a, worst.image_b, worst.gic) == min_choice


def test_commute_oracle_rates() -> None:
    extended = [
        (np.array([[3.0, 1.0], [2.0, 4.0]]), np.array([[2.0, 5.0], [3.0, 3.0]])),
        (np.array([[1.0, 9.0], [5.0, 5.0]]), np.array([[2.0, 2.0], [3.0, 3.0]])),
    ]
    result = commute.image_oracle(extended, "fewest-replaced")
    assert (result["max"]["GIC"], result["max"]["RR"]) == (1.0, 0.25)
    assert (result["min"]["GIC"], result["min"]["RR"]) == (0.0, 0.25)
    assert result["original"]["GIC"] == 0.5


@pytest.mark.parametrize(
    ("a", "b", "iou"),
    [([1, 1, 0, 0], [1, 0, 1, 0], 1 / 3), ([1, 0], [1, 0], 1.0), ([0, 0], [0, 0], None), ([1, 0], [0, 1], 0.0)],
)
def test_failure_iou(a: list[int], b: list[int], iou: float | None) -> None:
    assert commute.failure_iou(np.array(a, bool), np.array(b, bool)) == iou


def test_perplexity_views() -> None:
    views = commute.perplexity_views(PPL, None)
    assert views["correct image"] == [2.0, 2.0, 3.0, 6.0]
    assert views["incorrect image"] == [5.0, 1.0, 4.0, 3.0]
