"""sha256 of every file of a built dataset, recorded in info.json and covered by the signature.

info.json (which holds the hashes) and README.md (rendered from info.json, checked by re-rendering it) are
the two files not listed.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from builders.core.context import sha256_file

UNHASHED = ("info.json", "README.md")


def output_files(folder: Path) -> list[Path]:
    """Every file and symbolic link under ``folder`` except the unhashed ones, in a stable order."""
    return sorted(
        p for p in folder.rglob("*")
        if (p.is_symlink() or p.is_file()) and str(p.relative_to(folder)) not in UNHASHED
    )


def output_hashes(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): sha256_file(p) for p in output_files(folder)}


def hashes_digest(hashes: dict[str, str]) -> str:
    """One short hash of the file list and contents, the ``files:`` part of the signature."""
    return hashlib.sha256(json.dumps(sorted(hashes.items())).encode()).hexdigest()[:16]


def hash_problems(folder: Path, recorded: dict[str, str]) -> list[str]:
    """Files missing, changed, added or replaced by symbolic links since the build."""
    problems = []
    present = {p.relative_to(folder).as_posix(): p for p in output_files(folder)}
    problems += [f"{name}: is a symbolic link" for name, p in present.items() if p.is_symlink()]
    problems += [f"{name}: listed in info.json but missing" for name in sorted(set(recorded) - set(present))]
    added = sorted(set(present) - set(recorded))
    problems += [f"{name}: not written by the build (not in info.json)" for name in added]
    for name in sorted(set(recorded) & set(present)):
        if not present[name].is_symlink() and sha256_file(present[name]) != recorded[name]:
            problems.append(f"{name}: changed since the build (sha256 differs from info.json)")
    return problems


def expected_text_problems(folder: Path, extras: list[str], expected: dict[str, str]) -> list[str]:
    """Text extras re-derived from the records (``expected``: path -> content) against the files written,
    naming the file and the first line that differs."""
    problems = []
    for name, text in expected.items():
        if name not in extras:
            continue
        path = folder / name
        if not path.is_file():
            problems.append(f"{name}: missing")
            continue
        actual = path.read_text(encoding="utf-8")
        if actual != text:
            problems.append(f"{name}:{_first_differing_line(actual, text)}: differs from the records")
    return problems


def _first_differing_line(actual: str, expected: str) -> int:
    for number, (left, right) in enumerate(zip(actual.split("\n"), expected.split("\n"), strict=False), start=1):
        if left != right:
            return number
    return min(actual.count("\n"), expected.count("\n")) + 1
