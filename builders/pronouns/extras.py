"""ContraPro-compatible files: ``contrapro.json`` and the ``text.{en,de}`` / ``context.{en,de}`` export that
ContraPro's ``json2text_and_context`` produces, ``.fr`` for the EN->FR pack (reference line first, then one
line per contrastive variant; each line has its n preceding segments as context, an empty line when there are
none)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any, TextIO

from builders.core.atomic import atomic_text

CONTRAPRO_FIELDS = (
    "document id",
    "segment id",
    "corpus",
    "src segment",
    "ref segment",
    "src pronoun",
    "ref pronoun",
    "ante distance",
    "intrasegmental",
    "src ante head",
    "src ante head lemma",
    "src ante head pos",
    "src ante head morpho",
    "src ante head id",
    "src ante phrase",
    "ref ante head",
    "ref ante head lemma",
    "ref ante head pos",
    "ref ante head morpho",
    "ref ante head id",
    "ref ante phrase",
    "ref ante head gender",
    "errors",
)


def contrapro_json(records: Iterable[dict[str, Any]]) -> str:
    return "".join(_contrapro_pieces(records))


def _contrapro_pieces(records: Iterable[dict[str, Any]]) -> Iterator[str]:
    """``json.dumps(items, ensure_ascii=False, indent=1) + "\\n"`` in pieces, one item at a time: an item is
    dumped alone and indented one level (its strings hold no raw line break, JSON escapes them)."""
    opening = "[\n"
    for record in records:
        item = json.dumps({name: record[name] for name in CONTRAPRO_FIELDS}, ensure_ascii=False, indent=1)
        yield opening + " " + item.replace("\n", "\n ")
        opening = ",\n"
    yield "]\n" if opening == "[\n" else "\n]\n"


def _context(lines: Sequence[str], n: int) -> str:
    return " ".join(lines[len(lines) - n :]) if n > 0 and lines else ""


def _export_names(target: str) -> tuple[str, ...]:
    return ("text.en", f"text.{target}", "context.en", f"context.{target}")


def _export_lines(record: dict[str, Any], n_context: int, target: str) -> Iterator[tuple[str, str]]:
    """A record's block: (file, line) for the reference and then each contrastive variant."""
    for line in [record["ref segment"]] + [error["contrastive"] for error in record["errors"]]:
        yield "text.en", record["src segment"]
        yield f"text.{target}", line
        yield "context.en", _context(record["src context"], n_context)
        yield f"context.{target}", _context(record["ref context"], n_context)


def text_and_context(records: Iterable[dict[str, Any]], n_context: int, target: str = "de") -> dict[str, str]:
    """The four files' contents: one block of (1 + number of variants) lines per record."""
    columns: dict[str, list[str]] = {name: [] for name in _export_names(target)}
    for record in records:
        for name, line in _export_lines(record, n_context, target):
            columns[name].append(line)
    return {name: "".join(f"{line}\n" for line in lines) for name, lines in columns.items()}


def write_exports(
    records: Iterable[dict[str, Any]], out_dir: Path, n_context: int, target: str = "de"
) -> list[str]:
    """contrapro.json and export/*, in one pass over the records (every file open at once)."""
    names = _export_names(target)
    with ExitStack() as stack:
        contrapro = stack.enter_context(atomic_text(out_dir / "contrapro.json"))
        exports = {name: stack.enter_context(atomic_text(out_dir / "export" / name)) for name in names}
        pieces = _contrapro_pieces(_exporting(records, exports, n_context, target))
        contrapro.writelines(pieces)
    return ["contrapro.json", *(f"export/{name}" for name in names)]


def _exporting(records: Iterable[dict[str, Any]], exports: dict[str, TextIO], n_context: int,
               target: str) -> Iterator[dict[str, Any]]:
    """The records, each written to the export files as it passes on its way to contrapro.json."""
    for record in records:
        for name, line in _export_lines(record, n_context, target):
            exports[name].write(f"{line}\n")
        yield record


def export_dataset(dataset_dir: Path, out_dir: Path, n_context: int) -> list[Path]:
    """Export from a built dataset; n may not exceed the context stored in its records."""
    from builders.core.dataset_dir import BuiltDataset
    from builders.core.errors import MtprobesError

    dataset = BuiltDataset.open(dataset_dir)
    if dataset.info["builder"] != "pronouns.v1":
        raise MtprobesError(f"{dataset_dir}: built by {dataset.info['builder']}, not pronouns.v1")
    stored = int(dataset.info["config"].get("context_stored", 0))
    if not 0 <= n_context <= stored:
        raise MtprobesError(f"--context {n_context}: the records store at most {stored} preceding segments")
    records = [row.record for row in dataset.read_rows()]
    target = str(dataset.info["config"].get("tgt_lang", "de"))
    return [out_dir / name for name in write_exports(records, out_dir, n_context, target)]


def export_problems(
    folder: Path, extras: Sequence[str], records: Sequence[dict[str, Any]], n_context: int, target: str = "de"
) -> list[str]:
    """contrapro.json and export/* re-derived from the records must equal the files (e.g. a reference
    replaced by one of its contrastive variants is caught, naming the file and the first differing line)."""
    from builders.core.hashes import expected_text_problems

    expected = {"contrapro.json": contrapro_json(records)}
    expected.update(
        {f"export/{name}": text for name, text in text_and_context(records, n_context, target).items()}
    )
    return expected_text_problems(folder, list(extras), expected)
