"""Contrastive variants: swap the reference pronoun for the other two genders and repair agreement in the
same segment (possessive determiners sein-/ihr- with their endings, other pronouns of the same chain)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from builders.pronouns.german import GENDER_OF_PRONOUN, GToken

GENDERS = ("Masc", "Fem", "Neut")
PERSONAL_FORMS = {  # (gender, case) -> form
    ("Masc", "nom"): "er",
    ("Masc", "acc"): "ihn",
    ("Masc", "dat"): "ihm",
    ("Fem", "nom"): "sie",
    ("Fem", "acc"): "sie",
    ("Fem", "dat"): "ihr",
    ("Neut", "nom"): "es",
    ("Neut", "acc"): "es",
    ("Neut", "dat"): "ihm",
}
# German form -> (genders it can have, cases it can be); nom/acc of sie and es are settled by context.
PERSONAL_READINGS = {
    "er": (("Masc",), ("nom",)),
    "ihn": (("Masc",), ("acc",)),
    "ihm": (("Masc", "Neut"), ("dat",)),
    "sie": (("Fem",), ("nom", "acc")),
    "ihr": (("Fem",), ("dat",)),
    "es": (("Neut",), ("nom", "acc")),
}
POSSESSIVE_STEMS = {"Masc": "sein", "Neut": "sein", "Fem": "ihr"}
POSSESSIVE_ENDINGS = ("", "e", "en", "em", "er", "es")


@dataclass(frozen=True)
class ChainToken:
    """A German token of the pronoun's chain in the same segment, with the case its German clause gives."""

    index: int
    kind: str  # "pronoun" or "possessive"
    case: str  # "nom", "acc", "dat" or "" (unknown)


@dataclass(frozen=True)
class Variant:
    text: str
    replacement: str
    gender: str


def match_case(word: str, template: str) -> str:
    return word[:1].upper() + word[1:] if template[:1].isupper() else word


def possessive_parts(word: str) -> tuple[str, str] | None:
    """('sein'|'ihr', ending) for a possessive determiner, else None."""
    lower = word.lower()
    for stem in ("sein", "ihr"):
        if lower.startswith(stem) and lower[len(stem) :] in POSSESSIVE_ENDINGS:
            return stem, lower[len(stem) :]
    return None


def _swap(word: str, kind: str, case: str, source: str, target: str) -> str | None:
    """The form of ``word`` for the target gender, or None when it does not belong to the source gender."""
    if kind == "possessive":
        parts = possessive_parts(word)
        if parts is None or parts[0] != POSSESSIVE_STEMS[source]:
            return None
        return match_case(POSSESSIVE_STEMS[target] + parts[1], word)
    readings = PERSONAL_READINGS.get(word.lower())
    if readings is None or source not in readings[0]:
        return None
    chosen = case if case in readings[1] else readings[1][0]
    return match_case(PERSONAL_FORMS[(target, chosen)], word)


def make_variants(
    text: str, tokens: Sequence[GToken], pronoun: int, case: str, chain: Sequence[ChainToken]
) -> list[Variant]:
    """One variant per other gender; never one equal to the reference text."""
    source = GENDER_OF_PRONOUN[tokens[pronoun].text.lower()]
    variants = []
    for target in GENDERS:
        if target == source:
            continue
        main = _swap(tokens[pronoun].text, "pronoun", case, source, target)
        if main is None:
            continue
        edits = {pronoun: main}
        for item in chain:
            if item.index != pronoun:
                swapped = _swap(tokens[item.index].text, item.kind, item.case, source, target)
                if swapped is not None:
                    edits[item.index] = swapped
        new_text = apply_edits(text, tokens, edits)
        if new_text != text:
            variants.append(Variant(new_text, main, target))
    return variants


def apply_edits(text: str, tokens: Sequence[GToken], edits: dict[int, str]) -> str:
    pieces, cursor = [], 0
    for index in sorted(edits):
        token = tokens[index]
        pieces += [text[cursor : token.start], edits[index]]
        cursor = token.end
    pieces.append(text[cursor:])
    return "".join(pieces)
