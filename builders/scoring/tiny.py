"""Tiny random-initialised seq2seq models with locally trained SentencePiece vocabularies.

They are for tests and benchmarks of the scoring machinery only: their scores mean nothing linguistically.
Each is saved with ``save_pretrained`` and meant to be loaded back through the real ``from_pretrained`` path,
so the code under test is the code real models go through. Same seed, same files.
"""

from __future__ import annotations

import io
import json
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

_EN_WORDS = (
    "the",
    "a",
    "cat",
    "dog",
    "house",
    "tree",
    "car",
    "book",
    "it",
    "is",
    "was",
    "big",
    "small",
    "red",
    "blue",
    "green",
    "old",
    "new",
    "saw",
    "found",
    "took",
    "near",
    "in",
    "on",
    "under",
    "he",
    "she",
    "they",
    "we",
    "this",
    "that",
    "bank",
    "river",
    "money",
    "mole",
    "animal",
    "skin",
    "bat",
    "ball",
    "night",
    "game",
)
_DE_WORDS = (
    "der",
    "die",
    "das",
    "ein",
    "eine",
    "Katze",
    "Hund",
    "Haus",
    "Baum",
    "Auto",
    "Buch",
    "er",
    "sie",
    "es",
    "ist",
    "war",
    "groß",
    "klein",
    "rot",
    "blau",
    "grün",
    "alt",
    "neu",
    "sah",
    "fand",
    "nahm",
    "bei",
    "in",
    "auf",
    "unter",
    "wir",
    "dies",
    "jene",
    "Bank",
    "Ufer",
    "Geld",
    "Maulwurf",
    "Leberfleck",
    "Tier",
    "Schläger",
    "Ball",
    "Nacht",
)

# family -> (tokenizer class, HF model_type)
_FAMILIES: dict[str, tuple[str, str]] = {
    "marian": ("MarianTokenizer", "marian"),
    "mbart50": ("MBart50Tokenizer", "mbart"),
    "nllb": ("NllbTokenizer", "m2m_100"),
    "m2m100": ("M2M100Tokenizer", "m2m_100"),
}
_LANGUAGES: dict[str, tuple[str, str, str]] = {
    "mbart50": ("en_XX", "de_DE", "fr_XX"),
    "nllb": ("eng_Latn", "deu_Latn", "fra_Latn"),
    "m2m100": ("en", "de", "fr"),
}


def synthetic_corpus(n_lines: int = 300, seed: int = 0) -> list[str]:
    """Random word sequences in English and German word lists (enough to train a small vocabulary)."""
    rng = np.random.default_rng(seed)
    lines = []
    for index in range(n_lines):
        words = _EN_WORDS if index % 2 == 0 else _DE_WORDS
        length = int(rng.integers(3, 12))
        lines.append(" ".join(words[int(i)] for i in rng.integers(0, len(words), size=length)))
    return lines


def train_sentencepiece(lines: Sequence[str], prefix: Path, vocab_size: int = 96, fairseq_ids: bool = False) -> Path:
    """Train a unigram SentencePiece model (single thread: deterministic). Returns the .model path.

    Marian vocabularies use pad=0, eos=1, unk=2; fairseq-style ones (mBART, NLLB, M2M100) use unk=0, bos=1,
    eos=2 and get their specials re-ordered by the tokenizer classes.
    """
    import sentencepiece as spm

    prefix.parent.mkdir(parents=True, exist_ok=True)
    ids: dict[str, Any] = (
        {"unk_id": 0, "bos_id": 1, "eos_id": 2, "pad_id": -1}
        if fairseq_ids
        else {"pad_id": 0, "eos_id": 1, "unk_id": 2, "bos_id": -1}
    )
    # Sentences from memory and the model to memory: a file input would store its (temporary) path in the
    # model's trainer spec, and the same lines would give different .model bytes from run to run.
    model = io.BytesIO()
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(lines),
        model_writer=model,
        vocab_size=vocab_size,
        model_type="unigram",
        character_coverage=1.0,
        num_threads=1,
        minloglevel=2,
        **ids,
    )
    prefix.with_suffix(".model").write_bytes(model.getvalue())
    return prefix.with_suffix(".model")


def make_tiny_model(
    out_dir: str | Path,
    family: str = "marian",
    *,
    d_model: int = 32,
    layers: int = 2,
    vocab_size: int = 96,
    max_positions: int = 128,
    seed: int = 0,
) -> Path:
    """Write a random-init model of ``family`` (marian, mbart50, nllb, m2m100) with its tokenizer to out_dir."""
    from transformers import AutoTokenizer

    out_dir = Path(out_dir)
    work = out_dir.parent / f".{out_dir.name}-spm"
    tokenizer_dir = work / "tokenizer"
    tokenizer_dir.mkdir(parents=True, exist_ok=True)
    spm_model = train_sentencepiece(synthetic_corpus(seed=seed), work / "sp", vocab_size, family != "marian")
    _write_tokenizer_files(tokenizer_dir, family, spm_model)
    tokenizer = AutoTokenizer.from_pretrained(str(tokenizer_dir), local_files_only=True)
    model = _random_model(family, tokenizer, d_model, layers, max_positions, seed)
    out_dir.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out_dir)
    tokenizer.save_pretrained(out_dir)
    shutil.rmtree(work)
    return out_dir


