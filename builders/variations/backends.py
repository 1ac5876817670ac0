"""Optional helpers around other packages: the pronouns builder's eflomal aligner (used only when asked for)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from builders.core.compat import Probe, probe_module
from builders.core.context import BuildContext
from builders.core.errors import MtprobesError
from builders.variations.config import VariationsConfig
from builders.variations.text import tokenize


def aligner_probe() -> Probe:
    """The aligner module of the pronouns builder and eflomal itself must both import."""
    module = probe_module("builders.pronouns.align")
    if not module.available:
        return module
    return probe_module("eflomal")


def eflomal_alignment(pairs: list[tuple[str, int, str, str]], analysed: dict[int, tuple[Any, ...]],
                      config: VariationsConfig, ctx: BuildContext) -> dict[int, tuple[tuple[int, int], ...]]:
    """Links between English spaCy tokens and German regex tokens, per non-empty line index.

    The links are cached (the pronouns aligner caches by corpus hash) because eflomal is not seeded:
    the cache is what makes a rebuild byte-identical.
    """
    probe = aligner_probe()
    if not probe.available:
        raise MtprobesError(f"config key 'aligner': eflomal alignment is not available ({probe.reason})")
    from builders.pronouns.align import AlignSettings, align_corpus

    indices = sorted(analysed)
    english = [[t.text for t in analysed[i]] for i in indices]
    german = [[t.text for t in tokenize(pairs[i][3])] for i in indices]
    cache = Path(config.align_cache_dir).expanduser() if config.align_cache_dir else (
        ctx.work_dir.parent / ".align-cache")
    links, key = align_corpus(english, german, aligner="eflomal", symmetrise="grow-diag-final-and",
                              settings=AlignSettings(), cache_dirs=[cache])
    ctx.add_tool("eflomal", probe.version)
    ctx.notes["alignment_cache_key"] = key
    return {i: tuple(sorted(link)) for i, link in zip(indices, links, strict=True)}
