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

from builders.scoring.protocol import BY_TEMPERATURE, ScoringOptions, TokenScores

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
    # Filled in numpy and converted once: per-row torch.tensor calls cost more than the tiny models' forward.
    input_ids = np.full((batch, source_len), pad_id, dtype=np.int64)
    labels = np.full((batch, target_len), pad_id, dtype=np.int64)
    decoder_input_ids = np.full((batch, target_len), pad_id, dtype=np.int64)
    source_lengths = np.array([len(e.source_ids) for e in examples])
    label_lengths = np.array([len(e.labels) for e in examples])
    for row, example in enumerate(examples):
        input_ids[row, : source_lengths[row]] = example.source_ids
        labels[row, : label_lengths[row]] = example.labels
        decoder_input_ids[row, 0] = decoder_start_id
        decoder_input_ids[row, 1 : label_lengths[row]] = example.labels[:-1]
    attention_mask = np.arange(source_len)[None, :] < source_lengths[:, None]
    decoder_attention_mask = np.arange(target_len)[None, :] < label_lengths[:, None]
    prefix_lengths = np.array([e.n_prefix for e in examples])
    score_mask = decoder_attention_mask & (np.arange(target_len)[None, :] >= prefix_lengths[:, None])

    def tensor(array: np.ndarray, dtype: torch.dtype = torch.long) -> torch.Tensor:
        return torch.from_numpy(array).to(device=device, dtype=dtype)

    return PaddedBatch(
        tensor(input_ids),
        tensor(attention_mask),
        tensor(decoder_input_ids),
        tensor(decoder_attention_mask),
        tensor(labels),
        tensor(score_mask, torch.bool),
        [e.image for e in examples],
    )


def chunked_target_logprobs(
    rows: torch.Tensor,
    targets: torch.Tensor,
    head: HeadFn,
    vocab_size: int,
    temperature: float,
    chunk_bytes: int,
    grid: Sequence[float] = (),
) -> torch.Tensor:
    """log p(target) for each row, through ``head`` in row chunks of at most ``chunk_bytes`` of fp32 logits:
    shape (rows,), or (rows, 1 + len(grid)) with the log-probabilities at each ``grid`` temperature after
    column 0 (the same logits, so a temperature sweep costs one forward pass).

    cross_entropy fuses log-softmax and gather, so only one chunk of logits exists at a time.
    """
    import torch
    import torch.nn.functional as F

    temperatures = (temperature, *grid)
    chunk_rows = max(1, chunk_bytes // (4 * max(vocab_size, 1)))
    out = torch.empty((rows.shape[0], len(temperatures)), dtype=torch.float32, device=rows.device)
    for start in range(0, rows.shape[0], chunk_rows):
        logits = head(rows[start : start + chunk_rows]).float()
        chunk_targets = targets[start : start + chunk_rows]
        for column, value in enumerate(temperatures):
            scaled = logits if value == 1.0 else logits / value
            out[start : start + chunk_rows, column] = -F.cross_entropy(scaled, chunk_targets, reduction="none")
    return out if grid else out[:, 0]


def resolve_device(requested: str) -> str:
    if requested != "auto":
        return requested
    from builders.core.compat import torch_device

    return torch_device()


def resolve_precision(device: str, precision: str) -> str:
    """fp32 unless half precision is asked for on CUDA (CPU always runs fp32).

    'auto' is fp32 on CUDA too: a contrastive decision rests on a small difference of two sums, and bf16 autocast
    changed 4-8 % of the bundled sentence-level models' ContraPro decisions against CPU fp32 on an H100, where fp32
    changed none and was also the faster of the two for a Marian-sized model (docs/scoring.md, bench_scoring.py).
    """
    return precision if device.startswith("cuda") and precision in ("bf16", "fp16") else "fp32"


def autocast_context(device: str, precision: str) -> contextlib.AbstractContextManager[Any]:
    """bf16/fp16 autocast on CUDA when asked for; exact fp32 otherwise."""
    import torch

    resolved = resolve_precision(device, precision)
    if resolved == "fp32":
        return contextlib.nullcontext()
    return torch.autocast(device_type="cuda", dtype=torch.float16 if resolved == "fp16" else torch.bfloat16)


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
        """Score each distinct example once; duplicates share the result.

        Besides saving work, this makes identical inputs get bit-identical scores: batched floating point
        depends on the padded shape, and exact ties (a text-only model shown two images) must stay ties.
        """
        import torch

        first_of: dict[tuple[Any, ...], int] = {}
        unique: list[EncodedExample] = []
        slot = [first_of.setdefault(_identity_key(e), len(first_of)) for e in encoded]
        for index, example in enumerate(encoded):
            if slot[index] == len(unique):
                unique.append(example)
        results: list[TokenScores | None] = [None] * len(unique)
        batches = length_sorted_batches([e.length for e in unique], self.options.batch_size, self.options.batch_tokens)
        with torch.inference_mode(), autocast_context(self.device, self.options.precision):
            for indices in batches:
                for index, scores in zip(indices, self._score_batch([unique[i] for i in indices]), strict=True):
                    results[index] = scores
        done = [r for r in results if r is not None]
        return [done[i] for i in slot]

    def _score_batch(self, examples: Sequence[EncodedExample]) -> Iterator[TokenScores]:
        batch = collate(examples, self.pad_id, self.decoder_start_id, self.device)
        states = self.forward(batch)
        rows = states[batch.score_mask]
        targets = batch.labels[batch.score_mask]
        grid = self.options.temperature_grid
        logprobs = chunked_target_logprobs(
            rows, targets, self.head, self.vocab_size, self.options.temperature, self.options.logit_chunk_bytes, grid
        )
        logprobs_np = logprobs.double().cpu().numpy().reshape(rows.shape[0], -1)
        counts = batch.score_mask.sum(dim=1).tolist()
        offset = 0
        for example, count in zip(examples, counts, strict=True):
            scored_ids = np.asarray(example.labels[example.n_prefix :], dtype=np.int64)
            block = logprobs_np[offset : offset + count]
            extra = {BY_TEMPERATURE: np.ascontiguousarray(block[:, 1:])} if grid else {}
            yield TokenScores(scored_ids, np.ascontiguousarray(block[:, 0]), example.truncated, extra)
            offset += count


def _identity_key(example: EncodedExample) -> tuple[Any, ...]:
    image = example.image
    if image is not None:
        array = np.asarray(image)
        image = (array.shape, str(array.dtype), array.tobytes()) if array.dtype != object else id(image)
    return (tuple(example.source_ids), tuple(example.labels), example.n_prefix, image)
