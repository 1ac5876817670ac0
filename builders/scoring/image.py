"""Image-conditioned scoring: the same protocol and outputs as text models, with image features or pixels in.

A multimodal model plugs in by implementing :class:`ImageConditionedModel` (decoder states given a padded
batch and a tensor of image inputs, and the output projection). Token ids, language codes, context, batching,
masking and chunked log-probabilities are shared with the text adapter.

:class:`FeaturePrefixSeq2Seq` is one such model: a Hugging Face encoder-decoder whose encoder output gets one
extra position, a linear projection of a global image feature (e.g. a CLIP embedding), that the decoder attends
to. Its projection is trained elsewhere (the bundled-model issue); here it is only the architecture and I/O.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from builders.core.errors import MtprobesError
from builders.scoring.engine import PaddedBatch, TeacherForcing
from builders.scoring.protocol import ScoringExample, TokenScores

if TYPE_CHECKING:
    import torch

    from builders.scoring.hf import HFSeq2SeqScorer

ImageEncoder = Callable[[Sequence[Any]], "torch.Tensor"]


class ImageConditionedModel(Protocol):
    """What a multimodal model provides to be scored (image inputs are whatever its encoder returns)."""

    def decoder_states(self, batch: PaddedBatch, images: torch.Tensor) -> torch.Tensor: ...

    def output_logits(self, rows: torch.Tensor) -> torch.Tensor: ...

    @property
    def vocab_size(self) -> int: ...


def stack_features(images: Sequence[Any]) -> torch.Tensor:
    """The default image encoder: each example's ``image`` is a precomputed 1-D feature vector."""
    import torch

    arrays = [np.asarray(image, dtype=np.float32) for image in images]
    shapes = {a.shape for a in arrays}
    if any(a.ndim != 1 for a in arrays) or len(shapes) != 1:
        raise MtprobesError(f"image features must be 1-D vectors of one size, got shapes {sorted(shapes)}")
    return torch.from_numpy(np.stack(arrays))


class ImageConditionedScorer:
    """Scores with an image-conditioned model; ``text`` supplies tokenizer, language scheme and options."""

    def __init__(
        self, text: HFSeq2SeqScorer, model: ImageConditionedModel, encode_images: ImageEncoder = stack_features
    ) -> None:
        self.text = text
        self.model = model.to(text.device) if hasattr(model, "to") else model
        self.encode_images = encode_images

    def score(self, examples: Sequence[ScoringExample]) -> list[TokenScores]:
        missing = [i + 1 for i, e in enumerate(examples) if e.image is None]
        if missing:
            raise MtprobesError(f"image-conditioned scoring: examples {missing[:5]} have no image")
        engine = TeacherForcing(
            forward=self._forward,
            head=self.model.output_logits,
            vocab_size=self.model.vocab_size,
            pad_id=self.text.pad_id,
            decoder_start_id=self.text.decoder_start_id,
            options=self.text.options,
            device=self.text.device,
        )
        return engine.score(self.text.encode(examples))

    def _forward(self, batch: PaddedBatch) -> torch.Tensor:
        images = self.encode_images(batch.images).to(self.text.device)
        return self.model.decoder_states(batch, images)


