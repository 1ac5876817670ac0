"""The shape every metric has (after sacrebleu): typed options, inputs it reads, a result, Markdown/JSON and a
signature.

A signature names everything a figure depends on, so two tables with equal signatures are comparable:
``<metric>|v:<version>|mtprobes:<version>|<option>:<value>...|<role>:<file name>@<sha256 prefix>...``.
It is written into every ``metrics-*.json`` and printed under every table.
"""

from __future__ import annotations

import dataclasses
import json
import typing
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, ClassVar

from builders.core.errors import MtprobesError, UsageError
from builders.core.registry import did_you_mean

HASH_CHARS = 16  # 64 bits of each file's sha256: enough to tell files apart, short enough to read


@dataclass(frozen=True)
class MetricInputs:
    """The files a metric reads. ``set_dir`` is the built set (or a folder of score files for awareness)."""

    set_dir: Path
    scores: tuple[Path, ...]
    compare: tuple[Path, ...] = ()
    mixup: tuple[Path, ...] = ()
    extended: Path | None = None

    def given(self) -> set[str]:
        """Names of the optional inputs that were given (``scores`` is always required)."""
        optional = {"compare": self.compare, "mixup": self.mixup, "extended": self.extended}
        return {name for name, value in optional.items() if value}

    def files(self) -> list[tuple[str, Path]]:
        """(role, path) of every score file, in a fixed order, for the signature."""
        roles = [("scores", p) for p in self.scores] + [("compare", p) for p in self.compare]
        roles += [("mixup", p) for p in self.mixup]
        return roles + ([("extended", self.extended)] if self.extended else [])


@dataclass(frozen=True)
class NoOptions:
    """For metrics without options."""


def _parse_bool(text: str) -> bool:
    lowered = text.strip().lower()
    if lowered in ("1", "true", "yes", "on"):
        return True
    if lowered in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"not a yes/no value: {text!r}")


def _parse_floats(text: str) -> tuple[float, ...]:
    return tuple(float(part) for part in text.split(",") if part.strip())


_PARSERS: dict[Any, Any] = {bool: _parse_bool, int: int, float: float, str: str, tuple[float, ...]: _parse_floats}


def _field_parser(annotation: Any) -> Any:
    if typing.get_origin(annotation) is typing.Literal:
        choices = typing.get_args(annotation)

        def choose(text: str) -> str:
            if text not in choices:
                raise ValueError(f"{text!r} is not one of {', '.join(map(str, choices))}")
            return text

        return choose
    if annotation not in _PARSERS:
        raise MtprobesError(f"option type {annotation!r} has no parser")
    return _PARSERS[annotation]


def parse_options(options_class: type, raw: Mapping[str, Any], metric: str) -> Any:
    """Build ``options_class`` from strings (CLI ``-O key=value``) or typed values; unknown keys are errors."""
    hints = typing.get_type_hints(options_class)
    known = {f.name for f in fields(options_class)}
    values: dict[str, Any] = {}
    for key, value in raw.items():
        name = key.replace("-", "_")
        if name not in known:
            listing = ", ".join(sorted(known)) or "none"
            raise UsageError(f"{metric}: unknown option {key!r}{did_you_mean(name, known)} (options: {listing})")
        try:
            if isinstance(value, str):
                values[name] = _field_parser(hints[name])(value)
            else:  # typed already (Python callers, or a result's JSON where tuples came back as lists)
                values[name] = tuple(value) if isinstance(value, list) else value
        except ValueError as err:
            raise UsageError(f"{metric}: option {key}: {err}") from None
    return options_class(**values)


def sha256_prefix(path: Path) -> str:
    from builders.core.context import sha256_file

    return sha256_file(path)[:HASH_CHARS]


def _format_option(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple):
        return ",".join(f"{v:g}" if isinstance(v, float) else str(v) for v in value)
    return str(value)


class Metric(ABC):
    """One metric family: reads its inputs, computes one JSON-ready result, renders it."""

    name: ClassVar[str]
    title: ClassVar[str]  # heading of the metric's section in `mtprobes report`
    version: ClassVar[str] = "1"
    paper: ClassVar[str]
    higher_is_better: ClassVar[bool]  # direction of the headline figure (accuracy, TC, Δ-awareness ...)
    headline: ClassVar[str]  # key of the headline figure in the result
    options_class: ClassVar[type] = NoOptions
    score_files: ClassVar[str]  # how many --scores files, in words, for errors and --list
    accepts: ClassVar[frozenset[str]] = frozenset()  # optional inputs this metric reads (compare, mixup, ...)

    def __init__(self, options: Any = None) -> None:
        self.options = options if options is not None else self.options_class()
        if not isinstance(self.options, self.options_class):
            raise MtprobesError(f"{self.name}: options must be {self.options_class.__name__}")

    @classmethod
    def from_options(cls, raw: Mapping[str, Any]) -> Metric:
        return cls(parse_options(cls.options_class, raw, cls.name))

    @classmethod
    def describe(cls) -> str:
        direction = "higher is better" if cls.higher_is_better else "lower is better"
        options = ", ".join(f"{f.name}={_format_option(f.default)}" for f in fields(cls.options_class))
        extra = f"; also --{', --'.join(sorted(cls.accepts))}" if cls.accepts else ""
        return (
            f"{cls.name} v{cls.version}: {cls.paper}\n    headline {cls.headline} ({direction}); "
            f"--scores: {cls.score_files}{extra}\n    options: {options or 'none'}"
        )

    # --- to implement ---------------------------------------------------------------------------------------
    @abstractmethod
    def compute(self, inputs: MetricInputs) -> dict[str, Any]:
        """The metric's figures from the inputs (already checked for unexpected optional inputs)."""

    @abstractmethod
    def render_markdown(self, result: Mapping[str, Any]) -> str:
        """The paper-style table(s) of one result, without the signature line."""

    # --- shared ---------------------------------------------------------------------------------------------
    def evaluate(self, inputs: MetricInputs, system: str = "system") -> dict[str, Any]:
        unexpected = sorted(inputs.given() - self.accepts)
        if unexpected:
            raise UsageError(f"{self.name} does not read --{', --'.join(unexpected)}")
        result = self.compute(inputs)
        return {
            "kind": self.name,
            "system": system,
            "signature": self.signature(inputs),
            "higher_is_better": self.higher_is_better,
            "options": self.option_values(),
            **result,
        }

    def option_values(self) -> dict[str, Any]:
        return {key: list(v) if isinstance(v, tuple) else v for key, v in dataclasses.asdict(self.options).items()}

    def signature(self, inputs: MetricInputs) -> str:
        from builders import __version__

        parts = [self.name, f"v:{self.version}", f"mtprobes:{__version__}"]
        parts += [f"{f.name}:{_format_option(getattr(self.options, f.name))}" for f in fields(self.options_class)]
        parts += [f"{role}:{path.name}@{sha256_prefix(path)}" for role, path in inputs.files()]
        return "|".join(parts)

    def render(self, result: Mapping[str, Any]) -> str:
        """Markdown table(s) followed by the signature line."""
        return self.render_markdown(result) + f"\nSignature: `{result.get('signature', '-')}`\n"

    @staticmethod
    def render_json(result: Mapping[str, Any]) -> str:
        return json.dumps(result, indent=1, ensure_ascii=False) + "\n"


def require_count(metric: str, paths: Sequence[Path], allowed: Sequence[int], what: str) -> None:
    """A clear error when a metric gets the wrong number of files for one input."""
    if len(paths) not in allowed:
        raise UsageError(f"{metric} takes {what}; got {len(paths)} file(s)")
