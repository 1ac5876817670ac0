"""process() of shuffles.v1: the records of one subset, read off the plan's drawn shuffle."""

from __future__ import annotations

from typing import Any

from builders.core.context import BuildContext, Row
from builders.shuffles.config import ShufflesConfig
from builders.shuffles.plan import ShufflePlan


def process_shuffle(config: ShufflesConfig, shuffle: int, subset: str, plan: ShufflePlan,
                    ctx: BuildContext) -> list[Row]:
    rows = [Row(split=plan.split, record=make_record(config, plan, index, shuffle), subset=subset)
            for index in range(len(plan.data))]
    ctx.read(len(rows))
    ctx.keep(len(rows))
    return rows


def make_record(config: ShufflesConfig, plan: ShufflePlan, index: int, shuffle: int) -> dict[str, Any]:
    data = plan.data
    record: dict[str, Any] = {
        "id": f"{plan.split}-{data.lines[index]:06d}",
        "line": data.lines[index],
        "src": data.src[index],
        "ref": data.ref[index],
        "image": data.images[index],
        "image_sha256": plan.sha256[index],
        "input_image": data.images[index],
        "distractor_image": None,
        "distractor_sha256": None,
        "distractor_line": None,
        "distractor_uses": None,
        "congruent": shuffle == 0,
        "shuffle": shuffle,
        "seed": None,
        "policy": config.policy,
        "cosine_to_distractor": None,
    }
    if shuffle == 0:
        return record
    other = int(plan.shuffles[shuffle - 1].perm[index])
    record.update(
        input_image=data.images[other],
        distractor_image=data.images[other],
        distractor_sha256=plan.sha256[other],
        distractor_line=data.lines[other],
        distractor_uses=int(plan.uses[other]),
        seed=plan.seeds[shuffle - 1],
    )
    if plan.embeddings is not None:
        cosine = float(plan.embeddings[index] @ plan.embeddings[other])
        record["cosine_to_distractor"] = round(cosine, 6)
    return record
