"""The validation claims run by `mtprobes validate-sets`: one entry per claim, imported only when it runs.

Every claim module exposes ``validate_<claim>(work, models, **options)`` returning an object with ``passed``
and ``reasons``, and a function that renders it as a Markdown section body.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from builders.core.errors import ConfigError
from builders.core.registry import did_you_mean


@dataclass(frozen=True)
class ClaimSpec:
    key: str
    heading: str
    module: str
    run: str
    table: str
    options: tuple[str, ...] = ()  # CLI options this claim accepts (passed as keyword arguments)


CLAIMS: tuple[ClaimSpec, ...] = (
    ClaimSpec("pronouns", "Pronouns (pronoun world, pronouns.v1, ContraPro accuracy)", "builders.validation.pronouns",
              "validate_pronouns", "claim_table", options=("context_model",)),
    ClaimSpec("pronouns-fr", "Pronouns EN-FR (pronoun world in French, pronouns.v1 tgt_lang fr, ContraPro accuracy)",
              "builders.validation.pronouns", "validate_pronouns_fr", "claim_table", options=("context_model",)),
    ClaimSpec("awareness", "Image awareness (image world, shuffles.v1, Elliott's test)",
              "builders.validation.image_claims", "validate_awareness", "awareness_table"),
    ClaimSpec("commute", "CoMMuTE metrics (image world, TC/IC/GTC/GIC)", "builders.validation.image_claims",
              "validate_commute", "commute_table"),
    ClaimSpec("retrieval", "Retrieval (image world, tiny CLIP through commute_ext.v1)",
              "builders.validation.retrieval", "validate_retrieval", "retrieval_table"),
    ClaimSpec("variations", "Volatility (pronoun world, variations.v1, context-free model)",
              "builders.validation.variations", "validate_variations", "variations_table"),
)


@dataclass
class ClaimResult:
    spec: ClaimSpec
    claim: Any
    seconds: float
    table: str = field(repr=False, default="")

    @property
    def passed(self) -> bool:
        return bool(self.claim.passed)


def select_claims(only: Sequence[str] = ()) -> list[ClaimSpec]:
    """All claims, or the named ones in the suite's order; an unknown name is an error with a suggestion."""
    known = {spec.key: spec for spec in CLAIMS}
    for name in only:
        if name not in known:
            raise ConfigError(f"unknown claim {name!r}{did_you_mean(name, known)} (known: {', '.join(known)})")
    return [spec for spec in CLAIMS if not only or spec.key in only]


def run_claim(spec: ClaimSpec, work: Path, models: Path | None, options: dict[str, Any]) -> ClaimResult:
    module = importlib.import_module(spec.module)
    run: Callable[..., Any] = getattr(module, spec.run)
    render: Callable[[Any], str] = getattr(module, spec.table)
    kwargs = {name: options[name] for name in spec.options if options.get(name) is not None}
    started = time.perf_counter()
    claim = run(work / spec.key, models, **kwargs)
    return ClaimResult(spec, claim, time.perf_counter() - started, render(claim))


def render_report(results: Sequence[ClaimResult]) -> str:
    """validation.md: a summary table, then one section per claim."""
    lines = ["# Validation on bundled models", "", "| claim | verdict | seconds |", "|---|---|---|"]
    for result in results:
        verdict = "PASS" if result.passed else "FAIL"
        lines.append(f"| {result.spec.key} | {verdict} | {result.seconds:.1f} |")
    for result in results:
        lines += ["", f"## {result.spec.heading}", "", result.table.rstrip("\n")]
    return "\n".join(lines) + "\n"
