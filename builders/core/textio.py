"""Strict readers for line-aligned text, JSONL and gzip files.

Every reader fails with one error naming the file and the line (or byte offset for bad UTF-8);
none of them silently skips anything.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from builders.core.errors import InputError


def _open_bytes(path: Path) -> bytes:
    if not path.exists():
        raise InputError(path, "file not found")
    if path.is_dir():
        raise InputError(path, "is a directory, expected a file")
    data = path.read_bytes()
    if path.suffix == ".gz":
        data = gzip.decompress(data)
    return data


def decode_utf8(path: Path, data: bytes) -> str:
    """Decode UTF-8 (a BOM is dropped) or raise naming the byte offset and line of the first bad byte."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        raise InputError(
            path, f"invalid UTF-8 ({err.reason}); convert the file to UTF-8", line=line, byte_offset=err.start
        ) from None
    return text.removeprefix("\ufeff")


def read_lines(path: str | Path, *, allow_empty_file: bool = False) -> list[str]:
    """All lines of a UTF-8 text file (``.gz`` accepted) without their line endings."""
    path = Path(path)
    text = decode_utf8(path, _open_bytes(path))
    if not text and not allow_empty_file:
        raise InputError(path, "file is empty")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.removesuffix("\r") for line in lines]


def read_parallel(paths: Sequence[str | Path]) -> list[list[str]]:
    """Read line-aligned files; all must have the same number of lines (error gives every count)."""
    columns = [read_lines(p) for p in paths]
    counts = {str(p): len(c) for p, c in zip(paths, columns, strict=True)}
    if len(set(counts.values())) > 1:
        listing = ", ".join(f"{p} has {n} lines" for p, n in counts.items())
        raise InputError(paths[0], f"line-aligned files differ in length: {listing}")
    return columns


def iter_jsonl(path: str | Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield (line number, object) for each non-blank line; bad JSON names the line."""
    path = Path(path)
    for number, line in enumerate(read_lines(path), start=1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as err:
            raise InputError(path, f"invalid JSON: {err.msg} (column {err.colno})", line=number) from None
        if not isinstance(value, dict):
            raise InputError(path, f"expected a JSON object, got {type(value).__name__}", line=number)
        yield number, value


def require_fields(path: str | Path, line: int, record: dict[str, Any], fields: Sequence[str]) -> None:
    missing = [f for f in fields if f not in record]
    if missing:
        raise InputError(path, f"missing field(s) {', '.join(map(repr, missing))}", line=line)
