"""Character-level edits with spans, a light tokenizer, and spacing/punctuation repair after a deletion."""

from __future__ import annotations

import bisect
import itertools
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
    for before, after in itertools.pairwise(ordered):
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
# Quote marks that open in one convention and close in another (English “…”, German „…“, "…", »…« / «…»):
# whether one opens or closes is read from the spaces around it in the original text.
_QUOTES = "\"'“”‘’«»"
_OPENING = "([{„‚"


def _opens(text: str, index: int) -> bool:
    """A quote at ``index`` opens when it is glued to the following word and not to the preceding one."""
    before = text[index - 1] if index > 0 else " "
    after = text[index + 1] if index + 1 < len(text) else " "
    return (before.isspace() or before in _OPENING) and not after.isspace()


def _joiner(text: str, start: int, end: int, prefix: str, rest: str) -> str:
    """What goes between ``prefix`` and ``rest`` once the word text[start:end] and its spaces are gone: one space
    between words, none before closing punctuation or after opening punctuation. A quote mark counts as opening
    or closing by the spaces around it in the original ('Czechs really "battered"' -> 'Czechs "battered"')."""
    if not prefix or not rest:
        return ""
    left_char, right_char = prefix[-1], rest[0]
    if left_char in _OPENING or (left_char in _QUOTES and _opens(text, len(prefix) - 1)):
        return ""
    if right_char in _QUOTES:
        return " " if _opens(text, len(text) - len(rest)) else ""
    return "" if right_char in _CLOSING else " "


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
    new = _joiner(text, start, end, prefix, rest)
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


# An 'a'/'an' and what may stand between it and the next word: spaces, then opening quotes or brackets
# ('an "official" deal').
_ARTICLE_BEFORE = re.compile(r"(?<![\w'’-])([Aa]n?)(\s+[\"“‘«(\[]*)$")
_OPENING_MARKS = "\"“‘«(['"
_CONSONANT_SOUND_PREFIXES = ("uni", "use", "usu", "uti", "eu", "one", "once", "ubiq", "uran", "urin", "urug",
                             "urol", "uk", "ute", "ewe")
_VOWEL_SOUND_PREFIXES = ("hour", "honest", "honor", "honour", "heir")
# Letters whose English names start with a vowel sound: an FBI agent, an MP, an SUV, but a UN envoy, a CIA file.
_VOWEL_SOUND_LETTERS = frozenset("AEFHILMNORSX")


def _read_as_letters(word: str) -> bool:
    """An all-capital abbreviation spelled out letter by letter (FBI, MP, OECD, U.S.), not read as a word (NATO,
    NASA, FIFA): up to three letters, or a longer one with a consonant cluster that no English word starts or
    ends with or a run of three consonants."""
    letters = word.replace(".", "")
    if not letters.isalpha() or not letters.isupper():
        return False
    if len(letters) <= 3 or "." in word:
        return True
    shape = "".join("v" if c in "AEIOU" else "c" for c in letters)
    return shape.startswith("cc") or shape.endswith("cc") or "ccc" in shape or "v" not in shape


def starts_with_vowel_sound(word: str) -> bool:
    """Rough English 'a'/'an' choice: first letter, a few exceptions (university, hour), abbreviations read
    letter by letter by their first letter's name (an FBI agent, a UN envoy), and numbers by how they are read
    (8, 11, 18, 80, 11,000 start with a vowel sound)."""
    lower = word.lower()
    if not lower:
        return False
    if lower[:1].isdigit():
        digits = re.match(r"[\d,]*", lower)
        integer = (digits.group() if digits else "").replace(",", "")
        return integer.startswith("8") or (len(integer) in (2, 5, 8) and integer[:2] in ("11", "18"))
    if _read_as_letters(word):
        return word[0] in _VOWEL_SOUND_LETTERS
    if lower.startswith(_VOWEL_SOUND_PREFIXES):
        return True
    if lower.startswith(_CONSONANT_SOUND_PREFIXES):
        return False
    return lower[:1] in "aeiou"


def repair_indefinite_article(text: str, edit: Edit) -> Edit:
    """Widen an English edit so that an 'a'/'an' right before it agrees with the word that now follows it
    ('a very old' minus 'very' -> 'an old'; 'an old' plus 'very' -> 'a very old'), also across an opening quote
    or bracket ('an "officially" signed' minus 'officially' -> 'a "signed"')."""
    match = _ARTICLE_BEFORE.search(text[: edit.start]) or _ARTICLE_BEFORE.search(text[: edit.start] + " ")
    if match is None:
        return edit
    varied_rest = (edit.new + text[edit.end :]).lstrip().lstrip(_OPENING_MARKS)
    word = re.match(r"\w[\w,]*(?:\.(?=\w))?[\w.]*", varied_rest)
    if word is None:
        return edit
    article = match.group(1)
    before = text[: match.start(1)].rstrip()
    if article[0] == "A" and before and before[-1] not in ".!?\"“”'‘’(:":
        return edit  # a capital A inside a sentence is a label (vitamin A, Plan A), not the article
    wanted = "an" if starts_with_vowel_sound(word.group().rstrip(",")) else "a"
    if article.lower() == wanted:
        return edit
    start = match.start(1)
    between = text[match.end(1) : edit.start]
    return Edit(start, edit.end, text[start : edit.end], match_case(article, wanted) + between + edit.new)


# Quotation marks that open a quoted span and the marks that close it: English “…” and "…", German „…“ (or „…”),
# »…« and «…», single ‚…‘. Straight single quotes and ‘ are left out: they double as apostrophes (rock 'n' roll).
QUOTE_CLOSERS: dict[str, str] = {"“": "”“\"", "\"": "\"”“", "„": "“”\"", "»": "«", "«": "»", "‚": "‘’"}


def quoted_spans(text: str) -> list[tuple[int, int]]:
    """(opening mark, closing mark) offsets of every quoted span; a span left open runs to the end of the line
    (a quotation often continues into the next paragraph)."""
    spans: list[tuple[int, int]] = []
    opening = -1
    for position, char in enumerate(text):
        if opening < 0 and char in QUOTE_CLOSERS:
            opening = position
        elif opening >= 0 and char in QUOTE_CLOSERS[text[opening]]:
            spans.append((opening, position))
            opening = -1
    if opening >= 0:
        spans.append((opening, len(text)))
    return spans


def inside_quotation(text: str, offset: int) -> bool:
    """A word inserted at character ``offset`` would stand inside quoted material (after the opening mark, up to
    and including the place right before the closing one)."""
    return any(opening < offset <= closing for opening, closing in quoted_spans(text))


_SENTENCE_BREAK = re.compile(r"(?<=[.!?…])[\"”“»']?\s+(?=[\"„“«'(]?[A-ZÄÖÜ0-9])")


def sentence_starts(text: str) -> list[int]:
    """Character offsets where sentences start (a light splitter: end mark, space, capital letter)."""
    return [0, *(m.end() for m in _SENTENCE_BREAK.finditer(text))]


def locate(text: str, tokens: Sequence[Token], gap: int) -> tuple[int, float]:
    """(sentence index, relative position inside that sentence) of a gap."""
    offset = tokens[gap].start if gap < len(tokens) else len(text)
    starts = sentence_starts(text)
    index = bisect.bisect_right(starts, offset) - 1
    end = starts[index + 1] if index + 1 < len(starts) else len(text)
    return index, (offset - starts[index]) / max(1, end - starts[index])
