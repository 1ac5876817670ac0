"""The training entry point of the bundled validation models, on a toy budget (seconds, not minutes)."""

from __future__ import annotations

from pathlib import Path

import pytest

from builders.validation.pronoun_world import generate
from builders.validation.train import TrainSettings, train_pronoun_models, training_examples

TOY = TrainSettings(documents=200, vocab_size=200, d_model=16, layers=1, heads=2, steps=3, batch_size=8)


def test_context_modes_differ_only_in_context() -> None:
    documents = generate(20, seed=5)
    sentence = training_examples(documents, "sentence", seed=5)
    context = training_examples(documents, "context", seed=5)
    shuffled = training_examples(documents, "shuffled-context", seed=5)
    assert [e.source for e in sentence] == [e.source for e in context] == [e.source for e in shuffled]
    assert all(not e.source_context for e in sentence)
    # a document's own previous sentences vs another document's: the planted link is cut, the format kept
    assert sum(bool(e.source_context) for e in context) == sum(bool(e.source_context) for e in shuffled) > 0
    assert [e.source_context for e in context] != [e.source_context for e in shuffled]


def test_training_is_seeded_and_loads_through_the_scorer(tmp_path: Path) -> None:
    import torch

    from builders.scoring.hf import HFSeq2SeqScorer
    from builders.scoring.protocol import ScoringExample

    torch.set_num_threads(1)
    first = train_pronoun_models(tmp_path / "a", TOY, ["context"])
    train_pronoun_models(tmp_path / "b", TOY, ["context"])
    assert first["context"]["parameters"] > 0
    weights = [(tmp_path / run / "pronouns-context" / "model.safetensors").read_bytes() for run in ("a", "b")]
    assert weights[0] == weights[1]
    scorer = HFSeq2SeqScorer.from_pretrained(tmp_path / "a" / "pronouns-context")
    example = ScoringExample("It is red.", "Er ist rot.", ("The table is big.",), ("Der Tisch ist groß.",))
    [scores] = scorer.score([example])
    assert scores.n_tokens > 0 and scores.sum < 0


def test_batch_loss_covers_the_sentence_not_its_forced_context() -> None:
    """The decoder reads the target context, the loss skips it (as the scorer scores only the sentence): a loss on
    the context would teach a shuffled-context control the context's own noun-pronoun agreement."""
    from builders.scoring.engine import EncodedExample
    from builders.validation.train import _batch

    pad = 0
    with_context = EncodedExample(source_ids=[5, 6, 1], labels=[7, 8, 9, 3, 1], n_prefix=3)
    sentence = EncodedExample(source_ids=[5, 1], labels=[4, 1], n_prefix=0)
    batch = _batch([with_context, sentence], pad)
    assert batch["decoder_input_ids"].tolist() == [[pad, 7, 8, 9, 3], [pad, 4, pad, pad, pad]]
    assert batch["labels"].tolist() == [[-100, -100, -100, 3, 1], [4, 1, -100, -100, -100]]
    assert batch["attention_mask"].tolist() == [[1, 1, 1], [1, 1, 0]]


def test_training_stays_on_the_cpu_where_a_gpu_would_be_chosen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`make models` on a GPU machine: the scorer that encodes the training examples was left on device 'auto' and
    moved the model to the GPU, away from the CPU batches (seen on an H100). Here 'auto' is made to answer cuda, so
    any use of it would ask torch for a device this machine does not have."""
    import builders.core.compat as compat

    monkeypatch.setattr(compat, "torch_device", lambda: "cuda")
    report = train_pronoun_models(tmp_path, TOY, ["sentence"])
    assert report["sentence"]["parameters"] > 0
