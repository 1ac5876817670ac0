"""``aligner: diagonal``: a deterministic word aligner (IBM Model 2 with a diagonal prior, trained by EM).

Why our own: eflomal seeds its Gibbs sampler from /dev/urandom and has no seed option (its C source reads
eight bytes from the device, or the clock when that fails), and its binary is compiled with -Ofast for the
installing machine's CPU. Two labs that build from the same corpus therefore get different links and different
sets. This aligner is the reparameterised IBM Model 2 of Dyer et al. (2013, "fast_align"): a lexical table
t(f | e) learnt by expectation maximisation, and a prior that favours links near the diagonal of the sentence
pair. It has no randomness, and its arithmetic is only +, -, *, / and in-order sums (``np.bincount``,
``np.add.at``), which IEEE-754 rounds the same way on every machine: the same corpus gives the same links
everywhere.

Choices that differ from fast_align, each to keep the arithmetic exact: the diagonal kernel is rational,
``1 / (1 + tension * |i/m - j/n|)^2`` instead of an exponential (numpy's exp is vectorised per CPU and may
differ in the last bit), the tension is fixed instead of re-estimated, and the lexical table is smoothed by
add-alpha instead of variational Bayes (no digamma). LEX lines of eflomal's priors format add pseudo-counts
to the lexical table, so the bundled seed lexicons and ``priors_in`` files work as they did with eflomal.
"""

from __future__ import annotations

import shutil
from array import array
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

# Bumped whenever a change to this file can change a link: it is part of every build's signature.
ALGORITHM_VERSION = "1"


@dataclass(frozen=True)
class DiagonalSettings:
    iterations: int = 5
    # how strongly the prior favours the diagonal: fast_align starts at 4; at 4 an object "it" in a short
    # sentence ("She rides it every day." / "Elle la prend ...") took the subject pronoun of the French side
    # (our FR gold file, development data); 8 links it right and keeps as many English "it" linked to a
    # German pronoun on IWSLT17 dev (954 of 1,395 at 8, 961 at 4; eflomal: 831)
    tension: float = 8.0
    null_probability: float = 0.08  # prior probability that a word is left unaligned
    smoothing: float = 0.01  # add-alpha smoothing of the lexical table
    # pairs per block of whole sentences (memory only: any block size gives the same links, see pair_table)
    block_pairs: int = 1 << 18
    # a table of more pairs than this keeps its blocks on disk when the caller gives a folder (memory only: the
    # bytes read back are the bytes written, so the links are the same; see BlockFiles)
    spill_pairs: int = 1 << 22


@dataclass(frozen=True)
class Encoded:
    """One side of the corpus as word ids: ``ids`` of every token in order, ``lengths`` per sentence."""

    ids: np.ndarray
    lengths: np.ndarray
    vocabulary: dict[str, int]

    @property
    def starts(self) -> np.ndarray:
        return np.cumsum(self.lengths) - self.lengths


def encode(lines: Iterable[str]) -> Encoded:
    """Word ids in order of first occurrence (so the ids, and every tie-break, depend on the text alone). The
    lines are read once, in order (a file's lines, read as they come): the ids are kept as 8 bytes per token,
    never as Python objects."""
    vocabulary: dict[str, int] = {}
    ids, lengths = array("q"), array("q")
    for line in lines:
        words = line.split()
        lengths.append(len(words))
        ids.extend(vocabulary.setdefault(word, len(vocabulary)) for word in words)
    return Encoded(np.frombuffer(ids, dtype=np.int64), np.frombuffer(lengths, dtype=np.int64), vocabulary)


@dataclass(frozen=True)
class PairBlock:
    """Every (target token, candidate source position) of a run of whole sentences, flattened: position 0 is the
    null word, so a token's pairs start where the position is 0. ``pair_id`` is the index of each pair's
    (source word, target word) in the lexical table, ``prior`` its diagonal prior. Positions and ids are stored
    as narrow integers: no arithmetic is done on them, so their width cannot change a link."""

    first_token: int  # the corpus index of the block's first target token
    position: np.ndarray
    pair_id: np.ndarray
    prior: np.ndarray

    @property
    def token(self) -> np.ndarray:
        """The block's own index of each pair's target token (0 is the block's first token); made when needed,
        which costs less than keeping it."""
        return np.cumsum(self.position == 0) - 1


