"""Teacher-forcing engine shared by the adapters: length-sorted batching, padding masks, chunked log-probs.

Adapters turn examples into :class:`EncodedExample` (token ids) and supply two callables: ``forward`` maps a
padded batch to decoder states (or logits), ``head`` maps selected rows of those states to logits. Only the
rows of scored target tokens go through the head, in chunks, so neither a (batch, length, vocabulary) logits
tensor nor a full log-softmax copy is ever materialised on the hidden-state path.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from builders.scoring.protocol import ScoringOptions, TokenScores

if TYPE_CHECKING:
    import torch

log = logging.getLogger("mtprobes.scoring")


@dataclass
class EncodedExample:
    """Token ids of one example. ``labels`` = forced prefix (language code, target context) + scored tokens."""

    source_ids: list[int]
    labels: list[int]
    n_prefix: int
    truncated: bool = False
    image: Any = None

    @property
    def length(self) -> int:
        return len(self.source_ids) + len(self.labels)


@dataclass
class PaddedBatch:
    input_ids: torch.Tensor
    attention_mask: torch.Tensor
    decoder_input_ids: torch.Tensor
    decoder_attention_mask: torch.Tensor
    labels: torch.Tensor
    score_mask: torch.Tensor
    images: list[Any]


ForwardFn = Callable[[PaddedBatch], "torch.Tensor"]
HeadFn = Callable[["torch.Tensor"], "torch.Tensor"]


def length_sorted_batches(lengths: Sequence[int], batch_size: int, batch_tokens: int) -> list[list[int]]:
    """Group indices by decreasing length so padding is small; each batch's padded size stays under the cap.

    The first batch holds the longest examples, so an out-of-memory error shows up at once, not at the end.
    """
    order = sorted(range(len(lengths)), key=lambda i: (-lengths[i], i))
    batches: list[list[int]] = []
    current: list[int] = []
    longest = 0
    for index in order:
        longest_if_added = max(longest, lengths[index])
        if current and (len(current) >= batch_size or (len(current) + 1) * longest_if_added > batch_tokens):
            batches.append(current)
            current, longest_if_added = [], lengths[index]
        current.append(index)
        longest = longest_if_added
    if current:
        batches.append(current)
    return batches


def collate(examples: Sequence[EncodedExample], pad_id: int, decoder_start_id: int, device: str) -> PaddedBatch:
    """Right-pad sources and decoder sides; decoder input = start token + labels shifted right."""
    import torch

    batch = len(examples)
    source_len = max(len(e.source_ids) for e in examples)
    target_len = max(len(e.labels) for e in examples)
    input_ids = torch.full((batch, source_len), pad_id, dtype=torch.long)
    attention_mask = torch.zeros((batch, source_len), dtype=torch.long)
    labels = torch.full((batch, target_len), pad_id, dtype=torch.long)
    decoder_input_ids = torch.full((batch, target_len), pad_id, dtype=torch.long)
    decoder_attention_mask = torch.zeros((batch, target_len), dtype=torch.long)
    score_mask = torch.zeros((batch, target_len), dtype=torch.bool)
    for row, example in enumerate(examples):
        n_source, n_labels = len(example.source_ids), len(example.labels)
        input_ids[row, :n_source] = torch.tensor(example.source_ids)
        attention_mask[row, :n_source] = 1
        labels[row, :n_labels] = torch.tensor(example.labels)
        decoder_input_ids[row, :n_labels] = torch.tensor([decoder_start_id, *example.labels[:-1]])
        decoder_attention_mask[row, :n_labels] = 1
        score_mask[row, example.n_prefix : n_labels] = True
    return PaddedBatch(
        input_ids.to(device),
        attention_mask.to(device),
        decoder_input_ids.to(device),
        decoder_attention_mask.to(device),
        labels.to(device),
        score_mask.to(device),
        [e.image for e in examples],
    )


def chunked_target_logprobs(
    rows: torch.Tensor, targets: torch.Tensor, head: HeadFn, vocab_size: int, temperature: float, chunk_bytes: int
) -> torch.Tensor:
    """log p(target) for each row, through ``head`` in row chunks of at most ``chunk_bytes`` of fp32 logits.

    cross_entropy fuses log-softmax and gather, so only one chunk of logits exists at a time.
    """
    import torch
    import torch.nn.functional as F

    chunk_rows = max(1, chunk_bytes // (4 * max(vocab_size, 1)))
    out = torch.empty(rows.shape[0], dtype=torch.float32, device=rows.device)
    for start in range(0, rows.shape[0], chunk_rows):
        logits = head(rows[start : start + chunk_rows]).float()
        if temperature != 1.0:
            logits = logits / temperature
        out[start : start + chunk_rows] = -F.cross_entropy(
            logits, targets[start : start + chunk_rows], reduction="none"
        )
    return out


def resolve_device(requested: str) -> str:
    if requested != "auto":
        return requested
    from builders.core.compat import torch_device

    return torch_device()


def autocast_context(device: str, precision: str) -> contextlib.AbstractContextManager[Any]:
    """bf16 autocast on CUDA by default (fp16 on request); exact fp32 on CPU."""
    import torch

    if not device.startswith("cuda") or precision == "fp32":
        return contextlib.nullcontext()
    dtype = torch.float16 if precision == "fp16" else torch.bfloat16
    return torch.autocast(device_type="cuda", dtype=dtype)


@dataclass
class TeacherForcing:
    """Runs encoded examples through an adapter's forward/head in length-sorted batches."""

    forward: ForwardFn
    head: HeadFn
    vocab_size: int
    pad_id: int
    decoder_start_id: int
    options: ScoringOptions
    device: str

    def score(self, encoded: Sequence[EncodedExample]) -> list[TokenScores]:
        import torch

        results: list[TokenScores | None] = [None] * len(encoded)
        batches = length_sorted_batches(
            [e.length for e in encoded], self.options.batch_size, self.options.batch_tokens
        )
        with torch.inference_mode(), autocast_context(self.device, self.options.precision):
            for indices in batches:
                for index, scores in zip(indices, self._score_batch([encoded[i] for i in indices]), strict=True):
                    results[index] = scores
        return [r for r in results if r is not None]

    def _score_batch(self, examples: Sequence[EncodedExample]) -> Iterator[TokenScores]:
        batch = collate(examples, self.pad_id, self.decoder_start_id, self.device)
        states = self.forward(batch)
        rows = states[batch.score_mask]
        targets = batch.labels[batch.score_mask]
        logprobs = chunked_target_logprobs(
            rows, targets, self.head, self.vocab_size, self.options.temperature, self.options.logit_chunk_bytes
        )
        logprobs_np = logprobs.double().cpu().numpy()
        counts = batch.score_mask.sum(dim=1).tolist()
        offset = 0
        for example, count in zip(examples, counts, strict=True):
            scored_ids = np.asarray(example.labels[example.n_prefix :], dtype=np.int64)
            yield TokenScores(scored_ids, logprobs_np[offset : offset + count], example.truncated)
            offset += count
