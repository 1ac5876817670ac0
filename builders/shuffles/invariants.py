"""Checks `mtprobes validate` runs on a built ``shuffles.v1`` dataset, from its records alone.

Every shuffle must be a derangement by content (no record shown an image of its own content), a permutation
of the congruent set's images (each line's image used exactly once as a distractor), and the same examples.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

_SUBSET = re.compile(r"random([1-9][0-9]*)")
_MAX_PER_CHECK = 5

Record = dict[str, Any]


def content_key(name: str | None, sha256: str | None) -> str:
    """Same rule as the build: the file hash when image files were given, the file name otherwise."""
    return f"sha256:{sha256}" if sha256 else f"name:{name}"


def find_problems(by_subset: dict[str, list[Record]]) -> list[str]:
    congruent = by_subset.get("congruent")
    if not congruent:
        return ["subset 'congruent' is missing or empty"]
    problems = _subset_name_problems(by_subset)
    problems += _limit("congruent", [p for r in congruent for p in _congruent_record_problems(r)])
    for subset, records in sorted(by_subset.items()):
        match = _SUBSET.fullmatch(subset)
        if match:
            problems += _shuffle_problems(subset, int(match.group(1)), records, congruent)
    return problems


def _subset_name_problems(by_subset: dict[str, list[Record]]) -> list[str]:
    unknown = sorted(s for s in by_subset if s != "congruent" and not _SUBSET.fullmatch(s))
    numbers = sorted(int(m.group(1)) for s in by_subset if (m := _SUBSET.fullmatch(s)))
    problems = [f"unexpected subset(s) {unknown}"] if unknown else []
    if numbers != list(range(1, len(numbers) + 1)):
        problems.append(f"shuffle subsets are not numbered random1..random{len(numbers)}: {numbers}")
    if not numbers:
        problems.append("no shuffle subsets (random1, ...)")
    return problems


def _congruent_record_problems(record: Record) -> list[str]:
    problems = []
    if record["input_image"] != record["image"]:
        problems.append(f"{record['id']}: congruent record shows {record['input_image']!r}, not its image")
    if record["shuffle"] != 0 or record["congruent"] is not True:
        problems.append(f"{record['id']}: congruent record has shuffle {record['shuffle']}")
    if record["distractor_image"] is not None or record["distractor_line"] is not None:
        problems.append(f"{record['id']}: congruent record has a distractor")
    return problems


def _shuffle_problems(subset: str, number: int, records: list[Record], congruent: list[Record]) -> list[str]:
    by_line = {r["line"]: r for r in congruent}
    if sorted(r["id"] for r in records) != sorted(r["id"] for r in congruent):
        return [f"{subset}: its {len(records)} record ids differ from the {len(congruent)} congruent ones"]
    checks: list[tuple[str, Callable[[Record], bool]]] = [
        ("shows an image of its own content", lambda r: _same_content(r)),
        ("input_image is not the distractor", lambda r: r["input_image"] != r["distractor_image"]),
        ("distractor does not match the image of distractor_line", lambda r: _wrong_source(r, by_line)),
        (f"shuffle is not {number}", lambda r: r["shuffle"] != number or r["congruent"] is not False),
        ("no seed", lambda r: r["seed"] is None),
    ]
    problems = []
    for label, failed in checks:
        bad = [r["id"] for r in records if failed(r)]
        problems += _limit(subset, [f"{record_id}: {label}" for record_id in bad])
    used = Counter(r["distractor_line"] for r in records)
    if used != Counter(list(by_line)):
        twice = sorted(line for line, n in used.items() if n > 1)[:_MAX_PER_CHECK]
        problems.append(f"{subset}: not a permutation of the images (lines used more than once: {twice})")
    if len({r["seed"] for r in records}) > 1:
        problems.append(f"{subset}: records carry different seeds")
    return problems


def _same_content(record: Record) -> bool:
    own = content_key(record["image"], record["image_sha256"])
    return own == content_key(record["distractor_image"], record["distractor_sha256"])


def _wrong_source(record: Record, by_line: dict[int, Record]) -> bool:
    source = by_line.get(record["distractor_line"])
    return (
        source is None
        or source["image"] != record["distractor_image"]
        or source["image_sha256"] != record["distractor_sha256"]
    )


def _limit(subset: str, problems: list[str]) -> list[str]:
    if len(problems) <= _MAX_PER_CHECK:
        return [f"{subset}: {p}" for p in problems]
    head = [f"{subset}: {p}" for p in problems[:_MAX_PER_CHECK]]
    return [*head, f"{subset}: ... and {len(problems) - _MAX_PER_CHECK} more like these"]


def order_file_problems(folder: Path, extras: list[str], by_subset: dict[str, list[Record]]) -> list[str]:
    """The order files under extras/ must list, line by line, the images the records show: the congruent
    image in the base file, the distractor (never the line's own image) in ``<order>-random{i}``."""
    congruent = by_subset.get("congruent", [])
    problems: list[str] = []
    for base in [e for e in extras if f"{e}-random1" in extras]:
        problems += _order_lines_problems(folder, base, [r["image"] for r in congruent], congruent)
        for subset, records in sorted(by_subset.items()):
            if _SUBSET.fullmatch(subset) and f"{base}-{subset}" in extras:
                shown = [r["input_image"] for r in records]
                problems += _order_lines_problems(folder, f"{base}-{subset}", shown, congruent, own_forbidden=True)
    return problems


def _order_lines_problems(folder: Path, name: str, expected: list[str], congruent: list[Record],
                          own_forbidden: bool = False) -> list[str]:
    path = folder / name
    if not path.is_file():
        return [f"{name}: missing"]
    lines = path.read_text(encoding="utf-8").split("\n")[:-1]
    if len(lines) != len(expected):
        return [f"{name}: {len(lines)} lines, the records have {len(expected)}"]
    problems = []
    for number, (line, shown, own) in enumerate(zip(lines, expected, congruent, strict=True), start=1):
        if own_forbidden and line == own["image"]:
            problems.append(f"{name}:{number}: example {own['id']} gets its own image {line!r}")
        elif line != shown:
            problems.append(f"{name}:{number}: {line!r}, the record shows {shown!r}")
    return problems[:_MAX_PER_CHECK]
