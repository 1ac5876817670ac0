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


@pytest.mark.parametrize(("lengths", "named"), [
    ((3, 3, 2), "c.tsv:2"),  # the error named a.en, the one file of the three that was whole
    ((2, 3, 3), "a.en:2"),
    ((3, 1, 3), "b.de:1"),
])
@pytest.mark.parametrize("reader", ["read_parallel", "iter_parallel"])
def test_parallel_length_error_names_the_file_that_ends_first(tmp_path: Path, lengths: tuple[int, ...], named: str,
                                                              reader: str) -> None:
    from builders.core import textio

    paths = [tmp_path / name for name in ("a.en", "b.de", "c.tsv")]
    for path, length in zip(paths, lengths, strict=True):
        path.write_text("".join(f"{n}\n" for n in range(length)))
    with pytest.raises(InputError, match=rf"^\S*{named}: line-aligned files differ in length, this one ends first: "
                                         rf"\S*a\.en has {lengths[0]} lines, \S*b\.de has {lengths[1]} lines"):
        list(getattr(textio, reader)(paths))


@pytest.mark.parametrize(
    ("content", "message"),
    [('{"a": 1}\n{oops\n', r"x.jsonl:2: invalid JSON"), ('{"a": 1}\n[1, 2]\n', r"x.jsonl:2: expected a JSON object")],
)
def test_jsonl_errors_name_the_line(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "x.jsonl"
    path.write_text(content)
    with pytest.raises(InputError, match=message):
        list(iter_jsonl(path))


ODD_FILES = {
    "plain": b"x\ny\n", "no final newline": b"x\ny", "bom crlf nul blank": b"\xef\xbb\xbfx\r\ny\x00z\n\n",
    "empty": b"", "lone bom": b"\xef\xbb\xbf", "one blank line": b"\n", "bad utf-8": b"ok\nbad\xff\n",
    "u2028": "\u00e4\u2028b\n".encode(),
}


@pytest.mark.parametrize("name", sorted(ODD_FILES))
@pytest.mark.parametrize("suffix", ["", ".gz"])
def test_streamed_lines_are_read_lines(tmp_path: Path, name: str, suffix: str) -> None:
    """Issue 26: iter_lines reads a file a line at a time with read_lines' lines and errors."""
    from builders.core.textio import iter_lines

    data = ODD_FILES[name]
    path = tmp_path / f"f{suffix}"
    path.write_bytes(gzip.compress(data) if suffix else data)

    def outcome(read: object) -> object:
        try:
            return read(path)  # type: ignore[operator]
        except InputError as error:
            return str(error)

    assert outcome(lambda p: list(iter_lines(p))) == outcome(read_lines)


def test_streamed_parallel_files_of_different_lengths(tmp_path: Path) -> None:
    from builders.core.textio import iter_parallel

    short, long = tmp_path / "a.en", tmp_path / "b.de"
    short.write_text("1\n2\n")
    long.write_text("1\n2\n3\n4\n")
    assert list(iter_parallel([short, short])) == [("1", "1"), ("2", "2")]
    with pytest.raises(InputError, match="a.en has 2 lines, .*b.de has 4 lines"):
        list(iter_parallel([short, long]))
    with pytest.raises(InputError, match="b.de has 4 lines, .*a.en has 2 lines"):
        list(iter_parallel([long, short]))
