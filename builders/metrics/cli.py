"""`mtprobes evaluate`: a set folder + score files -> a paper's table (Markdown), metrics-<kind>-<system>.json/md."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer

from builders.core.errors import UsageError

OptionList = Annotated[
    list[str] | None, typer.Option("--option", "-O", help="Metric option key=value (see --list); repeatable.")
]


def parse_key_values(pairs: Sequence[str]) -> dict[str, str]:
    options: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--option takes key=value, got {pair!r}")
        if key.strip() in options:
            raise UsageError(f"--option {key.strip()} given twice")
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
        json_path, markdown_path = metric_files(out, kind, system)
        write_text(json_path, metric.render_json(result))
        write_text(markdown_path, f"# {kind}: {system}\n\n{table}")
    return result, table


def metric_files(out: Path, kind: str, system: str) -> tuple[Path, Path]:
    """The JSON and Markdown files `evaluate --out` writes for one metric kind and system."""
    stem = f"metrics-{kind}-{system}"
    return out / f"{stem}.json", out / f"{stem}.md"


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
    from builders.scoring.setfiles import detect_kind

    kind = detect_kind(set_dir) if kind == "auto" else kind
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
    if out is not None:
        typer.echo("wrote " + ", ".join(str(path) for path in metric_files(out, kind, system)))


def sentence_scores(
    set_dir: Annotated[Path | None, typer.Argument(help="Built shuffles.v1 set (its congruent references).")] = None,
    hyp: Annotated[list[Path] | None, typer.Option("--hyp", help="Translations, one per segment; repeatable.")] = None,
    ref: Annotated[Path | None, typer.Option(help="References, one per line (instead of a set).")] = None,
    metric: Annotated[str, typer.Option(help="meteor (Elliott 2018's Δ_E), bleu, ter or length_ratio.")] = "meteor",
    out: Annotated[Path, typer.Option("--out", "-o", help="Folder for <translations stem>.scores.")] = Path("run"),
    jobs: Annotated[int, typer.Option(help="Worker processes (TER is slow).")] = 1,
) -> None:
    """Per-segment METEOR (or BLEU, TER, length ratio) of translation files: the model-external awareness
    inputs (Elliott 2018, Eq. 4) for `mtprobes evaluate --kind awareness`."""
    from builders.core.textio import read_lines
    from builders.metrics.sentence_scores import HIGHER_IS_BETTER, set_references, write_sentence_scores

    if not hyp or (set_dir is None) == (ref is None):
        raise typer.BadParameter("give --hyp files and either a shuffles set or --ref")
    references = read_lines(ref) if ref is not None else set_references(Path(str(set_dir)))
    written = write_sentence_scores(references, hyp, metric, out, jobs)
    typer.echo(f"wrote {', '.join(str(p) for p in written)}")
    if not HIGHER_IS_BETTER.get(metric, True):
        typer.echo(f"{metric} is lower-is-better: evaluate with -O lower_is_better=yes")


def register(app: typer.Typer) -> None:
    app.command("evaluate")(evaluate)
    app.command("sentence-scores")(sentence_scores)
