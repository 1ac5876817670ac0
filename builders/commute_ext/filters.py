"""Image filters: decode errors, minimum side, maximum aspect ratio, exact duplicates (by content hash).

Checks run cheapest first: the header gives the size without decoding pixels, the hash catches exact
duplicates before a full decode, and only then are pixels decoded (which catches truncated files).
Every rejected image gets one named reason; the first failing check gives it.
"""

from __future__ import annotations

import hashlib
import io
import warnings
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL import Image

DECODE_ERROR = "decode_error"
TOO_SMALL = "too_small"
EXTREME_ASPECT = "extreme_aspect"
TOO_MANY_PIXELS = "too_many_pixels"
DUPLICATE = "duplicate"
COMMUTE_ORIGINAL = "same_as_commute_image"


@dataclass(frozen=True)
class FilterSettings:
    min_side: int = 64  # paper: images with a side under 64 px are dropped
    max_aspect: float = 2.5  # paper: long side / short side above 2.5 is dropped
    max_pixels: int = 64_000_000  # guards memory against decompression bombs


@dataclass(frozen=True)
class Verdict:
    sha256: str
    reason: str | None  # None when kept
    image: Image.Image | None = None  # RGB, only when kept
    size: tuple[int, int] = (0, 0)


@dataclass
class ImageFilter:
    """Stateful over one pass of a collection: remembers hashes of kept images to drop exact duplicates.

    ``check`` runs the rules in order and skips decoding duplicates; ``admit`` applies the hash rules to a
    verdict computed beforehand by :func:`inspect` (in worker threads). Both give the same reasons.
    """

    settings: FilterSettings = field(default_factory=FilterSettings)
    excluded_hashes: frozenset[str] = frozenset()  # e.g. the CoMMuTE images themselves
    kept_hashes: set[str] = field(default_factory=set)

    def check(self, data: bytes) -> Verdict:
        verdict = precheck(data, self.settings)
        if verdict.reason is None and (reason := self.hash_reason(verdict.sha256)) is not None:
            return replace(verdict, reason=reason)
        if verdict.reason is not None:
            return verdict
        return self.admit(_decode(verdict, data))

    def admit(self, verdict: Verdict) -> Verdict:
        if verdict.reason is None and (reason := self.hash_reason(verdict.sha256)) is not None:
            return replace(verdict, reason=reason, image=None)
        if verdict.reason is None:
            self.kept_hashes.add(verdict.sha256)
        return verdict

    def hash_reason(self, digest: str) -> str | None:
        if digest in self.excluded_hashes:
            return COMMUTE_ORIGINAL
        if digest in self.kept_hashes:
            return DUPLICATE
        return None


def precheck(data: bytes, settings: FilterSettings) -> Verdict:
    """Hash and header size rules, without decoding pixels."""
    size, reason = header_size(data, settings)
    return Verdict(hashlib.sha256(data).hexdigest(), reason, size=size)


def inspect(data: bytes, settings: FilterSettings) -> Verdict:
    """Everything that does not depend on other images (thread-safe): hash, size rules, full decode."""
    verdict = precheck(data, settings)
    return verdict if verdict.reason is not None else _decode(verdict, data)


def _decode(verdict: Verdict, data: bytes) -> Verdict:
    image = decode_rgb(data)
    return replace(verdict, reason=DECODE_ERROR) if image is None else replace(verdict, image=image)


def header_size(data: bytes, settings: FilterSettings) -> tuple[tuple[int, int], str | None]:
    """Size from the image header (no pixel decoding) and the first size rule it breaks, if any."""
    from PIL import Image

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # size limits are ours; PIL's bomb warning would only repeat them
            with Image.open(io.BytesIO(data)) as image:
                width, height = image.size
    except (OSError, SyntaxError, ValueError, EOFError, Image.DecompressionBombError):
        return (0, 0), DECODE_ERROR
    return (width, height), size_reason(width, height, settings)


def size_reason(width: int, height: int, settings: FilterSettings) -> str | None:
    if min(width, height) < settings.min_side:
        return TOO_SMALL
    if max(width, height) / min(width, height) > settings.max_aspect:
        return EXTREME_ASPECT
    if width * height > settings.max_pixels:
        return TOO_MANY_PIXELS
    return None


def decode_rgb(data: bytes) -> Image.Image | None:
    """Fully decode to 8-bit RGB, or None when the pixels cannot be read (corrupt or truncated file)."""
    from PIL import Image, ImageOps

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            opened = Image.open(io.BytesIO(data))
            opened.load()
            upright = ImageOps.exif_transpose(opened)
    except (OSError, SyntaxError, ValueError, EOFError, Image.DecompressionBombError):
        return None
    return to_rgb(upright)


def to_rgb(image: Image.Image) -> Image.Image:
    """8-bit RGB: transparency composited on white (as a viewer shows it), CMYK and palettes converted,
    16-bit greyscale scaled to 8 bit and 32-bit/float greyscale stretched instead of clipped."""
    from PIL import Image

    if image.mode in ("I;16", "I;16B", "I;16L", "I", "F"):
        image = _rescale_to_l(image)
    if image.mode == "P" and "transparency" in image.info:
        image = image.convert("RGBA")
    if image.mode in ("RGBA", "LA", "PA", "La", "RGBa"):
        rgba = image.convert("RGBA")
        background = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        return Image.alpha_composite(background, rgba).convert("RGB")
    return image.convert("RGB")


def _rescale_to_l(image: Image.Image) -> Image.Image:
    import numpy as np
    from PIL import Image

    pixels = np.asarray(image, dtype=np.float64)
    if image.mode.startswith("I;16"):
        return Image.fromarray(np.round(pixels / 257.0).astype(np.uint8))
    low, high = float(pixels.min()), float(pixels.max())
    scaled = np.zeros_like(pixels) if high <= low else (pixels - low) * (255.0 / (high - low))
    return Image.fromarray(np.round(scaled).astype(np.uint8))
