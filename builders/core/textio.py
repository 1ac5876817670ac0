"""Strict readers for line-aligned text, JSONL and gzip files.

Every reader fails with one error naming the file and the line (or byte offset for bad UTF-8);
none of them silently skips anything.
"""

from __future__ import annotations

import errno
import gzip
import json
import logging
import re
import zlib
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from builders.core.errors import InputError
from builders.core.paths import NOT_REGULAR

log = logging.getLogger("mtprobes")

# Characters that str.splitlines() (and many tools) treat as line breaks, or that corrupt text tools (NUL).
# Inside a line they would shift every later line of a line-aligned output: each becomes one space, counted.
LINE_BREAKING = "\x00\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
_LINE_BREAKING_RE = re.compile(f"[{re.escape(LINE_BREAKING)}]")
_normalised: ContextVar[Counter[str] | None] = ContextVar("mtprobes_normalised", default=None)


@contextmanager
def counting_normalised() -> Iterator[Counter[str]]:
    """Collect, per file, how many line-breaking characters the readers replaced while the block runs."""
    counter: Counter[str] = Counter()
    token = _normalised.set(counter)
    try:
        yield counter
    finally:
        _normalised.reset(token)


def _unreadable(path: Path, err: OSError) -> InputError:
    """The one error for a path the OS will not open: a link loop, a missing file, or the OS's reason."""
    if err.errno == errno.ELOOP:
        return InputError(path, "symbolic link loop")
    if err.errno == errno.ENOENT:
        return InputError(path, "file not found")
    return InputError(path, f"cannot read ({err.strerror})")


def _read_raw(path: Path) -> bytes:
    if path.exists() and not path.is_file() and not path.is_dir():
        raise InputError(path, NOT_REGULAR)
    try:
        return path.read_bytes()
    except OSError as err:
        raise _unreadable(path, err) from None


GZIP_ERRORS = (gzip.BadGzipFile, EOFError, zlib.error)


def _gzip_error(path: Path, err: Exception) -> InputError:
    """The one-line error for damaged gzip input, whether it was read whole or streamed."""
    if isinstance(err, gzip.BadGzipFile):
        return InputError(path, "not a gzip file (the name ends in .gz); decompress it or rename it")
    if isinstance(err, EOFError):
        return InputError(path, "truncated gzip file (ends before the end of the compressed stream)")
    return InputError(path, f"corrupt gzip data ({err})")


def _gunzip(path: Path, data: bytes) -> bytes:
    try:
        return gzip.decompress(data)
    except GZIP_ERRORS as err:
        raise _gzip_error(path, err) from None


def _open_bytes(path: Path) -> bytes:
    if path.is_dir():
        raise InputError(path, "is a directory, expected a file")
    data = _read_raw(path)
    return _gunzip(path, data) if path.suffix == ".gz" else data


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
    if "\n" not in text and "\r" in text.rstrip("\r"):
        raise _cr_line_ends(path)
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return _normalise_breaks(path, [line.removesuffix("\r") for line in lines])


def _cr_line_ends(path: Path) -> InputError:
    """A file with no LF and CRs inside: its lines end in CR alone. Read as one line, its CRs became spaces and the
    whole file one segment (variations built a set of it; pronouns blamed a missing <d> header)."""
    return InputError(path, "the lines end in CR alone (classic Mac OS line ends), so the file reads as one line; "
                            "convert them to LF (\\n), e.g. with tr '\\r' '\\n'", line=1)


def _normalise_breaks(path: Path, lines: list[str]) -> list[str]:
    """Replace NUL, lone CR, U+2028 and the other in-line breaks by a space; warn once with the count."""
    replaced = 0
    first_line = 0
    for index, line in enumerate(lines):
        cleaned, n = _LINE_BREAKING_RE.subn(" ", line)
        if n:
            lines[index] = cleaned
            replaced += n
            first_line = first_line or index + 1
    _report_normalised(path, first_line, replaced)
    return lines


def _report_normalised(path: Path, first_line: int, replaced: int) -> None:
    if replaced:
        log.warning("%s:%d: replaced %d NUL/CR/U+2028-like character(s) inside lines by spaces (first here)",
                    path, first_line, replaced)
        counter = _normalised.get()
        if counter is not None:
            counter[str(path)] += replaced


# In a JSON string a newline is an escape ("\n"), legal JSON, but it splits a line-aligned output all the same.
_JSON_BREAKING_RE = re.compile(f"[{re.escape(LINE_BREAKING)}\n]")


def clean_strings(path: Path, values: list[str]) -> list[str]:
    """Strings from a table input (one per row): line breaks become spaces, counted like those of text files."""
    cleaned = [_JSON_BREAKING_RE.subn(" ", value) for value in values]
    first_row = next((row for row, (_, n) in enumerate(cleaned, start=1) if n), 0)
    _report_normalised(path, first_row, sum(n for _, n in cleaned))
    return [value for value, _ in cleaned]


