"""prepare() of variations.v1: read the pairs, build the lexicons and n-gram models, parse English, align.

The input is read one line at a time and its parsed lines go to the work folder (line_store.py): the plan holds
the store's offsets and the strategy resources, not the lines (issue 26). The word aligner's input goes to the
work folder too, one aligner line per parsed line, and its links are attached to the stored lines one at a time:
the driver holds no token lists or link tuples of the corpus (the aligner still holds its word ids and link
lines, a few bytes per token; docs/cluster.md)."""

from __future__ import annotations

import dataclasses
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from builders.core.context import BuildContext
from builders.core.errors import InputError
from builders.core.lazy import SpooledLines
from builders.core.resources import resource_path
from builders.core.textio import iter_jsonl, iter_parallel, read_lines, require_fields
from builders.variations.config import VariationsConfig
from builders.variations.lexicons import Lexicons, load_lexicons
from builders.variations.line_store import Line, LineBatches
from builders.variations.strategies.base import SentencePair, StrategyResources
from builders.variations.text import tokenize

Pair = tuple[str, int, str, str]  # source id, line, English, German

# A line longer than this (in words, either side) is dropped as line_too_long, never parsed or aligned: the
# diagonal aligner's tables grow with the product of the two lengths (one line of 3,000 words took 30 s, one of
# 12,000 over 5 minutes). pronouns.v1 skips segments over max_tokens (1000) for the same reason.
MAX_LINE_WORDS = 1000


@dataclass(frozen=True)
class VariationsPlan:
    """Every input line in order, in the work folder (a SentencePair, or (source id, line) for a line with an
    empty or too long side, with its drop reason), and the resources the strategies share (lexicons, n-gram models)."""

    lines: LineBatches
    resources: StrategyResources


def prepare(config: VariationsConfig, ctx: BuildContext) -> VariationsPlan:
    pairs = read_pairs(config, ctx)  # inputs registered now, read below
    lexicons = load_resources(config, ctx)
    models = _ngram_models(config)
    store = LineBatches(ctx.work_dir / "lines" / "batches.pickle", config.lines_per_unit)
    aligner_input = AlignerInput(ctx.work_dir / "lines") if config.aligner != "unique" else None
    for line in analyse_lines(config, _fed(pairs, models), ctx):
        store.append(line)
        if aligner_input is not None and isinstance(line, SentencePair):
            aligner_input.append(line)
    store.close()
    resources = finish_resources(config, lexicons, models, ctx)
    if aligner_input is not None:  # a word aligner sees the whole corpus at once, read from the work folder
        aligner_input.close()
        store = attach_links(store, align(config, aligner_input.english, aligner_input.german, ctx))
    return VariationsPlan(store, resources)


class AlignerInput:
    """The aligner lines (``align.aligner_line``: lower-cased tokens) of every parsed line, English spaCy tokens
    and German regex tokens, spooled to the work folder as the lines are parsed."""

    def __init__(self, folder: Path) -> None:
        self.english = SpooledLines(folder / "aligner.en")
        self.german = SpooledLines(folder / "aligner.de")

    def append(self, line: SentencePair) -> None:
        from builders.pronouns.align import aligner_line

        self.english.append(aligner_line([t.text for t in line.en_tokens]))
        self.german.append(aligner_line([t.text for t in tokenize(line.de)]))

    def close(self) -> None:
        self.english.close()
        self.german.close()


def read_pairs(config: VariationsConfig, ctx: BuildContext) -> Iterator[Pair]:
    """(source id, line, english, german) for every input line, empty ones included, one at a time."""
    if config.jsonl:
        return _jsonl_pairs(config, ctx.add_input(config.jsonl))
    en_path, de_path = ctx.add_input(config.english_path), ctx.add_input(config.german_path)
    return ((f"L{n:06d}", n, e, g) for n, (e, g) in enumerate(iter_parallel([en_path, de_path]), 1))


def _jsonl_pairs(config: VariationsConfig, path: Path) -> Iterator[Pair]:
    seen: set[str] = set()
    for number, record in iter_jsonl(path):
        require_fields(path, number, record, ("id", "src", "tgt"))
        if not all(isinstance(record[k], str) for k in ("id", "src", "tgt")):
            raise InputError(path, "fields 'id', 'src' and 'tgt' must be strings", line=number)
        if not record["id"].strip():  # the records' source_id would be blank and their ids "-DEL-000"
            raise InputError(path, "'id' is empty", line=number)
        if record["id"] in seen:
            raise InputError(path, f"duplicate id {record['id']!r}", line=number)
        seen.add(record["id"])
        english, german = (record["src"], record["tgt"]) if config.source_lang == "en" else (
            record["tgt"], record["src"])
        yield record["id"], number, english, german


