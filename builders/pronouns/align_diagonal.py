"""``aligner: diagonal``: a deterministic word aligner (IBM Model 2 with a diagonal prior, trained by EM).

Why our own: eflomal seeds its Gibbs sampler from /dev/urandom and has no seed option (its C source reads
eight bytes from the device, or the clock when that fails), and its binary is compiled with -Ofast for the
installing machine's CPU. Two labs that build from the same corpus therefore get different links and different
sets. This aligner is the reparameterised IBM Model 2 of Dyer et al. (2013, "fast_align"): a lexical table
t(f | e) learnt by expectation maximisation, and a prior that favours links near the diagonal of the sentence
pair. It has no randomness, and its arithmetic is only +, -, *, / and in-order sums (``np.bincount``), which
IEEE-754 rounds the same way on every machine: the same corpus gives the same links everywhere.

Choices that differ from fast_align, each to keep the arithmetic exact: the diagonal kernel is rational,
``1 / (1 + tension * |i/m - j/n|)^2`` instead of an exponential (numpy's exp is vectorised per CPU and may
differ in the last bit), the tension is fixed instead of re-estimated, and the lexical table is smoothed by
add-alpha instead of variational Bayes (no digamma). LEX lines of eflomal's priors format add pseudo-counts
to the lexical table, so the bundled seed lexicons and ``priors_in`` files work as they did with eflomal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

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


@dataclass(frozen=True)
class Encoded:
    """One side of the corpus as word ids: ``ids`` of every token in order, ``lengths`` per sentence."""

    ids: np.ndarray
    lengths: np.ndarray
    vocabulary: dict[str, int]

    @property
    def starts(self) -> np.ndarray:
        return np.cumsum(self.lengths) - self.lengths


def encode(lines: Sequence[str]) -> Encoded:
    """Word ids in order of first occurrence (so the ids, and every tie-break, depend on the text alone)."""
    vocabulary: dict[str, int] = {}
    ids: list[int] = []
    lengths = np.zeros(len(lines), dtype=np.int64)
    for number, line in enumerate(lines):
        words = line.split()
        lengths[number] = len(words)
        ids.extend(vocabulary.setdefault(word, len(vocabulary)) for word in words)
    return Encoded(np.asarray(ids, dtype=np.int64), lengths, vocabulary)


@dataclass(frozen=True)
class PairTable:
    """Every (target token, candidate source position) of the corpus, flattened: position 0 is the null word.

    ``token`` is the global target token of each pair, ``pair_id`` the index of its (source word, target word)
    in the lexical table, ``prior`` the diagonal prior of the pair, ``lexicon_key`` the sorted key of each
    lexical-table entry (``source word * (target vocabulary + 1) + target word``) and ``lexicon_source`` its
    source word (the null word is ``len(source vocabulary)``)."""

    token: np.ndarray
    position: np.ndarray
    pair_id: np.ndarray
    prior: np.ndarray
    lexicon_key: np.ndarray
    lexicon_source: np.ndarray


def pair_table(source: Encoded, target: Encoded, settings: DiagonalSettings) -> PairTable:
    sentence_of_token = np.repeat(np.arange(len(target.lengths)), target.lengths)
    j = np.arange(len(target.ids)) - np.repeat(target.starts, target.lengths)
    m = source.lengths[sentence_of_token]
    width = m + 1
    token = np.repeat(np.arange(len(target.ids)), width)
    position = np.arange(len(token)) - np.repeat(np.cumsum(width) - width, width)
    source_index = np.repeat(source.starts[sentence_of_token], width) + position - 1
    null_word = len(source.vocabulary)
    source_word = np.where(position > 0, source.ids[np.maximum(source_index, 0)], null_word)
    target_word = target.ids[token]
    keys, pair_id = np.unique(source_word * (len(target.vocabulary) + 1) + target_word, return_inverse=True)
    prior = _diagonal_prior(position, np.repeat(m, width), np.repeat(j, width),
                            np.repeat(target.lengths[sentence_of_token], width), token, settings)
    return PairTable(token, position, pair_id.astype(np.int64), prior, keys, keys // (len(target.vocabulary) + 1))


def _diagonal_prior(position: np.ndarray, m: np.ndarray, j: np.ndarray, n: np.ndarray, token: np.ndarray,
                    settings: DiagonalSettings) -> np.ndarray:
    """P(source position | target position j, lengths m and n): ``null_probability`` for the null word, the
    rest spread over the m source words by the rational diagonal kernel."""
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


def train_lexicon(table: PairTable, pseudo_counts: np.ndarray, target_vocabulary: int,
                  settings: DiagonalSettings) -> np.ndarray:
    """EM on the lexical table t(f | e): ``iterations`` rounds from a uniform table; returns t, one value per
    table entry."""
    translation = np.ones(len(table.lexicon_key), dtype=np.float64)
    for _ in range(settings.iterations):
        weight = translation[table.pair_id] * table.prior
        posterior = weight / np.bincount(table.token, weights=weight)[table.token]
        counts = np.bincount(table.pair_id, weights=posterior, minlength=len(translation)) + pseudo_counts
        totals = np.bincount(table.lexicon_source, weights=counts)
        translation = (counts + settings.smoothing) / (
            totals[table.lexicon_source] + settings.smoothing * target_vocabulary)
    return translation


def viterbi_positions(table: PairTable, translation: np.ndarray) -> np.ndarray:
    """The best source position of every target token (0: unaligned); ties go to the lower position."""
    score = translation[table.pair_id] * table.prior
    starts = np.flatnonzero(table.position == 0)
    best = np.maximum.reduceat(score, starts)
    first = np.flatnonzero(score == best[table.token])
    tokens, chosen = np.unique(table.token[first], return_index=True)
    positions = np.zeros(len(starts), dtype=np.int64)
    positions[tokens] = table.position[first[chosen]]
    return positions


def direction_links(source: Encoded, target: Encoded, lexicon: Sequence[tuple[str, str, float]],
                    settings: DiagonalSettings) -> list[list[tuple[int, int]]]:
    """Per sentence, (source index, target index) for every target word that is linked to a source word."""
    table = pair_table(source, target, settings)
    translation = train_lexicon(table, lexicon_pseudo_counts(table, source, target, lexicon),
                                len(target.vocabulary), settings)
    positions = viterbi_positions(table, translation)
    links: list[list[tuple[int, int]]] = []
    for start, length in zip(target.starts.tolist(), target.lengths.tolist(), strict=True):
        chosen = positions[start : start + length].tolist()
        links.append([(i - 1, j) for j, i in enumerate(chosen) if i > 0])
    return links


def parse_lexicon_priors(text: str) -> list[tuple[str, str, float]]:
    """The LEX lines of eflomal's priors format (``LEX<TAB>source<TAB>target<TAB>alpha``); the HMM and
    fertility lines have no counterpart in this model and are skipped."""
    entries = []
    for line in text.splitlines():
        fields = line.split("\t")
        if len(fields) == 4 and fields[0] == "LEX":
            entries.append((fields[1], fields[2], float(fields[3])))
    return entries


def align_lines(src_lines: Sequence[str], tgt_lines: Sequence[str], lexicon: Sequence[tuple[str, str, float]],
                settings: DiagonalSettings = DiagonalSettings()) -> tuple[list[str], list[str]]:
    """Forward (each target word picks a source word) and reverse link lines, ``i-j`` in source-target order,
    as eflomal writes them."""
    source, target = encode(src_lines), encode(tgt_lines)
    forward = direction_links(source, target, lexicon, settings)
    reversed_lexicon = [(t, s, alpha) for s, t, alpha in lexicon]
    reverse = [[(i, j) for j, i in sentence]
               for sentence in direction_links(target, source, reversed_lexicon, settings)]
    return [_link_line(sentence) for sentence in forward], [_link_line(sentence) for sentence in reverse]


def _link_line(links: list[tuple[int, int]]) -> str:
    return " ".join(f"{i}-{j}" for i, j in sorted(links))
