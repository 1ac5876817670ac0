"""The scoring protocol: examples in, per-token log-probabilities of the target out.

Every adapter (Hugging Face seq2seq, image-conditioned models) returns :class:`TokenScores` for each
:class:`ScoringExample`; everything else (sum, mean, perplexity, shared-prefix dropping) is derived here so that
all adapters agree on it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

import numpy as np

from builders.core.errors import MtprobesError

Reduction = Literal["sum", "mean", "perplexity", "nll"]


@dataclass(frozen=True)
class ScoringExample:
    """One (source, target) pair to score under teacher forcing.

    ``source_context`` / ``target_context`` are previous sentences, oldest first. Source context is joined with
    the source; target context becomes a forced decoder prefix whose tokens are not scored. ``image`` is passed
    untouched to image-conditioned adapters (a feature vector, pixels, or a path; text adapters ignore it).
    ``group`` ties contrastive variants of one item together (for shared-prefix dropping).
    """

    source: str
    target: str
    source_context: tuple[str, ...] = ()
    target_context: tuple[str, ...] = ()
    image: Any = None
    group: str | None = None


@dataclass
class TokenScores:
    """Log-probabilities (natural log) of the scored target tokens, in order, with their token ids."""

    token_ids: np.ndarray
    logprobs: np.ndarray
    truncated: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def n_tokens(self) -> int:
        return int(self.logprobs.shape[0])

    @property
    def sum(self) -> float:
        return float(self.logprobs.sum())

    @property
    def mean(self) -> float:
        # An empty target (everything dropped as shared prefix) has no evidence: mean 0 means perplexity 1.
        return float(self.logprobs.mean()) if self.n_tokens else 0.0

    @property
    def perplexity(self) -> float:
        """exp of the negative mean log-probability (CoMMuTE's ranking score; lower is better)."""
        return math.exp(-self.mean)

    def reduce(self, how: Reduction) -> float:
        return _REDUCTIONS[how](self)


# Which direction is better for each reduction: the anchors' files use NLL/perplexity (lower is better).
_REDUCTIONS: dict[str, Any] = {
    "sum": lambda s: s.sum,
    "mean": lambda s: s.mean,
    "perplexity": lambda s: s.perplexity,
    "nll": lambda s: -s.sum,
}
LOWER_IS_BETTER: dict[str, bool] = {"sum": False, "mean": False, "perplexity": True, "nll": True}


class Scorer(Protocol):
    """Anything that scores examples: returns one TokenScores per example, in input order."""

    def score(self, examples: Sequence[ScoringExample]) -> list[TokenScores]: ...


@dataclass(frozen=True)
class ScoringOptions:
    """Options shared by all adapters.

    ``temperature`` divides the logits before the softmax (the calibration study of Kashani Motlagh et al.);
    ``temperature_grid`` also keeps each scored token's log-probability at every one of these temperatures,
    from the same logits (one pass for Fig. 5; :func:`at_temperature` reads them back);
    ``batch_tokens`` caps padded source+target tokens per batch, ``batch_size`` caps examples per batch.
    """

    batch_size: int = 64
    batch_tokens: int = 8192
    temperature: float = 1.0
    temperature_grid: tuple[float, ...] = ()
    include_eos: bool = True
    context_separator: str = " "
    precision: Literal["auto", "fp32", "bf16", "fp16"] = "auto"
    device: str = "auto"
    logit_chunk_bytes: int = 64 * 2**20

    def __post_init__(self) -> None:
        for temperature in (self.temperature, *self.temperature_grid):
            if temperature <= 0 or not math.isfinite(temperature):
                raise MtprobesError(f"temperature must be a positive finite number, got {temperature}")
        if self.batch_size < 1 or self.batch_tokens < 1:
            raise MtprobesError("batch_size and batch_tokens must be >= 1")


BY_TEMPERATURE = "by_temperature"  # TokenScores.extra key: (n_tokens, len(temperature_grid)) log-probabilities


def at_temperature(scores: Sequence[TokenScores], index: int) -> list[TokenScores]:
    """The scores as if scored at ``temperature_grid[index]`` (same tokens, that column's log-probabilities)."""
    result = []
    for s in scores:
        grid = s.extra.get(BY_TEMPERATURE)
        if grid is None or index >= grid.shape[1]:
            raise MtprobesError("these scores hold no log-probabilities for that temperature (temperature_grid)")
        result.append(TokenScores(s.token_ids, np.ascontiguousarray(grid[:, index]), s.truncated))
    return result


def common_prefix_length(sequences: Sequence[np.ndarray]) -> int:
    """Length of the longest token prefix shared by all sequences."""
    if not sequences:
        return 0
    limit = min(len(s) for s in sequences)
    first = sequences[0]
    for position in range(limit):
        token = first[position]
        if any(s[position] != token for s in sequences[1:]):
            return position
    return limit


def drop_shared_prefix(group: Sequence[TokenScores]) -> list[TokenScores]:
    """Drop the tokens that all contrastive targets of one item share at their start.

    Under teacher forcing those tokens get identical log-probabilities in every variant, so they only dilute a
    mean-based score (Kashani Motlagh et al., Table 6). Sums keep their ranking; means and perplexities change.
    """
    cut = common_prefix_length([s.token_ids for s in group])
    return [
        TokenScores(s.token_ids[cut:], s.logprobs[cut:], s.truncated, {**s.extra, "dropped_prefix": cut}) for s in group
    ]


def drop_shared_prefixes(examples: Sequence[ScoringExample], scores: Sequence[TokenScores]) -> list[TokenScores]:
    """Apply :func:`drop_shared_prefix` to every ``group`` of examples; ungrouped examples are unchanged."""
    if len(examples) != len(scores):
        raise MtprobesError(f"{len(examples)} examples but {len(scores)} scores")
    members: dict[str, list[int]] = {}
    for index, example in enumerate(examples):
        if example.group is not None:
            members.setdefault(example.group, []).append(index)
    result = list(scores)
    for indices in members.values():
        for index, trimmed in zip(indices, drop_shared_prefix([scores[i] for i in indices]), strict=True):
            result[index] = trimmed
    return result
