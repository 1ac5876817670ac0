"""Tab-separated lexicons under ``resources/variations/``: strict parsing, errors name the file and row."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from builders.core.errors import InputError
from builders.core.textio import read_lines

INSERTION_SLOTS = ("degree", "verbal")


@dataclass(frozen=True)
class TranslationEntry:
    english: str
    german: tuple[str, ...]  # accepted translations; the first one is used for insertions
    slot: str = ""  # insertions only: where the English word may go (see resources/variations/insertions.tsv)


@dataclass(frozen=True)
class GenderedNoun:
    en_masculine: str
    en_feminine: str
    de_masculine: str
    de_feminine: str


@dataclass(frozen=True)
class Lexicons:
    adverbs: dict[str, TranslationEntry] = field(default_factory=dict)
    insertions: dict[str, TranslationEntry] = field(default_factory=dict)
    gendered_nouns: tuple[GenderedNoun, ...] = ()


def _is_word(text: str) -> bool:
    return bool(text) and all(part.isalpha() for part in text.split("-"))


def read_rows(path: str | Path, columns: int) -> list[tuple[int, list[str]]]:
    """Non-comment rows split on tabs; a row with another number of fields or an empty field is an error."""
    rows = []
    for number, line in enumerate(read_lines(path), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        fields = [f.strip() for f in line.split("\t")]
        if len(fields) != columns:
            raise InputError(path, f"malformed lexicon row: expected {columns} tab-separated fields, "
                                   f"got {len(fields)}: {line!r}", line=number)
        if any(not f for f in fields):
            raise InputError(path, f"malformed lexicon row: empty field in {line!r}", line=number)
        rows.append((number, fields))
    if not rows:
        raise InputError(path, "lexicon has no rows")
    return rows


def load_translations(path: str | Path, with_slot: bool = False) -> dict[str, TranslationEntry]:
    """``english<TAB>german1|german2...[<TAB>slot]``: one lowercase English word per row, each word once."""
    entries: dict[str, TranslationEntry] = {}
    for number, fields in read_rows(path, 3 if with_slot else 2):
        english, german = fields[0], fields[1]
        slot = fields[2] if with_slot else ""
        if with_slot and slot not in INSERTION_SLOTS:
            raise InputError(path, f"malformed lexicon row: slot {slot!r} is not one of {list(INSERTION_SLOTS)}",
                             line=number)
        alternatives = tuple(g.strip() for g in german.split("|"))
        words = [english, *alternatives]
        if not all(_is_word(w) and w == w.lower() for w in words):
            raise InputError(path, f"malformed lexicon row: words must be lowercase single words: {words}",
                             line=number)
        if english in entries:
            raise InputError(path, f"malformed lexicon row: {english!r} is listed twice", line=number)
        entries[english] = TranslationEntry(english, alternatives, slot)
    return entries


def load_gendered_nouns(path: str | Path) -> tuple[GenderedNoun, ...]:
    """``en_masc<TAB>en_fem<TAB>de_masc<TAB>de_fem`` (German nouns capitalised)."""
    nouns = []
    for number, fields in read_rows(path, 4):
        if not all(_is_word(f) for f in fields) or not (fields[2][0].isupper() and fields[3][0].isupper()):
            raise InputError(path, f"malformed lexicon row: expected four words, German ones capitalised: {fields}",
                             line=number)
        nouns.append(GenderedNoun(*fields))
    return tuple(nouns)


def load_lexicons(adverbs: Path, insertions: Path, gendered_nouns: Path | None) -> Lexicons:
    return Lexicons(
        adverbs=load_translations(adverbs),
        insertions=load_translations(insertions, with_slot=True),
        gendered_nouns=load_gendered_nouns(gendered_nouns) if gendered_nouns else (),
    )


def words_in(entries: Sequence[TranslationEntry]) -> set[str]:
    return {w for e in entries for w in (e.english, *e.german)}
