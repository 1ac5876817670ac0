"""process() of commute_ext.v1: suppress near-duplicates, pre-select (or apply a reviewer's choice) -> a record."""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import Any

from builders.core.builder import Unit
from builders.core.context import BuildContext, Row
from builders.core.errors import InputError

from .config import CommuteExtConfig
from .select import Candidate, apply_choice, preselect, suppress
from .units import SourcePayload, TranslationPayload

TOO_FEW = "source:too_few_candidates"


def process_source(config: CommuteExtConfig, unit: Unit, ctx: BuildContext) -> list[Row]:
    """The record of one ambiguous source (the unit's payload): suppression and selection over its retrieved
    candidates."""
    payload: SourcePayload = unit.payload
    ctx.read()
    judged = [judge(config, payload, t) for t in range(2)]
    selected = [sum(c.selected for c in candidates) for candidates in judged]
    if any(n < config.per_translation for n in selected):
        ctx.drop(TOO_FEW, id=unit.key, source=payload.source, selected_per_translation=selected,
                 candidates_per_translation=[len(candidates) for candidates in judged],
                 per_translation=config.per_translation)
        return []
    chosen = [{c.uid for c in candidates if c.selected} for candidates in judged]
    if chosen[0] & chosen[1]:
        raise InputError(payload.selection_file,
                         f"{unit.key}: {sorted(chosen[0] & chosen[1])[:3]} selected for both translations")
    ctx.keep()
    by = "review" if payload.choice else "auto"
    translations = [_translation(payload.translations[t], judged[t], by) for t in range(2)]
    record = {"id": unit.key, "lang": config.tgt_lang, "source": payload.source, "translations": translations}
    return [Row(split="test", record=record)]


def judge(config: CommuteExtConfig, payload: SourcePayload, t: int) -> list[Candidate]:
    mine, other = payload.translations[t], payload.translations[1 - t]
    # an image found for both captions goes to the closer one; translation 0 wins exact ties
    other_best = {c.row: c.similarity + (1e-9 if t == 1 else -1e-9) for c in other.candidates}
    judged = suppress(mine.candidates, mine.pairwise, mine.to_original, other_best, config.near_duplicate_cosine)
    choice = (payload.choice or {}).get(str(t))
    if choice is None:
        return preselect(judged, config.per_translation)
    where = f"{payload.id} translation {t}"
    return apply_choice(judged, choice, config.per_translation, where, Path(payload.selection_file))


def _translation(data: TranslationPayload, judged: list[Candidate], selected_by: str) -> dict[str, Any]:
    original = data.original
    images = [{"slot": 0, "kind": "original", "uid": original.name, "path": original.name,
               "collection": "commute", "sha256": original.sha256, "caption": "",
               "similarity": original.similarity, "rank": 0}]
    for slot, candidate in enumerate([c for c in judged if c.selected], start=1):
        images.append({"slot": slot, "kind": "retrieved", "uid": candidate.uid, "path": candidate.source,
                       "collection": candidate.collection, "sha256": candidate.sha256,
                       "caption": candidate.caption, "similarity": candidate.similarity, "rank": candidate.rank})
    candidates = []
    for c in judged:
        fields = asdict(c)
        fields["path"] = fields.pop("source")
        del fields["row"]
        candidates.append(fields)
    return {"line": data.line, "text": data.text, "contrast": data.contrast, "caption": data.caption,
            "selected_by": selected_by, "images": images, "candidates": candidates}
