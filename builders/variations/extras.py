"""The authors' plain-text layout beside the dataset, written from the final rows."""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path
from typing import TextIO

from builders.core.atomic import atomic_text
from builders.core.row_store import RowSet
from builders.variations.config import VariationsConfig
from builders.variations.strategies import PLAIN_SUFFIX


def write_plain(rows: RowSet, config: VariationsConfig, out_dir: Path) -> list[str]:
    """``plain/<prefix>.<num|adv|prn|ins>.<en|de>`` (varied) with ``.orig.<lang>`` originals and ``.ids`` record
    ids, all line-aligned with each other: written in one pass over the rows, every file open at once."""
    columns = _plain_columns(config)
    with ExitStack() as stack:
        handles = {relative: stack.enter_context(atomic_text(out_dir / relative)) for relative in columns}
        per_type: dict[str, list[tuple[TextIO, str]]] = {}
        for relative, (type_name, field) in columns.items():
            per_type.setdefault(type_name, []).append((handles[relative], field))
        for row in rows:
            for handle, field in per_type.get(row.record["type"], ()):
                handle.write(row.record[field] + "\n")
    return list(columns)


def _plain_columns(config: VariationsConfig) -> dict[str, tuple[str, str]]:
    """Each plain file (in the order they are listed) -> the variation type and record field of its lines."""
    prefix = config.plain_prefix
    src_lang, ref_lang = config.direction.split("-")
    columns: dict[str, tuple[str, str]] = {}
    for type_name in config.types:
        stem = f"plain/{prefix}.{PLAIN_SUFFIX[type_name]}"
        fields = {f"{stem}.{src_lang}": "varied_src", f"{stem}.{ref_lang}": "varied_ref",
                  f"{stem}.orig.{src_lang}": "original_src", f"{stem}.orig.{ref_lang}": "original_ref",
                  f"{stem}.ids": "id"}
        columns.update({relative: (type_name, field) for relative, field in fields.items()})
    return columns


def plain_files(rows: RowSet, config: VariationsConfig) -> dict[str, str]:
    """The plain files' contents, from the records (what `mtprobes validate` compares them with)."""
    return {relative: "".join(row.record[field] + "\n" for row in rows if row.record["type"] == type_name)
            for relative, (type_name, field) in _plain_columns(config).items()}
