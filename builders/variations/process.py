"""process() of variations.v1: every strategy over a range of lines -> records with the edits of both sides."""

from __future__ import annotations

from typing import Any

from builders.core.context import BuildContext, Row
from builders.variations.config import VARIATION_TYPES, VariationsConfig
from builders.variations.strategies import STRATEGIES
from builders.variations.strategies.base import Drop, SentencePair, StrategyResources, Variation
from builders.variations.text import apply_edits
from builders.variations.units import LineBatch


def process_lines(
    config: VariationsConfig, lines: LineBatch, resources: StrategyResources, ctx: BuildContext
) -> list[Row]:
    strategies = {name: STRATEGIES[name]() for name in VARIATION_TYPES if name in config.types}
    rows: list[Row] = []
    for pair in lines.pairs:
        if not isinstance(pair, SentencePair):
            ctx.read()
            source_id, line, reason = pair
            ctx.drop(reason, source_id=source_id, line=line)
            continue
        for strategy in strategies.values():
            made = 0
            for outcome in strategy.generate(pair, resources):
                ctx.read()
                if isinstance(outcome, Drop):
                    ctx.drop(outcome.reason, source_id=pair.source_id, line=pair.line, type=strategy.type_name,
                             en=pair.en, de=pair.de)
                    continue
                rows.append(Row("test", make_record(config, pair, outcome, made)))
                ctx.keep()
                made += 1
    return rows


def make_record(config: VariationsConfig, pair: SentencePair, variation: Variation, number: int) -> dict[str, Any]:
    varied_en, applied_en = apply_edits(pair.en, variation.en_edits)
    varied_de, applied_de = apply_edits(pair.de, variation.de_edits)
    english_first = config.source_lang == "en"
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
        "direction": config.direction,
        "original_src": src[0], "original_ref": ref[0], "varied_src": src[1], "varied_ref": ref[1],
        "parameters": {
            "k": variation.k, "word_src": src[3], "word_ref": ref[3], "new_src": src[4], "new_ref": ref[4],
            "position": variation.position, "detail": variation.detail,
        },
        "edits_src": src[2], "edits_ref": ref[2],
    }
