"""`mtprobes pronouns export`: ContraPro text/context files from a built pronouns.v1 dataset."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def register(app: typer.Typer) -> None:
    pronouns = typer.Typer(help="Tools for pronouns.v1 (ContraPro-style) datasets.", no_args_is_help=True)

    @pronouns.command("export")
    def export(
        dataset: Annotated[Path, typer.Argument(help="A built pronouns.v1 folder (the one with info.json).")],
        out: Annotated[Path, typer.Option("--out", "-o", help="Folder for contrapro.json and text/context.")],
        context: Annotated[
            int, typer.Option("--context", "-n", help="Preceding segments per context line.")
        ] = 1,
    ) -> None:
        """Write contrapro.json, export/text.{en,de} and export/context.{en,de} (.fr for an EN->FR set) with N
        context segments (like ContraPro's json2text_and_context)."""
        from builders.pronouns.extras import export_dataset

        for path in export_dataset(dataset, out, context):
            typer.echo(path)

    app.add_typer(pronouns, name="pronouns")
