"""Locating the files of a set folder (ContraPro export, CoMMuTE layout) for scoring and for evaluation.

Both `mtprobes score` and `mtprobes evaluate` use these; they live on the scoring side so that the metrics
package depends on scoring (score-file reading) and never the other way round.
"""

from __future__ import annotations

from pathlib import Path

from builders.core.errors import InputError, MtprobesError


def require_set_path(set_dir: Path) -> None:
    """One error for a set path that does not exist (else each layout probe would report its own absence)."""
    if not set_dir.exists():
        raise InputError(set_dir, "not found (give a built set, a ContraPro export or a CoMMuTE folder)")


def find_unique(folder: Path, *patterns: str) -> Path | None:
    """The one file matching any of ``patterns`` under folder (None if none; an error naming all if several)."""
    pattern = " or ".join(patterns)
    if folder.is_file():
        return folder if any(folder.match(p) for p in patterns) else None
    hits = sorted({p for pat in patterns for p in folder.rglob(pat) if p.is_file() and "/." not in str(p)})
    if len(hits) > 1:
        raise InputError(folder, f"several files match {pattern!r}: {', '.join(str(h) for h in hits[:5])}")
    return hits[0] if hits else None


def commute_folder(set_dir: Path) -> tuple[Path, Path, Path] | None:
    """(src.en, correct.xx, incorrect.xx) of a CoMMuTE-layout folder, if set_dir is (or holds) one."""
    source = find_unique(set_dir, "src.en")
    if source is None:
        return None
    correct = sorted(source.parent.glob("correct.*"))
    incorrect = sorted(source.parent.glob("incorrect.*"))
    if len(correct) != 1 or len(incorrect) != 1:
        raise InputError(source.parent, "a CoMMuTE folder needs exactly one correct.xx and one incorrect.xx")
    return source, correct[0], incorrect[0]


def detect_kind(set_dir: Path) -> str:
    """The metric a set folder calls for, from its files."""
    require_set_path(set_dir)
    if set_segment_count(set_dir) is not None:
        return "awareness"
    if (set_dir / "commute" / "slot0").is_dir():  # a commute_ext.v1 set: one CoMMuTE folder per image slot
        raise MtprobesError(f"{set_dir}: evaluate its CoMMuTE folder {set_dir / 'commute' / 'slot0'} (with --extended)")
    if find_unique(set_dir, "contrapro.json") is not None:
        return "contrapro"
    if commute_folder(set_dir) is not None:
        return "commute"
    raise MtprobesError(f"{set_dir}: no contrapro.json and no CoMMuTE layout found; pass --kind")


def set_segment_count(set_dir: Path) -> int | None:
    """Segments per condition of a built ``shuffles.v1`` set (its ``congruent`` records, all splits), else None.

    Awareness score files must have exactly this many lines: a file scored on another set is an error.
    """
    import json

    info_path = set_dir / "info.json"
    if not set_dir.is_dir() or not info_path.is_file():
        return None
    try:
        info = json.loads(info_path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as err:
        raise InputError(info_path, f"invalid JSON: {err.msg}", line=err.lineno) from None
    if not str(info.get("builder", "")).startswith("shuffles."):
        return None
    congruent = info.get("records", {}).get("congruent")
    if not congruent:
        raise InputError(info_path, "a shuffles set without 'congruent' records")
    return int(sum(congruent.values()))