class BlockFiles(Sequence[PairBlock]):
    """The blocks of a large table on disk, one file each, read back one at a time as EM and the decoding walk
    through them (issue 26: the driver's memory no longer grows with the corpus by 14 bytes per pair). The
    arrays are written and read whole (``np.save``/``np.load``): the same bits come back."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.folder = folder
        self._first_tokens: list[int] = []

    def append(self, block: PairBlock) -> None:
        with (self.folder / f"block-{len(self._first_tokens)}.npy").open("wb") as handle:
            for values in (block.position, block.pair_id, block.prior):
                np.save(handle, values, allow_pickle=False)
        self._first_tokens.append(block.first_token)

    def __len__(self) -> int:
        return len(self._first_tokens)

    def __getitem__(self, number: int) -> PairBlock:  # type: ignore[override]  # blocks are not sliced
        with (self.folder / f"block-{number}.npy").open("rb") as handle:
            position, pair_id, prior = (np.load(handle, allow_pickle=False) for _ in range(3))
        return PairBlock(self._first_tokens[number], position, pair_id, prior)

    def __iter__(self) -> Iterator[PairBlock]:
        return (self[number] for number in range(len(self)))

    def remove(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)


@dataclass(frozen=True)
class PairTable:
    """The blocks of pairs, and the lexical table's entries: ``lexicon_key`` the sorted key of each entry
    (``source word * (target vocabulary + 1) + target word``) and ``lexicon_source`` its source word (the null
    word is ``len(source vocabulary)``)."""

    blocks: Sequence[PairBlock]
    lexicon_key: np.ndarray
    lexicon_source: np.ndarray


def sentence_blocks(source: Encoded, target: Encoded, block_pairs: int) -> list[tuple[int, int]]:
    """(first, stop) sentences of each block: whole sentences, about ``block_pairs`` pairs each (a longer
    sentence is a block of its own)."""
    pairs = np.cumsum(target.lengths * (source.lengths + 1))
    bounds, first = [], 0
    while first < len(pairs):
        done = pairs[first - 1] if first else 0
        stop = max(first + 1, int(np.searchsorted(pairs, done + block_pairs, side="right")))
        bounds.append((first, stop))
        first = stop
    return bounds


@dataclass(frozen=True)
class _BlockPairs:
    """A block's pairs before the lexical table exists: int64 keys, and what the prior is made of."""

    token: np.ndarray
    position: np.ndarray
    keys: np.ndarray
    m: np.ndarray  # source length, target position j and target length n of each pair
    j: np.ndarray
    n: np.ndarray


def _block_pairs(source: Encoded, target: Encoded, sentences: tuple[int, int]) -> _BlockPairs:
    first, stop = sentences
    src_lengths, tgt_lengths = source.lengths[first:stop], target.lengths[first:stop]
    src_starts, tgt_starts = source.starts[first:stop], target.starts[first:stop]
    tgt_first = int(tgt_starts[0]) if len(tgt_starts) else 0
    sentence_of_token = np.repeat(np.arange(stop - first), tgt_lengths)
    j = np.arange(len(sentence_of_token)) - np.repeat(tgt_starts - tgt_first, tgt_lengths)
    m = src_lengths[sentence_of_token]
    width = m + 1
    token = np.repeat(np.arange(len(sentence_of_token)), width)
    position = np.arange(len(token)) - np.repeat(np.cumsum(width) - width, width)
    source_index = np.repeat(src_starts[sentence_of_token], width) + position - 1
    null_word = len(source.vocabulary)
    source_word = np.where(position > 0, source.ids[np.maximum(source_index, 0)], null_word)
    target_word = target.ids[tgt_first + token]
    keys = source_word * (len(target.vocabulary) + 1) + target_word
    return _BlockPairs(token, position, keys, np.repeat(m, width), np.repeat(j, width),
                       np.repeat(tgt_lengths[sentence_of_token], width))


