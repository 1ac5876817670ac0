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


# The card's "Fields" table: the top-level fields; `translations` holds the two meanings of the source.
FIELD_MEANINGS = {
    "id": "`en-<lang>-NNNN`: the source's position in CoMMuTE",
    "lang": "the target language",
    "source": "the ambiguous English sentence",
    "translations": "its two meanings: `text` (the correct translation), `contrast` (the incorrect one on the same "
                    "CoMMuTE line), `line`, `caption` (the unambiguous query), `selected_by` (`auto`/`review`), "
                    "`images` (5 slots: slot 0 the CoMMuTE original, then retrieved images with `uid`, `path`, "
                    "`collection`, `sha256`, `similarity` caption–image, `rank`) and `candidates` (the 15 nearest "
                    "images, with `suppressed` = why one was not selected: near_duplicate, near_original, "
                    "other_translation; `selected`)",
}
