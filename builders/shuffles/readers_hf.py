"""Reader for Hugging Face datasets saved with ``save_to_disk``: text columns and an image column.

The image column may hold file names (strings, resolved against ``image_dir`` like Multi30K) or be an
``Image`` feature; embedded image bytes are then the content (hashed) and feed the pixel mixup directly.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from builders.core.errors import InputError
from builders.core.textio import clean_strings
from builders.shuffles.readers import ImageTextSet


def _load_split(path: Path, split: str) -> Any:
    import datasets

    if not path.is_dir():
        raise InputError(path, "not a folder written by datasets.save_to_disk")
    try:
        loaded = datasets.load_from_disk(str(path))
    except (FileNotFoundError, ValueError) as err:
        raise InputError(path, f"cannot load with datasets.load_from_disk ({err})") from None
    if isinstance(loaded, datasets.DatasetDict):
        if split not in loaded:
            raise InputError(path, f"split {split!r} not found; splits: {sorted(loaded)}")
        return loaded[split]
    return loaded


def _image_name(value: Any, row: int, path: Path, column: str) -> tuple[str, bytes | None]:
    """(name, embedded bytes) of one image cell: a string name or an Image-feature dict."""
    if isinstance(value, str) and value.strip():
        return value.strip(), None
    if isinstance(value, dict):
        data, name = value.get("bytes"), value.get("path")
        if data:
            return (name or f"row-{row:06d}"), bytes(data)
        if name:
            return str(name), None
    raise InputError(path, f"column {column!r}: no image name or bytes in row {row}", line=row)


def read_hf(path: Path, split: str, src_field: str, ref_field: str, image_field: str) -> ImageTextSet:
    """Rows of one split; ``line`` numbers are 1-based row numbers."""
    import datasets

    dataset = _load_split(path, split)
    missing = [c for c in (src_field, ref_field, image_field) if c not in dataset.column_names]
    if missing:
        raise InputError(path, f"column(s) {missing} not found; columns: {dataset.column_names}")
    if isinstance(dataset.features[image_field], datasets.Image):
        dataset = dataset.cast_column(image_field, datasets.Image(decode=False))
    if len(dataset) == 0:
        raise InputError(path, f"split {split!r} has no rows")
    columns: dict[str, list[str]] = {src_field: [], ref_field: []}
    images: list[str] = []
    embedded: list[bytes | None] = []
    for row, record in enumerate(dataset, start=1):
        for field, column in columns.items():
            if not isinstance(record[field], str):
                raise InputError(path, f"column {field!r} must hold strings (row {row})", line=row)
            column.append(record[field])
        name, data = _image_name(record[image_field], row, path, image_field)
        images.append(name)
        embedded.append(data)
    return ImageTextSet(
        lines=list(range(1, len(images) + 1)),
        src=clean_strings(path, columns[src_field]),
        ref=clean_strings(path, columns[ref_field]),
        images=images,
        image_list=path,
        inputs=sorted(p for p in path.rglob("*") if p.is_file()),
        embedded=_all_or_none(embedded, path, image_field),
    )


def _all_or_none(embedded: list[bytes | None], path: Path, column: str) -> list[bytes] | None:
    if all(data is None for data in embedded):
        return None
    without = [row for row, data in enumerate(embedded, start=1) if data is None]
    if without:
        raise InputError(
            path, f"column {column!r}: row {without[0]} has no image bytes while others do", line=without[0]
        )
    return [data for data in embedded if data is not None]
