"""Readers for multimodal test sets: Multi30K layout or JSONL (HF datasets: ``readers_hf``), optional image
files and feature matrices.

Every problem is one :class:`InputError` naming the file and line; nothing is skipped silently.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from builders.core.context import sha256_file
from builders.core.errors import InputError
from builders.core.paths import resolve_input
from builders.core.textio import iter_jsonl, read_parallel, require_fields


@dataclass(frozen=True)
class ImageTextSet:
    """Line-aligned examples: 1-based input line numbers, source, reference and image name per example."""

    lines: list[int]
    src: list[str]
    ref: list[str]
    images: list[str]
    image_list: Path  # the file that names the images (errors and the order file refer to it)
    inputs: list[Path]  # every text file read, for provenance hashing
    embedded: list[bytes] | None = None  # image bytes per example when the input carries them (HF Image)

    def __len__(self) -> int:
        return len(self.images)

    def line_of(self, index: int) -> int:
        return self.lines[index]


def existing_variant(path: Path) -> Path:
    """``path`` or ``path.gz``, whichever exists (plain first); an error naming both otherwise."""
    for candidate in (path, path.with_name(path.name + ".gz")):
        if candidate.is_file():
            return candidate
    raise InputError(path, f"file not found (nor {path.name}.gz)")


def read_multi30k(data_dir: Path, split: str, src_lang: str, tgt_lang: str) -> ImageTextSet:
    """``<split>.<src>``, ``<split>.<tgt>`` and ``<split>.images.txt`` (each possibly gzipped)."""
    if not data_dir.is_dir():
        raise InputError(data_dir, "data_dir is not a folder")
    suffixes = (src_lang, tgt_lang, "images.txt")
    paths = [existing_variant(data_dir / f"{split}.{suffix}") for suffix in suffixes]
    src, ref, images = read_parallel(paths)
    images = [name.strip() for name in images]
    for number, name in enumerate(images, start=1):
        if not name:
            raise InputError(paths[2], "empty image name", line=number)
    return ImageTextSet(list(range(1, len(images) + 1)), src, ref, images, paths[2], paths)


def read_jsonl(path: Path, src_field: str, ref_field: str, image_field: str) -> ImageTextSet:
    """One JSON object per line with source, reference and image fields (all strings)."""
    lines: list[int] = []
    columns: tuple[list[str], list[str], list[str]] = ([], [], [])
    fields = (src_field, ref_field, image_field)
    for number, record in iter_jsonl(path):
        require_fields(path, number, record, fields)
        for field, column in zip(fields, columns, strict=True):
            value = record[field]
            if not isinstance(value, str):
                message = f"field {field!r} must be a string, got {type(value).__name__}"
                raise InputError(path, message, line=number)
            column.append(value)
        if not columns[2][-1].strip():
            raise InputError(path, f"empty image name in field {image_field!r}", line=number)
        lines.append(number)
    if not lines:
        raise InputError(path, "no records")
    images = [name.strip() for name in columns[2]]
    return ImageTextSet(lines, columns[0], columns[1], images, path, [path])


def resolve_image_files(data: ImageTextSet, image_dir: Path) -> dict[str, Path]:
    """Map every image name to its file under ``image_dir``; names escaping the folder or missing fail.

    Absolute names are allowed only when they lie inside ``image_dir``.
    """
    if not image_dir.is_dir():
        raise InputError(image_dir, "image_dir is not a folder")
    root = resolve_input(image_dir)
    files: dict[str, Path] = {}
    for index, name in enumerate(data.images):
        if name in files:
            continue
        path = resolve_input(root / name)
        line = data.line_of(index)
        if not path.is_relative_to(root):
            raise InputError(data.image_list, f"image path {name!r} escapes the image folder {root}",
                             line=line)
        if not path.is_file():
            raise InputError(data.image_list, f"image file {name!r} not found in {root}", line=line)
        files[name] = path
    return files


def hash_images(files: dict[str, Path]) -> dict[str, str]:
    """sha256 of each image file, so that copies under different names count as the same content."""
    return {name: sha256_file(path) for name, path in files.items()}


def load_features(path: Path, data: ImageTextSet) -> np.ndarray:
    """A memory-mapped ``.npy`` float matrix with one row per example (any trailing shape)."""
    try:
        array = np.load(path, mmap_mode="r", allow_pickle=False)
    except FileNotFoundError:
        raise InputError(path, "file not found") from None
    except (ValueError, OSError) as err:
        raise InputError(path, f"not a readable .npy array ({err})") from None
    if not isinstance(array, np.ndarray) or array.ndim < 2:
        raise InputError(path, f"expected an array of shape (examples, ...), got shape {np.shape(array)}")
    if not np.issubdtype(array.dtype, np.floating):
        raise InputError(path, f"expected floating-point features, got dtype {array.dtype}")
    if array.shape[0] != len(data):
        raise InputError(
            path,
            f"has {array.shape[0]} rows but {data.image_list} has {len(data)} lines; "
            "one row per line is needed",
        )
    return array


def unit_embeddings(features: np.ndarray, path: Path, chunk_rows: int = 4096) -> np.ndarray:
    """L2-normalised float32 vectors: 2-D rows as they are, spatial features (n, ..., d) mean-pooled.

    Channels last, as the pooled/conv feature files of multimodal MT toolkits are stored. Rows of zeros
    stay zero (their cosine to anything is 0).
    """
    n = features.shape[0]
    dim = features.shape[-1]
    pooled = np.empty((n, dim), dtype=np.float32)
    middle_axes = tuple(range(1, features.ndim - 1))
    for start in range(0, n, chunk_rows):
        block = np.asarray(features[start : start + chunk_rows], dtype=np.float32)
        pooled[start : start + len(block)] = block.mean(axis=middle_axes) if middle_axes else block
    bad = np.flatnonzero(~np.isfinite(pooled).all(axis=1))
    if bad.size:
        raise InputError(path, f"row {int(bad[0]) + 1} has NaN or infinite values ({bad.size} rows in all)")
    norms = np.linalg.norm(pooled, axis=1, keepdims=True)
    np.divide(pooled, norms, out=pooled, where=norms > 0)
    return pooled
