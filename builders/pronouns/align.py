"""Word alignment over the whole corpus: both directions, symmetrised by our grow-diag-final-and.

Two aligners: ``diagonal`` (the default, align_diagonal.py) is deterministic, so the same corpus gives the same
links on every machine; ``eflomal`` seeds its sampler from /dev/urandom and has no seed option, so two runs differ
in some links. Links are cached by a hash of the tokenised corpus and the aligner settings: for eflomal the cache
is what makes a rebuild or a resumed build byte-identical, for ``diagonal`` it only saves time. A damaged cache
file is aligned again, with a warning. Priors can be written after aligning one corpus and read when aligning
another (eflomal's priors format; ``diagonal`` reads and writes its LEX lines), and a small bundled seed lexicon
adds LEX priors.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import itertools
import json
import logging
import shutil
import tempfile
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple, Protocol

from builders.core.atomic import write_text
from builders.core.errors import InputError
from builders.core.textio import iter_lines

LOG = logging.getLogger(__name__)
Link = tuple[int, int]
NEIGHBOURS = ((-1, 0), (0, -1), (1, 0), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1))


class Lines(Protocol):
    """Aligner lines: a list, or a file's lines read in order (variations.v1 streams them: issue 26). They
    are counted and read in order, a few times; never indexed."""

    def __len__(self) -> int: ...

    def __iter__(self) -> Iterator[str]: ...


@dataclass(frozen=True)
class AlignSettings:
    samplers: int = 1
    rel_iterations: float = 1.0
    priors_in: tuple[str, ...] = ()  # eflomal priors files (LEX/HMMF/HMMR/FERF/FERR lines)
    priors_out: str = ""


def parse_links(line: str) -> set[Link]:
    links = set()
    for pair in line.split():
        i, _, j = pair.partition("-")
        links.add((int(i), int(j)))
    return links


def grow_diag_final_and(forward: set[Link], reverse: set[Link]) -> set[Link]:
    """Koehn et al.'s symmetrisation: start from the intersection, grow into the union through neighbours,
    then add union links whose source and target words are both still unaligned."""
    alignment = forward & reverse
    union = forward | reverse
    aligned_src = {i for i, _ in alignment}
    aligned_tgt = {j for _, j in alignment}
    grown = True
    while grown:
        grown = False
        for i, j in sorted(alignment):
            for di, dj in NEIGHBOURS:
                link = (i + di, j + dj)
                joins_unaligned = link[0] not in aligned_src or link[1] not in aligned_tgt
                if link in union and link not in alignment and joins_unaligned:
                    alignment.add(link)
                    aligned_src.add(link[0])
                    aligned_tgt.add(link[1])
                    grown = True
    for direction in (forward, reverse):
        for i, j in sorted(direction):
            if i not in aligned_src and j not in aligned_tgt:
                alignment.add((i, j))
                aligned_src.add(i)
                aligned_tgt.add(j)
    return alignment


def intersection(forward: set[Link], reverse: set[Link]) -> set[Link]:
    return forward & reverse


SYMMETRISERS: dict[str, Callable[[set[Link], set[Link]], set[Link]]] = {
    "grow-diag-final-and": grow_diag_final_and,
    "intersection": intersection,
    "union": lambda forward, reverse: forward | reverse,
}


# eflomal's priors lines: tag -> (number of tab-separated fields, the integer fields); the last field is alpha
PRIORS_LINES = {"LEX": (4, ()), "HMMF": (3, (1,)), "HMMR": (3, (1,)), "FERF": (4, (2,)), "FERR": (4, (2,))}


def check_priors_file(path: Path) -> None:
    """A ``priors_in`` file in eflomal's format, or one error naming its file and line: the diagonal aligner
    skipped a line it could not read without a word, eflomal stopped with a traceback."""
    for number, line in enumerate(iter_lines(path), start=1):
        fields = line.split("\t")
        count, integers = PRIORS_LINES.get(fields[0], (0, ()))
        if len(fields) != count or not all(_is_number(fields[i], int) for i in integers) or not _is_number(
                fields[-1], float):
            raise InputError(path, "not a priors line: expected LEX<TAB>source<TAB>target<TAB>alpha (or eflomal's "
                                   "HMMF, HMMR, FERF, FERR lines)", line=number)


def _is_number(text: str, kind: Callable[[str], object]) -> bool:
    try:
        kind(text)
    except ValueError:
        return False
    return True


def corpus_key(src: Lines, tgt: Lines, settings: AlignSettings, aligner: str) -> str:
    digest = hashlib.sha256()
    # A deterministic aligner's version is part of the key: links cached by another version of its algorithm
    # must miss, not stand in for what this code computes (a shared home cache outlives upgrades). eflomal's
    # cache is the record of links no run can reproduce, so it is kept across eflomal versions.
    name = aligner_version(aligner) if ALIGNERS[aligner].deterministic else aligner
    digest.update(json.dumps([name, settings.samplers, settings.rel_iterations]).encode())
    for path in settings.priors_in:
        digest.update(Path(path).read_bytes())
    for line in itertools.chain(src, ("\x00",), tgt):  # read as they come, never gathered into one tuple
        digest.update(line.encode() + b"\n")
    return digest.hexdigest()[:24]


def aligner_lines(sentences: Sequence[Sequence[str]]) -> list[str]:
    """The aligner's input: one line of lower-cased tokens per sentence. eflomal needs one non-empty line per
    sentence; an empty one gets a placeholder that aligns to nothing useful."""
    return [aligner_line(s) for s in sentences]


def aligner_line(words: Sequence[str]) -> str:
    """One sentence's aligner line (``aligner_lines``)."""
    return " ".join(w.lower() for w in words) if words else "<empty>"