def _feature_prefix_class() -> type:
    import torch

    class FeaturePrefixSeq2Seq(torch.nn.Module):
        """An HF encoder-decoder plus one projected image-feature position prepended to the encoder output."""

        def __init__(self, seq2seq: Any, feature_dim: int) -> None:
            super().__init__()
            self.seq2seq = seq2seq
            self.feature_dim = feature_dim
            self.project = torch.nn.Linear(feature_dim, seq2seq.config.d_model)

        @property
        def vocab_size(self) -> int:
            return int(self.seq2seq.get_output_embeddings().weight.shape[0])

        def decoder_states(self, batch: PaddedBatch, images: torch.Tensor) -> torch.Tensor:
            encoder = self.seq2seq.get_encoder()
            encoded = encoder(input_ids=batch.input_ids, attention_mask=batch.attention_mask).last_hidden_state
            prefix = self.project(images.to(encoded.dtype)).unsqueeze(1)
            states = torch.cat([prefix, encoded], dim=1)
            mask = torch.cat([torch.ones_like(batch.attention_mask[:, :1]), batch.attention_mask], dim=1)
            decoder = self.seq2seq.get_decoder()
            return decoder(
                input_ids=batch.decoder_input_ids,
                attention_mask=batch.decoder_attention_mask,
                encoder_hidden_states=states,
                encoder_attention_mask=mask,
                use_cache=False,
            ).last_hidden_state

        def output_logits(self, rows: torch.Tensor) -> torch.Tensor:
            logits = self.seq2seq.get_output_embeddings()(rows)
            bias = getattr(self.seq2seq, "final_logits_bias", None)
            return logits if bias is None else logits + bias.to(logits.dtype)

        def save(self, folder: str | Path) -> None:
            folder = Path(folder)
            self.seq2seq.save_pretrained(folder)
            torch.save(self.project.state_dict(), folder / "image_prefix.pt")
            (folder / "image_prefix.json").write_text(json.dumps({"feature_dim": self.feature_dim}))

    return FeaturePrefixSeq2Seq


def feature_prefix_model(seq2seq: Any, feature_dim: int, seed: int = 0) -> Any:
    """A new FeaturePrefixSeq2Seq around ``seq2seq`` with a seeded random projection."""
    import torch

    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        return _feature_prefix_class()(seq2seq, feature_dim).eval()


def load_feature_prefix_model(folder: str | Path) -> Any:
    """Load a FeaturePrefixSeq2Seq saved with ``save`` (the seq2seq part through ``from_pretrained``)."""
    import torch
    from transformers import AutoModelForSeq2SeqLM

    from builders.core.chatter import quiet_libraries

    quiet_libraries()  # no advisories or weight-loading bars unless -v
    folder = Path(folder)
    meta_file = folder / "image_prefix.json"
    if not meta_file.exists():
        raise MtprobesError(f"{folder}: no image_prefix.json, not a feature-prefix model")
    meta = json.loads(meta_file.read_text(encoding="utf-8"))
    seq2seq = AutoModelForSeq2SeqLM.from_pretrained(str(folder), local_files_only=True, dtype=torch.float32)
    model = _feature_prefix_class()(seq2seq, int(meta["feature_dim"]))
    model.project.load_state_dict(torch.load(folder / "image_prefix.pt", weights_only=True))
    return model.eval()


def _as_pil(image: Any) -> Any:
    """A PIL RGB image from a PIL image, a file path, or an H x W x 3 uint8 array."""
    from PIL import Image

    from builders.core.errors import InputError

    if isinstance(image, Image.Image):
        return image.convert("RGB")
    if isinstance(image, str | Path):
        path = Path(image)
        if not path.is_file():
            raise InputError(path, "image file not found")
        try:
            with Image.open(path) as opened:
                return opened.convert("RGB")
        except OSError as err:
            raise InputError(path, f"cannot decode image: {err}") from None
    array = np.asarray(image)
    if array.ndim == 3 and array.shape[2] == 3 and array.dtype == np.uint8:
        return Image.fromarray(array)
    raise MtprobesError(f"not an image: {type(image).__name__} with shape {getattr(array, 'shape', None)}")


def clip_image_encoder(model: Any, preprocess: Callable[[Any], Any], device: str = "cpu") -> ImageEncoder:
    """Pixels in: an ImageEncoder that runs an open_clip model (L2-normalised image embeddings).

    ``model, _, preprocess = open_clip.create_model_and_transforms(name, pretrained=tag_or_local_file)`` gives
    the two arguments; nothing is downloaded here.
    """
    import torch

    model = model.to(device).eval()

    def encode(images: Sequence[Any]) -> torch.Tensor:
        pixels = torch.stack([preprocess(_as_pil(image)) for image in images]).to(device)
        with torch.inference_mode():
            features = model.encode_image(pixels).float()
        return torch.nn.functional.normalize(features, dim=-1)

    return encode
