"""ContraPro-compatible files: ``contrapro.json`` and the ``text.{en,de}`` / ``context.{en,de}`` export that
ContraPro's ``json2text_and_context`` produces, ``.fr`` for the EN->FR pack (reference line first, then one
line per contrastive variant; each line has its n preceding segments as context, an empty line when there are
none)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from builders.core.atomic import write_text

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


def contrapro_json(records: Sequence[dict[str, Any]]) -> str:
    items = [{name: record[name] for name in CONTRAPRO_FIELDS} for record in records]
    return json.dumps(items, ensure_ascii=False, indent=1) + "\n"


def _context(lines: Sequence[str], n: int) -> str:
    return " ".join(lines[len(lines) - n :]) if n > 0 and lines else ""


def text_and_context(records: Sequence[dict[str, Any]], n_context: int, target: str = "de") -> dict[str, str]:
    """The four files' contents: one block of (1 + number of variants) lines per record."""
    columns: dict[str, list[str]] = {"text.en": [], "text.de": [], "context.en": [], "context.de": []}
    if target != "de":
        columns = {name.replace(".de", f".{target}"): lines for name, lines in columns.items()}
    for record in records:
        german = [record["ref segment"]] + [error["contrastive"] for error in record["errors"]]
        for line in german:
            columns["text.en"].append(record["src segment"])
            columns[f"text.{target}"].append(line)
            columns["context.en"].append(_context(record["src context"], n_context))
            columns[f"context.{target}"].append(_context(record["ref context"], n_context))
    return {name: "".join(f"{line}\n" for line in lines) for name, lines in columns.items()}


def write_exports(
    records: Sequence[dict[str, Any]], out_dir: Path, n_context: int, target: str = "de"
) -> list[str]:
    written = ["contrapro.json"]
    write_text(out_dir / "contrapro.json", contrapro_json(records))
    for name, content in text_and_context(records, n_context, target).items():
        write_text(out_dir / "export" / name, content)
        written.append(f"export/{name}")
    return written


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
