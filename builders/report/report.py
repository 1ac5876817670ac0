"""`mtprobes report RUN_DIR`: REPORT.md + report.html + PNG plots from the metric files of a run.

A run folder holds ``metrics-<kind>-<system>.json`` files written by `mtprobes evaluate`; the report groups
them by kind, renders the tables, and draws one plot per kind comparing the systems. A ``summary.json`` of
`mtprobes analyze volatility` in the run folder or a folder in it adds the volatility section and its figures.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

from builders.core.atomic import write_text
from builders.core.errors import InputError, MtprobesError
from builders.metrics.registry import metrics
from builders.report.plots import PLOTS
from builders.report.volatility import find_summaries, volatility_section


def load_results(run_dir: Path) -> dict[str, list[dict[str, Any]]]:
    files = sorted(run_dir.glob("metrics-*.json"))
    if not files and not find_summaries(run_dir):
        raise MtprobesError(
            f"{run_dir}: no metrics-*.json files and no volatility summary.json (run `mtprobes evaluate <kind> ... "
            f"--out {run_dir}`, kinds: {', '.join(metrics().names())}; or `mtprobes analyze volatility ... --out "
            f"{run_dir}/volatility`)")
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for path in files:
        try:
            result = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as err:
            raise InputError(path, f"invalid JSON: {err.msg}", line=err.lineno) from None
        if result.get("kind") not in metrics().names():
            raise InputError(path, f"unknown metric kind {result.get('kind')!r}")
        by_kind.setdefault(result["kind"], []).append(result)
    return by_kind


def build_markdown(by_kind: dict[str, list[dict[str, Any]]], plots: dict[str, str]) -> str:
    parts = ["# mtprobes evaluation report\n"]
    registry = metrics()
    for kind in registry.names():  # every metric class names its own section; the registry fixes the order
        if kind not in by_kind:
            continue
        parts.append(f"\n## {registry.get(kind).title}\n")
        if kind in plots:
            parts.append(f"\n![{kind}]({plots[kind]})\n")
        for result in by_kind[kind]:
            metric = registry.get(kind).from_options(result.get("options", {}))
            parts.append(f"\n### {result.get('system', 'system')}\n\n{metric.render(result)}")
    return "".join(parts)


def markdown_to_html(markdown: str, title: str = "mtprobes report") -> str:
    """HTML for the subset of Markdown the report uses: headings, tables, images, bold and paragraphs."""
    body: list[str] = []
    table: list[list[str]] = []

    def flush_table() -> None:
        if table:
            head, rows = table[0], table[2:]
            body.append("<table><thead><tr>" + "".join(f"<th>{c}</th>" for c in head) + "</tr></thead><tbody>")
            body.extend("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
            body.append("</tbody></table>")
            table.clear()

    for line in markdown.splitlines():
        if line.startswith("|"):
            table.append([_inline(c.strip()) for c in line.strip("|").split("|")])
            continue
        flush_table()
        heading = re.match(r"^(#{1,4}) (.*)$", line)
        image = re.match(r"^!\[(.*)\]\((.*)\)$", line)
        if heading:
            level = len(heading.group(1))
            body.append(f"<h{level}>{_inline(heading.group(2))}</h{level}>")
        elif image:
            body.append(f'<p><img src="{html.escape(image.group(2))}" alt="{html.escape(image.group(1))}"></p>')
        elif line.strip():
            body.append(f"<p>{_inline(line)}</p>")
    flush_table()
    style = (
        "body{font-family:sans-serif;max-width:60em;margin:2em auto}table{border-collapse:collapse}"
        "td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}img{max-width:100%}"
    )
    return (
        f'<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
        f"<style>{style}</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n"
    )


def _inline(text: str) -> str:
    escaped = html.escape(text, quote=False)
    escaped = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", escaped)
    return re.sub(r"`(.+?)`", r"<code>\1</code>", escaped)


def write_report(run_dir: str | Path) -> Path:
    """Write REPORT.md, report.html and the PNGs into run_dir; returns the REPORT.md path."""
    return write_report_files(run_dir)[0]


def write_report_files(run_dir: str | Path) -> list[Path]:
    """Write REPORT.md, report.html and the PNGs into run_dir; returns every file written, REPORT.md first."""
    run_dir = Path(run_dir)
    by_kind = load_results(run_dir)
    plots: dict[str, str] = {}
    for kind, results in by_kind.items():
        if kind in PLOTS:  # a metric without a figure still gets its tables
            name, draw = PLOTS[kind]
            draw(results, run_dir / name)
            plots[kind] = name
    markdown = build_markdown(by_kind, plots)
    summaries = find_summaries(run_dir)
    if summaries:
        markdown += volatility_section(run_dir, summaries)
    write_text(run_dir / "REPORT.md", markdown)
    write_text(run_dir / "report.html", markdown_to_html(markdown))
    return [run_dir / "REPORT.md", run_dir / "report.html", *(run_dir / name for name in sorted(plots.values()))]
