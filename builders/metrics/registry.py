"""One generic, typed registry: names -> lazily imported objects, with "did you mean" on typos.

Entries are ``module:attribute`` strings imported on first use, so listing or importing the registry loads no
metric code; :data:`METRICS` holds the metric classes that `mtprobes evaluate` runs.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar

from builders.core.errors import MtprobesError, UsageError
from builders.core.registry import did_you_mean

if TYPE_CHECKING:
    from builders.metrics.base import Metric

T = TypeVar("T")


@dataclass(frozen=True)
class Entry:
    name: str
    target: str  # "module.path:attribute"
    summary: str


class Registry(Generic[T]):
    """Named entries of one kind (``what`` names it in errors); ``base`` is the type every entry must have."""

    def __init__(self, what: str, base: type[T]) -> None:
        self.what = what
        self.base = base
        self._entries: dict[str, Entry] = {}

    def add(self, name: str, target: str, summary: str) -> None:
        known = self._entries.get(name)
        if known is not None and known.target != target:
            raise MtprobesError(f"{self.what} {name!r} is registered twice ({known.target}, {target})")
        if ":" not in target:
            raise MtprobesError(f"{self.what} {name!r}: target must look like 'module:attribute', got {target!r}")
        self._entries[name] = Entry(name, target, summary)

    def names(self) -> list[str]:
        return sorted(self._entries)

    def entries(self) -> Iterator[Entry]:
        return (self._entries[name] for name in self.names())

    def get(self, name: str) -> T:
        entry = self._entries.get(name)
        if entry is None:
            hint = did_you_mean(name, self._entries)
            raise UsageError(f"unknown {self.what} {name!r}{hint} (known: {', '.join(self.names())})")
        module_name, _, attribute = entry.target.partition(":")
        item = getattr(importlib.import_module(module_name), attribute)
        if not (isinstance(item, type) and issubclass(item, self.base)):
            raise MtprobesError(f"{self.what} {name!r}: {entry.target} is not a {self.base.__name__}")
        return item  # type: ignore[return-value]


def _metric_registry() -> Registry[type[Metric]]:
    from builders.metrics.base import Metric

    registry: Registry[type[Metric]] = Registry("metric", Metric)  # type: ignore[arg-type]
    registry.add(
        "contrapro",
        "builders.metrics.contrapro_metric:ContraProMetric",
        "ContraPro accuracy, by pronoun, antecedent location and distance (Müller et al. 2018, Tables 6-8)",
    )
    registry.add(
        "commute",
        "builders.metrics.commute_metric:CommuteMetric",
        "TC/IC/GTC/GIC, mixup rates, failure IoU, image oracle (Kashani Motlagh et al. 2024, Tables 1-5)",
    )
    registry.add(
        "commute-temperature",
        "builders.metrics.commute_metric:CommuteTemperatureMetric",
        "TC/IC/GTC/GIC over softmax temperatures, with the plot (Kashani Motlagh et al. 2024, Fig. 5)",
    )
    registry.add(
        "awareness",
        "builders.metrics.awareness_metric:AwarenessMetric",
        "Δ-awareness, Wilcoxon per shuffle, Fisher's method (Elliott 2018, Sec. 3, Table 1)",
    )
    return registry


_METRICS: list[Registry[type[Metric]]] = []


def metrics() -> Registry[type[Metric]]:
    """The metric registry (built on first use, so importing this module imports no metric code)."""
    if not _METRICS:
        _METRICS.append(_metric_registry())
    return _METRICS[0]
