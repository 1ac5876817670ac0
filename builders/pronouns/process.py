"""process() of pronouns.v1: parse a batch of documents and turn every English "it" into a record or a drop."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from builders.core.context import BuildContext, Row
from builders.pronouns.align import symmetrised
from builders.pronouns.align_pronoun import repair_pronoun_links
from builders.pronouns.config import PronounsConfig
from builders.pronouns.coref import make_backend
from builders.pronouns.english import PipelinePin, load_pinned, parse_texts
from builders.pronouns.extract import Drop, Found, Segment, contrapro_fields
from builders.pronouns.packs import class_floors, confidence_floor, make_pack, min_confidence_of, resolved_coref
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
    segments = []
    for k, payload in enumerate(document.segments):
        tokens = pack.tokenize(payload.tgt)
        repair = repair_pronoun_links(parsed.get(k), tokens, frozenset(links[k]), pack.source_pronouns,
                                      pack.forms, pack.code)
        segments.append(Segment(payload.src, payload.tgt, parsed.get(k), tokens, repair.links, repair.refused))
    return segments


@dataclass(frozen=True)
class Dropped:
    """A candidate the filters dropped: the reason, and the candidate as found when it failed only on
    ``min_confidence`` (so dropped.jsonl can show its confidence and antecedent)."""

    reason: str
    found: Found | None = None
    floor: float = 0.0  # the confidence it needed (min_confidence or its class's floor), when ``found`` is set


Outcome = Found | Dropped


def iter_outcomes(
    config: PronounsConfig, pin: PipelinePin, document: DocPayload
) -> Iterator[tuple[list[Segment], int, int, Outcome]]:
    """(segments, segment index, token index, outcome) for every English candidate pronoun of one document
    ("it" for German; "it" and "they" for French: the pack's source pronouns)."""
    backend = make_backend(resolved_coref(config))
    pack = make_pack(config.tgt_lang)
    analyser = pack.analyser(config)
    floors, min_confidence = class_floors(config), min_confidence_of(config)
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
                yield segments, sentence, token.i, Dropped(drop.reason)
                continue
            pronoun_class = segment.german[found.german_index].text.lower()  # the record's "pronoun class"
            floor = confidence_floor(min_confidence, floors, pronoun_class)
            outcome: Outcome = found if found.confidence >= floor else Dropped("low_confidence", found, floor)
            yield segments, sentence, token.i, outcome


def process_documents(
    config: PronounsConfig, batch: DocBatch, shared: PronounsShared, ctx: BuildContext
) -> list[Row]:
    """Rows of the unit's documents; pure given (config, batch, shared): safe on any worker."""
    backend_name = make_backend(resolved_coref(config)).name
    rows: list[Row] = []
    for document in batch.documents:
        # a segment with two coreferent "it" (chain policy) gives both the same reference and contrastives:
        # one item per (segment, contrastives), or ContraPro's evaluate.py would count it twice
        items: dict[tuple[int, frozenset[str]], str] = {}
        for segments, sentence, token, outcome in iter_outcomes(config, shared.pipeline, document):
            ctx.read()
            if isinstance(outcome, Dropped):
                ctx.drop(outcome.reason, **drop_details(document, segments, (sentence, token), outcome))
                continue
            record = make_record(config, shared.corpus, document, segments, outcome, backend_name)
            item = (sentence, frozenset(error["contrastive"] for error in record["errors"]))
            if item in items:
                ctx.drop("duplicate_item", **duplicate_details(record, items[item]))
                continue
            items[item] = record["id"]
            ctx.keep()
            rows.append(Row("test", record))
    return rows


def duplicate_details(record: dict[str, Any], kept_id: str) -> dict[str, Any]:
    """dropped.jsonl's entry for a pronoun whose item (segment, contrastives) is already kept as ``kept_id``."""
    fields = ("id", "document id", "segment id", "src pronoun", "src pronoun id", "confidence", "src segment",
              "ref segment", "ref pronoun")
    return {**{name: record[name] for name in fields}, "same item as": kept_id}


def drop_details(document: DocPayload, segments: list[Segment],
                 where: tuple[int, int], dropped: Dropped) -> dict[str, Any]:
    """What dropped.jsonl says of a dropped pronoun: where it is (the id its record would have had), the
    segment pair, and for a low-confidence one its confidence, the threshold and the antecedent it had found."""
    sentence, token = where
    segment = segments[sentence]
    assert segment.doc is not None  # iter_outcomes yields parsed segments only
    details: dict[str, Any] = {
        "id": f"d{document.index:06d}-s{sentence + 1:04d}-t{token + 1:03d}",
        "document id": document.doc_id,
        "segment id": sentence + 1,
        "src pronoun": segment.doc[token].text,
        "src pronoun id": token + 1,
        "confidence": None,
        "src segment": segment.src,
        "ref segment": segment.tgt,
    }
    found = dropped.found
    if found is not None:
        ante_segment = segments[found.antecedent.sentence]
        assert ante_segment.doc is not None
        details.update({
            "confidence": found.confidence,
            "min confidence": dropped.floor,
            "ref pronoun": segment.german[found.german_index].text,
            "src ante phrase": ante_segment.doc[found.antecedent.start : found.antecedent.end].text,
            "ref ante head": ante_segment.german[found.german_head].text,
            "ante distance": sentence - found.antecedent.sentence,
            # what the filters noted while weighing the antecedent (Found.extra: JSON values), when anything
            **({"extract notes": found.extra} if found.extra else {}),
        })
    return details


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