def pair_table(source: Encoded, target: Encoded, settings: DiagonalSettings, spill: Path | None = None
               ) -> PairTable:
    """The table in blocks of ``settings.block_pairs`` pairs (2 MB per float64 array at the default), built,
    trained and decoded one block at a time: the aligner keeps 14 bytes per pair (prior, table entry, position)
    and one block's temporaries, instead of about ten float64/int64 arrays over the whole corpus (62 KB per
    IWSLT17 segment before, 21 KB after, measured); with a ``spill`` folder, a table of more than
    ``settings.spill_pairs`` pairs keeps those 14 bytes on disk too (BlockFiles). The lexical table's entries
    are the sorted distinct keys of the whole corpus, so a pair's id (its key's index among them) is the one a
    single ``np.unique`` over the corpus would give."""
    bounds = sentence_blocks(source, target, settings.block_pairs)
    keys = lexicon_keys(source, target, bounds)
    id_type = np.int32 if len(keys) < 2**31 else np.int64
    position_type = np.int16 if int(source.lengths.max(initial=0)) < 2**15 else np.int32
    pairs_in_all = int(np.dot(target.lengths, source.lengths + 1))
    blocks: list[PairBlock] | BlockFiles = (
        BlockFiles(spill) if spill is not None and pairs_in_all > settings.spill_pairs else [])
    for first, stop in bounds:
        pairs = _block_pairs(source, target, (first, stop))
        prior = _diagonal_prior(pairs.position, pairs.m, pairs.j, pairs.n, pairs.token, settings)
        blocks.append(PairBlock(int(target.starts[first]), pairs.position.astype(position_type),
                                np.searchsorted(keys, pairs.keys).astype(id_type), prior))
    return PairTable(blocks, keys, keys // (len(target.vocabulary) + 1))


def lexicon_keys(source: Encoded, target: Encoded, bounds: Sequence[tuple[int, int]]) -> np.ndarray:
    """The sorted distinct pair keys of the whole corpus, merged block by block: what is held is the keys found
    so far and the blocks' distinct keys since the last merge (at most about as many), never one array per
    block over the whole corpus. Sorted distinct values are the same whatever the merge order."""
    keys = np.zeros(0, dtype=np.int64)
    waiting: list[np.ndarray] = []
    for bound in bounds:
        waiting.append(np.unique(_block_pairs(source, target, bound).keys))
        if sum(len(w) for w in waiting) > len(keys):
            keys = np.unique(np.concatenate([keys, *waiting]))
            waiting = []
    return np.unique(np.concatenate([keys, *waiting]))


def _diagonal_prior(position: np.ndarray, m: np.ndarray, j: np.ndarray, n: np.ndarray, token: np.ndarray,
                    settings: DiagonalSettings) -> np.ndarray:
    """P(source position | target position j, lengths m and n): ``null_probability`` for the null word, the
    rest spread over the m source words by the rational diagonal kernel. Each token's pairs lie in one block,
    so its sum is the same in a block as over the whole corpus."""
    distance = np.abs(position / m - (j + 1) / n)
    kernel = np.where(position > 0, 1.0 / np.square(1.0 + settings.tension * distance), 0.0)
    total = np.bincount(token, weights=kernel)
    return np.where(position > 0, (1.0 - settings.null_probability) * kernel / total[token],
                    settings.null_probability)


def lexicon_pseudo_counts(table: PairTable, source: Encoded, target: Encoded,
                          lexicon: Sequence[tuple[str, str, float]]) -> np.ndarray:
    """Pseudo-counts per lexical-table entry from (source word, target word, alpha) prior lines."""
    counts = np.zeros(len(table.lexicon_key), dtype=np.float64)
    width = len(target.vocabulary) + 1
    entries = table.lexicon_key
    wanted: dict[int, float] = {}
    for source_word, target_word, alpha in lexicon:
        s, t = source.vocabulary.get(source_word), target.vocabulary.get(target_word)
        if s is not None and t is not None:
            key = s * width + t
            wanted[key] = wanted.get(key, 0.0) + alpha
    if wanted:
        keys = np.fromiter(sorted(wanted), dtype=np.int64)
        found = np.searchsorted(entries, keys)
        present = (found < len(entries)) & (entries[np.minimum(found, len(entries) - 1)] == keys)
        counts[found[present]] = np.asarray([wanted[int(k)] for k in keys[present]], dtype=np.float64)
    return counts


def expected_counts(table: PairTable, translation: np.ndarray) -> np.ndarray:
    """The E step: the posterior of every pair, summed per table entry in corpus order. ``np.add.at`` adds one
    pair after the other into the running sums, block after block: the same additions in the same order as one
    ``np.bincount`` over the whole corpus, so the same bits."""
    counts = np.zeros(len(translation), dtype=np.float64)
    for block in table.blocks:
        token = block.token
        weight = translation[block.pair_id] * block.prior
        weight /= np.bincount(token, weights=weight)[token]
        np.add.at(counts, block.pair_id, weight)
    return counts


def train_lexicon(table: PairTable, pseudo_counts: np.ndarray, target_vocabulary: int,
                  settings: DiagonalSettings) -> np.ndarray:
    """EM on the lexical table t(f | e): ``iterations`` rounds from a uniform table; returns t, one value per
    table entry."""
    translation = np.ones(len(table.lexicon_key), dtype=np.float64)
    for _ in range(settings.iterations):
        counts = expected_counts(table, translation) + pseudo_counts
        totals = np.bincount(table.lexicon_source, weights=counts)
        translation = (counts + settings.smoothing) / (
            totals[table.lexicon_source] + settings.smoothing * target_vocabulary)
    return translation


def viterbi_positions(table: PairTable, translation: np.ndarray, tokens: int) -> np.ndarray:
    """The best source position of every target token (0: unaligned); ties go to the lower position."""
    positions = np.zeros(tokens, dtype=np.int64)
    for block in table.blocks:
        token = block.token
        score = translation[block.pair_id] * block.prior
        starts = np.flatnonzero(block.position == 0)
        best = np.maximum.reduceat(score, starts)
        first = np.flatnonzero(score == best[token])
        chosen_tokens, chosen = np.unique(token[first], return_index=True)
        positions[block.first_token + chosen_tokens] = block.position[first[chosen]]
    return positions


def direction_links(source: Encoded, target: Encoded, lexicon: Sequence[tuple[str, str, float]],
                    settings: DiagonalSettings, spill: Path | None = None) -> Iterator[list[tuple[int, int]]]:
    """Per sentence, (source index, target index) for every target word that is linked to a source word; one
    sentence at a time (the caller makes each its link line), so no whole-corpus list of tuples is held."""
    table = pair_table(source, target, settings, spill)
    try:
        translation = train_lexicon(table, lexicon_pseudo_counts(table, source, target, lexicon),
                                    len(target.vocabulary), settings)
        positions = viterbi_positions(table, translation, len(target.ids))
    finally:
        if isinstance(table.blocks, BlockFiles):
            table.blocks.remove()
    del table  # the links below are Python objects: the table's arrays are no longer needed
    for start, length in zip(target.starts.tolist(), target.lengths.tolist(), strict=True):
        chosen = positions[start : start + length].tolist()
        yield [(i - 1, j) for j, i in enumerate(chosen) if i > 0]


def parse_lexicon_priors(text: str) -> list[tuple[str, str, float]]:
    """The LEX lines of eflomal's priors format (``LEX<TAB>source<TAB>target<TAB>alpha``); the HMM and
    fertility lines have no counterpart in this model and are skipped."""
    entries = []
    for line in text.splitlines():
        fields = line.split("\t")
        if len(fields) == 4 and fields[0] == "LEX":
            entries.append((fields[1], fields[2], float(fields[3])))
    return entries


def align_lines(src_lines: Iterable[str], tgt_lines: Iterable[str], lexicon: Sequence[tuple[str, str, float]],
                settings: DiagonalSettings | None = None, spill: Path | None = None) -> tuple[list[str], list[str]]:
    """Forward (each target word picks a source word) and reverse link lines, ``i-j`` in source-target order,
    as eflomal writes them. Each side's lines are read once, in order; ``spill``: a folder for the pair
    tables of a large corpus (removed after each direction)."""
    settings = settings or DiagonalSettings()
    source, target = encode(src_lines), encode(tgt_lines)
    forward_spill, reverse_spill = (None, None) if spill is None else (spill / "forward", spill / "reverse")
    # each direction becomes its lines at once: its links as tuples would outweigh the next direction's table
    forward = [_link_line(sentence) for sentence in direction_links(source, target, lexicon, settings,
                                                                    forward_spill)]
    reversed_lexicon = [(t, s, alpha) for s, t, alpha in lexicon]
    reverse = [_link_line([(i, j) for j, i in sentence])
               for sentence in direction_links(target, source, reversed_lexicon, settings, reverse_spill)]
    return forward, reverse


def _link_line(links: list[tuple[int, int]]) -> str:
    return " ".join(f"{i}-{j}" for i, j in sorted(links))
