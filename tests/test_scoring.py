"""Scorer tests on a tiny random-init Marian model loaded back through the real from_pretrained path."""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

import numpy as np
import pytest

from builders.core.errors import InputError, MtprobesError
from builders.scoring.engine import length_sorted_batches, resolve_precision
from builders.scoring.hf import HFSeq2SeqScorer
from builders.scoring.protocol import ScoringExample, ScoringOptions, TokenScores, drop_shared_prefixes

pytest.importorskip("transformers")
pytest.importorskip("sentencepiece")

EXAMPLES = [
    ScoringExample("the cat is big", "die Katze ist groß"),
    ScoringExample("it was a small dog near the old house", "es war ein kleiner Hund bei dem alten Haus"),
    ScoringExample("he saw it", "er sah es", source_context=("the tree is green",)),
    ScoringExample("she found the book", "sie fand das Buch", target_context=("der Baum ist grün",)),
    ScoringExample("we took it", "wir nahmen es", ("a red car", "the bank"), ("ein rotes Auto", "die Bank")),
    ScoringExample("the", "der"),
    ScoringExample("the mole in the night", "der Maulwurf in der Nacht"),
]


@pytest.fixture(scope="module")
def marian_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from builders.scoring.tiny import make_tiny_model

    return make_tiny_model(tmp_path_factory.mktemp("models") / "marian", "marian", max_positions=64)


@pytest.fixture(scope="module")
def scorer(marian_dir: Path) -> HFSeq2SeqScorer:
    return HFSeq2SeqScorer.from_pretrained(marian_dir, options=ScoringOptions(device="cpu"))


def reference_logprobs(scorer: HFSeq2SeqScorer, example: ScoringExample, temperature: float = 1.0) -> np.ndarray:
    """Straightforward full-logits computation for one example, to check the batched, chunked path."""
    import torch

    encoded = scorer.encode([example])[0]
    decoder_input = [scorer.decoder_start_id, *encoded.labels[:-1]]
    with torch.no_grad():
        logits = scorer.model(
            input_ids=torch.tensor([encoded.source_ids]), decoder_input_ids=torch.tensor([decoder_input])
        ).logits[0]
    logprobs = torch.log_softmax(logits / temperature, dim=-1)
    picked = logprobs[torch.arange(len(encoded.labels)), torch.tensor(encoded.labels)]
    return picked[encoded.n_prefix :].double().numpy()


def test_batched_equals_one_by_one(scorer: HFSeq2SeqScorer) -> None:
    batched = scorer.score(EXAMPLES)
    single = [scorer.score([example])[0] for example in EXAMPLES]
    for many, one in zip(batched, single, strict=True):
        np.testing.assert_array_equal(many.token_ids, one.token_ids)
        np.testing.assert_allclose(many.logprobs, one.logprobs, atol=1e-4)


@pytest.mark.parametrize("temperature", [1.0, 2.5])
def test_matches_full_log_softmax(scorer: HFSeq2SeqScorer, temperature: float) -> None:
    options = ScoringOptions(device="cpu", temperature=temperature, logit_chunk_bytes=4 * 200 * 3)
    chunked = HFSeq2SeqScorer(scorer.model, scorer.tokenizer, options=options)
    for example, scores in zip(EXAMPLES, chunked.score(EXAMPLES), strict=True):
        np.testing.assert_allclose(scores.logprobs, reference_logprobs(scorer, example, temperature), atol=1e-5)


def test_derived_scores(scorer: HFSeq2SeqScorer) -> None:
    scores = scorer.score(EXAMPLES[:1])[0]
    assert scores.sum == pytest.approx(scores.logprobs.sum())
    assert scores.mean == pytest.approx(scores.sum / scores.n_tokens)
    assert scores.perplexity == pytest.approx(np.exp(-scores.mean))
    assert scores.reduce("nll") == pytest.approx(-scores.sum)


def test_target_context_is_forced_prefix_not_scored(scorer: HFSeq2SeqScorer) -> None:
    plain = ScoringExample("she found the book", "sie fand das Buch")
    with_context = EXAMPLES[3]
    encoded = scorer.encode([with_context])[0]
    context_ids = scorer.tokenizer(text_target="der Baum ist grün ", add_special_tokens=False).input_ids
    assert encoded.labels[: encoded.n_prefix] == context_ids
    a, b = scorer.score([plain, with_context])
    np.testing.assert_array_equal(a.token_ids, b.token_ids)  # the same target tokens are scored
    assert not np.allclose(a.logprobs, b.logprobs)  # and the context changes their probabilities


