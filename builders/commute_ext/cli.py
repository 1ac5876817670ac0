"""Extra CLI commands of commute_ext: ``mtprobes caption-template``."""

from __future__ import annotations

from pathlib import Path

import typer


def register(app: typer.Typer) -> None:
    @app.command("caption-template")
    def caption_template_command(
        commute_dir: Path = typer.Argument(..., help="CoMMuTE folder (src.en, correct.xx, incorrect.xx, img.order)"),
        lang: str = typer.Option("de", help="target language suffix of correct.xx / incorrect.xx"),
        out: Path = typer.Option(..., help="TSV to write; fill in its 'caption' column"),
        prefix: str = typer.Option("", help="text to pre-fill every caption with, e.g. 'a photo of '"),
        force: bool = typer.Option(False, help="overwrite an existing file"),
    ) -> None:
        """Write a captions TSV (one row per CoMMuTE line) to fill in with unambiguous captions."""
        from builders.commute_ext.commute import caption_template, read_commute
        from builders.core.atomic import write_text
        from builders.core.errors import MtprobesError

        try:
            if out.exists() and not force:
                raise MtprobesError(f"{out} exists; pass --force to overwrite it")
            lines = read_commute(commute_dir, lang)
            write_text(out, caption_template(lines, prefix))
        except MtprobesError as err:
            typer.echo(f"error: {err}", err=True)
            raise typer.Exit(err.exit_code) from None
        typer.echo(f"wrote {out} ({len(lines)} lines); fill in the 'caption' column, one unambiguous caption per "
                   "translation, then build with --set captions=" + str(out))
