"""Word alignment of a corpus in shards of whole documents, each shard a task on the build's executor.

eflomal's accuracy grows with the amount of text it sees, so small shards align worse on their own. With
``align_shard_priors`` the first shard is aligned first and the eflomal priors learnt from it are given to all
other shards (beside the seed lexicon and ``priors_in``), which keeps small shards close to a one-shard run.
The shard plan depends on the config only (``align_shard_docs``), never on the executor or the worker count;
every shard's links are cached under its own key like a whole-corpus alignment.
"""

from __future__ import annotations

import hashlib
import subprocess
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from builders.core.context import BuildContext
from builders.core.errors import MtprobesError
from builders.pronouns.align import AlignSettings, lines_links
from builders.pronouns.align import LinkLines as ShardLinks

LinkLines = tuple[list[str], list[str]]  # the forward and reverse link lines, one per segment


@dataclass(frozen=True)
class AlignShard:
    src: tuple[str, ...]  # aligner lines (align.aligner_lines)
    tgt: tuple[str, ...]
    rel_iterations: float  # eflomal's relative iteration count for this shard (see shard_iterations)


@dataclass(frozen=True)
class AlignJob:
    aligner: str
    settings: AlignSettings
    cache_dirs: tuple[Path, ...]


def align_shard(shard: AlignShard, job: AlignJob) -> ShardLinks:
    """A module-level task: the link lines of one shard (and its cache key), on whichever worker runs it.

    eflomal's sampler is random and its binary crashed once (SIGSEGV) on a shard aligned with first-shard priors
    in the x8 benchmark, not reproducibly: a crash is retried once, then reported as one line."""
    settings = replace(job.settings, rel_iterations=shard.rel_iterations)
    crashes = 0
    while True:
        try:
            return lines_links(shard.src, shard.tgt, aligner=job.aligner, settings=settings,
                               cache_dirs=job.cache_dirs)
        except subprocess.CalledProcessError as error:
            crashes += 1
            if crashes > 1 or error.returncode >= 0:  # an error exit, or a second crash: not a fluke
                raise MtprobesError(f"{job.aligner} failed on an alignment shard of {len(shard.src)} segments "
                                    f"(exit status {error.returncode}); rerun with --resume, or set "
                                    "align_shard_priors: false") from error


def shard_iterations(rel_iterations: float, shard_sentences: int, corpus_sentences: int) -> float:
    """eflomal runs about ``rel_iterations * 5000 / sqrt(sentences)`` sampling iterations: a shard aligned on its
    own would get sqrt(corpus / shard) times more per sentence than the whole corpus (measured: shards of 10
    TED talks made the alignment 1.9x slower in total). Scaled this way every shard gets the whole corpus's
    iteration count, so sharding divides the work instead of multiplying it."""
    return rel_iterations * (shard_sentences / max(1, corpus_sentences)) ** 0.5


def shard_bounds(segments_per_document: Sequence[int], docs_per_shard: int) -> list[tuple[int, int]]:
    """(first, stop) segment positions of each shard of ``docs_per_shard`` whole documents."""
    bounds, first = [], 0
    for start in range(0, len(segments_per_document), docs_per_shard):
        stop = first + sum(segments_per_document[start : start + docs_per_shard])
        bounds.append((first, stop))
        first = stop
    return [(a, b) for a, b in bounds if b > a]


def align_in_shards(src: Sequence[str], tgt: Sequence[str], bounds: Sequence[tuple[int, int]],
                    job: AlignJob, priors_from_first: bool, ctx: BuildContext) -> tuple[LinkLines, list[ShardLinks]]:
    """Forward and reverse link lines of every segment (aligner lines ``src``/``tgt``) in corpus order, and
    every shard's own link lines (its cache key, whether cached)."""
    rel = job.settings.rel_iterations
    shards = [AlignShard(tuple(src[a:b]), tuple(tgt[a:b]), shard_iterations(rel, b - a, len(src)))
              for a, b in bounds]
    results = list(shard_results(shards, job, priors_from_first, ctx))
    forward = [line for shard in results for line in shard.forward]
    reverse = [line for shard in results for line in shard.reverse]
    return (forward, reverse), results


def shard_results(shards: Sequence[AlignShard], job: AlignJob, priors_from_first: bool,
                  ctx: BuildContext) -> Iterator[ShardLinks]:
    """Each shard's link lines (its cache key, whether cached), in shard order, one at a time as they come:
    ``shards`` may be made as they are taken (plan.py reads them from the work folder)."""
    rest_job = job
    if priors_from_first and len(shards) > 1:
        priors = ctx.work_dir / "alignment" / "first-shard.priors"
        first_job = replace(job, settings=replace(job.settings, priors_out=str(priors)))
        yield from ctx.imap(align_shard, shards[:1], first_job)
        digest = hashlib.sha256(priors.read_bytes()).hexdigest()[:16]
        # the cache key of a shard does not see the priors: shards aligned with these priors get their own folder
        rest_job = replace(job, settings=replace(job.settings, priors_in=(*job.settings.priors_in, str(priors))),
                           cache_dirs=tuple(d / f"priors-{digest}" for d in job.cache_dirs))
        shards = shards[1:]
    yield from ctx.imap(align_shard, shards, rest_job)
