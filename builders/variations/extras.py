"""The authors' plain-text layout beside the dataset, written from the final rows."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

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
        for relative, line in _plain_lines(rows, columns):
            handles[relative].write(line)
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


def _plain_lines(rows: RowSet, columns: dict[str, tuple[str, str]]) -> Iterator[tuple[str, str]]:
    """(plain file, line) for every record, in one pass over the rows: a record's type picks its files."""
    per_type: dict[str, list[tuple[str, str]]] = {}
    for relative, (type_name, field) in columns.items():
        per_type.setdefault(type_name, []).append((relative, field))
    for row in rows:
        for relative, field in per_type.get(row.record["type"], ()):
            yield relative, row.record[field] + "\n"


def plain_files(rows: RowSet, config: VariationsConfig) -> dict[str, str]:
    """The plain files' contents, from the records (what `mtprobes validate` compares them with)."""
    columns = _plain_columns(config)
    lines: dict[str, list[str]] = {relative: [] for relative in columns}
    for relative, line in _plain_lines(rows, columns):
        lines[relative].append(line)
    return {relative: "".join(parts) for relative, parts in lines.items()}
