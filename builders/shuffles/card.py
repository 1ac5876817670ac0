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
