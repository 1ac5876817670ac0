from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from builders.core.errors import InputError
from builders.core.textio import iter_jsonl, read_lines, read_parallel


def test_missing_and_empty_files(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="nope.en: file not found"):
        read_lines(tmp_path / "nope.en")
    empty = tmp_path / "empty.en"
    empty.write_text("")
    with pytest.raises(InputError, match="empty.en: file is empty"):
        read_lines(empty)


def test_invalid_utf8_names_line_and_byte(tmp_path: Path) -> None:
    path = tmp_path / "bad.de"
    path.write_bytes("eins\nzwei\ndr\xe4i\n".encode("latin-1"))
    with pytest.raises(InputError, match=r"bad.de:3 \(byte 12\): invalid UTF-8"):
        read_lines(path)


def test_gzip_crlf_and_bom(tmp_path: Path) -> None:
    path = tmp_path / "x.en.gz"
    path.write_bytes(gzip.compress("\ufeffa b\r\nc\r\n".encode()))
    assert read_lines(path) == ["a b", "c"]


def test_parallel_files_must_have_equal_length(tmp_path: Path) -> None:
    (tmp_path / "a.en").write_text("1\n2\n3\n")
    (tmp_path / "a.de").write_text("1\n2\n")
    with pytest.raises(InputError, match=r"a.en has 3 lines, .*a.de has 2 lines"):
        read_parallel([tmp_path / "a.en", tmp_path / "a.de"])


@pytest.mark.parametrize(
    ("content", "message"),
    [('{"a": 1}\n{oops\n', r"x.jsonl:2: invalid JSON"), ('{"a": 1}\n[1, 2]\n', r"x.jsonl:2: expected a JSON object")],
)
def test_jsonl_errors_name_the_line(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "x.jsonl"
    path.write_text(content)
    with pytest.raises(InputError, match=message):
        list(iter_jsonl(path))
