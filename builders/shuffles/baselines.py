"""Feature and pixel files written beside the dataset: permuted features, all-zero and mixup baselines.

Large feature files (e.g. spatial CNN features) are copied in row chunks through memory maps, so nothing
needs to fit in memory at once. Every file goes through ``atomic_path``: a reader never sees half of one.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from builders.core.atomic import atomic_path
from builders.core.errors import InputError

if TYPE_CHECKING:
    from PIL import Image

_CHUNK_ROWS = 2048


def _write_npy_rows(
    path: Path, shape: tuple[int, ...], dtype: np.dtype, fill: Callable[[slice], np.ndarray]
) -> None:
    """Write a ``.npy`` of ``shape`` whose rows ``fill(rows)`` returns, chunk by chunk."""
    with atomic_path(path) as tmp:
        out = np.lib.format.open_memmap(tmp, mode="w+", dtype=dtype, shape=shape)
        for start in range(0, shape[0], _CHUNK_ROWS):
            rows = slice(start, min(start + _CHUNK_ROWS, shape[0]))
            out[rows] = fill(rows)
        out.flush()
        del out


def write_permuted(features: np.ndarray, perm: np.ndarray, path: Path) -> None:
    """Row ``i`` of the output is the feature row of the image example ``i`` is shown (``perm[i]``)."""
    _write_npy_rows(path, features.shape, features.dtype, lambda rows: np.asarray(features[perm[rows]]))


def write_zeros(features: np.ndarray, path: Path) -> None:
    """All-zero features of the same shape and dtype: the 'no image information' baseline."""
    _write_npy_rows(path, features.shape, features.dtype, lambda rows: np.zeros(
        (rows.stop - rows.start, *features.shape[1:]), dtype=features.dtype
    ))


def write_mixup(features: np.ndarray, perm: np.ndarray, path: Path) -> None:
    """50/50 blend of each example's own features with its distractor's (pseudo-text-only baseline)."""

    def blend(rows: slice) -> np.ndarray:
        own = np.asarray(features[rows], dtype=np.float64)
        other = np.asarray(features[perm[rows]], dtype=np.float64)
        return ((own + other) / 2).astype(features.dtype)

    _write_npy_rows(path, features.shape, features.dtype, blend)


def load_rgb(source: Path | bytes, where: Path, line: int) -> Image.Image:
    """8-bit RGB pixels of an image file or embedded bytes; an :class:`InputError` naming the line otherwise.

    Conversion as for the CLIP collection (alpha composited on white, CMYK/palette/16-bit converted), so a
    1x1 or 10000x10 image is blended like any other.
    """
    from builders.commute_ext.filters import decode_rgb

    if isinstance(source, bytes):
        data, name = source, "the embedded image bytes"
    else:
        name = f"image file {source}"
        try:
            data = source.read_bytes()
        except OSError as err:
            raise InputError(where, f"{name} cannot be read ({err.strerror})", line=line) from None
    image = decode_rgb(data)
    if image is None:
        raise InputError(where, f"{name} cannot be decoded (corrupt or not an image)", line=line)
    return image


def blend_images(own: Image.Image, other: Image.Image, out_path: Path) -> None:
    """Pixel mixup: the distractor resized to the own image's size, 50/50 alpha blend, saved as PNG."""
    from PIL import Image

    if other.size != own.size:
        other = other.resize(own.size, Image.Resampling.BILINEAR)
    blended = Image.blend(own, other, 0.5)
    with atomic_path(out_path) as tmp:
        blended.save(tmp, format="PNG")
