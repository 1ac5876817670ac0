"""``variations.v1``: DEL / INS / SUBNUM / SUBGEN minimal pairs of parallel EN–DE text (Fadaee & Monz 2020)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import datasets

from builders.core.atomic import write_text
from builders.core.builder import Builder, Unit
from builders.core.context import BuildContext, Row
from builders.core.errors import InputError
from builders.core.resources import resource_path
from builders.core.textio import iter_jsonl, read_lines, read_parallel, require_fields
from builders.variations.config import VARIATION_TYPES, VariationsConfig
from builders.variations.invariants import record_problems
from builders.variations.lexicons import load_lexicons
from builders.variations.strategies import PLAIN_SUFFIX, STRATEGIES
from builders.variations.strategies.base import Drop, SentencePair, StrategyResources, Variation
from builders.variations.text import apply_edits

CITATION = """@inproceedings{fadaee-monz-2020-unreasonable,
    title = "The Unreasonable Volatility of Neural Machine Translation Models",
    author = "Fadaee, Marzieh and Monz, Christof",
    booktitle = "Proceedings of the Fourth Workshop on Neural Generation and Translation",
    year = "2020",
    publisher = "Association for Computational Linguistics",
    pages = "88--96",
    url = "https://aclanthology.org/2020.ngt-1.10",
}"""

_EDIT = {
    "start": datasets.Value("int32"), "end": datasets.Value("int32"),
    "varied_start": datasets.Value("int32"), "varied_end": datasets.Value("int32"),
    "old": datasets.Value("string"), "new": datasets.Value("string"),
}


class VariationsBuilder(Builder[VariationsConfig]):
    name = "variations.v1"
    config_class = VariationsConfig
    pretty_name = "Variations: DEL/INS/SUBNUM/SUBGEN minimal pairs for MT volatility"
    description = (
        "Minimal variations of parallel sentences that change one word (or, for SUBGEN, every pronoun of one "
        "gender) on both sides so source and reference stay parallel: DEL removes a frequent adverb, INS inserts "
        "a meaning-light word where a bidirectional n-gram model finds it likely, SUBNUM changes a number by k, "
        "SUBGEN swaps pronoun gender. Each record has the original and varied source and reference and the "
        "character spans of every edit. Use them to measure how much a system's translation changes (volatility) "
        "when the input changes minimally."
    )
    license = "other"
    languages = ("en", "de")
    identity_keys = ("corpus", "src", "jsonl", "src_lang", "tgt_lang")
    citation = CITATION

    def __init__(self, config: VariationsConfig) -> None:
        super().__init__(config)
        self._resources: StrategyResources | None = None

    def features(self) -> datasets.Features:
        string = datasets.Value("string")
        return datasets.Features({
            "id": string, "source_id": string, "line": datasets.Value("int32"), "type": string,
            "direction": string,
            "original_src": string, "original_ref": string, "varied_src": string, "varied_ref": string,
            "parameters": {
                "k": datasets.Value("int32"), "word_src": string, "word_ref": string, "new_src": string,
                "new_ref": string, "position": datasets.Value("int32"), "detail": string,
            },
            "edits_src": [_EDIT], "edits_ref": [_EDIT],
        })

    # --- reading and analysing -----------------------------------------------------------------------
    def _read_pairs(self, ctx: BuildContext) -> list[tuple[str, int, str, str]]:
        """(source id, line, english, german) for every input line, empty ones included."""
        config = self.config
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

    def _analyse_english(self, texts: Sequence[str], ctx: BuildContext) -> list[tuple[Any, ...]]:
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
        docs = nlp.pipe(texts, batch_size=self.config.spacy_batch_size)
        for doc in ctx.track(docs, "spaCy (English)", total=len(texts)):
            analysed.append(tuple(EnglishToken(t.text, t.idx, t.idx + len(t.text), t.pos_, t.tag_, t.dep_)
                                  for t in doc if not t.is_space))
        return analysed

    def _build_resources(self, pairs: list[tuple[str, int, str, str]], ctx: BuildContext) -> StrategyResources:
        config = self.config
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

    def units(self, ctx: BuildContext) -> Sequence[Unit]:
        pairs = self._read_pairs(ctx)
        self._resources = self._build_resources(pairs, ctx)
        non_empty = [i for i, p in enumerate(pairs) if p[2].strip() and p[3].strip()]
        analysed = dict(zip(non_empty, self._analyse_english([pairs[i][2] for i in non_empty], ctx), strict=True))
        alignment = self._align(pairs, analysed, ctx) if self.config.aligner == "eflomal" else {}
        sentence_pairs: list[SentencePair | tuple[str, int]] = []
        for index, (source_id, line, english, german) in enumerate(pairs):
            if index not in analysed:
                sentence_pairs.append((source_id, line))  # an empty side: kept in place, counted in process
                continue
            sentence_pairs.append(SentencePair(source_id, line, english, german, analysed[index],
                                               alignment.get(index)))
        size = self.config.lines_per_unit
        return [Unit(key=f"lines-{start:07d}", payload=tuple(sentence_pairs[start : start + size]))
                for start in range(0, len(sentence_pairs), size)]

    def _align(self, pairs: list[tuple[str, int, str, str]], analysed: dict[int, tuple[Any, ...]],
               ctx: BuildContext) -> dict[int, tuple[tuple[int, int], ...]]:
        from builders.variations.backends import eflomal_alignment

        return eflomal_alignment(pairs, analysed, self.config, ctx)

    # --- variations ----------------------------------------------------------------------------------
    def process(self, unit: Unit, ctx: BuildContext) -> list[Row]:
        assert self._resources is not None, "units() prepares the resources"
        strategies = {name: STRATEGIES[name]() for name in VARIATION_TYPES if name in self.config.types}
        rows: list[Row] = []
        for pair in unit.payload:
            if not isinstance(pair, SentencePair):
                ctx.read()
                ctx.drop("empty_line")
                continue
            for strategy in strategies.values():
                made = 0
                for outcome in strategy.generate(pair, self._resources):
                    ctx.read()
                    if isinstance(outcome, Drop):
                        ctx.drop(outcome.reason)
                        continue
                    rows.append(Row("test", self._record(pair, outcome, made)))
                    ctx.keep()
                    made += 1
        return rows

    def _record(self, pair: SentencePair, variation: Variation, number: int) -> dict[str, Any]:
        varied_en, applied_en = apply_edits(pair.en, variation.en_edits)
        varied_de, applied_de = apply_edits(pair.de, variation.de_edits)
        english_first = self.config.source_lang == "en"
        sides = {
            "en": (pair.en, varied_en, [a.to_record() for a in applied_en], variation.word_en, variation.new_en),
            "de": (pair.de, varied_de, [a.to_record() for a in applied_de], variation.word_de, variation.new_de),
        }
        src, ref = (sides["en"], sides["de"]) if english_first else (sides["de"], sides["en"])
        return {
            "id": f"{pair.source_id}-{variation.type}-{number:03d}",
            "source_id": pair.source_id,
            "line": pair.line,
            "type": variation.type,
            "direction": self.config.direction,
            "original_src": src[0], "original_ref": ref[0], "varied_src": src[1], "varied_ref": ref[1],
            "parameters": {
                "k": variation.k, "word_src": src[3], "word_ref": ref[3], "new_src": src[4], "new_ref": ref[4],
                "position": variation.position, "detail": variation.detail,
            },
            "edits_src": src[2], "edits_ref": ref[2],
        }

    def finalize(self, rows: list[Row], ctx: BuildContext) -> list[Row]:
        per_type: dict[str, int] = {name: 0 for name in self.config.types}
        for row in rows:
            per_type[row.record["type"]] += 1
        ctx.notes["variations_per_type"] = per_type
        return rows

    # --- outputs ------------------------------------------------------------------------------------------
    def write_extras(self, rows: list[Row], out_dir: Path, ctx: BuildContext) -> list[str]:
        """The authors' layout: ``plain/<prefix>.<num|adv|prn|ins>.<en|de>`` (varied) with ``.orig.<lang>``
        originals and ``.ids`` record ids, all line-aligned with each other."""
        prefix = self.config.plain_prefix
        src_lang, ref_lang = self.config.direction.split("-")
        written: list[str] = []
        for type_name in self.config.types:
            records = [r.record for r in rows if r.record["type"] == type_name]
            stem = f"plain/{prefix}.{PLAIN_SUFFIX[type_name]}"
            files = {
                f"{stem}.{src_lang}": [r["varied_src"] for r in records],
                f"{stem}.{ref_lang}": [r["varied_ref"] for r in records],
                f"{stem}.orig.{src_lang}": [r["original_src"] for r in records],
                f"{stem}.orig.{ref_lang}": [r["original_ref"] for r in records],
                f"{stem}.ids": [r["id"] for r in records],
            }
            for relative, lines in files.items():
                write_text(out_dir / relative, "".join(line + "\n" for line in lines))
                written.append(relative)
        return written

    def invariants(self, rows: list[Row]) -> list[str]:
        problems: list[str] = []
        for row in rows:
            problems += [f"record {row.record.get('id')!r}: {p}" for p in record_problems(row.record)]
        return problems

    def input_citation(self) -> str:
        return ""
