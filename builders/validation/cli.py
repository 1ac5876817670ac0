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
        only: Annotated[
            str, typer.Option("--only", help="Comma-separated claims: pronouns, pronouns-fr, awareness, commute, "
                              "retrieval, variations (default: all).")
        ] = "",
        context_model: Annotated[
            str, typer.Option("--context-model", help="Claims pronouns, pronouns-fr: the context-aware model folder "
                                            "under --models (default: pronouns-context, pronouns-fr-context).")
        ] = "",
        threads: Annotated[int, typer.Option("--threads", help="CPU threads for torch (scoring).")] = 1,
    ) -> None:
        """Build sets from the synthetic worlds with the real builders, score them with the bundled models through
        the real scorer adapters, and test each claim (see docs/reference/validation-reference.md). Exits 1 when
        a claim fails."""
        import torch

        from builders.core.atomic import write_text
        from builders.validation.suite import render_report, run_claim, select_claims

        torch.set_num_threads(threads)
        specs = select_claims([name.strip() for name in only.split(",") if name.strip()])
        options = {"context_model": context_model}
        results = []
        with tempfile.TemporaryDirectory() as scratch:
            work = out or Path(scratch)
            for spec in specs:
                typer.echo(f"validate-sets: {spec.key} ...", err=True)
                result = run_claim(spec, work / "validation", models, options)
                typer.echo(f"validate-sets: {spec.key} {'PASS' if result.passed else 'FAIL'} "
                           f"({result.seconds:.1f} s)", err=True)
                results.append(result)
            report = render_report(results)
            if out is not None:
                write_text(out / "validation.md", report)
        typer.echo(report)
        if not all(result.passed for result in results):
            raise typer.Exit(1)
