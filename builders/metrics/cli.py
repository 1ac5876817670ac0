"""`mtprobes evaluate`: a set folder + score files -> a paper's table (Markdown), metrics-<kind>-<system>.json/md."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer

from builders.core.errors import MtprobesError

OptionList = Annotated[
    list[str] | None, typer.Option("--option", "-O", help="Metric option key=value (see --list); repeatable.")
]


def parse_key_values(pairs: Sequence[str]) -> dict[str, str]:
    options: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise MtprobesError(f"--option takes key=value, got {pair!r}")
        if key.strip() in options:
            raise MtprobesError(f"--option {key.strip()} given twice")
        options[key.strip()] = value.strip()
    return options


def run_evaluation(
    set_dir: Path,
    kind: str,
    system: str,
    out: Path | None,
    *,
    scores: Sequence[Path],
    compare: Sequence[Path] = (),
    mixup: Sequence[Path] = (),
    extended: Path | None = None,
    options: Mapping[str, Any] | None = None,
) -> tuple[dict[str, Any], str]:
    """One metric result, written as metrics-<kind>-<system>.{json,md} under out; returns it and its table."""
    from builders.core.atomic import write_text
    from builders.metrics.base import MetricInputs
    from builders.metrics.registry import metrics
    from builders.scoring.setfiles import detect_kind

    kind = detect_kind(set_dir) if kind == "auto" else kind
    metric = metrics().get(kind).from_options(options or {})
    inputs = MetricInputs(set_dir, tuple(scores), tuple(compare), tuple(mixup), extended)
    result = metric.evaluate(inputs, system)
    table = metric.render(result)
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        stem = f"metrics-{kind}-{system}"
        write_text(out / f"{stem}.json", metric.render_json(result))
        write_text(out / f"{stem}.md", f"# {kind}: {system}\n\n{table}")
    return result, table


def list_metrics() -> str:
    from builders.metrics.registry import metrics

    registry = metrics()
    return "\n".join(registry.get(name).describe() for name in registry.names())


def evaluate(
    set_dir: Annotated[
        Path | None, typer.Argument(help="Built set folder (contrapro.json, CoMMuTE layout, ...).")
    ] = None,
    scores: Annotated[list[Path] | None, typer.Option("--scores", "-s", help="Score file(s); see --list.")] = None,
    kind: Annotated[str, typer.Option(help="Metric (see --list), or auto from the set's files.")] = "auto",
    list_: Annotated[bool, typer.Option("--list", help="List the metrics, their inputs and options.")] = False,
    system: Annotated[str, typer.Option(help="System name in tables and plots.")] = "system",
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Run folder for metrics-*.json/md.")] = None,
    compare: Annotated[list[Path] | None, typer.Option(help="Second system's score file(s).")] = None,
    mixup: Annotated[list[Path] | None, typer.Option(help="CoMMuTE correct+incorrect with mixup image.")] = None,
    extended: Annotated[Path | None, typer.Option(help="JSONL of extended-image perplexities.")] = None,
    option: OptionList = None,
) -> None:
    """Compute a paper's metric table from a set and score files; prints Markdown, writes JSON + Markdown."""
    if list_:
        typer.echo(list_metrics())
        return
    if set_dir is None or not scores:
        raise typer.BadParameter("give a set folder and --scores (or --list)")
    _, table = run_evaluation(
        set_dir,
        kind,
        system,
        out,
        scores=scores,
        compare=compare or (),
        mixup=mixup or (),
        extended=extended,
        options=parse_key_values(option or []),
    )
    typer.echo(table)


def register(app: typer.Typer) -> None:
    app.command("evaluate")(evaluate)
