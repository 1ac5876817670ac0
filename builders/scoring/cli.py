"""`mtprobes score | translate | report` (evaluate: builders.metrics.cli). Heavy libraries load in the bodies."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated, Any, cast

import typer

PRECISIONS = ("auto", "fp32", "bf16", "fp16")
ModelOption = Annotated[str, typer.Option("--model", "-m", help="HF model name (local cache only) or folder.")]
SrcLang = Annotated[str | None, typer.Option("--src-lang", help="Source language (en, or the model's code).")]
TgtLang = Annotated[str | None, typer.Option("--tgt-lang", help="Target language (de, or the model's code).")]
BatchSize = Annotated[int, typer.Option("--batch-size", help="Examples per batch (length-sorted).")]
Device = Annotated[str, typer.Option("--device", help="auto (CUDA when present), cpu or cuda[:n].")]


def score(
    set_dir: Annotated[Path | None, typer.Argument(help="ContraPro export, CoMMuTE layout or built set.")] = None,
    model: ModelOption = "",
    out: Annotated[Path, typer.Option("--out", "-o", help="Run folder for the score files.")] = Path("run"),
    name: Annotated[str, typer.Option(help="Base name of the output files.")] = "scores",
    layout: Annotated[str, typer.Option(help="auto, contrapro or commute.")] = "auto",
    source: Annotated[Path | None, typer.Option(help="Plain source file (instead of a set folder).")] = None,
    target: Annotated[Path | None, typer.Option(help="Plain target file, line-aligned with --source.")] = None,
    src_lang: SrcLang = None,
    tgt_lang: TgtLang = None,
    context: Annotated[int, typer.Option(help="Previous sentences used as context (0 = sentence-level).")] = 0,
    separator: Annotated[str, typer.Option(help="Joins context sentences and the sentence.")] = " ",
    temperature: Annotated[float, typer.Option(help="Softmax temperature.")] = 1.0,
    temperatures: Annotated[str, typer.Option(
        help="Also write <name>.T<T>.* files at each of these temperatures (comma list; same pass).")] = "",
    drop_shared_prefix: Annotated[bool, typer.Option(help="Drop tokens shared by contrastive targets.")] = False,
    image_features: Annotated[Path | None, typer.Option(help=".npy, one feature row per line.")] = None,
    batch_size: BatchSize = 64,
    device: Device = "auto",
    precision: Annotated[str, typer.Option(
        help="auto (= fp32), fp32, or bf16/fp16 autocast on CUDA (may be faster on large models; "
        "flips close decisions).")] = "auto",
) -> None:
    """Score targets under teacher forcing; writes anchor-format score files and <name>.score_info.json."""
    from builders.scoring.protocol import ScoringOptions
    from builders.scoring.run import ModelSpec, run_scoring

    if not model:
        raise typer.BadParameter("--model is required")
    if precision not in PRECISIONS:
        raise typer.BadParameter(f"--precision must be one of {', '.join(PRECISIONS)}")
    try:
        grid = tuple(float(value) for value in temperatures.split(",") if value.strip())
    except ValueError:
        raise typer.BadParameter(f"--temperatures takes a comma list of numbers, got {temperatures!r}") from None
    started = time.perf_counter()
    options = ScoringOptions(
        batch_size=batch_size,
        temperature=temperature,
        temperature_grid=grid,
        context_separator=separator,
        device=device,
        precision=cast(Any, precision),
    )
    info = run_scoring(
        set_dir,
        out,
        ModelSpec(model, None, src_lang, tgt_lang),
        options,
        name=name,
        layout=layout,
        context=context,
        source=source,
        target=target,
        image_features=image_features,
        drop_prefix=drop_shared_prefix,
    )
    # Throughput is over the scoring pass; the wall time beside it also counts loading the model and the set.
    typer.echo(
        f"scored {info['examples']} examples ({info['scored_tokens']} target tokens in {info['seconds']:.1f} s, "
        f"{info['target_tokens_per_second']} tokens/s; {time.perf_counter() - started:.1f} s in all) -> "
        f"{', '.join(info['outputs'])} in {out}"
    )


def translate(
    model: ModelOption,
    source: Annotated[Path, typer.Option(help="Source file, one sentence per line.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Output file, one translation per line.")],
    src_lang: SrcLang = None,
    tgt_lang: TgtLang = None,
    beams: Annotated[int, typer.Option(help="Beam size.")] = 5,
    max_new_tokens: Annotated[int, typer.Option(help="Longest translation in tokens.")] = 256,
    batch_size: BatchSize = 32,
    device: Device = "auto",
) -> None:
    """Beam-search translations (for the volatility analysis of the variations sets); repeated lines are
    translated once."""
    from builders.core.atomic import write_text
    from builders.core.textio import read_lines
    from builders.scoring.hf import HFSeq2SeqScorer
    from builders.scoring.protocol import ScoringExample, ScoringOptions

    started = time.perf_counter()
    lines = read_lines(source)
    scorer = HFSeq2SeqScorer.from_pretrained(
        model, src_lang=src_lang, tgt_lang=tgt_lang, options=ScoringOptions(batch_size=batch_size, device=device)
    )
    outputs = scorer.translate([ScoringExample(line, "") for line in lines], num_beams=beams,
                               max_new_tokens=max_new_tokens)
    write_text(out, "".join(text.replace("\n", " ") + "\n" for text in outputs))
    seconds = time.perf_counter() - started
    typer.echo(f"translated {len(lines)} lines ({len(set(lines))} distinct) -> {out} in {seconds:.1f} s "
               f"({len(lines) / seconds:.1f} lines/s)")


def report(run_dir: Annotated[Path, typer.Argument(
        help="Run folder with metrics-*.json files (mtprobes evaluate --out) and/or a volatility summary.json "
             "(mtprobes analyze volatility --out RUN/volatility).")]) -> None:
    """Write REPORT.md, report.html and PNG plots for the metric files and volatility results of a run."""
    from builders.report.report import write_report_files

    typer.echo("wrote " + ", ".join(str(path) for path in write_report_files(run_dir)))


def register(app: typer.Typer) -> None:
    app.command("score")(score)
    app.command("translate")(translate)
    app.command("report")(report)
