"""From the top-k retrieved images of a caption to the 4 images added to a translation.

Candidates are suppressed, best rank first, when they are near-duplicates (cosine >= threshold) of a better
kept candidate or of the original CoMMuTE image, or when the same image was retrieved for the other
translation with a higher similarity (one image must not illustrate both meanings). The first kept
candidates are pre-selected; a reviewer's selection file can replace that choice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from builders.core.errors import InputError

NEAR_DUPLICATE = "near_duplicate"
NEAR_ORIGINAL = "near_original"
OTHER_TRANSLATION = "other_translation"
SELECTION_FORMAT = "mtprobes-commute-ext-selection/1"


@dataclass(frozen=True)
class Candidate:
    row: int  # row in the embedding store
    uid: str
    source: str
    collection: str
    caption: str
    similarity: float  # cosine between the query caption and the image
    rank: int  # 1-based rank in the retrieval result
    sha256: str = ""  # content hash (of the image bytes, or of the vector for precomputed embeddings)
    suppressed: str = ""  # empty when selectable, else the reason
    duplicate_of: int = 0  # rank of the candidate it duplicates (0 = none / the original)
    selected: bool = False


def suppress(candidates: Sequence[Candidate], pairwise: Sequence[Sequence[float]],
             to_original: Sequence[float], other_best: dict[int, float], threshold: float) -> list[Candidate]:
    """Mark candidates that must not be selected; ``pairwise[i][j]`` is the cosine between candidates i and j,
    ``other_best`` maps a store row to its similarity for the other translation's caption."""
    judged: list[Candidate] = []
    for position, candidate in enumerate(candidates):
        reason, duplicate_of = "", 0
        if candidate.row in other_best and other_best[candidate.row] > candidate.similarity:
            reason = OTHER_TRANSLATION
        elif to_original[position] >= threshold:
            reason = NEAR_ORIGINAL
        else:
            for earlier, kept in enumerate(judged):
                if not kept.suppressed and pairwise[position][earlier] >= threshold:
                    reason, duplicate_of = NEAR_DUPLICATE, kept.rank
                    break
        judged.append(replace(candidate, suppressed=reason, duplicate_of=duplicate_of))
    return judged


def preselect(candidates: Sequence[Candidate], count: int) -> list[Candidate]:
    """The ``count`` best-ranked selectable candidates are marked selected."""
    chosen = {c.rank for c in [c for c in candidates if not c.suppressed][:count]}
    return [replace(c, selected=c.rank in chosen) for c in candidates]


def apply_choice(candidates: Sequence[Candidate], uids: Sequence[str], count: int, where: str,
                 path: Path) -> list[Candidate]:
    """A reviewer's choice: exactly ``count`` distinct uids among the candidates (suppressed ones allowed,
    the reviewer has the last word)."""
    known = {c.uid for c in candidates}
    unknown = [u for u in uids if u not in known]
    if unknown:
        raise InputError(path, f"{where}: {unknown[:3]} not among the retrieved candidates of this build")
    if len(set(uids)) != count:
        raise InputError(path, f"{where}: selects {len(set(uids))} distinct images, expected {count}")
    chosen = set(uids)
    return [replace(c, selected=c.uid in chosen) for c in candidates]


def read_selection(path: Path) -> dict[str, dict[str, list[str]]]:
    """``{"format": ..., "selections": {record id: {"0": [uid, ...], "1": [...]}}}`` as the review page exports."""
    import json

    if not path.is_file():
        raise InputError(path, "selection file not found")
    try:
        data: Any = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as err:
        raise InputError(path, f"not a JSON selection file: {err}") from None
    if not isinstance(data, dict) or data.get("format") != SELECTION_FORMAT:
        raise InputError(path, f"expected a JSON object with \"format\": \"{SELECTION_FORMAT}\"")
    selections = data.get("selections")
    if not isinstance(selections, dict) or not all(
        isinstance(v, dict) and all(isinstance(u, list) and all(isinstance(x, str) for x in u) for u in v.values())
        for v in selections.values()
    ):
        raise InputError(path, "'selections' must map record ids to {translation index: [uid, ...]}")
    return selections
