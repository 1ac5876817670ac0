"""process() of pronouns.v1: parse a batch of documents and turn every English "it" into a record or a drop."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from builders.core.context import BuildContext, Row
from builders.pronouns.align import symmetrised
from builders.pronouns.config import PronounsConfig
from builders.pronouns.coref import make_backend
from builders.pronouns.english import PipelinePin, load_pinned, parse_texts
from builders.pronouns.extract import Drop, Found, Segment, contrapro_fields
from builders.pronouns.packs import make_pack
from builders.pronouns.plan import PronounsShared
from builders.pronouns.units import DocBatch, DocPayload


def parse_document(config: PronounsConfig, pin: PipelinePin, document: DocPayload) -> list[Segment]:
    pipeline = load_pinned(pin)
    pack = make_pack(config.tgt_lang)
    pack.prepare(pack.analyser(config), [s.tgt for s in document.segments if not s.skipped])
    todo = [k for k, s in enumerate(document.segments) if not s.skipped]
    docs = parse_texts(pipeline, [document.segments[k].src for k in todo], config.batch_size)
    parsed = dict(zip(todo, docs, strict=True))
    links = symmetrised([(s.forward, s.reverse) for s in document.segments], config.symmetrisation)
    return [
        Segment(payload.src, payload.tgt, parsed.get(k), pack.tokenize(payload.tgt), frozenset(links[k]))
        for k, payload in enumerate(document.segments)
    ]


Outcome = Found | str  # a kept candidate, or the reason it was dropped


def iter_outcomes(
    config: PronounsConfig, pin: PipelinePin, document: DocPayload
) -> Iterator[tuple[list[Segment], int, int, Outcome]]:
    """(segments, segment index, token index, outcome) for every English candidate pronoun of one document
    ("it" for German; "it" and "they" for French: the pack's source pronouns)."""
    backend = make_backend(config.coref)
    pack = make_pack(config.tgt_lang)
    analyser = pack.analyser(config)
    segments = parse_document(config, pin, document)
    coref = backend.resolve([s.doc for s in segments])
    for sentence, segment in enumerate(segments):
        if segment.doc is None:
            continue
        for token in segment.doc:
            if token.lower_ not in pack.source_pronouns:
                continue
            try:
                found = pack.extract(segments, coref, sentence, token, config, analyser)
            except Drop as drop:
                yield segments, sentence, token.i, drop.reason
                continue
            outcome: Outcome = found if found.confidence >= config.min_confidence else "low_confidence"
            yield segments, sentence, token.i, outcome


def process_documents(
    config: PronounsConfig, batch: DocBatch, shared: PronounsShared, ctx: BuildContext
) -> list[Row]:
    """Rows of the unit's documents; pure given (config, batch, shared): safe on any worker."""
    backend_name = make_backend(config.coref).name
    rows: list[Row] = []
    for document in batch.documents:
        for segments, _, _, outcome in iter_outcomes(config, shared.pipeline, document):
            ctx.read()
            if isinstance(outcome, str):
                ctx.drop(outcome)
                continue
            ctx.keep()
            rows.append(Row("test", make_record(config, shared.corpus, document, segments, outcome, backend_name)))
    return rows


def make_record(
    config: PronounsConfig,
    corpus: str,
    document: DocPayload,
    segments: list[Segment],
    found: Found,
    backend_name: str,
) -> dict[str, Any]:
    record: dict[str, Any] = {"id": f"d{document.index:06d}-s{found.sentence + 1:04d}-t{found.token + 1:03d}"}
    record.update(contrapro_fields(segments, found, document.doc_id, corpus, make_pack(config.tgt_lang)))
    start = max(0, found.sentence - config.context_stored)
    record.update(
        {
            "pronoun class": record["ref pronoun"].lower(),
            "src pronoun id": found.token + 1,
            "ref pronoun id": found.german_index + 1,
            "src context": [s.src for s in segments[start : found.sentence]],
            "ref context": [s.tgt for s in segments[start : found.sentence]],
            "aligner": f"{config.aligner}+{config.symmetrisation}",
            "coref backend": backend_name,
            "confidence": found.confidence,
        }
    )
    return record