def analyse_lines(config: VariationsConfig, pairs: Iterable[Pair], ctx: BuildContext) -> Iterator[Line]:
    """Every line in input order, the non-empty ones parsed (spaCy reads ahead a batch; the lines waiting for
    their parse are the only ones held, each with the reason it is not parsed, or None)."""
    waiting: deque[tuple[int, Pair, str | None]] = deque()

    def texts() -> Iterator[tuple[str, int]]:
        for number, pair in enumerate(pairs):
            reason = unparsed_reason(pair)
            waiting.append((number, pair, reason))
            if reason is None:
                yield pair[2], number

    nlp = english_pipeline(ctx)
    for doc, number in ctx.track(nlp.pipe(texts(), batch_size=config.spacy_batch_size, as_tuples=True),
                                 "spaCy (English)"):
        yield from _unparsed_before(waiting, number)
        source_id, line, english, german = waiting.popleft()[1]
        yield SentencePair(source_id, line, english, german, english_tokens(doc))
    yield from _unparsed_before(waiting, None)


def unparsed_reason(pair: Pair) -> str | None:
    """Why a line is not parsed (its drop reason), or None."""
    if not pair[2].strip() or not pair[3].strip():
        return "empty_line"
    if max(len(pair[2].split()), len(pair[3].split())) > MAX_LINE_WORDS:
        return "line_too_long"
    return None


def _unparsed_before(waiting: deque[tuple[int, Pair, str | None]], number: int | None) -> Iterator[Line]:
    """The unparsed lines that wait before line ``number`` (None: all), kept in place for process. Every line
    before the one spaCy just gave back was left out of the parse, so it has a reason."""
    while waiting and (number is None or waiting[0][0] < number):
        _, pair, reason = waiting.popleft()
        assert reason is not None  # a parsed line is never before the parse that yields it
        yield pair[0], pair[1], reason


def english_pipeline(ctx: BuildContext) -> Any:
    import spacy

    from builders.core.compat import spacy_english
    from builders.core.errors import MtprobesError

    probe = spacy_english()
    if not probe.available:
        raise MtprobesError(f"variations.v1 needs an English spaCy pipeline: {probe.reason}")
    ctx.add_tool("spacy", spacy.__version__)
    ctx.add_tool(probe.name, probe.version)
    return spacy.load(probe.name, disable=["ner", "lemmatizer"])


def english_tokens(doc: Any) -> tuple[Any, ...]:
    from builders.variations.strategies.base import EnglishToken

    return tuple(EnglishToken(t.text, t.idx, t.idx + len(t.text), t.pos_, t.tag_, t.dep_)
                 for t in doc if not t.is_space)


def load_resources(config: VariationsConfig, ctx: BuildContext) -> Lexicons:
    adverbs = Path(config.adverb_lexicon) if config.adverb_lexicon else resource_path("variations", "adverbs.tsv")
    insertions = (Path(config.insertion_lexicon) if config.insertion_lexicon
                  else resource_path("variations", "insertions.tsv"))
    ctx.add_resource("adverbs", adverbs)
    ctx.add_resource("insertions", insertions)
    nouns = None
    if config.gendered_nouns and "SUBGEN" in config.types:
        nouns = (Path(config.gendered_noun_lexicon) if config.gendered_noun_lexicon
                 else resource_path("variations", "gendered_nouns.tsv"))
        ctx.add_resource("gendered_nouns", nouns)
    return load_lexicons(adverbs, insertions, nouns)


def _ngram_models(config: VariationsConfig) -> tuple[Any, Any] | None:
    """The English and German models INS draws from (None: no INS), fed line by line as the input is read."""
    if "INS" not in config.types:
        return None
    from builders.variations.ngram import BidirectionalNgram

    return BidirectionalNgram(config.ins_gap_weight), BidirectionalNgram(config.ins_gap_weight)


def _fed(pairs: Iterable[Pair], models: tuple[Any, Any] | None) -> Iterator[Pair]:
    for pair in pairs:
        if models is not None:
            models[0].add((pair[2],))
            models[1].add((pair[3],))
        yield pair


def finish_resources(config: VariationsConfig, lexicons: Lexicons, models: tuple[Any, Any] | None,
                     ctx: BuildContext) -> StrategyResources:
    """The resources, the n-gram models completed with the extra INS corpora (read after the input, as ever)."""
    if models is None:
        return StrategyResources(config, lexicons)
    english, german = models
    for model, paths in ((english, config.ins_corpus_en), (german, config.ins_corpus_de)):
        for path in paths:
            model.add(read_lines(ctx.add_input(path)))
    ctx.notes["ngram_sentences"] = {"en": english.sentences, "de": german.sentences}
    return StrategyResources(config, lexicons, english, german)


def align(config: VariationsConfig, english: SpooledLines, german: SpooledLines, ctx: BuildContext
          ) -> Iterator[tuple[tuple[int, int], ...]]:
    from builders.variations.backends import word_alignment

    return word_alignment(english, german, config, ctx)


def attach_links(store: LineBatches, links: Iterable[tuple[tuple[int, int], ...]]) -> LineBatches:
    """The store again, each parsed line with its links (in the order of the parsed lines), taken one at a
    time as the batches are rewritten."""
    attached = LineBatches(store.path.with_name("aligned.pickle"), store.batch_lines)
    remaining = iter(links)
    for batch in range(store.batches):
        for line in store.read(batch):
            if isinstance(line, SentencePair):
                line = dataclasses.replace(line, alignment=next(remaining))
            attached.append(line)
    attached.close()
    store.path.unlink()
    return attached
