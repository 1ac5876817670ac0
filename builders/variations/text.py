"""Character-level edits with spans, a light tokenizer, and spacing/punctuation repair after a deletion."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

# Words (with inner hyphens/apostrophes, digits kept with separators) or single non-space symbols.
_TOKEN_RE = re.compile(r"\d+(?:[.,]\d+)*|\w+(?:['’-]\w+)*|[^\w\s]")


@dataclass(frozen=True)
class Token:
    text: str
    start: int
    end: int

    @property
    def lower(self) -> str:
        return self.text.lower()


def tokenize(text: str) -> list[Token]:
    """Regex tokens with character offsets (the German side and the n-gram model use these)."""
    return [Token(m.group(), m.start(), m.end()) for m in _TOKEN_RE.finditer(text)]


@dataclass(frozen=True)
class Edit:
    """Replace ``text[start:end]`` by ``new``; ``old`` is kept for the record and for validation."""

    start: int
    end: int
    old: str
    new: str


@dataclass(frozen=True)
class AppliedEdit:
    start: int
    end: int
    varied_start: int
    varied_end: int
    old: str
    new: str

    def to_record(self) -> dict[str, object]:
        return {
            "start": self.start,
            "end": self.end,
            "varied_start": self.varied_start,
            "varied_end": self.varied_end,
            "old": self.old,
            "new": self.new,
        }


def apply_edits(text: str, edits: Sequence[Edit]) -> tuple[str, list[AppliedEdit]]:
    """Apply non-overlapping edits; return the varied text and each edit's span in both texts."""
    ordered = sorted(edits, key=lambda e: e.start)
    for before, after in zip(ordered, ordered[1:], strict=False):
        if after.start < before.end:
            raise ValueError(f"overlapping edits {before} and {after}")
    pieces: list[str] = []
    applied: list[AppliedEdit] = []
    cursor = 0
    shift = 0
    for edit in ordered:
        if text[edit.start : edit.end] != edit.old:
            raise ValueError(f"edit expects {edit.old!r} at {edit.start}, text has {text[edit.start:edit.end]!r}")
        pieces.append(text[cursor : edit.start])
        pieces.append(edit.new)
        varied_start = edit.start + shift
        applied.append(
            AppliedEdit(edit.start, edit.end, varied_start, varied_start + len(edit.new), edit.old, edit.new)
        )
        shift += len(edit.new) - (edit.end - edit.start)
        cursor = edit.end
    pieces.append(text[cursor:])
    return "".join(pieces), applied


def match_case(template: str, word: str) -> str:
    """Give ``word`` the capitalisation pattern of ``template`` (lower, Title or UPPER)."""
    if len(template) > 1 and template.isupper():
        return word.upper()
    if template[:1].isupper():
        return word[:1].upper() + word[1:]
    return word


_CLOSING = ".,;:!?)]}»“”\"'…"


def deletion_edit(text: str, start: int, end: int) -> Edit:
    """Delete ``text[start:end]`` (one word) and repair the surroundings.

    Never leaves a double space, a space before punctuation, a dangling comma (``, too.`` / ``He, too, came``)
    or a lowercase sentence start; the repaired region is one contiguous edit.
    """
    left = start
    right = end
    # Comma-framed word: "He, too, came" -> "He came"; "He came, too." -> "He came."
    before = text[:left].rstrip(" ")
    after = text[right:].lstrip(" ")
    if before.endswith(",") and (after[:1] in (",", "") or after[:1] in _CLOSING):
        left = len(before) - 1
        if after.startswith(","):
            right = len(text) - len(after) + 1
    elif after.startswith(",") and (not before or before[-1:] in ".!?:;\"„“»«(–—"):
        # sentence- or clause-initial adverb followed by a comma: "Then, he went" -> "He went"
        right = len(text) - len(after) + 1
    # Spaces: keep exactly one between neighbouring words, none before closing punctuation.
    while left > 0 and text[left - 1] == " ":
        left -= 1
    while right < len(text) and text[right] == " ":
        right += 1
    prefix = text[:left]
    rest = text[right:]
    joiner = "" if not prefix or not rest or rest[0] in _CLOSING or prefix[-1] in "([{„“«\"'" else " "
    new = joiner
    sentence_start = not prefix.strip() or prefix.rstrip()[-1:] in ".!?„“«\"'"
    original_capital = text[start : start + 1].isupper()
    if sentence_start and original_capital and rest[:1].islower():
        # the removed word carried the sentence's capital letter: move it to the next word
        new += rest[0].upper()
        right += 1
    return Edit(left, right, text[left:right], new)


def insertion_edit(text: str, gap_offset: int, word: str, capitalize: bool = False) -> Edit:
    """Insert ``word`` at a gap: ``gap_offset`` is the start of the token that follows the gap."""
    if gap_offset >= len(text):
        return Edit(len(text), len(text), "", " " + word)
    if capitalize:
        following = text[gap_offset]
        return Edit(gap_offset, gap_offset + 1, following, word[:1].upper() + word[1:] + " " + following.lower())
    return Edit(gap_offset, gap_offset, "", word + " ")
