"""Read a CoMMuTE folder (``src.en``, ``correct.xx``, ``incorrect.xx``, ``img.order``) and its captions file.

CoMMuTE lists each ambiguous source twice on consecutive lines, once per image, with the correct and the
incorrect translation swapped. A captions file gives one unambiguous caption per line (per translation).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path

from builders.core.errors import InputError
from builders.core.paths import resolve_input
from builders.core.textio import decode_utf8, read_lines, read_parallel

CAPTION_COLUMNS = ("line", "source", "translation", "contrast", "image", "caption")


@dataclass(frozen=True)
class CommuteLine:
    line: int  # 1-based line number in the CoMMuTE files
    source: str
    correct: str
    incorrect: str
    image: str  # the img.order entry, relative to the image root


@dataclass(frozen=True)
class CommuteGroup:
    """One ambiguous source: two lines whose correct translations contrast with each other."""

    index: int
    lines: tuple[CommuteLine, CommuteLine]

    @property
    def exact_swap(self) -> bool:
        first, second = self.lines
        return first.correct == second.incorrect and second.correct == first.incorrect


def commute_files(directory: Path, lang: str) -> dict[str, Path]:
    return {
        "src": directory / "src.en",
        "correct": directory / f"correct.{lang}",
        "incorrect": directory / f"incorrect.{lang}",
        "order": directory / "img.order",
    }


def read_commute(directory: str | Path, lang: str) -> list[CommuteLine]:
    """All CoMMuTE lines; the four files must exist and be line-aligned (the error gives every count)."""
    directory = Path(directory)
    if not directory.is_dir():
        raise InputError(directory, "CoMMuTE folder not found")
    files = commute_files(directory, lang)
    columns = read_parallel([files["src"], files["correct"], files["incorrect"], files["order"]])
    return [
        CommuteLine(number, src, cor, inc, image.strip())
        for number, (src, cor, inc, image) in enumerate(zip(*columns, strict=True), start=1)
    ]


def group_pairs(lines: list[CommuteLine], src_path: Path) -> list[CommuteGroup]:
    """Pair consecutive lines; both lines of a pair must have the same source sentence."""
    if len(lines) % 2:
        raise InputError(src_path, f"CoMMuTE needs two lines per ambiguous source, got {len(lines)} lines (odd)")
    groups = []
    for index in range(0, len(lines), 2):
        first, second = lines[index], lines[index + 1]
        if first.source != second.source:
            raise InputError(
                src_path, f"line {second.line} should repeat the source of line {first.line}", line=second.line
            )
        groups.append(CommuteGroup(index // 2, (first, second)))
    return groups


def resolve_image(image_root: Path, name: str, order_path: Path, line: int) -> Path:
    """The image file of an img.order entry; entries that leave the image root are refused."""
    if not name:
        raise InputError(order_path, "empty image name", line=line)
    candidate = Path(name)
    if candidate.is_absolute():
        raise InputError(order_path, f"image path {name!r} is absolute; give it relative to {image_root}", line=line)
    root = resolve_input(image_root)
    resolved = resolve_input(root / candidate)
    if not resolved.is_relative_to(root):
        raise InputError(order_path, f"image path {name!r} escapes the image root {image_root}", line=line)
    return resolved


def read_captions(path: str | Path, lines: list[CommuteLine]) -> list[str]:
    """One caption per CoMMuTE line: a plain text file, or a TSV with a ``caption`` column (the template)."""
    path = Path(path)
    if path.suffix.lower() == ".tsv":
        captions = _read_caption_tsv(path, lines)
    else:
        captions = read_lines(path)
        _check_count(path, len(captions), len(lines))
    for number, caption in enumerate(captions, start=1):
        if not caption.strip():
            line = number + 1 if path.suffix.lower() == ".tsv" else number
            raise InputError(path, f"empty caption for CoMMuTE line {number}; fill it in", line=line)
    return [c.strip() for c in captions]


def _check_count(path: Path, found: int, expected: int) -> None:
    if found != expected:
        raise InputError(path, f"has {found} captions but the CoMMuTE files have {expected} lines (one per line)")


def _read_caption_tsv(path: Path, lines: list[CommuteLine]) -> list[str]:
    if not path.is_file():
        raise InputError(path, "file not found")
    text = decode_utf8(path, path.read_bytes())
    reader = csv.DictReader(io.StringIO(text), delimiter="\t")
    if not reader.fieldnames or "caption" not in reader.fieldnames:
        raise InputError(path, f"TSV header needs a 'caption' column, got {reader.fieldnames}", line=1)
    rows = list(reader)
    _check_count(path, len(rows), len(lines))
    for number, (row, commute_line) in enumerate(zip(rows, lines, strict=True), start=2):
        if "source" in row and row["source"] is not None and row["source"] != commute_line.source:
            raise InputError(
                path, f"source column does not match src.en line {commute_line.line}; captions are misaligned",
                line=number,
            )
    return [row["caption"] or "" for row in rows]


def caption_template(lines: list[CommuteLine], prefix: str = "") -> str:
    """A TSV to fill in: one row per CoMMuTE line with its source, translation, contrast and image."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter="\t", lineterminator="\n")
    writer.writerow(CAPTION_COLUMNS)
    for line in lines:
        writer.writerow([line.line, line.source, line.correct, line.incorrect, line.image, prefix])
    return buffer.getvalue()
