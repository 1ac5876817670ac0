"""Hugging Face seq2seq adapter (Marian/opus-mt, mBART-50, NLLB, M2M100 and other encoder-decoders).

Models load by hub name (from the local cache only: nothing is downloaded here) or by local path with
``from_pretrained``. Token ids are built explicitly from the family's :class:`LanguageScheme` so that language
codes, forced BOS tokens and target-side context all end up in the unscored decoder prefix.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from builders.core.errors import InputError, MtprobesError
from builders.scoring.engine import EncodedExample, PaddedBatch, TeacherForcing, resolve_device, resolve_precision
from builders.scoring.languages import SCHEMES, LanguageScheme, detect_family
from builders.scoring.protocol import ScoringExample, ScoringOptions, TokenScores

log = logging.getLogger("mtprobes.scoring")

# Files of which at least one must be present for a tokenizer to load from a local folder.
TOKENIZER_FILES = (
    "tokenizer.json",
    "tokenizer_config.json",
    "source.spm",
    "sentencepiece.bpe.model",
    "sentencepiece.model",
    "spiece.model",
    "vocab.json",
)
# Model types whose logits are exactly lm_head(decoder states) (+ final_logits_bias): the memory-saving path.
_HIDDEN_STATE_TYPES = frozenset({"marian", "mbart", "m2m_100"})
_UNBOUNDED_LENGTH = 10**6


@dataclass
class TruncationCounter:
    """Counts examples whose source or target context was cut to fit the model (reported, never silent)."""

    sources: int = 0
    target_contexts: int = 0
    examples: list[int] = field(default_factory=list)

    def to_dict(self) -> dict[str, int]:
        return {"truncated_sources": self.sources, "truncated_target_contexts": self.target_contexts}


def check_tokenizer_files(path: Path) -> None:
    """A local model folder must carry its tokenizer; say which files were expected."""
    if path.is_dir() and not any((path / name).exists() for name in TOKENIZER_FILES):
        raise InputError(
            path,
            "model folder has no tokenizer files (expected one of "
            f"{', '.join(TOKENIZER_FILES)}); save the tokenizer with save_pretrained next to the model",
        )


class HFSeq2SeqScorer:
    """Scores and translates with a Hugging Face encoder-decoder model."""

    def __init__(
        self,
        model: Any,
        tokenizer: Any,
        *,
        src_lang: str | None = None,
        tgt_lang: str | None = None,
        options: ScoringOptions | None = None,
        marian_target_token: str | None = None,
    ) -> None:
        self.options = options or ScoringOptions()
        self.device = resolve_device(self.options.device)
        self.model = model.to(self.device).eval()
        self.tokenizer = tokenizer
        self.family = detect_family(type(tokenizer).__name__, getattr(model.config, "model_type", ""))
        self.scheme: LanguageScheme = SCHEMES[self.family]
        self.marian_target_token = marian_target_token
        self.source_prefix = self._code_ids(src_lang, "src_lang") if self.scheme.source_code else []
        self.target_prefix = self._code_ids(tgt_lang, "tgt_lang") if self.scheme.forced_bos else []
        self.pad_id = _first_int(tokenizer.pad_token_id, model.config.pad_token_id)
        self.eos_id = _first_int(tokenizer.eos_token_id, model.config.eos_token_id)
        self.decoder_start_id = _first_int(
            model.config.decoder_start_token_id,
            getattr(getattr(model, "generation_config", None), "decoder_start_token_id", None),
            self.pad_id,
        )
        self.max_length = _max_length(model.config, tokenizer)
        self.truncation = TruncationCounter()

    # --- loading ------------------------------------------------------------------------------------
    @classmethod
    def from_pretrained(
        cls,
        name_or_path: str | Path,
        *,
        tokenizer_path: str | Path | None = None,
        src_lang: str | None = None,
        tgt_lang: str | None = None,
        options: ScoringOptions | None = None,
        marian_target_token: str | None = None,
        model: Any = None,
    ) -> HFSeq2SeqScorer:
        """Load from a local folder or the local hub cache (``local_files_only``: never downloads). With ``model``
        (the seq2seq part of an image-conditioned model, already loaded) only the tokenizer is loaded."""
        import torch
        from transformers import AutoModelForSeq2SeqLM, AutoTokenizer

        from builders.core.chatter import quiet_libraries

        quiet_libraries()  # no advisories or weight-loading bars unless -v
        tokenizer_source = Path(tokenizer_path or name_or_path)
        check_tokenizer_files(tokenizer_source)
        try:
            tokenizer = AutoTokenizer.from_pretrained(str(tokenizer_source), local_files_only=True)
            # fp32 weights: bf16/fp16 on CUDA, when asked for, comes from autocast, with fp32 log-softmax chunks.
            if model is None:
                model = AutoModelForSeq2SeqLM.from_pretrained(
                    str(name_or_path), local_files_only=True, dtype=torch.float32
                )
        except OSError as err:
            raise MtprobesError(
                f"cannot load model {name_or_path!s} from a local folder or the local hub cache "
                f"(mtprobes never downloads): {err}"
            ) from None
        return cls(
            model,
            tokenizer,
            src_lang=src_lang,
            tgt_lang=tgt_lang,
            options=options,
            marian_target_token=marian_target_token,
        )

    def describe(self) -> dict[str, Any]:
        return {
            "family": self.family,
            "model_type": getattr(self.model.config, "model_type", ""),
            "name_or_path": getattr(self.model.config, "_name_or_path", ""),
            "device": self.device,
            "precision": resolve_precision(self.device, self.options.precision),
            "source_prefix": self.source_prefix,
            "target_prefix": self.target_prefix,
            "max_length": self.max_length,
        }

    # --- encoding -----------------------------------------------------------------------------------
    def _code_ids(self, language: str | None, option: str) -> list[int]:
        if not language:
            raise MtprobesError(f"{self.family} models need {option} (e.g. 'en', 'de' or the family's spelling)")
        token = self.scheme.code_token(language)
        token_id = self.tokenizer.convert_tokens_to_ids(token)
        if token_id is None or token_id == self.tokenizer.unk_token_id:
            raise MtprobesError(f"{option} {language!r}: token {token!r} is not in this tokenizer's vocabulary")
        return [int(token_id)]

    def _token_ids(self, texts: Sequence[str], *, target: bool) -> list[list[int]]:
        if not texts:
            return []
        key = "text_target" if target else "text"
        # verbose=False: the tokenizer's own "longer than the specified maximum" notice names its limit, not the
        # model's; _fit() cuts to the real limit and encode() reports it once.
        encoded = self.tokenizer(**{key: list(texts)}, add_special_tokens=False, verbose=False)
        return [list(ids) for ids in encoded["input_ids"]]

    def _source_texts(self, examples: Sequence[ScoringExample]) -> list[str]:
        separator = self.options.context_separator
        texts = [separator.join([*e.source_context, e.source]) for e in examples]
        if self.marian_target_token:
            texts = [f"{self.marian_target_token} {text}" for text in texts]
        return texts

    def encode(self, examples: Sequence[ScoringExample]) -> list[EncodedExample]:
        """Token ids of every example; what had to be cut is counted in ``truncation`` and logged as a warning
        (here, so that scoring, translation and the image-conditioned adapter all report it)."""
        before = len(self.truncation.examples)
        encoded = self._encode(examples)
        if before == 0 and self.truncation.examples:
            # Once per scorer: later batches add to the same counts, which every run's info.json records.
            log.warning(
                "%d of %d examples were longer than the model maximum (%d tokens) and were truncated "
                "(sources: %d, target contexts: %d); later ones are counted, not repeated",
                len(self.truncation.examples),
                len(examples),
                self.max_length,
                self.truncation.sources,
                self.truncation.target_contexts,
            )
        return encoded

    def _encode(self, examples: Sequence[ScoringExample]) -> list[EncodedExample]:
        separator = self.options.context_separator
        sources = self._token_ids(self._source_texts(examples), target=False)
        targets = self._token_ids([e.target for e in examples], target=True)
        with_context = [i for i, e in enumerate(examples) if e.target_context]
        contexts = dict(
            zip(
                with_context,
                self._token_ids(
                    [separator.join(examples[i].target_context) + separator for i in with_context], target=True
                ),
                strict=True,
            )
        )
        eos = [self.eos_id] if self.options.include_eos else []
        return [
            self._fit(index, example, sources[index], contexts.get(index, []), targets[index] + eos)
            for index, example in enumerate(examples)
        ]

    def _fit(
        self, index: int, example: ScoringExample, source: list[int], context: list[int], scored: list[int]
    ) -> EncodedExample:
        """Cut sources and target contexts that exceed the model's length (counted and warned, never silent)."""
        truncated = False
        room = self.max_length - len(self.source_prefix) - 1
        if len(source) > room:
            # With context the current sentence is at the end: drop the oldest tokens; otherwise keep the start.
            source = source[-room:] if example.source_context else source[:room]
            self.truncation.sources += 1
            truncated = True
        target_room = self.max_length - len(self.target_prefix) - len(scored)
        if target_room < 0:
            raise MtprobesError(
                f"example {index + 1}: target has {len(scored)} tokens, more than the model maximum "
                f"{self.max_length}; targets are never truncated (the score would be of another sentence)"
            )
        if len(context) > target_room:
            context = context[len(context) - target_room :]
            self.truncation.target_contexts += 1
            truncated = True
        if truncated:
            self.truncation.examples.append(index)
        prefix = self.target_prefix + context
        return EncodedExample(
            source_ids=self.source_prefix + source + [self.eos_id],
            labels=prefix + scored,
            n_prefix=len(prefix),
            truncated=truncated,
            image=example.image,
        )

    # --- scoring ------------------------------------------------------------------------------------
    def score(self, examples: Sequence[ScoringExample]) -> list[TokenScores]:
        # A text model never sees the image: dropping it lets the engine score identical text once, so a
        # text-only model shown two images gives exactly tied scores (not two batch-dependent roundings).
        return self.engine().score([replace(e, image=None) for e in self.encode(examples)])

    def engine(self) -> TeacherForcing:
        model_type = getattr(self.model.config, "model_type", "")
        hidden_path = model_type in _HIDDEN_STATE_TYPES and hasattr(self.model, "model")
        vocab_size = int(self.model.get_output_embeddings().weight.shape[0])
        return TeacherForcing(
            forward=self._decoder_states if hidden_path else self._full_logits,
            head=self._project if hidden_path else _identity,
            vocab_size=vocab_size,
            pad_id=self.pad_id,
            decoder_start_id=self.decoder_start_id,
            options=self.options,
            device=self.device,
        )

    def _decoder_states(self, batch: PaddedBatch) -> Any:
        outputs = self.model.model(
            input_ids=batch.input_ids,
            attention_mask=batch.attention_mask,
            decoder_input_ids=batch.decoder_input_ids,
            decoder_attention_mask=batch.decoder_attention_mask,
            use_cache=False,
        )
        return outputs.last_hidden_state

    def _project(self, rows: Any) -> Any:
        logits = self.model.get_output_embeddings()(rows)
        bias = getattr(self.model, "final_logits_bias", None)
        return logits if bias is None else logits + bias.to(logits.dtype)

    def _full_logits(self, batch: PaddedBatch) -> Any:
        return self.model(
            input_ids=batch.input_ids,
            attention_mask=batch.attention_mask,
            decoder_input_ids=batch.decoder_input_ids,
            decoder_attention_mask=batch.decoder_attention_mask,
            use_cache=False,
        ).logits

    # --- translation --------------------------------------------------------------------------------
    def translate(
        self, examples: Sequence[ScoringExample], *, num_beams: int = 5, max_new_tokens: int = 256
    ) -> list[str]:
        """Beam-search translations (targets are ignored; target context is forced as decoder prefix)."""
        from builders.scoring.translate import beam_translate

        return beam_translate(self, examples, num_beams=num_beams, max_new_tokens=max_new_tokens)


def _identity(rows: Any) -> Any:
    return rows


def _first_int(*values: Any) -> int:
    for value in values:
        if isinstance(value, int):
            return value
        if isinstance(value, list) and value and isinstance(value[0], int):
            return value[0]
    raise MtprobesError("the model config and tokenizer define none of the needed special token ids")


def _max_length(config: Any, tokenizer: Any) -> int:
    """The smallest of the tokenizer's declared maximum and the model's position table."""
    candidates = [
        getattr(config, "max_position_embeddings", None),
        getattr(tokenizer, "model_max_length", None),
    ]
    usable = [int(c) for c in candidates if isinstance(c, int) and 0 < c < _UNBOUNDED_LENGTH]
    return min(usable) if usable else 1024