def test_source_context_joined_with_separator(scorer: HFSeq2SeqScorer) -> None:
    options = ScoringOptions(device="cpu", context_separator=" _BREAK_ ")
    with_separator = HFSeq2SeqScorer(scorer.model, scorer.tokenizer, options=options)
    encoded = with_separator.encode([EXAMPLES[2]])[0]
    expected = scorer.tokenizer("the tree is green _BREAK_ he saw it").input_ids
    assert encoded.source_ids == expected


def test_shared_prefix_dropping(scorer: HFSeq2SeqScorer) -> None:
    group = [
        ScoringExample("the cat is big", "die Katze ist groß", group="item1"),
        ScoringExample("the cat is big", "die Katze ist klein", group="item1"),
        ScoringExample("the dog", "der Hund"),
    ]
    scores = scorer.score(group)
    trimmed = drop_shared_prefixes(group, scores)
    cut = trimmed[0].extra["dropped_prefix"]
    assert cut >= 2 and trimmed[1].extra["dropped_prefix"] == cut
    # Teacher forcing: the shared prefix has identical log-probs, so only the rest can differ.
    np.testing.assert_allclose(scores[0].logprobs[:cut], scores[1].logprobs[:cut], atol=1e-6)
    assert trimmed[0].sum == pytest.approx(scores[0].sum - scores[0].logprobs[:cut].sum())
    assert trimmed[2] is scores[2]


def test_empty_scores_have_unit_perplexity() -> None:
    empty = TokenScores(np.array([], dtype=np.int64), np.array([]))
    assert (empty.sum, empty.mean, empty.perplexity) == (0.0, 0.0, 1.0)


def test_long_source_truncated_with_warning(scorer: HFSeq2SeqScorer, caplog: pytest.LogCaptureFixture) -> None:
    long_source = " ".join(["the big red house"] * 40)
    fresh = HFSeq2SeqScorer(scorer.model, scorer.tokenizer, options=ScoringOptions(device="cpu"))
    with caplog.at_level(logging.WARNING, logger="mtprobes.scoring"):
        result = fresh.score([ScoringExample(long_source, "das Haus"), EXAMPLES[0]])
    assert result[0].truncated and not result[1].truncated
    assert fresh.truncation.sources == 1
    assert "1 of 2 examples were longer than the model maximum (64 tokens)" in caplog.text
    assert len(fresh.encode([ScoringExample(long_source, "das Haus")])[0].source_ids) == 64


def test_translation_and_image_scoring_also_warn_on_truncation(
    scorer: HFSeq2SeqScorer, caplog: pytest.LogCaptureFixture
) -> None:
    from builders.scoring.image import ImageConditionedScorer, feature_prefix_model

    long_source = " ".join(["the big red house"] * 40)
    fresh = HFSeq2SeqScorer(scorer.model, scorer.tokenizer, options=ScoringOptions(device="cpu"))
    with caplog.at_level(logging.WARNING, logger="mtprobes.scoring"):
        fresh.translate([ScoringExample(long_source, "")], num_beams=2, max_new_tokens=4)
        assert "1 of 1 examples were longer than the model maximum (64 tokens)" in caplog.text
        caplog.clear()
        fresh.translate([ScoringExample(long_source, "")], num_beams=2, max_new_tokens=4)
        assert "longer than the model maximum" not in caplog.text  # once per scorer
        image_scorer = ImageConditionedScorer(
            HFSeq2SeqScorer(scorer.model, scorer.tokenizer, options=ScoringOptions(device="cpu")),
            feature_prefix_model(scorer.model, feature_dim=4, seed=1),
        )
        image_scorer.score([ScoringExample(long_source, "das Haus", image=np.zeros(4, np.float32))])
        assert "1 of 1 examples were longer" in caplog.text
    assert fresh.truncation.sources == 2


def test_long_target_is_an_error(scorer: HFSeq2SeqScorer) -> None:
    with pytest.raises(MtprobesError, match="example 1: target has .* tokens, more than the model maximum 64"):
        scorer.score([ScoringExample("x", " ".join(["das große Haus"] * 40))])


