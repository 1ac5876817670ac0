"""Language-code handling of mBART-50, NLLB and M2M100 (tiny random models with offline-built tokenizers)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from builders.core.compat import probe_module
from builders.core.errors import MtprobesError
from builders.scoring.languages import SCHEMES, detect_family
from builders.scoring.protocol import ScoringExample, ScoringOptions


@pytest.mark.parametrize(
    ("family", "language", "token"),
    [
        ("mbart50", "de", "de_DE"),
        ("mbart50", "en", "en_XX"),
        ("mbart50", "fr_XX", "fr_XX"),
        ("nllb", "de", "deu_Latn"),
        ("nllb", "cs", "ces_Latn"),
        ("nllb", "deu_Latn", "deu_Latn"),
        ("m2m100", "de", "__de__"),
        ("m2m100", "__fr__", "__fr__"),
    ],
)
def test_code_spelling(family: str, language: str, token: str) -> None:
    assert SCHEMES[family].code_token(language) == token


@pytest.mark.parametrize("family", ["mbart50", "nllb"])
def test_unknown_short_code(family: str) -> None:
    with pytest.raises(MtprobesError, match="no .* code known for 'xx'"):
        SCHEMES[family].code_token("xx")


@pytest.mark.parametrize(
    ("tokenizer_class", "model_type", "family"),
    [
        ("NllbTokenizerFast", "m2m_100", "nllb"),
        ("M2M100Tokenizer", "m2m_100", "m2m100"),
        ("MBart50TokenizerFast", "mbart", "mbart50"),
        ("MarianTokenizer", "marian", "marian"),
        ("T5TokenizerFast", "t5", "plain"),
        ("MBartTokenizer", "mbart", "plain"),  # mBART-cc25 puts codes at the end: not handled as mBART-50
    ],
)
def test_detect_family(tokenizer_class: str, model_type: str, family: str) -> None:
    assert detect_family(tokenizer_class, model_type) == family


FAMILIES = [("mbart50", "en_XX", "de_DE"), ("nllb", "eng_Latn", "deu_Latn"), ("m2m100", "en", "de")]


@pytest.fixture(scope="module")
def model_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not probe_module("google.protobuf", "protobuf").available:
        pytest.skip("building fairseq-style tokenizers from a SentencePiece file needs protobuf")
    pytest.importorskip("transformers")
    return tmp_path_factory.mktemp("multilingual")


@pytest.mark.parametrize(("family", "src_code", "tgt_code"), FAMILIES)
def test_family_ids_match_tokenizer(model_root: Path, family: str, src_code: str, tgt_code: str) -> None:
    from builders.scoring.hf import HFSeq2SeqScorer
    from builders.scoring.tiny import make_tiny_model

    folder = make_tiny_model(model_root / family, family, seed=1)
    scorer = HFSeq2SeqScorer.from_pretrained(folder, src_lang="en", tgt_lang="de", options=ScoringOptions(device="cpu"))
    assert scorer.family == family
    tokenizer = scorer.tokenizer
    tokenizer.src_lang, tokenizer.tgt_lang = src_code, tgt_code
    example = ScoringExample("the cat is big", "die Katze ist groß")
    encoded = scorer.encode([example])[0]
    # Our explicit ids equal what the family's own tokenizer produces with the language set.
    assert encoded.source_ids == tokenizer("the cat is big").input_ids
    assert encoded.labels == tokenizer(text_target="die Katze ist groß").input_ids
    # The forced target-language BOS is part of the decoder prefix and never scored.
    tgt_token = scorer.scheme.code_token("de")
    assert encoded.n_prefix == 1 and encoded.labels[0] == tokenizer.convert_tokens_to_ids(tgt_token)
    assert encoded.source_ids[0] == tokenizer.convert_tokens_to_ids(scorer.scheme.code_token("en"))
    assert scorer.decoder_start_id == tokenizer.eos_token_id
    batched = scorer.score([example, ScoringExample("a dog", "ein Hund", target_context=("der Ball",))])
    assert batched[0].n_tokens == len(encoded.labels) - 1
    np.testing.assert_allclose(batched[0].logprobs, scorer.score([example])[0].logprobs, atol=1e-4)
    with pytest.raises(MtprobesError, match="need tgt_lang"):
        HFSeq2SeqScorer(scorer.model, tokenizer, src_lang="en")
