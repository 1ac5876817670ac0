"""Optional helpers around other packages: the pronouns builder's word aligners (used unless ``aligner: unique``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from builders.core.compat import Probe, probe_module
from builders.core.context import BuildContext
from builders.core.errors import MtprobesError
from builders.variations.config import VariationsConfig

if TYPE_CHECKING:
    from builders.pronouns.align import Lines


def aligner_probe(aligner: str) -> Probe:
    """The aligner module of the pronouns builder must import, and eflomal itself when it is the aligner."""
    module = probe_module("builders.pronouns.align")
    if not module.available or aligner != "eflomal":
        return module
    return probe_module("eflomal")


def word_alignment(english: Lines, german: Lines, config: VariationsConfig,
                   ctx: BuildContext) -> Iterator[tuple[tuple[int, int], ...]]:
    """Links between English spaCy tokens and German regex tokens of every non-empty line, in order, from
    their aligner lines (``align.aligner_line``); symmetrised one line at a time as they are taken.

    The links are cached by corpus hash (the pronouns aligner's cache): for eflomal, which is not seeded, the
    cache is what makes a rebuild byte-identical; the default ``diagonal`` aligner gives the same links anyway.
    """
    probe = aligner_probe(config.aligner)
    if not probe.available:
        raise MtprobesError(f"config key 'aligner': {config.aligner} alignment is not available ({probe.reason})")
    from builders.pronouns.align import AlignSettings, aligner_version, iter_symmetrised, lines_links, links_origin

    cache = Path(config.alignment_cache).expanduser() if config.alignment_cache else (
        ctx.work_dir.parent / ".align-cache")
    lines = lines_links(english, german, aligner=config.aligner, settings=AlignSettings(), cache_dirs=[cache])
    ctx.add_tool("aligner", aligner_version(config.aligner))
    ctx.add_tool("alignment_links", links_origin(config.aligner, [lines.cached]))
    ctx.notes["alignment_cache_key"] = lines.key
    pairs = zip(lines.forward, lines.reverse, strict=True)
    return (tuple(sorted(link)) for link in iter_symmetrised(pairs, "grow-diag-final-and"))
