"""CoMMuTE-family metrics (Futeral et al. 2023; Kashani Motlagh et al. 2024), from perplexities.

Notation: for ambiguous source n with translations t0, t1 and images i0, i1 (image i_k shows the sense of
t_k), ``ppl[n, t, i]`` is the perplexity of translation t given the source and image i (lower is better).
CoMMuTE's files give exactly this 2x2 matrix: each source sits on two consecutive lines, once per image,
with correct and incorrect swapped.

- TC (text consistency, CoMMuTE's original accuracy), per (n, i): ppl[n, i, i] < ppl[n, 1-i, i]
- IC (image consistency), per (n, t):                              ppl[n, t, t] < ppl[n, t, 1-t]
- GTC (group text consistency), per n:  TC(n, 0) and TC(n, 1)
- GIC (group image consistency), per n: IC(n, 0) and IC(n, 1)
- Mixup consistency, per (n, i), against the decision with the 50/50 mixup image (pseudo text-only):
  IPR = image right & mixup wrong, INR = image wrong & mixup right, CPR = both right, CNR = both wrong;
  since the mixup decision is right for exactly one of the two images of a source,
  IPR + CNR = INR + CPR = 0.5 (checked; ties in the mixup perplexities break it and are reported).
- Image oracle over extended image sets A (images for t0) and B (images for t1), index 0 = original:
  GIC(a, b) = [ppl(t0|a) < ppl(t0|b)] and [ppl(t1|b) < ppl(t1|a)]; max-/min-GIC pick the best/worst pair per
  source. Ties are broken as the paper's Sec. 5.5 says: max-GIC minimises, min-GIC maximises Eq. 10,
  [ppl(t0|a) - ppl(t0|b)] + [ppl(t1|b) - ppl(t1|a)] (raw perplexities), then the lowest indices. The rule
  mtprobes used before (fewest replaced originals, then a log-perplexity margin) is kept as the named option
  ``fewest-replaced``. RR (replacement rate) = replaced images / (2 * sources).
- IoU of two systems' failures: |F_a & F_b| / |F_a | F_b| (None when neither fails).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from builders.core.errors import InputError, MtprobesError


@dataclass(frozen=True)
class CommutePairs:
    """ppl[n, t, i] for n sources; ``unswapped`` lists 1-based lines whose texts are not an exact swap."""

    ppl: np.ndarray
    unswapped: tuple[int, ...] = ()


def pairs_from_lines(
    correct: np.ndarray,
    incorrect: np.ndarray,
    *,
    sources: Sequence[str] | None = None,
    correct_texts: Sequence[str] | None = None,
    incorrect_texts: Sequence[str] | None = None,
    origin: str | Path = "<scores>",
) -> CommutePairs:
    """Pair consecutive lines of CoMMuTE-layout scores into the 2x2 matrices."""
    if len(correct) != len(incorrect):
        raise InputError(origin, f"correct scores have {len(correct)} lines, incorrect {len(incorrect)}")
    if len(correct) % 2:
        raise InputError(origin, f"{len(correct)} lines: CoMMuTE needs two lines (one per image) per source")
    unswapped: list[int] = []
    for first in range(0, len(correct), 2):
        if sources is not None and sources[first] != sources[first + 1]:
            raise InputError(origin, "consecutive lines must share their source sentence", line=first + 2)
        if (
            correct_texts is not None
            and incorrect_texts is not None
            and (
                correct_texts[first] != incorrect_texts[first + 1] or correct_texts[first + 1] != incorrect_texts[first]
            )
        ):
            unswapped.append(first + 1)
    ppl = np.empty((len(correct) // 2, 2, 2), dtype=np.float64)
    ppl[:, 0, 0] = correct[0::2]
    ppl[:, 1, 0] = incorrect[0::2]
    ppl[:, 1, 1] = correct[1::2]
    ppl[:, 0, 1] = incorrect[1::2]
    return CommutePairs(ppl, tuple(unswapped))


def text_consistency(ppl: np.ndarray) -> np.ndarray:
    """(N, 2) booleans: under image i, the translation of sense i wins."""
    n_index = np.arange(ppl.shape[0])
    return np.stack([ppl[n_index, i, i] < ppl[n_index, 1 - i, i] for i in (0, 1)], axis=1)


def image_consistency(ppl: np.ndarray) -> np.ndarray:
    """(N, 2) booleans: translation t is likelier under its own image than under the other one."""
    n_index = np.arange(ppl.shape[0])
    return np.stack([ppl[n_index, t, t] < ppl[n_index, t, 1 - t] for t in (0, 1)], axis=1)


def consistency_scores(ppl: np.ndarray) -> dict[str, float]:
    tc, ic = text_consistency(ppl), image_consistency(ppl)
    return {
        "TC": float(tc.mean()),
        "IC": float(ic.mean()),
        "GTC": float(tc.all(axis=1).mean()),
        "GIC": float(ic.all(axis=1).mean()),
        "sources": int(ppl.shape[0]),
    }


def mixup_rates(ppl: np.ndarray, mixup: np.ndarray) -> dict[str, Any]:
    """IPR/INR/CPR/CNR against the mixup image; ``mixup[n, i, t]`` = ppl of t on line (n, i) with the mixup."""
    if mixup.shape != ppl.shape:
        raise MtprobesError(f"mixup scores have shape {mixup.shape}, expected {ppl.shape}")
    image_ok = text_consistency(ppl)
    n_index = np.arange(ppl.shape[0])
    mixup_ok = np.stack([mixup[n_index, i, i] < mixup[n_index, i, 1 - i] for i in (0, 1)], axis=1)
    rates = {
        "IPR": float(np.mean(image_ok & ~mixup_ok)),
        "INR": float(np.mean(~image_ok & mixup_ok)),
        "CPR": float(np.mean(image_ok & mixup_ok)),
        "CNR": float(np.mean(~image_ok & ~mixup_ok)),
    }
    ties = int(np.sum(mixup[:, :, 0] == mixup[:, :, 1]))
    holds = bool(np.isclose(rates["IPR"] + rates["CNR"], 0.5) and np.isclose(rates["INR"] + rates["CPR"], 0.5))
    return {**rates, "identities_hold": holds, "mixup_ties": ties}


def mixup_from_lines(correct: np.ndarray, incorrect: np.ndarray) -> np.ndarray:
    """Line-aligned mixup scores (CoMMuTE layout) -> mixup[n, i, t]."""
    mixup = np.empty((len(correct) // 2, 2, 2), dtype=np.float64)
    mixup[:, 0, 0], mixup[:, 0, 1] = correct[0::2], incorrect[0::2]
    mixup[:, 1, 1], mixup[:, 1, 0] = correct[1::2], incorrect[1::2]
    return mixup


@dataclass(frozen=True)
class OracleChoice:
    """One image pair (A_a, B_b) for a source, with the indicators the paper's tables need."""

    image_a: int
    image_b: int
    ic: tuple[bool, bool]  # (IC^{a,b}, IC^{b,a}), Eq. 4
    tc: tuple[bool, bool]  # (TC^{a,b}, TC^{b,a}), Eq. 2
    gaps: float  # Eq. 10
    log_margin: float  # the pre-2024 rule's margin (``fewest-replaced`` tie-break only)

    @property
    def gic(self) -> bool:
        return self.ic[0] and self.ic[1]

    @property
    def gtc(self) -> bool:
        return self.tc[0] and self.tc[1]

    @property
    def replaced(self) -> int:
        return int(self.image_a != 0) + int(self.image_b != 0)