def test_model_folder_without_tokenizer(marian_dir: Path, tmp_path: Path) -> None:
    bare = tmp_path / "bare"
    bare.mkdir()
    for name in ("config.json", "model.safetensors"):
        shutil.copy(marian_dir / name, bare / name)
    with pytest.raises(InputError, match="model folder has no tokenizer files"):
        HFSeq2SeqScorer.from_pretrained(bare)


def test_missing_model_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(MtprobesError, match="mtprobes never downloads"):
        HFSeq2SeqScorer.from_pretrained("no-such-org/no-such-model-xyz")


@pytest.mark.parametrize(
    ("lengths", "size", "tokens", "expected"),
    [
        ([3, 9, 5, 7], 2, 100, [[1, 3], [2, 0]]),
        ([3, 9, 5, 7], 10, 16, [[1], [3, 2], [0]]),
        ([4, 4, 4], 10, 12, [[0, 1, 2]]),
        ([20], 4, 8, [[0]]),
    ],
)
def test_length_sorted_batches(lengths: list[int], size: int, tokens: int, expected: list[list[int]]) -> None:
    assert length_sorted_batches(lengths, size, tokens) == expected


def test_translate_batched_equals_single(scorer: HFSeq2SeqScorer) -> None:
    batch = scorer.translate(EXAMPLES[:5], num_beams=3, max_new_tokens=8)
    single = [scorer.translate([e], num_beams=3, max_new_tokens=8)[0] for e in EXAMPLES[:5]]
    assert batch == single and all(isinstance(t, str) for t in batch)


def test_translate_generates_each_distinct_example_once_in_the_original_order(
    scorer: HFSeq2SeqScorer, monkeypatch: pytest.MonkeyPatch
) -> None:
    from builders.scoring import translate

    # repeats interleaved, and one source twice with another context (not a repeat)
    lines = [EXAMPLES[i] for i in (0, 1, 0, 2, 1, 0, 4, 2)] + [ScoringExample(EXAMPLES[2].source, "")]
    every_line = translate._translate_distinct(scorer, lines, 3, 8)  # what translating every line gives
    generated: list[int] = []
    real_generate = translate._generate
    monkeypatch.setattr(translate, "_generate", lambda s, sources, *rest: generated.append(len(sources))
                        or real_generate(s, sources, *rest))
    assert scorer.translate(lines, num_beams=3, max_new_tokens=8) == every_line
    assert sum(generated) == 5  # EXAMPLES 0, 1, 2, 4 and the context-free source of 2


def test_image_conditioned_scorer(scorer: HFSeq2SeqScorer, tmp_path: Path) -> None:
    from builders.scoring.image import ImageConditionedScorer, feature_prefix_model, load_feature_prefix_model

    model = feature_prefix_model(scorer.model, feature_dim=8, seed=3)
    image_scorer = ImageConditionedScorer(scorer, model)
    rng = np.random.default_rng(0)
    features = [rng.normal(size=8).astype(np.float32) for _ in EXAMPLES]
    examples = [
        ScoringExample(e.source, e.target, e.source_context, e.target_context, f)
        for e, f in zip(EXAMPLES, features, strict=True)
    ]
    batched = image_scorer.score(examples)
    single = [image_scorer.score([e])[0] for e in examples]
    for many, one in zip(batched, single, strict=True):
        np.testing.assert_allclose(many.logprobs, one.logprobs, atol=1e-4)
    other_image = ScoringExample(examples[0].source, examples[0].target, image=features[1] * 5)
    assert image_scorer.score([other_image])[0].sum != pytest.approx(batched[0].sum)
    model.save(tmp_path / "mm")
    reloaded = ImageConditionedScorer(scorer, load_feature_prefix_model(tmp_path / "mm"))
    np.testing.assert_allclose(reloaded.score(examples[:2])[1].logprobs, batched[1].logprobs, atol=1e-6)
    with pytest.raises(MtprobesError, match="have no image"):
        image_scorer.score(EXAMPLES[:1])


def test_bad_options() -> None:
    with pytest.raises(MtprobesError, match="temperature"):
        ScoringOptions(temperature=0.0)


