"""Read back a built dataset folder: its info.json, its builder and its records."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from builders.core.builder import Builder
from builders.core.context import Row
from builders.core.errors import InputError, MtprobesError
from builders.core.registry import get_builder_class
from builders.core.writer import INFO_FILE


@dataclass
class BuiltDataset:
    path: Path
    info: dict[str, Any]
    builder: Builder[Any]

    @classmethod
    def open(cls, path: str | Path) -> BuiltDataset:
        path = Path(path)
        info_path = path / INFO_FILE
        if not info_path.is_file():
            raise MtprobesError(f"{path}: not a built dataset ({INFO_FILE} not found)")
        try:
            info = json.loads(info_path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as err:
            raise InputError(info_path, f"invalid JSON: {err.msg}", line=err.lineno) from None
        for key in ("builder", "config", "files", "records", "counts", "signature"):
            if key not in info:
                raise InputError(info_path, f"missing key {key!r}")
        builder_class = get_builder_class(info["builder"])
        config = builder_class.config_class.from_mapping(info["config"])
        return cls(path=path, info=info, builder=builder_class(config))

    def parquet_files(self) -> dict[str, list[Path]]:
        return {subset: [self.path / f for f in files] for subset, files in self.info["files"].items()}

    def read_rows(self) -> list[Row]:
        """All records, decoded with the builder's features, in file order."""
        features = self.builder.features()
        rows: list[Row] = []
        for subset, files in sorted(self.parquet_files().items()):
            for file in files:
                split = file.name.split("-")[0]
                if not file.is_file():
                    raise MtprobesError(f"{file}: listed in {INFO_FILE} but missing")
                table = read_parquet(file)
                for record in table.to_pylist():
                    rows.append(Row(split=split, record=features.decode_example(record), subset=subset))
        return rows


def read_parquet(file: Path) -> pa.Table:
    """One parquet file, or one clear error naming it when it is truncated or not parquet at all."""
    try:
        return pq.read_table(file)
    except (pa.ArrowException, OSError) as err:
        raise InputError(file, f"cannot read parquet ({_first_line(err)}); the file is truncated or damaged") from None


def read_parquet_schema(file: Path) -> pa.Schema:
    try:
        return pq.read_schema(file)
    except (pa.ArrowException, OSError) as err:
        raise InputError(file, f"cannot read parquet ({_first_line(err)}); the file is truncated or damaged") from None


def _first_line(err: Exception) -> str:
    return (str(err).strip().splitlines() or [type(err).__name__])[0]


def read_dropped(path: Path) -> list[dict[str, Any]]:
    """The dropped candidates of a built dataset (dropped.jsonl), in the order the build dropped them."""
    from builders.core.writer_paths import DROPPED_FILE

    file = path / DROPPED_FILE
    if not file.is_file():
        raise MtprobesError(f"{path}: no {DROPPED_FILE} (built by an older mtprobes: rebuild to list the drops)")
    entries = []
    for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), 1):
        try:
            entries.append(json.loads(line))
        except json.JSONDecodeError as err:
            raise InputError(file, f"invalid JSON: {err.msg}", line=number) from None
    return entries