def pair_choice(ppl_a: np.ndarray, ppl_b: np.ndarray, a: int, b: int) -> OracleChoice:
    """Indicators for images (A_a, B_b); ``ppl_a[t, j]`` = P(s, A_j, t^t), t = 0 for t^a and 1 for t^b."""
    ic = (bool(ppl_a[0, a] < ppl_b[0, b]), bool(ppl_b[1, b] < ppl_a[1, a]))
    tc = (bool(ppl_a[0, a] < ppl_a[1, a]), bool(ppl_b[1, b] < ppl_b[0, b]))
    gaps = float((ppl_a[0, a] - ppl_b[0, b]) + (ppl_b[1, b] - ppl_a[1, a]))
    log_margin = float(min(np.log(ppl_b[0, b]) - np.log(ppl_a[0, a]), np.log(ppl_a[1, a]) - np.log(ppl_b[1, b])))
    return OracleChoice(a, b, ic, tc, gaps, log_margin)


def _paper_key(choice: OracleChoice, sign: int) -> tuple[float, ...]:
    # Eq. 10 tie-break: max-GIC minimises the gaps, min-GIC maximises them; then the lowest indices
    # (the originals first), so equal candidates give the same pick on every run.
    return (sign * choice.gic, -sign * choice.gaps, choice.image_a, choice.image_b)