def eflomal_links(
    src_lines: Lines, tgt_lines: Lines, settings: AlignSettings, scratch: Path
) -> tuple[list[str], list[str]]:
    """Forward and reverse link lines (``i-j``, source-target order) for every pair of aligner lines (eflomal
    takes lists: it holds the whole corpus anyway)."""
    from eflomal import Aligner

    src_lines, tgt_lines = list(src_lines), list(tgt_lines)

    scratch.mkdir(parents=True, exist_ok=True)
    forward_file, reverse_file = scratch / "forward.links", scratch / "reverse.links"
    priors_file = _merged_priors(settings.priors_in, scratch)
    aligner = Aligner(n_samplers=settings.samplers, rel_iterations=settings.rel_iterations)
    with contextlib.ExitStack() as stack:
        priors = stack.enter_context(open(priors_file, encoding="utf-8")) if priors_file else None
        aligner.align(
            src_lines,
            tgt_lines,
            links_filename_fwd=str(forward_file),
            links_filename_rev=str(reverse_file),
            priors_input=priors,
            quiet=True,
        )
    forward = forward_file.read_text(encoding="utf-8").split("\n")[: len(src_lines)]
    reverse = reverse_file.read_text(encoding="utf-8").split("\n")[: len(src_lines)]
    shutil.rmtree(scratch, ignore_errors=True)
    return forward, reverse


def _merged_priors(paths: Sequence[str], scratch: Path) -> Path | None:
    """All priors files concatenated into one (eflomal reads one); None when there are none."""
    if not paths:
        return None
    merged = scratch / "priors.txt"
    merged.write_text(
        "".join(Path(p).expanduser().read_text(encoding="utf-8") for p in paths), encoding="utf-8"
    )
    return merged


def align_corpus(
    src: Sequence[Sequence[str]],
    tgt: Sequence[Sequence[str]],
    *,
    aligner: str,
    symmetrise: str,
    settings: AlignSettings,
    cache_dirs: Sequence[Path],
) -> tuple[list[set[Link]], LinkLines]:
    """Symmetrised links per sentence pair, and the link lines they came from (cache key, whether cached)."""
    lines = lines_links(aligner_lines(src), aligner_lines(tgt), aligner=aligner, settings=settings,
                        cache_dirs=cache_dirs)
    return symmetrised(list(zip(lines.forward, lines.reverse, strict=True)), symmetrise), lines


class LinkLines(NamedTuple):
    forward: list[str]
    reverse: list[str]
    key: str  # the cache key (corpus_key)
    cached: bool  # read from a cache rather than aligned by this call


def lines_links(
    src_lines: Lines,
    tgt_lines: Lines,
    *,
    aligner: str,
    settings: AlignSettings,
    cache_dirs: Sequence[Path],
) -> LinkLines:
    """Forward and reverse link lines of each pair of aligner lines (``aligner_lines``), before symmetrisation,
    and the cache key; read from the first cache that has them. The first cache (a build's work folder) always
    ends up holding them: a resumed build reads the links its checkpoints were made with, even after a shared
    cache was emptied (eflomal would otherwise sample other links without a word)."""
    key = corpus_key(src_lines, tgt_lines, settings, aligner)
    backend = ALIGNERS[aligner]
    cached = _cached(key, cache_dirs, len(src_lines))
    if cached is None:
        forward, reverse = backend.links(src_lines, tgt_lines, settings, cache_dirs[0] / f"scratch-{key}")
        missing_from = list(cache_dirs)
    else:
        forward, reverse = cached
        missing_from = [d for d in cache_dirs[:1] if not (d / f"{key}.json").is_file()]
    for directory in missing_from:
        write_text(directory / f"{key}.json", json.dumps({"forward": forward, "reverse": reverse}))
    if settings.priors_out:
        write_text(Path(settings.priors_out).expanduser(), backend.priors(src_lines, tgt_lines, forward, reverse))
    return LinkLines(forward, reverse, key, cached is not None)


def links_origin(aligner: str, cached: Sequence[bool]) -> str:
    """What the signature says of the links: a deterministic aligner's links are the same wherever they came
    from; eflomal's come from a cache (another run's sample, for all or some shards) or from this build's run."""
    if ALIGNERS[aligner].deterministic:
        return "deterministic"
    return "cache" if all(cached) else ("computed" if not any(cached) else "cache+computed")


def symmetrised(pairs: Iterable[tuple[str, str]], symmetrise: str) -> list[set[Link]]:
    """The links of each (forward, reverse) pair of link lines, combined by ``symmetrise`` (pronouns: by each
    unit for its own segments, so no whole-corpus pass runs on the driver)."""
    return list(iter_symmetrised(pairs, symmetrise))


