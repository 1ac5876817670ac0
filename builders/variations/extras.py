"""The authors' plain-text layout beside the dataset, written from the final rows."""

from __future__ import annotations

from pathlib import Path

from builders.core.atomic import write_text
from builders.core.context import Row
from builders.variations.config import VariationsConfig
from builders.variations.strategies import PLAIN_SUFFIX


def write_plain(rows: list[Row], config: VariationsConfig, out_dir: Path) -> list[str]:
    """``plain/<prefix>.<num|adv|prn|ins>.<en|de>`` (varied) with ``.orig.<lang>`` originals and ``.ids`` record
    ids, all line-aligned with each other."""
    written: list[str] = []
    for relative, text in plain_files(rows, config).items():
        write_text(out_dir / relative, text)
        written.append(relative)
    return written


def plain_files(rows: list[Row], config: VariationsConfig) -> dict[str, str]:
    """The plain files' contents, from the records (also what `mtprobes validate` compares them with)."""
    prefix = config.plain_prefix
    src_lang, ref_lang = config.direction.split("-")
    contents: dict[str, str] = {}
    for type_name in config.types:
        records = [r.record for r in rows if r.record["type"] == type_name]
        stem = f"plain/{prefix}.{PLAIN_SUFFIX[type_name]}"
        files = {
            f"{stem}.{src_lang}": [r["varied_src"] for r in records],
            f"{stem}.{ref_lang}": [r["varied_ref"] for r in records],
            f"{stem}.orig.{src_lang}": [r["original_src"] for r in records],
            f"{stem}.orig.{ref_lang}": [r["original_ref"] for r in records],
            f"{stem}.ids": [r["id"] for r in records],
        }
        contents.update({relative: "".join(line + "\n" for line in lines) for relative, lines in files.items()})
    return contents
