"""Read back a built dataset folder: its info.json, its builder and its records."""

from __future__ import annotations

import json
from collections.abc import Callable
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
        check_info_shape(info_path, info)
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


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _is_mapping_of(value: Any, check: Callable[[Any], bool]) -> bool:
    return isinstance(value, dict) and all(isinstance(k, str) and check(v) for k, v in value.items())


# What validate, inspect and publish read from info.json, with what each key must hold: an edited file
# ("records": null) is one error naming the key instead of a TypeError deep inside a command.
INFO_SHAPE: dict[str, tuple[str, Callable[[Any], bool]]] = {
    "builder": ("a builder name", lambda v: isinstance(v, str)),
    "config": ("a mapping of config keys", lambda v: _is_mapping_of(v, lambda _: True)),
    "files": ("a mapping of subset to a list of files",
              lambda v: _is_mapping_of(v, lambda f: isinstance(f, list) and all(isinstance(n, str) for n in f))),
    "records": ("a mapping of subset to {split: count}",
                lambda v: _is_mapping_of(v, lambda splits: _is_mapping_of(splits, _is_count))),
    "counts": ("a mapping of counts", lambda v: isinstance(v, dict)),
    "signature": ("a signature string", lambda v: isinstance(v, str)),
}


def check_info_shape(info_path: Path, info: Any) -> None:
    if not isinstance(info, dict):
        raise InputError(info_path, f"expected a JSON object, got {type(info).__name__}")
    for key, (meaning, holds) in INFO_SHAPE.items():
        if key not in info:
            raise InputError(info_path, f"missing key {key!r}")
        if not holds(info[key]):
            raise InputError(info_path, f"key {key!r} must be {meaning}, got {json.dumps(info[key])[:80]}")


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
