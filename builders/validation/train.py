"""Train the bundled validation models (`python -m builders.validation.train {pronouns,pronouns-fr,images,all}`).

The image world's models (tiny CLIP, text-only and image-aware MT) live in clip_train.py and image_models.py;
this module trains the pronoun world's and is the entry point of `make models`.

Two tiny Marian EN->DE models are trained on the synthetic pronoun world with a local SentencePiece vocabulary:
``pronouns-sentence`` sees single sentences, ``pronouns-context`` sees the previous sentences (the way the
scorer feeds context: source context joined before the source, target context as a forced decoder prefix).
The world ``pronouns-fr`` trains the same pair for EN->FR (``pronouns-fr-sentence``, ``pronouns-fr-context``).
Training examples are encoded by the scorer's own ``HFSeq2SeqScorer.encode`` so that training and scoring
agree token for token. ``--control shuffled-context`` trains the context model on contexts taken from other
documents: the planted signal is removed while the input format stays the same (that model must fail).
Everything is seeded and runs on CPU with an explicit thread count; same seed, same weights.
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from builders.core.resources import resources_root
from builders.scoring.protocol import ScoringExample
from builders.validation.pronoun_world import WorldDocument, generate

CONTEXT_SENTENCES = 3  # previous segments joined into one context string, as the pronouns export does
PRONOUN_WORLDS = {"pronouns": "de", "pronouns-fr": "fr"}  # world name on the command line -> target language


@dataclass(frozen=True)
class TrainSettings:
    documents: int = 3000
    seed: int = 1
    vocab_size: int = 600
    d_model: int = 96
    layers: int = 2
    heads: int = 4
    steps: int = 3000
    batch_size: int = 32
    learning_rate: float = 2e-3
    threads: int = 1


# The EN-FR world also has plural documents (they -> ils / elles): twice the documents and steps, so that the
# tiny models learn the gender of nouns they mostly see after the genderless "les".
PRONOUN_BUDGETS = {"de": TrainSettings(), "fr": TrainSettings(documents=6000, steps=6000)}


class ModelSettings(Protocol):
    """What new_model and train_model read: the settings of any world's models have these fields."""

    @property
    def seed(self) -> int: ...
    @property
    def d_model(self) -> int: ...
    @property
    def layers(self) -> int: ...
    @property
    def heads(self) -> int: ...
    @property
    def steps(self) -> int: ...
    @property
    def batch_size(self) -> int: ...
    @property
    def learning_rate(self) -> float: ...
    @property
    def threads(self) -> int: ...


BatchLoss = Callable[[Any, Sequence[Any], int], Any]  # (model, encoded examples, pad id) -> scalar loss tensor


def models_root() -> Path:
    return resources_root() / "models"


def document_examples(doc: WorldDocument, with_context: bool, context_of: WorldDocument | None = None) -> list:
    """One example per sentence; with context, the previous sentences of ``context_of`` (default: ``doc``)."""
    source = context_of or doc
    examples = []
    for index, (english, target) in enumerate(zip(doc.english, doc.target, strict=True)):
        start = max(0, index - CONTEXT_SENTENCES)
        src_context = " ".join(source.english[start:index]) if with_context else ""
        tgt_context = " ".join(source.target[start:index]) if with_context else ""
        examples.append(
            ScoringExample(
                english,
                target,
                (src_context,) if src_context else (),
                (tgt_context,) if tgt_context else (),
            )
        )
    return examples


def training_examples(documents: Sequence[WorldDocument], mode: str, seed: int) -> list[ScoringExample]:
    """mode: sentence (no context), context (own previous sentences), shuffled-context (another document's)."""
    if mode == "shuffled-context":
        order = np.random.default_rng(seed).permutation(len(documents))
        return [e for doc, o in zip(documents, order, strict=True) for e in document_examples(doc, True, documents[o])]
    return [e for doc in documents for e in document_examples(doc, mode == "context")]


def build_tokenizer(documents: Sequence[WorldDocument], folder: Path, vocab_size: int) -> Any:
    """A shared EN+target unigram SentencePiece vocabulary in the Marian tokenizer layout."""
    return tokenizer_from_lines([line for doc in documents for line in (*doc.english, *doc.target)], folder, vocab_size)


