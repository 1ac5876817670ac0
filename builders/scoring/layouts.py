"""Set layouts that `mtprobes score` understands, each with a reader (-> examples) and anchor-format writers.

- contrapro: ``[*.]text.<src>`` + ``[*.]text.<tgt>`` (ContraPro export, optional ``[*.]context.*``)
  -> ``<name>.scores`` (negative log-probabilities in evaluate.py order)
- commute: ``src.en`` + ``correct.xx`` + ``incorrect.xx`` -> ``<name>.correct.txt`` / ``<name>.incorrect.txt``
  (perplexities)
- plain: ``--source`` + ``--target`` files -> ``<name>.scores`` (log-probability sums, higher is better)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from builders.core.errors import InputError, MtprobesError
from builders.core.textio import read_lines, read_parallel
from builders.scoring.protocol import ScoringExample, TokenScores
from builders.scoring.scores_io import write_commute_scores, write_contrapro_scores, write_scores
from builders.scoring.setfiles import commute_folder, find_unique, require_set_path


@dataclass
class ScoringJob:
    layout: str
    examples: list[ScoringExample]
    write: Callable[[Path, str, Sequence[TokenScores]], list[Path]]
    inputs: list[Path]


def _context_per_line(context_file: Path | None, n_lines: int, keep: int) -> list[tuple[str, ...]]:
    """Context sentences (oldest first) for each text line.

    ContraPro's json2text writes n context lines per text line (empty at a document start): the last ``keep``
    are used. An export with one context line per text line (mtprobes' pronouns builder joins its n segments on
    one line) is used whole whenever ``keep`` >= 1.
    """
    if context_file is None or keep == 0:
        return [()] * n_lines
    lines = read_lines(context_file, allow_empty_file=True)
    if n_lines == 0 or len(lines) % n_lines:
        raise InputError(context_file, f"{len(lines)} context lines is not a multiple of the {n_lines} text lines")
    per_line = len(lines) // n_lines
    if keep > per_line > 1:
        raise InputError(context_file, f"--context {keep} asked, but the export has {per_line} per line")
    take = min(keep, per_line)
    blocks = [lines[i * per_line : (i + 1) * per_line][per_line - take :] for i in range(n_lines)]
    return [tuple(line for line in block if line.strip()) for block in blocks]


def _export(folder: Path, part: str, language: str) -> Path | None:
    """ContraPro's json2text export names files ``text.en`` or ``<name>.text.en`` (same for context)."""
    return find_unique(folder, f"{part}.{language}", f"*.{part}.{language}")


def contrapro_job(set_dir: Path, src: str, tgt: str, context: int) -> ScoringJob:
    source_file, target_file = _export(set_dir, "text", src), _export(set_dir, "text", tgt)
    if source_file is None or target_file is None:
        raise InputError(set_dir, f"no ContraPro text export (*text.{src}, *text.{tgt}) found")
    sources, targets = read_parallel([source_file, target_file])
    source_context = _context_per_line(_export(set_dir, "context", src), len(sources), context)
    target_context = _context_per_line(_export(set_dir, "context", tgt), len(sources), context)
    examples = [
        ScoringExample(s, t, sc, tc, group=f"{s}\t{sc}")
        for s, t, sc, tc in zip(sources, targets, source_context, target_context, strict=True)
    ]

    def write(out: Path, name: str, scores: Sequence[TokenScores]) -> list[Path]:
        return [write_contrapro_scores(out / f"{name}.scores", [s.sum for s in scores])]

    return ScoringJob("contrapro", examples, write, [source_file, target_file])


def commute_job(set_dir: Path, images: Sequence[object] | None) -> ScoringJob:
    layout = commute_folder(set_dir)
    if layout is None:
        raise InputError(set_dir, "no CoMMuTE layout (src.en, correct.xx, incorrect.xx) found")
    sources, correct, incorrect = read_parallel(list(layout))
    if images is not None and len(images) != len(sources):
        raise InputError(layout[0], f"{len(sources)} lines but {len(images)} image feature rows")
    image_of = list(images) if images is not None else [None] * len(sources)
    # Correct then incorrect; the two targets of one line form a contrastive group (shared-prefix dropping).
    examples = [
        ScoringExample(sources[i], targets[i], image=image_of[i], group=str(i))
        for targets in (correct, incorrect)
        for i in range(len(sources))
    ]

    def write(out: Path, name: str, scores: Sequence[TokenScores]) -> list[Path]:
        half = len(scores) // 2
        ppl = [s.perplexity for s in scores]
        return list(write_commute_scores(out, ppl[:half], ppl[half:], prefix=name + "." if name else ""))

    return ScoringJob("commute", examples, write, list(layout))


def plain_job(source: Path, target: Path, images: Sequence[object] | None) -> ScoringJob:
    sources, targets = read_parallel([source, target])
    if images is not None and len(images) != len(sources):
        raise InputError(source, f"{len(sources)} lines but {len(images)} image feature rows")
    image_of = list(images) if images is not None else [None] * len(sources)
    examples = [ScoringExample(s, t, image=image_of[i]) for i, (s, t) in enumerate(zip(sources, targets, strict=True))]

    def write(out: Path, name: str, scores: Sequence[TokenScores]) -> list[Path]:
        return [write_scores(out / f"{name}.scores", [s.sum for s in scores])]

    return ScoringJob("plain", examples, write, [source, target])


def _detected_layout(set_dir: Path, src: str, tgt: str) -> str:
    """``--layout auto``: a ContraPro text export, else a CoMMuTE folder; neither names both (not just the last)."""
    if _export(set_dir, "text", src):
        return "contrapro"
    if commute_folder(set_dir) is not None:
        return "commute"
    raise InputError(set_dir, f"neither a ContraPro text export (*text.{src}, *text.{tgt}) nor a CoMMuTE layout "
                     "(src.en, correct.xx, incorrect.xx) found")


def make_job(
    set_dir: Path | None,
    *,
    layout: str,
    src: str,
    tgt: str,
    context: int,
    source: Path | None,
    target: Path | None,
    images: Sequence[object] | None,
) -> ScoringJob:
    if source is not None or target is not None:
        if source is None or target is None:
            raise MtprobesError("--source and --target go together")
        return plain_job(source, target, images)
    if set_dir is None:
        raise MtprobesError("give a set folder or --source/--target files")
    require_set_path(set_dir)
    if layout == "auto":
        layout = _detected_layout(set_dir, src, tgt)
    factories: dict[str, Callable[[], ScoringJob]] = {
        "contrapro": lambda: contrapro_job(set_dir, src, tgt, context),
        "commute": lambda: commute_job(set_dir, images),
    }
    if layout not in factories:
        raise MtprobesError(f"unknown layout {layout!r} (auto, contrapro, commute, or --source/--target)")
    return factories[layout]()
