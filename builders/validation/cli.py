"""`mtprobes validate-sets`: check on the bundled models that the built sets measure what they claim."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Annotated

import typer


def register(app: typer.Typer) -> None:
    @app.command("validate-sets")
    def validate_sets(
        out: Annotated[
            Path | None, typer.Option("--out", "-o", help="Write validation.md (and the built sets) here.")
        ] = None,
        models: Annotated[
            Path | None, typer.Option("--models", help="Folder with the models (default: bundled).")
        ] = None,
        context_model: Annotated[
            str, typer.Option("--context-model", help="Name of the context-aware model folder under --models.")
        ] = "pronouns-context",
        threads: Annotated[int, typer.Option("--threads", help="CPU threads for scoring.")] = 1,
    ) -> None:
        """Build the pronoun-world set with pronouns.v1, score it with the sentence-level and context-aware
        models, and test the claim (context-aware better at antecedent distance >= 1, similar at 0)."""
        import torch

        from builders.core.atomic import write_text
        from builders.validation.pronouns import claim_table, validate_pronouns

        torch.set_num_threads(threads)
        with tempfile.TemporaryDirectory() as scratch:
            work = out or Path(scratch)
            claim = validate_pronouns(work, models, context_model)
            heading = "# Validation on bundled models\n\n## Pronouns (pronoun world, pronouns.v1)\n\n"
            report = heading + claim_table(claim)
            if out is not None:
                write_text(out / "validation.md", report)
        typer.echo(report)
        if not claim.passed:
            raise typer.Exit(1)