def tokenizer_from_lines(lines: Sequence[str], folder: Path, vocab_size: int) -> Any:
    """The vocabulary of any world: SentencePiece on the distinct lines (sorted, so the order of lines is moot)."""
    from transformers import AutoTokenizer

    from builders.scoring.tiny import _write_tokenizer_files, train_sentencepiece

    with tempfile.TemporaryDirectory() as work:
        spm_model = train_sentencepiece(sorted(set(lines)), Path(work) / "sp", vocab_size)
        folder.mkdir(parents=True, exist_ok=True)
        _write_tokenizer_files(folder, "marian", spm_model)
    return AutoTokenizer.from_pretrained(str(folder), local_files_only=True)


def new_model(tokenizer: Any, settings: ModelSettings) -> Any:
    import torch
    from transformers import MarianConfig, MarianMTModel

    config = MarianConfig(
        vocab_size=len(tokenizer),
        d_model=settings.d_model,
        encoder_layers=settings.layers,
        decoder_layers=settings.layers,
        encoder_attention_heads=settings.heads,
        decoder_attention_heads=settings.heads,
        encoder_ffn_dim=2 * settings.d_model,
        decoder_ffn_dim=2 * settings.d_model,
        max_position_embeddings=256,
        pad_token_id=tokenizer.pad_token_id,
        eos_token_id=tokenizer.eos_token_id,
        decoder_start_token_id=tokenizer.pad_token_id,
        dropout=0.1,
    )
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(settings.seed)
        return MarianMTModel(config)


def _batch(encoded: Sequence[Any], pad_id: int) -> dict[str, Any]:
    """Model inputs of a batch. The decoder reads the forced prefix (target context) but the loss covers only
    the scored sentence, as the scorer scores it: a loss on the prefix would teach the decoder the context's own
    agreement (a noun, then its pronoun), which a shuffled-context control then uses on real context."""
    import torch

    source_len = max(len(e.source_ids) for e in encoded)
    label_len = max(len(e.labels) for e in encoded)
    input_ids = torch.full((len(encoded), source_len), pad_id, dtype=torch.long)
    decoder_input_ids = torch.full((len(encoded), label_len), pad_id, dtype=torch.long)  # pad = decoder start
    labels = torch.full((len(encoded), label_len), -100, dtype=torch.long)
    for row, example in enumerate(encoded):
        input_ids[row, : len(example.source_ids)] = torch.tensor(example.source_ids)
        decoder_input_ids[row, 1 : len(example.labels)] = torch.tensor(example.labels[:-1])
        labels[row, example.n_prefix : len(example.labels)] = torch.tensor(example.labels[example.n_prefix :])
    return {"input_ids": input_ids, "attention_mask": (input_ids != pad_id).long(),
            "decoder_input_ids": decoder_input_ids, "labels": labels}


def marian_loss(model: Any, encoded: Sequence[Any], pad_id: int) -> Any:
    return model(**_batch(encoded, pad_id)).loss


def train_model(
    examples: Sequence[ScoringExample],
    tokenizer: Any,
    settings: ModelSettings,
    model: Any = None,
    batch_loss: BatchLoss = marian_loss,
) -> tuple[Any, dict]:
    """Adam with linear warm-up and decay over a fixed number of steps; batches drawn from a seeded generator.

    ``model`` defaults to a new Marian model; a wrapper around one (e.g. a feature-prefix model) is encoded by its
    ``seq2seq`` part and trained with its own ``batch_loss``.
    """
    import torch

    from builders.scoring.hf import HFSeq2SeqScorer
    from builders.scoring.protocol import ScoringOptions

    torch.set_num_threads(settings.threads)
    model = new_model(tokenizer, settings) if model is None else model
    # Only the scorer's encoding is used. Training runs on CPU (byte-identical from the seed); a scorer left on
    # device 'auto' would move the model to a GPU when there is one, away from the CPU batches.
    encoder = HFSeq2SeqScorer(getattr(model, "seq2seq", model), tokenizer, options=ScoringOptions(device="cpu"))
    encoded = encoder.encode(examples)
    model.train()
    optimizer = torch.optim.Adam(model.parameters(), lr=settings.learning_rate)
    warmup = max(1, settings.steps // 10)
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda s: min((s + 1) / warmup, max(0.05, (settings.steps - s) / (settings.steps - warmup)))
    )
    rng = np.random.default_rng(settings.seed)
    started, losses = time.perf_counter(), []
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(settings.seed)  # dropout masks
        for _ in range(settings.steps):
            chosen = rng.choice(len(encoded), size=settings.batch_size, replace=False)
            loss = batch_loss(model, [encoded[int(i)] for i in chosen], tokenizer.pad_token_id)
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            schedule.step()
            losses.append(float(loss.detach()))
    model.eval()
    stats = {"seconds": round(time.perf_counter() - started, 1), "final_loss": round(float(np.mean(losses[-50:])), 4)}
    return model, stats