@pytest.mark.parametrize(
    ("device", "asked", "resolved"),
    [
        ("cpu", "auto", "fp32"),
        ("cpu", "bf16", "fp32"),  # CPU always runs fp32
        ("cuda", "auto", "fp32"),  # bf16 flips close contrastive decisions (docs/scoring.md)
        ("cuda:1", "fp32", "fp32"),
        ("cuda", "bf16", "bf16"),
        ("cuda:0", "fp16", "fp16"),
    ],
)
def test_precision_is_fp32_unless_half_is_asked_for_on_cuda(device: str, asked: str, resolved: str) -> None:
    assert resolve_precision(device, asked) == resolved


def test_the_scorer_records_the_precision_it_ran_at(scorer: HFSeq2SeqScorer) -> None:
    assert scorer.describe()["precision"] == "fp32"


def test_cuda_default_equals_cpu_and_bf16_is_close(marian_dir: Path) -> None:
    import torch

    if not torch.cuda.is_available():
        pytest.skip("no CUDA device: the CUDA paths run only on a GPU")
    default = HFSeq2SeqScorer.from_pretrained(marian_dir, options=ScoringOptions(device="cuda"))
    bf16 = HFSeq2SeqScorer.from_pretrained(marian_dir, options=ScoringOptions(device="cuda", precision="bf16"))
    cpu = HFSeq2SeqScorer.from_pretrained(marian_dir, options=ScoringOptions(device="cpu"))
    assert default.describe()["precision"] == "fp32" and bf16.describe()["precision"] == "bf16"
    for a, b, c in zip(default.score(EXAMPLES), bf16.score(EXAMPLES), cpu.score(EXAMPLES), strict=True):
        np.testing.assert_allclose(a.logprobs, c.logprobs, atol=1e-4)
        np.testing.assert_allclose(b.logprobs, c.logprobs, atol=0.1)


def test_duplicates_get_bit_identical_scores(scorer: HFSeq2SeqScorer) -> None:
    # The same pair in batches of different padded shapes: scored once, so an exact tie stays a tie.
    examples = [EXAMPLES[0], EXAMPLES[1], EXAMPLES[5], EXAMPLES[0], EXAMPLES[6]]
    options = ScoringOptions(device="cpu", batch_size=2)
    scores = HFSeq2SeqScorer(scorer.model, scorer.tokenizer, options=options).score(examples)
    assert np.array_equal(scores[0].logprobs, scores[3].logprobs)
    assert len(scores) == 5 and not np.array_equal(scores[0].logprobs, scores[2].logprobs)


def test_pixels_through_clip_encoder(scorer: HFSeq2SeqScorer, tmp_path: Path) -> None:
    import json as json_module

    open_clip = pytest.importorskip("open_clip")
    from PIL import Image

    from builders.scoring.image import ImageConditionedScorer, clip_image_encoder, feature_prefix_model

    config = {
        "embed_dim": 8,
        "vision_cfg": {"image_size": 32, "layers": 1, "width": 16, "head_width": 8, "patch_size": 16},
        "text_cfg": {"context_length": 8, "vocab_size": 64, "width": 16, "heads": 2, "layers": 1},
    }
    (tmp_path / "mtprobes-tiny-clip.json").write_text(json_module.dumps(config))
    open_clip.add_model_config(tmp_path / "mtprobes-tiny-clip.json")
    import torch

    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(0)
        clip, _, preprocess = open_clip.create_model_and_transforms("mtprobes-tiny-clip", pretrained=None)
    noise = np.random.default_rng(0).integers(0, 256, size=(40, 40, 3), dtype=np.uint8)
    path = tmp_path / "blue.png"
    Image.new("RGB", (50, 30), (0, 0, 255)).save(path)
    encode = clip_image_encoder(clip, preprocess)
    features = encode([noise, str(path)])
    assert tuple(features.shape) == (2, 8)
    np.testing.assert_allclose(features.norm(dim=-1).numpy(), 1.0, atol=1e-5)
    assert not np.allclose(features[0].numpy(), features[1].numpy(), atol=1e-3)
    image_scorer = ImageConditionedScorer(scorer, feature_prefix_model(scorer.model, 8), encode)
    a, b = image_scorer.score(
        [ScoringExample("the cat", "die Katze", image=noise), ScoringExample("the cat", "die Katze", image=str(path))]
    )
    assert a.sum != b.sum  # different pixels, different features, different scores
    with pytest.raises(InputError, match="image file not found"):
        encode([str(tmp_path / "missing.png")])
