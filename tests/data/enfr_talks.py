"""The EN-FR talks of ../shared/data/docs-enfr/IWSLT17-tst2016 split for issue 13, without printing any text.

    .venv/bin/python tests/data/enfr_talks.py dev OUT_DIR     # the first 8 talks: rules were developed on them
    (the last 5 talks, part "blind", are reserved for the blind hand check: only make_pronouns_fr_blind_sample.py
    reads them, and it prints counts only)

The split is at the 9th "<d>" line of test.en/test.fr; both files keep their <d> markers.
"""

from __future__ import annotations

import sys
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[3] / "shared" / "data" / "docs-enfr" / "IWSLT17-tst2016"
DEV_TALKS = 8
PARTS = {"dev": slice(0, DEV_TALKS), "blind": slice(DEV_TALKS, None)}


def _talks(lines: list[str]) -> list[list[str]]:
    talks: list[list[str]] = []
    for line in lines:
        if line.strip() == "<d>":
            talks.append([])
        if not talks:
            raise ValueError("a line before the first <d>")
        talks[-1].append(line)
    return talks


def write_part(part: str, out_dir: Path, source: Path = SOURCE) -> tuple[Path, Path]:
    """Write test.en / test.fr of one part under out_dir; returns their paths."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for language in ("en", "fr"):
        lines = (source / f"test.{language}").read_text(encoding="utf-8").splitlines(keepends=True)
        talks = _talks(lines)[PARTS[part]]
        path = out_dir / f"{part}.{language}"
        path.write_text("".join(line for talk in talks for line in talk), encoding="utf-8")
        written.append(path)
    return written[0], written[1]


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] != "dev":
        sys.exit("usage: enfr_talks.py dev OUT_DIR (the blind part is written by make_pronouns_fr_blind_sample.py)")
    src, tgt = write_part("dev", Path(sys.argv[2]))
    print(f"wrote {src} and {tgt}: {src.read_text(encoding='utf-8').count('<d>')} talks")
