"""Beam-search translation with the same inputs as scoring (language codes, context), for volatility analyses.

Repeated examples are translated once (their beams do not depend on the batch: each row is padded and masked).

Examples are grouped by decoder-prefix length (forced language code + target context) so every batch can pass
one rectangular ``decoder_input_ids`` prefix to ``generate``, and sorted by source length inside a group.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from builders.core.progress import track
from builders.scoring.engine import autocast_context, length_sorted_batches
from builders.scoring.protocol import ScoringExample

if TYPE_CHECKING:
    from builders.scoring.hf import HFSeq2SeqScorer


def beam_translate(
    scorer: HFSeq2SeqScorer, examples: Sequence[ScoringExample], *, num_beams: int, max_new_tokens: int
) -> list[str]:
    """Translate each distinct example (source and contexts) once and give every line its translation: a
    variations set repeats its unchanged sources many times."""
    keys = [(e.source, e.source_context, e.target_context) for e in examples]
    distinct = list(dict.fromkeys(keys))
    translated = _translate_distinct(
        scorer,
        [ScoringExample(source, "", source_context, target_context) for source, source_context, target_context
         in distinct],
        num_beams,
        max_new_tokens,
    )
    by_key = dict(zip(distinct, translated, strict=True))
    return [by_key[key] for key in keys]


def _translate_distinct(
    scorer: HFSeq2SeqScorer, examples: Sequence[ScoringExample], num_beams: int, max_new_tokens: int
) -> list[str]:
    import torch

    # Score-side encoding with an empty target gives exactly the source ids and the forced decoder prefix.
    encoded = scorer.encode(examples)
    by_prefix: dict[int, list[int]] = {}
    for index, item in enumerate(encoded):
        by_prefix.setdefault(item.n_prefix, []).append(index)
    options = scorer.options
    batches = [
        [indices[b] for b in batch]
        for indices in by_prefix.values()
        for batch in length_sorted_batches(
            [len(encoded[i].source_ids) for i in indices], options.batch_size, options.batch_tokens
        )
    ]
    outputs: list[str] = [""] * len(examples)
    with torch.inference_mode(), autocast_context(scorer.device, options.precision):
        for members in track(batches, f"translate {len(examples)} distinct lines"):
            texts = _generate(
                scorer,
                [encoded[i].source_ids for i in members],
                [encoded[i].labels[: encoded[i].n_prefix] for i in members],
                num_beams,
                max_new_tokens,
            )
            for index, text in zip(members, texts, strict=True):
                outputs[index] = text
    return outputs


def _generate(
    scorer: HFSeq2SeqScorer,
    sources: list[list[int]],
    prefixes: list[list[int]],
    num_beams: int,
    max_new_tokens: int,
) -> list[str]:
    import torch

    width = max(len(s) for s in sources)
    input_ids = torch.full((len(sources), width), scorer.pad_id, dtype=torch.long)
    attention_mask = torch.zeros_like(input_ids)
    for row, ids in enumerate(sources):
        input_ids[row, : len(ids)] = torch.tensor(ids)
        attention_mask[row, : len(ids)] = 1
    prefix = torch.tensor([[scorer.decoder_start_id, *p] for p in prefixes], dtype=torch.long)
    generated = scorer.model.generate(
        input_ids=input_ids.to(scorer.device),
        attention_mask=attention_mask.to(scorer.device),
        decoder_input_ids=prefix.to(scorer.device),
        num_beams=num_beams,
        max_new_tokens=max_new_tokens,
        do_sample=False,
    )
    new_tokens = generated[:, prefix.shape[1] :]
    return [scorer.tokenizer.decode(row, skip_special_tokens=True).strip() for row in new_tokens]
