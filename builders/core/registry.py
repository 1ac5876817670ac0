"""Versioned registry of builders (``pronouns.v1`` ...), imported lazily with "did you mean" on typos."""

from __future__ import annotations

import difflib
import importlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from builders.core.errors import MtprobesError, UnknownBuilderError

if TYPE_CHECKING:
    from builders.core.builder import Builder


@dataclass(frozen=True)
class RegistryEntry:
    name: str
    target: str  # "module.path:ClassName", imported on first use
    summary: str


# One line per builder. Classes are imported only when a builder is asked for, so `mtprobes ls` stays fast.
_ENTRIES: dict[str, RegistryEntry] = {}


def register(name: str, target: str, summary: str) -> None:
    if name in _ENTRIES and _ENTRIES[name].target != target:
        raise MtprobesError(f"builder name {name!r} is registered twice")
    family, _, version = name.rpartition(".")
    if not family or not version.startswith("v") or not version[1:].isdigit():
        raise MtprobesError(f"builder name {name!r} must look like 'family.vN'")
    _ENTRIES[name] = RegistryEntry(name, target, summary)


register(
    "shuffles.v1",
    "builders.shuffles.builder:ShufflesBuilder",
    "Incongruent image pairings (seeded derangements) for image-awareness tests (Elliott 2018)",
)
register(
    "pronouns.v1",
    "builders.pronouns.builder:PronounsBuilder",
    "EN 'it' -> DE er/sie/es (tgt_lang fr: 'it'/'they' -> il/elle/ils/elles) contrastive sets filtered by parse, "
    "alignment and coreference (ContraPro)",
)
register(
    "variations.v1",
    "builders.variations.builder:VariationsBuilder",
    "DEL/INS/SUBNUM/SUBGEN minimal-pair variations of parallel text (Fadaee & Monz 2020)",
)
register(
    "commute_ext.v1",
    "builders.commute_ext.builder:CommuteExtBuilder",
    "CoMMuTE extended with CLIP+FAISS retrieved images per translation (Kashani Motlagh et al. 2024)",
)


def did_you_mean(name: str, choices: Iterable[str]) -> str:
    """"; did you mean 'x'?" for the closest choices, or "" when none is close."""
    close = difflib.get_close_matches(name, sorted(choices), n=3, cutoff=0.5)
    return f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""


def entries() -> list[RegistryEntry]:
    return [_ENTRIES[k] for k in sorted(_ENTRIES)]


def resolve_name(name: str) -> str:
    """Accept the full name or a bare family (latest version); raise with suggestions otherwise."""
    if name in _ENTRIES:
        return name
    versions = sorted((k for k in _ENTRIES if k.rpartition(".")[0] == name), key=lambda k: int(k.split(".v")[-1]))
    if versions:
        return versions[-1]
    hint = did_you_mean(name, _ENTRIES)
    raise UnknownBuilderError(f"unknown builder {name!r}{hint} (known: {', '.join(sorted(_ENTRIES))})")


def get_builder_class(name: str) -> type[Builder]:
    from builders.core.builder import Builder

    entry = _ENTRIES[resolve_name(name)]
    module_name, _, class_name = entry.target.partition(":")
    module = importlib.import_module(module_name)
    cls = getattr(module, class_name)
    if not (isinstance(cls, type) and issubclass(cls, Builder)):
        raise MtprobesError(f"{entry.target} registered as {entry.name!r} is not a Builder subclass")
    if cls.name != entry.name:
        raise MtprobesError(f"{entry.target} declares name {cls.name!r} but is registered as {entry.name!r}")
    return cls
