"""The report's volatility section: `mtprobes analyze volatility` writes summary.json and two figures into its
``--out`` folder (the run folder or a folder in it); the report shows the summary and links the figures."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

SUMMARY = "summary.json"
FIGURES = (("figure1_distance_vs_span.png", "Figure 1: distance vs span of change"),
           ("figure3_oscillation.png", "Figure 3: oscillation of sentence scores"))
# The summary's per-type columns, in the order of the table, and what each one means.
COLUMNS = (
    ("pairs", "pairs", "original/variation pairs of this type"),
    ("changed", "translation_changed", "share of pairs whose translation of the varied source differs at all from "
                                       "the translation of the original"),
    ("subword minor", "subword_minor", "share of pairs whose translations differ by a Levenshtein distance and a "
                                       "span of change both under the threshold T, in SentencePiece subwords"),
    ("subword major", "subword_major", "share with distance and span both over T, in subwords"),
    ("word minor", "word_minor", "the same as subword minor, counted in whitespace words"),
    ("word major", "word_major", "the same as subword major, in words"),
)


def find_summaries(run_dir: Path) -> list[Path]:
    """summary.json files of `analyze volatility` in the run folder and the folders directly in it."""
    found = []
    for path in [run_dir / SUMMARY, *sorted(run_dir.glob(f"*/{SUMMARY}"))]:
        if path.is_file():
            try:
                summary = json.loads(path.read_text(encoding="utf-8"))
            except json.JSONDecodeError:
                continue  # another tool's summary.json: not ours to judge
            if isinstance(summary, dict) and {"by_type", "oscillation"} <= set(summary):
                found.append(path)
    return found


def volatility_section(run_dir: Path, summaries: list[Path]) -> str:
    parts = ["\n## Variations: output volatility\n"]
    for path in summaries:
        summary = json.loads(path.read_text(encoding="utf-8"))
        folder = path.parent.relative_to(run_dir).as_posix()
        prefix = "" if folder == "." else f"{folder}/"
        parts.append(f"\n### {prefix or './'}{SUMMARY}\n\n{_summary_table(summary)}")
        for name, title in FIGURES:
            if (path.parent / name).is_file():
                parts.append(f"\n![{title}]({prefix}{name})\n")
    return "".join(parts) + "\n" + _legend()


def _summary_table(summary: dict[str, Any]) -> str:
    header = "| type | " + " | ".join(label for label, _, _ in COLUMNS) + " |\n"
    header += "|---" * (len(COLUMNS) + 1) + "|\n"
    rows = "".join(
        f"| {type_name} | " + " | ".join(_cell(values.get(key)) for _, key, _ in COLUMNS) + " |\n"
        for type_name, values in sorted(summary["by_type"].items())
    )
    oscillation = summary["oscillation"]
    ranges = ", ".join(f"{key.removeprefix('mean_').removesuffix('_range')} {_cell(value)}"
                       for key, value in sorted(oscillation.items()) if key.startswith("mean_"))
    return (f"{header}{rows}\nThreshold T = {summary.get('threshold')}; {summary.get('pairs')} pairs. Oscillation "
            f"over {oscillation.get('sources', 0)} sources, mean range of the sentence score: {ranges or '-'}.\n")


def _cell(value: Any) -> str:
    return "-" if value is None else f"{value:.4f}" if isinstance(value, float) else str(value)


def _legend() -> str:
    lines = [f"- **{label}** (`{key}`): {meaning}" for label, key, meaning in COLUMNS]
    lines.append("- **oscillation**: for each source, the largest minus the smallest sentence score (BLEU, TER, "
                 "...) over the translations of the original and its variations, averaged over the sources")
    return "\n".join(lines) + "\n"
