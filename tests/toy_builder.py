"""A small builder used to test the spine: one record per sentence pair, shuffled target as a contrast.

It is registered only by the tests (``toy.v1``); its processing is real (reads, counts, drops, seeds).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import datasets

from builders.core.builder import Builder, Unit
from builders.core.config import BuildConfig, setting
from builders.core.context import BuildContext, Row
from builders.core.errors import ConfigError, InputError
from builders.core.registry import register
from builders.core.textio import read_parallel


@dataclass
class ToyConfig(BuildConfig):
    src: str = setting("", "source file, one line per segment", required="always")
    tgt: str = setting("", "target file, line-aligned with src", required="always")
    lines_per_unit: int = setting(3, "lines per work unit")
    max_words: int = setting(50, "longer lines are dropped and counted")
    duplicate_ids: bool = setting(False, "give two units one key (tests the uniqueness check)")
    # fault injection for the executor tests: a line whose unit raises InputError, and a marker file whose
    # absence makes the first worker that sees it die (os._exit) once
    bad_line: int = setting(0, "line whose unit raises InputError (0: none)", run_only=True)
    die_once_marker: str = setting("", "marker file: the first worker that finds it absent dies once", run_only=True)
    die_on_line: int = setting(0, "line whose unit kills every worker that runs it (0: none)", run_only=True)

    def validate(self) -> None:
        if self.lines_per_unit < 1:
            raise ConfigError("config key 'lines_per_unit': must be >= 1")


@dataclass(frozen=True)
class ToyPlan:
    pairs: tuple[tuple[int, tuple[str, str]], ...]
    targets: tuple[str, ...]


class ToyBuilder(Builder[ToyConfig]):
    name = "toy.v1"
    config_class = ToyConfig
    pretty_name = "Toy contrastive pairs"
    description = "Each sentence pair with a contrastive target taken from another line."
    license = "cc-by-4.0"
    citation = "@misc{toy, title={Toy}}"
    balance_fields = ("length_class",)
    field_meanings: ClassVar[dict[str, str]] = {"id": "toy-<line>", "src": "source line", "ref": "target line",
                      "contrast": "a target line drawn at random", "length_class": "short or long source",
                      "line": "1-based input line"}

    def features(self) -> datasets.Features:
        return datasets.Features(
            {
                "id": datasets.Value("string"),
                "src": datasets.Value("string"),
                "ref": datasets.Value("string"),
                "contrast": datasets.Value("string"),
                "length_class": datasets.Value("string"),
                "line": datasets.Value("int32"),
            }
        )

    def prepare(self, ctx: BuildContext) -> ToyPlan:
        src, tgt = read_parallel([ctx.add_input(self.config.src), ctx.add_input(self.config.tgt)])
        return ToyPlan(tuple(enumerate(zip(src, tgt, strict=True), start=1)), tuple(tgt))

    def units(self, plan: ToyPlan) -> Sequence[Unit]:
        step = self.config.lines_per_unit
        pairs = plan.pairs
        return [Unit(key=f"lines-{i}", payload=pairs[i : i + step]) for i in range(0, len(pairs), step)]

    def process(self, unit: Unit, plan: ToyPlan, ctx: BuildContext) -> list[Row]:
        self._inject_faults(unit)
        rows = []
        for line, (src, ref) in unit.payload:
            ctx.read()
            if not src.strip() or not ref.strip():
                ctx.drop("empty_line", line=line)
                continue
            if len(src.split()) > self.config.max_words:
                ctx.drop("too_long", line=line, words=len(src.split()))
                continue
            rng = ctx.rng("contrast", line)
            contrast = plan.targets[int(rng.integers(len(plan.targets)))]
            ctx.keep()
            record_id = "toy-0" if self.config.duplicate_ids else f"toy-{line:05d}"
            length_class = "short" if len(src.split()) < 6 else "long"
            rows.append(Row("test", {"id": record_id, "src": src, "ref": ref, "contrast": contrast,
                                     "length_class": length_class, "line": line}))
        return rows

    def _inject_faults(self, unit: Unit) -> None:
        lines = [line for line, _ in unit.payload]
        if self.config.bad_line in lines:
            raise InputError(self.config.src, "a line the toy builder refuses", line=self.config.bad_line)
        if self.config.die_on_line in lines:
            os._exit(1)
        marker = Path(self.config.die_once_marker) if self.config.die_once_marker else None
        if marker is not None and not marker.exists():
            marker.write_text("died once\n")
            os._exit(1)

    def invariants(self, rows: list[Row]) -> list[str]:
        return [f"{r.record['id']}: empty source" for r in rows if not r.record["src"].strip()]


register("toy.v1", "toy_builder:ToyBuilder", "Toy builder for the spine's tests")


class LogsUnpickling:
    """Shared data of the executor tests that appends the unpickling process's id to a file."""

    def __init__(self, log: str, payload: str) -> None:
        self.log = log
        self.payload = payload

    def __setstate__(self, state: dict[str, str]) -> None:
        self.__dict__.update(state)
        with open(self.log, "a", encoding="utf-8") as handle:
            handle.write(f"{os.getpid()}\n")


def payload_length_plus(item: int, shared: LogsUnpickling) -> int:
    """A task of the executor tests (module level: picklable by name)."""
    return item + len(shared.payload)