def make_tiny_image_model(text_model: str | Path, out_dir: str | Path, feature_dim: int, seed: int = 2) -> Path:
    """The text model inside a feature-prefix image adapter (random projection), saved with the text model's
    tokenizer files so it loads through the same path as a trained image-aware model."""
    from transformers import AutoModelForSeq2SeqLM

    from builders.scoring.image import feature_prefix_model

    text_model, out_dir = Path(text_model), Path(out_dir)
    seq2seq = AutoModelForSeq2SeqLM.from_pretrained(text_model, local_files_only=True)
    feature_prefix_model(seq2seq, feature_dim=feature_dim, seed=seed).save(out_dir)
    for tokenizer_file in text_model.glob("*"):
        if not (out_dir / tokenizer_file.name).exists():
            (out_dir / tokenizer_file.name).write_bytes(tokenizer_file.read_bytes())
    return out_dir


def _write_tokenizer_files(folder: Path, family: str, spm_model: Path) -> None:
    tokenizer_class = _FAMILIES[family][0]
    config: dict[str, Any] = {"tokenizer_class": tokenizer_class}
    if family == "marian":
        shutil.copy(spm_model, folder / "source.spm")
        shutil.copy(spm_model, folder / "target.spm")
        _write_vocab_json(folder / "vocab.json", spm_model, specials=())
        config.update(source_lang="en", target_lang="de", model_max_length=512)
    else:
        shutil.copy(spm_model, folder / "sentencepiece.bpe.model")
        source, target, _ = _LANGUAGES[family]
        config.update(src_lang=source, tgt_lang=target, model_max_length=1024)
        if family == "nllb":
            config["extra_special_tokens"] = list(_LANGUAGES["nllb"])
        if family == "m2m100":
            _write_vocab_json(folder / "vocab.json", spm_model, specials=("<s>", "<pad>", "</s>", "<unk>"))
    (folder / "tokenizer_config.json").write_text(json.dumps(config, indent=1), encoding="utf-8")


def _write_vocab_json(path: Path, spm_model: Path, specials: Sequence[str]) -> None:
    import sentencepiece as spm

    processor = spm.SentencePieceProcessor(model_file=str(spm_model))
    vocab: dict[str, int] = {token: index for index, token in enumerate(specials)}
    for index in range(processor.get_piece_size()):
        vocab.setdefault(processor.id_to_piece(index), len(vocab))
    path.write_text(json.dumps(vocab, ensure_ascii=False, indent=0), encoding="utf-8")


def _random_model(family: str, tokenizer: Any, d_model: int, layers: int, max_positions: int, seed: int) -> Any:
    import torch
    from transformers import (
        M2M100Config,
        M2M100ForConditionalGeneration,
        MarianConfig,
        MarianMTModel,
        MBartConfig,
        MBartForConditionalGeneration,
    )

    language_ids = [tokenizer.convert_tokens_to_ids(t) for t in _language_tokens(family)]
    shape = {
        "vocab_size": max([len(tokenizer), *(i + 1 for i in language_ids if isinstance(i, int))]),
        "d_model": d_model,
        "encoder_layers": layers,
        "decoder_layers": layers,
        "encoder_attention_heads": 2,
        "decoder_attention_heads": 2,
        "encoder_ffn_dim": 2 * d_model,
        "decoder_ffn_dim": 2 * d_model,
        "max_position_embeddings": max_positions,
        "pad_token_id": tokenizer.pad_token_id,
        "eos_token_id": tokenizer.eos_token_id,
        "dropout": 0.0,
    }
    builders = {
        "marian": (MarianConfig, MarianMTModel, {"decoder_start_token_id": tokenizer.pad_token_id}),
        "mbart50": (MBartConfig, MBartForConditionalGeneration, {"decoder_start_token_id": tokenizer.eos_token_id}),
        "nllb": (M2M100Config, M2M100ForConditionalGeneration, {"decoder_start_token_id": tokenizer.eos_token_id}),
        "m2m100": (M2M100Config, M2M100ForConditionalGeneration, {"decoder_start_token_id": tokenizer.eos_token_id}),
    }
    config_class, model_class, extra = builders[family]
    # fork_rng: seed the initialisation without touching the caller's global torch random state.
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        model = model_class(config_class(**shape, **extra))
        if family in ("marian", "mbart50"):
            # A non-zero output bias, so the tests see whether the memory-saving path adds it.
            model.final_logits_bias.normal_(0.0, 0.5)
    return model.eval()


def _language_tokens(family: str) -> list[str]:
    if family == "m2m100":
        return [f"__{code}__" for code in _LANGUAGES[family]]
    return list(_LANGUAGES.get(family, ()))