def pronoun_model_name(mode: str, lang: str = "de") -> str:
    """``pronouns-<mode>`` for the EN-DE world (the first one), ``pronouns-<lang>-<mode>`` for the others."""
    return f"pronouns-{mode}" if lang == "de" else f"pronouns-{lang}-{mode}"


def train_pronoun_models(out_root: Path, settings: TrainSettings, modes: Sequence[str],
                         lang: str = "de") -> dict[str, dict]:
    """Train and save one model per mode under ``out_root/<pronoun_model_name>``; returns figures per model."""
    documents = generate(settings.documents, settings.seed, lang=lang)
    report: dict[str, dict] = {}
    for mode in modes:
        folder = out_root / pronoun_model_name(mode, lang)
        if folder.exists():
            shutil.rmtree(folder)
        tokenizer = build_tokenizer(documents, folder, settings.vocab_size)
        model, stats = train_model(training_examples(documents, mode, settings.seed), tokenizer, settings)
        model.save_pretrained(folder)
        tokenizer.save_pretrained(folder)
        size = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
        figures = {**stats, "bytes": size, "parameters": sum(p.numel() for p in model.parameters())}
        training = {"mode": mode, "target_lang": lang, "context_sentences": CONTEXT_SENTENCES, **settings.__dict__,
                    **figures}
        (folder / "training.json").write_text(json.dumps(training, indent=1) + "\n", encoding="utf-8")
        report[mode] = figures
    return report


def train_world(world: str, out_root: Path, args: argparse.Namespace) -> dict[str, dict]:
    """Train one world's models; the image world trains its CLIP first (the image-aware model reads its features)."""
    if world in PRONOUN_WORLDS:
        budget = PRONOUN_BUDGETS[PRONOUN_WORLDS[world]]
        settings = replace(budget, steps=args.steps or budget.steps, threads=args.threads or budget.threads)
        modes = (args.modes or "sentence,context").split(",")
        return train_pronoun_models(out_root, settings, modes, PRONOUN_WORLDS[world])
    from builders.validation.clip_train import ClipSettings, train_world_clip
    from builders.validation.image_models import ImageTrainSettings, train_image_models

    report = {"world-clip": train_world_clip(out_root, ClipSettings(threads=args.threads or ClipSettings.threads))}
    clip = "" if out_root == models_root() else str(out_root / "world-clip")  # "" = the bundled folder
    threads = args.threads or ImageTrainSettings.threads
    image_settings = ImageTrainSettings(steps=args.steps or ImageTrainSettings.steps, threads=threads, clip=clip)
    modes = (args.modes or "text-only,image-aware").split(",")
    return report | train_image_models(out_root, image_settings, modes)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("world", choices=[*PRONOUN_WORLDS, "images", "all"])
    parser.add_argument("--out", type=Path, default=None, help="default: resources/models")
    parser.add_argument("--modes", default="", help="pronouns, pronouns-fr: sentence, context, shuffled-context "
                        "(default: the first two); images: text-only, image-aware, shuffled-images (default: the "
                        "first two)")
    parser.add_argument("--steps", type=int, default=0, help="training steps of the MT models (default: per world)")
    parser.add_argument("--threads", type=int, default=0, help="CPU threads (default: the thread count the bundled "
                        "models were trained with, 1 for the pronoun world and 2 for the image world: the same "
                        "seed and thread count give the same weights)")
    args = parser.parse_args(argv)
    worlds = [*PRONOUN_WORLDS, "images"] if args.world == "all" else [args.world]
    if args.modes and len(worlds) > 1:
        parser.error("--modes needs one world")
    report: dict[str, dict] = {}
    for world in worlds:
        started = time.perf_counter()
        report |= train_world(world, args.out or models_root(), args)
        print(f"{world}: trained in {time.perf_counter() - started:.0f} s", flush=True)
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
