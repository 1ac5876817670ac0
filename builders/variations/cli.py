"""`mtprobes analyze volatility` (and `analyze volatility-sources` to prepare the files to translate)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

analyze_app = typer.Typer(help="Analyses of system outputs on built sets.", no_args_is_help=True)

RecordsArgument = Annotated[Path, typer.Argument(help="Built variations dataset folder, or its jsonl/test.jsonl.")]


@analyze_app.command("volatility-sources")
def volatility_sources(
    records: RecordsArgument,
    out: Annotated[Path, typer.Option("--out", "-o", help="Folder for original.src / varied.src.")],
) -> None:
    """Write the original and varied sources, line-aligned with the records, ready for `mtprobes translate`."""
    from builders.core.atomic import write_text
    from builders.core.textio import iter_jsonl

    path = records / "jsonl" / "test.jsonl" if records.is_dir() else records
    rows = [record for _, record in iter_jsonl(path)]
    write_text(out / "original.src", "".join(r["original_src"].replace("\n", " ") + "\n" for r in rows))
    write_text(out / "varied.src", "".join(r["varied_src"].replace("\n", " ") + "\n" for r in rows))
    typer.echo(f"wrote {len(rows)} lines to {out}/original.src and {out}/varied.src")


@analyze_app.command("volatility")
def volatility(
    records: RecordsArgument,
    hyp_original: Annotated[Path, typer.Option(help="Translations of original_src, one per record.")],
    hyp_varied: Annotated[Path, typer.Option(help="Translations of varied_src, one per record.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Folder for tables, summary.json and figures.")],
    spm_model: Annotated[str, typer.Option(help="SentencePiece model; default: train one (seeded).")] = "",
    vocab_size: Annotated[int, typer.Option(help="Vocabulary size when training SentencePiece.")] = 4000,
    seed: Annotated[int, typer.Option(help="Seed for SentencePiece training.")] = 13,
    threshold: Annotated[int, typer.Option(help="Minor: distance and span < T; major: both > T.")] = 10,
    # METEOR needs NLTK's WordNet (installed by `make setup`, absent on a bare machine): one flag away.
    metrics: Annotated[str, typer.Option(
        help="Comma list of bleu, meteor, ter, length_ratio (meteor needs NLTK WordNet).")] =
        "bleu,ter,length_ratio",
    include_original: Annotated[bool, typer.Option(help="Also count the original in ranges.")] = False,
    formats: Annotated[str, typer.Option("--format", help="csv, parquet or csv,parquet.")] = "csv,parquet",
    score_all: Annotated[bool, typer.Option(help="Sentence metrics on every pair, not only SUBNUM.")] = False,
    jobs: Annotated[int, typer.Option(help="Worker processes for the sentence metrics (TER is slow).")] = 1,
) -> None:
    """Levenshtein distance and span of change between translations of originals and variations (subwords and
    words), minor/major classes, oscillation of sentence BLEU/METEOR/TER/LengthRatio; Figures 1 and 3."""
    import json

    from builders.core.errors import MtprobesError
    from builders.variations.volatility import VolatilitySettings, analyze_volatility, load_pairs, write_result

    chosen_formats = tuple(f.strip() for f in formats.split(",") if f.strip())
    if not chosen_formats or set(chosen_formats) - {"csv", "parquet"}:
        raise MtprobesError(f"--format: expected csv and/or parquet, got {formats!r}")
    settings = VolatilitySettings(spm_model=spm_model, spm_vocab_size=vocab_size, seed=seed, threshold=threshold,
                                  metrics=tuple(m.strip() for m in metrics.split(",") if m.strip()),
                                  include_original=include_original, score_all=score_all, jobs=jobs)
    result = analyze_volatility(load_pairs(records, hyp_original, hyp_varied), settings)
    for path in write_result(result, out, chosen_formats):
        typer.echo(f"wrote {path}")
    typer.echo(json.dumps(result.summary, indent=2))


def register(app: typer.Typer) -> None:
    """Add the `analyze` group, or join it when another module registered it first."""
    for group in app.registered_groups:
        if group.name == "analyze" and group.typer_instance is not None:
            for command in analyze_app.registered_commands:
                group.typer_instance.registered_commands.append(command)
            return
    app.add_typer(analyze_app, name="analyze")