def _clean_json(value: Any) -> tuple[Any, int]:
    """Every string inside a parsed JSON value with its line breaks replaced by a space, and how many."""
    if isinstance(value, str):
        return _JSON_BREAKING_RE.subn(" ", value)
    if isinstance(value, list):
        cleaned = [_clean_json(v) for v in value]
        return [v for v, _ in cleaned], sum(n for _, n in cleaned)
    if isinstance(value, dict):
        items = {k: _clean_json(v) for k, v in value.items()}
        return {k: v for k, (v, _) in items.items()}, sum(n for _, n in items.values())
    return value, 0


def read_parallel(paths: Sequence[str | Path]) -> list[list[str]]:
    """Read line-aligned files; all must have the same number of lines (error gives every count)."""
    columns = [read_lines(p) for p in paths]
    counts = [len(c) for c in columns]
    if len(set(counts)) > 1:
        raise _length_error(paths, counts)
    return columns


def _length_error(paths: Sequence[str | Path], counts: Sequence[int]) -> InputError:
    """Named by the file that ends first, at its last line (the first file was named, even when it was the
    one whole file beside two short ones)."""
    listing = ", ".join(f"{p} has {n} lines" for p, n in zip(paths, counts, strict=True))
    shortest = min(range(len(paths)), key=counts.__getitem__)
    return InputError(paths[shortest], f"line-aligned files differ in length, this one ends first: {listing}",
                      line=counts[shortest])


def iter_lines(path: str | Path, *, report: bool = True) -> Iterator[str]:
    """The lines of ``read_lines``, one at a time (the file is never held whole: issue 26), with the same errors
    (bad UTF-8 names its line and byte offset) and the same line-break normalisation. ``report=False``: the
    replaced characters are neither warned about nor counted (a first pass over a file that is read again)."""
    path = Path(path)
    if path.is_dir():
        raise InputError(path, "is a directory, expected a file")
    _read_raw_check(path)
    replaced, first_line, number, offset = 0, 0, 0, 0
    with _open_stream(path) as handle:
        for raw in _gzip_errors_named(path, handle):
            text = _decode_line(path, raw, number + 1, offset)
            text = text.removeprefix("\ufeff") if number == 0 else text
            offset += len(raw)
            if number == 0 and not text and not raw.endswith(b"\n"):
                break  # a lone byte-order mark: the file is empty, as read_lines sees it
            if number == 0 and not raw.endswith(b"\n") and b"\r" in raw.rstrip(b"\r"):
                raise _cr_line_ends(path)
            number += 1
            cleaned, n = _LINE_BREAKING_RE.subn(" ", text.removesuffix("\n").removesuffix("\r"))
            replaced += n
            first_line = first_line or (number if n else 0)
            yield cleaned
    if number == 0:
        raise InputError(path, "file is empty")
    _report_normalised(path, first_line, replaced if report else 0)


def _read_raw_check(path: Path) -> None:
    """read_lines' errors for a path that cannot be opened (not a regular file, missing, a link loop)."""
    if path.exists() and not path.is_file():
        raise InputError(path, NOT_REGULAR)
    try:
        path.open("rb").close()
    except OSError as err:
        raise _unreadable(path, err) from None


def _open_stream(path: Path) -> Any:
    return gzip.open(path, "rb") if path.suffix == ".gz" else path.open("rb")


def _gzip_errors_named(path: Path, handle: Any) -> Iterator[bytes]:
    """The raw lines of ``handle``; gzip's errors become _gunzip's one-line errors."""
    try:
        yield from handle
    except GZIP_ERRORS as err:
        raise _gzip_error(path, err) from None


def _decode_line(path: Path, raw: bytes, number: int, offset: int) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise InputError(path, f"invalid UTF-8 ({err.reason}); convert the file to UTF-8", line=number,
                         byte_offset=offset + err.start) from None


def iter_parallel(paths: Sequence[str | Path]) -> Iterator[tuple[str, ...]]:
    """The lines of line-aligned files together, one tuple at a time (``read_parallel`` without holding the
    files); files of different lengths end it with read_parallel's error, once the longer ones are counted."""
    streams = [iter_lines(p) for p in paths]
    rows = 0
    while True:
        row = [next(stream, None) for stream in streams]
        if all(line is None for line in row):
            return
        if any(line is None for line in row):
            counts = [rows + (line is not None) + sum(1 for _ in stream)
                      for line, stream in zip(row, streams, strict=True)]
            raise _length_error(paths, counts)
        rows += 1
        yield tuple(line for line in row if line is not None)


def iter_jsonl(path: str | Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield (line number, object) for each non-blank line; bad JSON names the line."""
    path = Path(path)
    replaced, first_line = 0, 0
    for number, line in enumerate(read_lines(path), start=1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as err:
            raise InputError(path, f"invalid JSON: {err.msg} (column {err.colno})", line=number) from None
        if not isinstance(value, dict):
            raise InputError(path, f"expected a JSON object, got {type(value).__name__}", line=number)
        value, n = _clean_json(value)
        replaced += n
        first_line = first_line or (number if n else 0)
        yield number, value
    _report_normalised(path, first_line, replaced)


def require_fields(path: str | Path, line: int, record: dict[str, Any], fields: Sequence[str]) -> None:
    missing = [f for f in fields if f not in record]
    if missing:
        raise InputError(path, f"missing field(s) {', '.join(map(repr, missing))}", line=line)
