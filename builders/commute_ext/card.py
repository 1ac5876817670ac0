"""The ``commute_ext.v1`` section of the dataset card, rendered from info.json."""

from __future__ import annotations

from typing import Any


def retrieval_section(info: dict[str, Any]) -> str:
    """Card text: how the images were found, and how to use the slot files and the review page."""
    notes = info.get("notes", {})
    index = notes.get("index", {})
    recall = {k: v for k, v in index.items() if k.startswith("recall_at_")}
    collection = notes.get("collection", {})
    config = info["config"]
    reviewed = " and then reviewed" if config["selection"] else ""
    return f"""## How the images were found

Captions were embedded with `{info["tools"].get("clip_model", "?")}`; images of the collection
({collection.get("read", 0)} read, {collection.get("kept", 0)} kept after the filters: side >= {config["min_side"]} px,
aspect <= {config["max_aspect"]}, decodable, no exact duplicate) were searched with a FAISS `{index.get("kind", "?")}`
index over {index.get("vectors", 0)} vectors{f" (recall vs exact search: {recall})" if recall else " (exact search)"}.
Of the top {config["candidates"]} candidates per caption, near-duplicates (cosine >= {config["near_duplicate_cosine"]})
of a better candidate or of the original image, and images closer to the other translation's caption, were
suppressed; the {config["per_translation"]} best remaining ones were pre-selected{reviewed}.
Every record lists all candidates with their scores and why any was suppressed.

`commute/slot0` ... `commute/slot{config["per_translation"]}` hold CoMMuTE-layout files (`src.en`, `correct.xx`,
`incorrect.xx`, `img.order`), one folder per image slot (slot 0 = the original images), so CoMMuTE scoring runs
unchanged per slot. `review/index.html` is the static review page (tick images, export JSON, rebuild with
`--set selection=FILE`).

"""