def _fewest_replaced_key(choice: OracleChoice, sign: int) -> tuple[float, ...]:
    # mtprobes' pre-2024 rule, kept only by name: fewest replaced originals, then the log-perplexity margin.
    return (sign * choice.gic, choice.replaced, sign * choice.log_margin, choice.image_a, choice.image_b)


TIE_BREAKS: dict[str, Callable[[OracleChoice, int], tuple[float, ...]]] = {
    "eq10": _paper_key,
    "fewest-replaced": _fewest_replaced_key,
}


def oracle_choice(ppl_a: np.ndarray, ppl_b: np.ndarray, mode: str, tie_break: str = "eq10") -> OracleChoice:
    """Best (mode 'max') or worst ('min') image pair for one source by GIC, ties broken by ``tie_break``."""
    if mode not in ("max", "min"):
        raise MtprobesError(f"oracle mode must be 'max' or 'min', got {mode!r}")
    if tie_break not in TIE_BREAKS:
        raise MtprobesError(f"unknown oracle tie-break {tie_break!r} (known: {', '.join(TIE_BREAKS)})")
    key = TIE_BREAKS[tie_break]
    sign = -1 if mode == "max" else 1
    candidates = [pair_choice(ppl_a, ppl_b, a, b) for a in range(ppl_a.shape[1]) for b in range(ppl_b.shape[1])]
    return min(candidates, key=lambda c: key(c, sign))


def choice_scores(choices: Sequence[OracleChoice]) -> dict[str, float]:
    """TC/IC (Eqs. 3, 5), GTC/GIC (Eqs. 8, 9) and RR over the chosen pairs of all sources."""
    return {
        "TC": float(np.mean([c.tc for c in choices])),
        "IC": float(np.mean([c.ic for c in choices])),
        "GTC": float(np.mean([c.gtc for c in choices])),
        "GIC": float(np.mean([c.gic for c in choices])),
        "RR": float(sum(c.replaced for c in choices) / (2 * len(choices))),
    }


def image_oracle(extended: Sequence[tuple[np.ndarray, np.ndarray]], tie_break: str = "eq10") -> dict[str, Any]:
    """Kashani Motlagh et al. Sec. 5.5: per source the image pair maximising (minimising) GIC, ties broken by
    minimising (maximising) Eq. 10. ``max`` gives Table 4's Max IC/GIC/RR and Table 5's Image-Oracle TC/GTC,
    ``min`` Table 4's Min columns, ``original`` the scores with the original images (index 0)."""
    if not extended:
        raise MtprobesError("image oracle: no sources")
    result: dict[str, Any] = {"tie_break": tie_break, "sources": len(extended)}
    for mode in ("max", "min"):
        choices = [oracle_choice(a, b, mode, tie_break) for a, b in extended]
        result[mode] = {**choice_scores(choices), "choices": [[c.image_a, c.image_b] for c in choices]}
    result["original"] = choice_scores([pair_choice(a, b, 0, 0) for a, b in extended])
    return result


def failure_iou(failed_a: Sequence[bool] | np.ndarray, failed_b: Sequence[bool] | np.ndarray) -> float | None:
    """Intersection over union of two systems' failure sets; None when neither system fails anywhere."""
    a, b = np.asarray(failed_a, dtype=bool), np.asarray(failed_b, dtype=bool)
    if a.shape != b.shape:
        raise MtprobesError(f"failure sets differ in size: {a.size} vs {b.size}")
    union = int(np.sum(a | b))
    return None if union == 0 else int(np.sum(a & b)) / union


def failure_sets(ppl: np.ndarray) -> dict[str, np.ndarray]:
    """Per-metric failures (flattened) used for the IoU between two systems."""
    tc, ic = text_consistency(ppl), image_consistency(ppl)
    return {
        "TC": ~tc.ravel(),
        "IC": ~ic.ravel(),
        "GTC": ~np.all(tc, axis=1, keepdims=False).astype(bool),
        "GIC": ~np.all(ic, axis=1, keepdims=False).astype(bool),
    }


def perplexity_views(ppl: np.ndarray, mixup: np.ndarray | None) -> dict[str, list[float]]:
    """Perplexity of the correct translation with the correct, incorrect and mixup image (Fig. 3 style)."""
    n_index = np.arange(ppl.shape[0])
    views = {
        "correct image": np.concatenate([ppl[n_index, t, t] for t in (0, 1)]).tolist(),
        "incorrect image": np.concatenate([ppl[n_index, t, 1 - t] for t in (0, 1)]).tolist(),
    }
    if mixup is not None:
        views["mixup image"] = np.concatenate([mixup[n_index, t, t] for t in (0, 1)]).tolist()
    return views
