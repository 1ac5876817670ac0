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
  source. Ties are broken (our Eq. 10) by fewest replaced originals, then the largest (max) / smallest (min)
  log-perplexity margin min(log ppl(t0|b) - log ppl(t0|a), log ppl(t1|a) - log ppl(t1|b)), then lowest index.
  RR (replacement rate) = replaced image slots / (2 * sources).
- IoU of two systems' failures: |F_a & F_b| / |F_a | F_b| (None when neither fails).
"""

from __future__ import annotations

from collections.abc import Sequence
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
    image_a: int
    image_b: int
    gic: bool
    margin: float

    @property
    def replaced(self) -> int:
        return int(self.image_a != 0) + int(self.image_b != 0)


def oracle_choice(ppl_a: np.ndarray, ppl_b: np.ndarray, mode: str) -> OracleChoice:
    """Best (mode 'max') or worst ('min') image pair for one source; ppl_a[t, j] = ppl(t | A_j)."""
    log_a, log_b = np.log(ppl_a), np.log(ppl_b)
    candidates = []
    for a in range(ppl_a.shape[1]):
        for b in range(ppl_b.shape[1]):
            gic = bool(ppl_a[0, a] < ppl_b[0, b] and ppl_b[1, b] < ppl_a[1, a])
            margin = float(min(log_b[0, b] - log_a[0, a], log_a[1, a] - log_b[1, b]))
            candidates.append(OracleChoice(a, b, gic, margin))
    sign = -1 if mode == "max" else 1
    return min(candidates, key=lambda c: (sign * c.gic, c.replaced, sign * c.margin, c.image_a, c.image_b))


def image_oracle(extended: Sequence[tuple[np.ndarray, np.ndarray]]) -> dict[str, Any]:
    """max-/min-GIC and their replacement rates over extended image sets (one (ppl_a, ppl_b) per source)."""
    if not extended:
        raise MtprobesError("image oracle: no sources")
    result: dict[str, Any] = {}
    for mode in ("max", "min"):
        choices = [oracle_choice(a, b, mode) for a, b in extended]
        result[f"{mode}_GIC"] = float(np.mean([c.gic for c in choices]))
        result[f"{mode}_RR"] = float(sum(c.replaced for c in choices) / (2 * len(choices)))
        result[f"{mode}_choices"] = [[c.image_a, c.image_b] for c in choices]
    originals = [oracle_choice(a[:, :1], b[:, :1], "max").gic for a, b in extended]
    result["original_GIC"] = float(np.mean(originals))
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