def iter_symmetrised(pairs: Iterable[tuple[str, str]], symmetrise: str) -> Iterator[set[Link]]:
    """``symmetrised`` one pair at a time (variations.v1 attaches each line's links as they come)."""
    combine = SYMMETRISERS[symmetrise]
    return (combine(parse_links(forward), parse_links(reverse)) for forward, reverse in pairs)


def _cached(key: str, cache_dirs: Sequence[Path], lines: int) -> tuple[list[str], list[str]] | None:
    """The cached link lines of ``key``; a file that cannot be read back whole is aligned again (warned)."""
    for directory in cache_dirs:
        path = directory / f"{key}.json"
        if not path.is_file():
            continue
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            forward, reverse = data["forward"], data["reverse"]
            if len(forward) == len(reverse) == lines and all(isinstance(x, str) for x in (*forward, *reverse)):
                return forward, reverse
            problem = f"{len(forward)}/{len(reverse)} link lines for {lines} segments"
        except (ValueError, KeyError, TypeError, UnicodeDecodeError) as error:
            problem = f"{type(error).__name__}: {error}"
        LOG.warning("alignment cache %s is damaged (%s); aligning again", path, problem)
    return None


def diagonal_links(
    src_lines: Lines, tgt_lines: Lines, settings: AlignSettings, scratch: Path
) -> tuple[list[str], list[str]]:
    """Forward and reverse link lines of the deterministic ``diagonal`` aligner (LEX lines of the priors files
    are its lexical priors). A large corpus's pair tables go to ``scratch`` (removed after), not to memory."""
    from builders.pronouns.align_diagonal import align_lines, parse_lexicon_priors

    lexicon = [entry for path in settings.priors_in
               for entry in parse_lexicon_priors(Path(path).expanduser().read_text(encoding="utf-8"))]
    scratch.parent.mkdir(parents=True, exist_ok=True)
    # a folder of this call's own: two shards with the same text (the same key) may align at the same time
    spill = Path(tempfile.mkdtemp(prefix=f"{scratch.name}-", dir=scratch.parent))
    try:
        return align_lines(src_lines, tgt_lines, lexicon, spill=spill)
    finally:
        shutil.rmtree(spill, ignore_errors=True)


def diagonal_priors(
    src_lines: Lines, tgt_lines: Lines, forward: Sequence[str], reverse: Sequence[str]
) -> str:
    """LEX prior lines learnt from forward links: how often each (English word, target word) was linked."""
    pairs: Counter[tuple[str, str]] = Counter()
    for src, tgt, line in zip(src_lines, tgt_lines, forward, strict=True):
        src_words, tgt_words = src.split(), tgt.split()
        pairs.update((src_words[i], tgt_words[j]) for i, j in sorted(parse_links(line)))
    return "".join(f"LEX\t{e}\t{f}\t{count}\n" for (e, f), count in sorted(pairs.items()))


def eflomal_priors(
    src_lines: Lines, tgt_lines: Lines, forward: Sequence[str], reverse: Sequence[str]
) -> str:
    """eflomal priors (lexical, HMM, fertility) learnt from these links."""
    from eflomal import calculate_priors, write_priors

    buffer = io.StringIO()
    write_priors(buffer, *calculate_priors(list(src_lines), list(tgt_lines), forward, reverse))
    return buffer.getvalue()


LinksFunction = Callable[[Lines, Lines, AlignSettings, Path], tuple[list[str], list[str]]]


@dataclass(frozen=True)
class Aligner:
    links: LinksFunction
    priors: Callable[[Lines, Lines, Sequence[str], Sequence[str]], str]
    deterministic: bool  # the same corpus gives the same links on every machine (else: the cache keeps them)
    package: str  # the package that aligns ("": ours, versioned by align_diagonal.ALGORITHM_VERSION)


ALIGNERS: dict[str, Aligner] = {
    "diagonal": Aligner(diagonal_links, diagonal_priors, True, ""),
    "eflomal": Aligner(eflomal_links, eflomal_priors, False, "eflomal"),
}


def aligner_version(name: str) -> str:
    """``name-version`` for the build's tools and signature."""
    from builders.core.compat import package_version
    from builders.pronouns.align_diagonal import ALGORITHM_VERSION

    package = ALIGNERS[name].package
    return f"{name}-{package_version(package) if package else ALGORITHM_VERSION}"


def seed_lexicon_priors(lexicon_tsv: Path, out: Path, alpha: float = 2.0) -> Path:
    """LEX prior lines from a bundled ``english<TAB>german`` seed lexicon (words lower-cased as aligned)."""
    lines = []
    for raw in lexicon_tsv.read_text(encoding="utf-8").splitlines():
        if not raw.strip() or raw.startswith("#"):
            continue
        english, _, german_words = raw.partition("\t")
        for german in german_words.split(","):
            if german.strip():
                lines.append(f"LEX\t{english.strip().lower()}\t{german.strip().lower()}\t{alpha:g}\n")
    write_text(out, "".join(lines))
    return out
