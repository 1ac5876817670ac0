"""The statistics section of the ``shuffles.v1`` dataset card, rendered from the info.json notes."""

from __future__ import annotations

from typing import Any

_HEADER = (
    "| subset | seed | method | congruent after a plain permutation "
    "| share of distractors that are reused images | mean cosine to distractor |\n"
    "|---|---|---|---|---|---|"
)


def _figure(value: Any) -> str:
    if value is None:
        return "–"
    return f"{value:.4f}" if isinstance(value, float) else str(value)


def statistics_section(notes: dict[str, Any]) -> str:
    shuffles: dict[str, dict[str, Any]] = notes.get("shuffles", {})
    if not shuffles:
        return ""
    rows = "".join(
        f"| {name} | {s['seed']} | {s['method']} | {_figure(s['first_draw_congruent'])} "
        f"| {_figure(s['share_distractor_reused'])} | {_figure(s['mean_cosine_to_distractor'])} |\n"
        for name, s in shuffles.items()
    )
    figure = {key: _figure(value) for key, value in notes.items() if not isinstance(value, dict)}
    return f"""## Shuffles

Policy `{figure["policy"]}`; content compared by {figure["content_key"]}. {figure["examples"]} examples
show {figure["distinct_images"]} distinct images; {figure["reused_images"]} images are used by more than
one example (share of examples with a reused image: {figure["share_examples_with_reused_image"]}).
Mean cosine to the distractor over all shuffles: {figure["mean_cosine_to_distractor"]}; mean cosine
between any two examples (what a random pairing averages): {figure["mean_cosine_any_pair"]}.

A plain random permutation would leave {figure["expected_congruent_plain_permutation"]} examples
with an image of their own content on average; these shuffles leave none.

{_HEADER}
{rows}
`method`: `rejection` = uniform over all valid shuffles; `repair` = a random permutation repaired by swaps
(heavy image reuse); `assignment` = cosine-optimal pairing (similar/dissimilar policies). "Congruent after a
plain permutation" counts the examples the first permutation drawn with the seed gave an image of their own
content (what a shuffle without the derangement constraint would have kept). The share of reused distractors
equals the share of examples with a reused image by construction: a shuffle uses every image as often as the
original set does.
"""


# The card's "Fields" table. Subsets join on `id` (the same example in every subset).
FIELD_MEANINGS = {
    "id": "`<split>-<line>`: the same example has the same id in every subset",
    "line": "1-based line of the input",
    "src": "the source sentence",
    "ref": "its reference translation",
    "image": "the example's own image (name in the image list)",
    "image_sha256": "sha256 of the own image file (when image files were given)",
    "input_image": "the image to show the model in this subset: the own image in `congruent`, the distractor "
                   "otherwise",
    "distractor_image": "the image shuffled in (null in `congruent`, as are the other distractor fields and `seed`)",
    "distractor_sha256": "sha256 of the distractor image file (when image files were given)",
    "distractor_line": "the input line the distractor image belongs to",
    "distractor_uses": "how many examples show the distractor's content",
    "congruent": "true in the `congruent` subset (the model sees the right image)",
    "shuffle": "shuffle number: 0 = the `congruent` subset, i = the i-th shuffle (subset `random<i>` for the "
               "random policy)",
    "seed": "the seed of this shuffle",
    "policy": "how distractors were chosen: `random`, `similar`, `dissimilar`",
    "cosine_to_distractor": "cosine of the own and the distractor image embeddings (null without features)",
}
