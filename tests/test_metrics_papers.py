"""Each metric against its paper's definition, on small examples whose expected values are worked out by hand
in the comments (and, for the awareness statistics, checked against scipy on the same numbers)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from builders.metrics import awareness, commute, contrapro
from builders.scoring.protocol import TokenScores, drop_shared_prefix
from builders.variations.volatility import classify, edit_stats

# --- Kashani Motlagh et al. 2024 -------------------------------------------------------------------------------


def test_eq1_perplexity() -> None:
    # P = exp(-(ln 0.5 + ln 0.25) / 2) = exp(ln 8 / 2) = sqrt(8)
    scores = TokenScores(np.array([1, 2]), np.log(np.array([0.5, 0.25])))
    assert scores.perplexity == pytest.approx(math.sqrt(8))


# ppl[n, t, i] = P(s_n, i, t). Tuple 0: every indicator 1. Tuple 1 (hand):
#   TC^{a,b} = P(i^a,t^a)=2 < P(i^a,t^b)=3 -> 1;  TC^{b,a} = P(i^b,t^b)=6 < P(i^b,t^a)=1 -> 0
#   IC^{a,b} = P(i^a,t^a)=2 < P(i^b,t^a)=1 -> 0;  IC^{b,a} = P(i^b,t^b)=6 < P(i^a,t^b)=3 -> 0
# TC = (2 + 1) / 4 (Eq. 3), IC = (2 + 0) / 4 (Eq. 5), GTC = (1 + 0) / 2 (Eq. 8), GIC = (1 + 0) / 2 (Eq. 9)
PPL = np.array([[[2.0, 5.0], [4.0, 3.0]], [[2.0, 1.0], [3.0, 6.0]]])
# A tie counts as a failure: "1 if the perplexity for the correct translation is less" (Eq. 2).
TIED = np.array([[[2.0, 2.0], [2.0, 2.0]]])


@pytest.mark.parametrize(
    ("ppl", "expected"),
    [
        (PPL, {"TC": 0.75, "IC": 0.5, "GTC": 0.5, "GIC": 0.5}),
        (TIED, {"TC": 0.0, "IC": 0.0, "GTC": 0.0, "GIC": 0.0}),
    ],
    ids=["two tuples", "ties fail"],
)
def test_eqs_2_to_9(ppl: np.ndarray, expected: dict[str, float]) -> None:
    scores = commute.consistency_scores(ppl)
    assert {k: scores[k] for k in expected} == pytest.approx(expected)


def test_mixup_rates_sec_5_3() -> None:
    # mixup[n, i, t]: with the mixup image tuple 0 prefers t^a on both lines, tuple 1 prefers t^b on both.
    mixup = np.array([[[1.0, 2.0], [1.0, 2.0]], [[5.0, 4.0], [5.0, 4.0]]])
    # original TC decisions (n, i): (0,0)=1 (0,1)=1 (1,0)=1 (1,1)=0; mixup right: (0,0)=1 (0,1)=0 (1,0)=0 (1,1)=1
    # IPR: right & mixup wrong = (0,1),(1,0) -> 2/4; INR: wrong & mixup right = (1,1) -> 1/4; CPR = (0,0) -> 1/4
    rates = commute.mixup_rates(PPL, mixup)
    assert (rates["IPR"], rates["INR"], rates["CPR"], rates["CNR"]) == (0.5, 0.25, 0.25, 0.0)
    assert rates["identities_hold"] is True  # IPR + CNR = INR + CPR = 0.5


def test_failure_iou_table_3() -> None:
    # TC failures are triples: model A fails (1,1) only; model B fails (1,1) and (0,1) -> IoU 1/2
    other = PPL.copy()
    other[0, 0, 1] = 1.0  # under i^b, t^a now beats t^b: TC^{b,a} of tuple 0 fails
    mine, theirs = commute.failure_sets(PPL), commute.failure_sets(other)
    assert commute.failure_iou(mine["TC"], theirs["TC"]) == pytest.approx(0.5)


# Extended images: ppl_a[t, j] = P(s, A_j, t^t), ppl_b[t, k] = P(s, B_k, t^t); Eq. 10 for (j, k) is
# (ppl_a[0,j] - ppl_b[0,k]) + (ppl_b[1,k] - ppl_a[1,j]).
#   (0,0): GIC 0 (3 < 2 fails), Eq.10 = 1 + 1 = 2      (0,1): GIC 0, Eq.10 = -2 + 1 = -1
#   (1,0): GIC 1, Eq.10 = -1 - 1 = -2                  (1,1): GIC 1, Eq.10 = -4 - 1 = -5
# Max-GIC: GIC 1 pairs, minimise Eq. 10 -> (1,1).  Min-GIC: GIC 0 pairs, maximise Eq. 10 -> (0,0).
SOURCE_1 = (np.array([[3.0, 1.0], [2.0, 4.0]]), np.array([[2.0, 5.0], [3.0, 3.0]]))
# Originals pass. (0,0): GIC 1, Eq.10 = -1 + -2 = -3; (0,1): ppl_b[:,1] = (9, 1): GIC 1, Eq.10 = -8 - 4 = -12
#   (1,0): ppl_a[:,1] = (9, 2): 9 < 2 fails -> GIC 0, Eq.10 = 7 + 1 = 8; (1,1): 9 < 9 fails -> GIC 0, Eq.10 = 0 - 1 = -1
# Max -> (0,1) (-12 < -3): one image replaced although the originals already pass. Min -> (1,0) (8 > -1).
SOURCE_2 = (np.array([[1.0, 9.0], [5.0, 2.0]]), np.array([[2.0, 9.0], [3.0, 1.0]]))


@pytest.mark.parametrize(
    ("source", "max_pair", "min_pair"),
    [(SOURCE_1, (1, 1), (0, 0)), (SOURCE_2, (0, 1), (1, 0))],
    ids=["originals fail", "originals pass"],
)
def test_oracle_eq10_tie_break(
    source: tuple[np.ndarray, np.ndarray], max_pair: tuple[int, int], min_pair: tuple[int, int]
) -> None:
    best = commute.oracle_choice(*source, "max")
    worst = commute.oracle_choice(*source, "min")
    assert (best.image_a, best.image_b) == max_pair and best.gic
    assert (worst.image_a, worst.image_b) == min_pair and not worst.gic


def test_oracle_tables_4_and_5() -> None:
    result = commute.image_oracle([SOURCE_1, SOURCE_2])
    # Max: source 1 (1,1): IC (1,1), TC^{a,b} = 1 < 4 -> 1, TC^{b,a} = 3 < 5 -> 1; source 2 (0,1): IC (1,1),
    #   TC^{a,b} = 1 < 5 -> 1, TC^{b,a} = 1 < 9 -> 1.  RR = (2 + 1) / 4.
    assert result["max"] == {"TC": 1.0, "IC": 1.0, "GTC": 1.0, "GIC": 1.0, "RR": 0.75, "choices": [[1, 1], [0, 1]]}
    # Min: source 1 (0,0): IC^{a,b} = 3 < 2 -> 0, IC^{b,a} = 3 < 2 -> 0; TC^{a,b} = 3 < 2 -> 0,
    #   TC^{b,a} = 3 < 2 -> 0.  Source 2 (1,0): IC^{a,b} = 9 < 2 -> 0, IC^{b,a} = 3 < 2 -> 0;
    #   TC^{a,b} = 9 < 2 -> 0, TC^{b,a} = 3 < 2 -> 0.  RR = (0 + 1) / 4.
    assert result["min"] == {"TC": 0.0, "IC": 0.0, "GTC": 0.0, "GIC": 0.0, "RR": 0.25, "choices": [[0, 0], [1, 0]]}
    # Originals: source 1 fails everything above; source 2 (0,0): IC (1,1), TC^{a,b} 1 < 5, TC^{b,a} 3 < 2 -> 0
    assert result["original"] == {"TC": 0.25, "IC": 0.5, "GTC": 0.0, "GIC": 0.5, "RR": 0.0}
    assert result["tie_break"] == "eq10"


def test_shared_prefix_removal_table_6() -> None:
    # t^a = [5, 6, 7], t^b = [5, 6, 8] share two tokens; only the last token's log-prob remains.
    first = TokenScores(np.array([5, 6, 7]), np.log(np.array([0.5, 0.5, 0.25])))
    second = TokenScores(np.array([5, 6, 8]), np.log(np.array([0.5, 0.5, 0.125])))
    kept = drop_shared_prefix([first, second])
    assert [s.perplexity for s in kept] == pytest.approx([4.0, 8.0])
    assert first.perplexity == pytest.approx(math.exp(-(2 * math.log(0.5) + math.log(0.25)) / 3))


# --- Elliott 2018 -----------------------------------------------------------------------------------------------

CONGRUENT = [10.0, 20.0, 30.0, 40.0, 50.0, 60.0]
SHUFFLES = {
    "random1": [9.0, 18.0, 27.0, 36.0, 45.0, 54.0],  # Δ = 1..6, all positive: W+ = 21
    "random2": [9.0, 22.0, 27.0, 36.0, 45.0, 54.0],  # Δ = 1,-2,3,4,5,6: W- = 2 (rank of |-2|), W+ = 19
}


@pytest.mark.parametrize(
    ("alternative", "p_values"),
    # exact null distribution of W+ over 2^6 sign patterns: P(W+ = 21) = 1/64, P(W+ >= 19) = 3/64;
    # two-sided doubles the smaller tail.
    [("greater", (1 / 64, 3 / 64)), ("two-sided", (2 / 64, 6 / 64))],
)
def test_wilcoxon_alternatives_by_hand_and_scipy(alternative: str, p_values: tuple[float, float]) -> None:
    from scipy import stats

    result = awareness.awareness_test(CONGRUENT, SHUFFLES, alternative=alternative)  # type: ignore[arg-type]
    got = tuple(result["shuffles"][name]["wilcoxon_p"] for name in SHUFFLES)
    assert got == pytest.approx(p_values)
    for name, values in SHUFFLES.items():
        scipy_p = stats.wilcoxon(np.subtract(CONGRUENT, values), alternative=alternative).pvalue
        assert result["shuffles"][name]["wilcoxon_p"] == pytest.approx(scipy_p)
    x = -2 * sum(math.log(p) for p in p_values)  # Fisher; χ² with 4 dof: sf = exp(-x/2)(1 + x/2)
    assert result["fisher_p"] == pytest.approx(math.exp(-x / 2) * (1 + x / 2))
    assert result["fisher_p"] == pytest.approx(stats.combine_pvalues(p_values, method="fisher").pvalue)
    assert result["reproduces_table1"] is (alternative == "two-sided")
    assert result["other_alternative"]["alternative"] == ("greater" if alternative == "two-sided" else "two-sided")


def test_delta_awareness_eqs_1_and_2() -> None:
    result = awareness.awareness_test(CONGRUENT, SHUFFLES)
    # Eq. 1 per shuffle: mean of Eq. 2's Δ = 21/6 and 17/6; reported as mean ± sample std over shuffles
    assert result["shuffles"]["random1"]["delta_awareness"] == pytest.approx(3.5)
    assert result["shuffles"]["random2"]["delta_awareness"] == pytest.approx(17 / 6)
    assert result["delta_awareness_mean"] == pytest.approx((21 / 6 + 17 / 6) / 2)
    assert result["delta_awareness_std"] == pytest.approx(np.std([21 / 6, 17 / 6], ddof=1))
    # Table 1's C and I columns: mean score with congruent images (210/6), and per shuffle (189/6, 193/6)
    assert result["congruent_mean"] == pytest.approx(35.0)
    assert result["incongruent_mean"] == pytest.approx((189 / 6 + 193 / 6) / 2)
    assert result["incongruent_std"] == pytest.approx(np.std([189 / 6, 193 / 6], ddof=1))


def test_delta_i_eq_3_on_probabilities() -> None:
    # log-prob files: Eq. 3 takes p = exp(log p); Δ_I = 0.5 - 0.25 and 0.25 - 0.5
    congruent, shuffle = np.log([0.5, 0.25]), np.log([0.25, 0.5])
    result = awareness.awareness_test(congruent, {"r": shuffle}, measure="probability")
    assert result["deltas"]["r"] == pytest.approx([0.25, -0.25])
    logprob = awareness.awareness_test(congruent, {"r": shuffle})
    assert logprob["deltas"]["r"] == pytest.approx([math.log(2), -math.log(2)])


# --- Müller et al. 2018 -----------------------------------------------------------------------------------------


def _item(ref: str, distance: int, intra: bool, variants: int = 2) -> dict:
    return {"src pronoun": "it", "ref pronoun": ref, "ante distance": distance, "intrasegmental": intra,
            "errors": [{"replacement": "x"}] * variants}


ITEMS = [_item("er", 0, True), _item("sie", 1, False), _item("es", 1, False), _item("es", 5, False)]


@pytest.mark.parametrize(
    ("scores", "decisions"),
    [
        # negative log-probs (lower is better): reference, then its two variants
        ([1, 2, 3, 1, 2, 0.5, 1, 1, 2, 1, 2, 2], [True, False, False, True]),  # item 2: one variant wins;
        # item 3: a tie with one variant is an error ("only correct if ... higher score than any")
        ([5, 2, 3, 1, 2, 2, 0, 1, 1, 9, 1, 1], [False, True, True, False]),
    ],
)
def test_reference_must_beat_every_variant(scores: list[float], decisions: list[bool]) -> None:
    assert contrapro.decisions(ITEMS, np.array(scores, dtype=float)).tolist() == decisions


def test_accuracy_tables_6_to_8() -> None:
    table = contrapro.accuracy_table(ITEMS, np.array([True, False, False, True]))
    by_ref = {k: (v["correct"], v["total"]) for k, v in table["by_ref_pronoun"].items()}
    assert by_ref == {"er": (1, 1), "es": (1, 2), "sie": (0, 1)}  # Table 6
    intra = {k: (v["correct"], v["total"]) for k, v in table["by_intrasegmental"].items()}
    assert intra == {"true": (1, 1), "false": (1, 3)}  # Table 7: intrasegmental / external
    distance = {k: (v["correct"], v["total"]) for k, v in table["by_distance"].items()}
    assert distance == {"0": (1, 1), "1": (0, 2), ">3": (1, 1)}  # Table 8: 0, 1, 2, 3, >3
    pairs = {k: (v["correct"], v["total"]) for k, v in table["by_pair"].items()}
    assert pairs == {"it:er": (1, 1), "it:es": (1, 2), "it:sie": (0, 1)}  # evaluate.py's "src:ref" categories
    assert table["total"]["accuracy"] == 0.5


# --- Fadaee & Monz 2020 -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "distance", "span", "label"),
    [
        ("x y z", "x y z", 0, 0, "minor"),  # Sec. 3.1: ideally span 0 ...
        ("x y z", "x q z", 1, 0, "minor"),  # ... and a one-token difference: first = last changed position
        ("0 1 2 3 4 5 6 7 8 9 10 11", "a b c d e f g h i j k l", 12, 11, "major"),  # both > 10
        ("0 1 2 3 4 5 6 7 8 9 10 11", "a 1 2 3 4 5 6 7 8 9 10 l", 2, 11, "other"),  # neither rule applies
    ],
)
def test_minor_major_sec_3_1(a: str, b: str, distance: int, span: int, label: str) -> None:
    assert edit_stats(a.split(), b.split()) == (distance, span)
    assert classify(distance, span) == label
