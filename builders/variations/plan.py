"""prepare() of variations.v1: read the pairs, build the lexicons and n-gram models, parse English, align."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from builders.core.context import BuildContext
from builders.core.errors import InputError
from builders.core.resources import resource_path
from builders.core.textio import iter_jsonl, read_lines, read_parallel, require_fields
from builders.variations.config import VariationsConfig
from builders.variations.lexicons import load_lexicons
from builders.variations.strategies.base import SentencePair, StrategyResources


@dataclass(frozen=True)
class VariationsPlan:
    """Every input line in order (a SentencePair, or (source id, line) for a line with an empty side) and the
    resources the strategies share (lexicons, n-gram models)."""

    pairs: tuple[SentencePair | tuple[str, int], ...]
    resources: StrategyResources


def prepare(config: VariationsConfig, ctx: BuildContext) -> VariationsPlan:
    pairs = read_pairs(config, ctx)
    resources = build_resources(config, pairs, ctx)
    non_empty = [i for i, p in enumerate(pairs) if p[2].strip() and p[3].strip()]
    analysed = dict(zip(non_empty, analyse_english(config, [pairs[i][2] for i in non_empty], ctx), strict=True))
    alignment = {} if config.aligner == "unique" else align(config, pairs, analysed, ctx)
    sentence_pairs: list[SentencePair | tuple[str, int]] = []
    for index, (source_id, line, english, german) in enumerate(pairs):
        if index not in analysed:
            sentence_pairs.append((source_id, line))  # an empty side: kept in place, counted in process
            continue
        sentence_pairs.append(SentencePair(source_id, line, english, german, analysed[index], alignment.get(index)))
    return VariationsPlan(tuple(sentence_pairs), resources)


def read_pairs(config: VariationsConfig, ctx: BuildContext) -> list[tuple[str, int, str, str]]:
    """(source id, line, english, german) for every input line, empty ones included."""
    if config.jsonl:
        path = ctx.add_input(config.jsonl)
        rows: list[tuple[str, int, str, str]] = []
        seen: set[str] = set()
        for number, record in iter_jsonl(path):
            require_fields(path, number, record, ("id", "src", "tgt"))
            if not all(isinstance(record[k], str) for k in ("id", "src", "tgt")):
                raise InputError(path, "fields 'id', 'src' and 'tgt' must be strings", line=number)
            if record["id"] in seen:
                raise InputError(path, f"duplicate id {record['id']!r}", line=number)
            seen.add(record["id"])
            english, german = (record["src"], record["tgt"]) if config.source_lang == "en" else (
                record["tgt"], record["src"])
            rows.append((record["id"], number, english, german))
        return rows
    en_path, de_path = ctx.add_input(config.english_path), ctx.add_input(config.german_path)
    english_lines, german_lines = read_parallel([en_path, de_path])
    return [(f"L{n:06d}", n, e, g) for n, (e, g) in enumerate(zip(english_lines, german_lines, strict=True), 1)]


def analyse_english(config: VariationsConfig, texts: Sequence[str], ctx: BuildContext) -> list[tuple[Any, ...]]:
    import spacy

    from builders.core.compat import spacy_english
    from builders.core.errors import MtprobesError
    from builders.variations.strategies.base import EnglishToken

    probe = spacy_english()
    if not probe.available:
        raise MtprobesError(f"variations.v1 needs an English spaCy pipeline: {probe.reason}")
    ctx.add_tool("spacy", spacy.__version__)
    ctx.add_tool(probe.name, probe.version)
    nlp = spacy.load(probe.name, disable=["ner", "lemmatizer"])
    analysed = []
    docs = nlp.pipe(texts, batch_size=config.spacy_batch_size)
    for doc in ctx.track(docs, "spaCy (English)", total=len(texts)):
        analysed.append(tuple(EnglishToken(t.text, t.idx, t.idx + len(t.text), t.pos_, t.tag_, t.dep_)
                              for t in doc if not t.is_space))
    return analysed


def build_resources(
    config: VariationsConfig, pairs: list[tuple[str, int, str, str]], ctx: BuildContext
) -> StrategyResources:
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
    lexicons = load_lexicons(adverbs, insertions, nouns)
    if "INS" not in config.types:
        return StrategyResources(config, lexicons)
    from builders.variations.ngram import BidirectionalNgram

    english = BidirectionalNgram(config.ins_gap_weight).add(p[2] for p in pairs)
    german = BidirectionalNgram(config.ins_gap_weight).add(p[3] for p in pairs)
    for model, paths in ((english, config.ins_corpus_en), (german, config.ins_corpus_de)):
        for path in paths:
            model.add(read_lines(ctx.add_input(path)))
    ctx.notes["ngram_sentences"] = {"en": english.sentences, "de": german.sentences}
    return StrategyResources(config, lexicons, english, german)


def align(config: VariationsConfig, pairs: list[tuple[str, int, str, str]], analysed: dict[int, tuple[Any, ...]],
           ctx: BuildContext) -> dict[int, tuple[tuple[int, int], ...]]:
    from builders.variations.backends import word_alignment

    return word_alignment(pairs, analysed, config, ctx)
