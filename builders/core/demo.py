"""`make demo`: build every registered builder on its bundled sample, validate it, write REPORT.md."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from pathlib import Path

from builders.core.atomic import write_text
from builders.core.errors import MtprobesError
from builders.core.registry import entries, get_builder_class
from builders.core.resources import resources_root
from builders.core.validate import validate_dataset

log = logging.getLogger("mtprobes")


@dataclass
class DemoResult:
    builder: str
    path: Path | None
    seconds: float
    status: str
    records: int = 0
    signature: str = ""


def demo_config(family: str) -> Path | None:
    path = resources_root() / "samples" / family / "demo.yaml"
    return path if path.is_file() else None


def run_demo_build(name: str, out_root: Path, quiet: bool) -> DemoResult:
    family = name.rpartition(".")[0]
    config_path = demo_config(family)
    if config_path is None:
        return DemoResult(name, None, 0.0, "no bundled sample")
    started = time.perf_counter()
    builder_class = get_builder_class(name)
    config = builder_class.config_class.from_sources(config_path)
    path = builder_class(config).build(out_root, overwrite=True, quiet=quiet)
    ds = validate_dataset(path)
    records = sum(sum(s.values()) for s in ds.info["records"].values())
    return DemoResult(name, path, time.perf_counter() - started, "valid", records, ds.info["signature"])


def run_demo(out_root: Path, quiet: bool = False) -> Path:
    results = []
    for entry in entries():
        try:
            results.append(run_demo_build(entry.name, out_root, quiet))
        except ModuleNotFoundError as err:
            results.append(DemoResult(entry.name, None, 0.0, f"not available: {err}"))
        except MtprobesError as err:
            results.append(DemoResult(entry.name, None, 0.0, f"FAILED: {err}"))
        log.info("demo %s: %s", entry.name, results[-1].status)
    report = out_root / "REPORT.md"
    write_text(report, render_report(results, out_root))
    failed = [r for r in results if r.status.startswith("FAILED")]
    if failed:
        raise MtprobesError(f"demo: {len(failed)} build(s) failed, see {report}")
    return report


def render_report(results: list[DemoResult], out_root: Path) -> str:
    lines = [
        "# mtprobes demo report",
        "",
        "Each registered builder was run on its bundled sample (`resources/samples/<family>/demo.yaml`) and the",
        "result checked with `mtprobes validate`.",
        "",
        "| builder | status | records | seconds | dataset | signature |",
        "|---|---|---|---|---|---|",
    ]
    for r in results:
        where = f"[{r.path.relative_to(out_root)}]({r.path.relative_to(out_root)}/README.md)" if r.path else "-"
        signature = _cell(r.signature)
        lines.append(f"| `{r.builder}` | {r.status} | {r.records} | {r.seconds:.1f} | {where} | `{signature}` |")
    for r in results:
        if r.path is not None:
            lines += ["", f"## `{r.builder}`", "", *_summary_lines(r.path)]
    return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    """Escape the pipes of a signature so it stays in one Markdown table cell."""
    return text.replace("|", "\\|")


def _summary_lines(path: Path) -> list[str]:
    """Counts, drop reasons and class balance of one built dataset."""
    from builders.core.inspect import summarize

    summary = summarize(path, samples=0)
    counts = summary["counts"]
    lines = [f"Candidates read {counts['read']}, kept {counts['kept']}."]
    if counts["dropped"]:
        lines += ["", "| dropped because | count |", "|---|---|"]
        lines += [f"| {reason} | {n} |" for reason, n in counts["dropped"].items()]
    for field, values in summary["balance"].items():
        lines += ["", f"| {field} | records |", "|---|---|"]
        lines += [f"| {value} | {n} |" for value, n in values.items()]
    return lines
