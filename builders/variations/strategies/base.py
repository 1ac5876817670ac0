"""What every strategy receives and returns: an analysed EN–DE sentence pair in, variations or drops out."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from builders.variations.text import Edit, Token, tokenize

if TYPE_CHECKING:
    from builders.variations.config import VariationsConfig
    from builders.variations.lexicons import Lexicons
    from builders.variations.ngram import BidirectionalNgram


@dataclass(frozen=True)
class EnglishToken:
    """A spaCy token reduced to what the strategies need (picklable, so units can be checkpointed)."""

    text: str
    start: int
    end: int
    pos: str
    tag: str
    dep: str

    @property
    def lower(self) -> str:
        return self.text.lower()


@dataclass(frozen=True)
class SentencePair:
    """One line of the corpus with the English side analysed; ``alignment`` holds (en, de) token links."""

    source_id: str
    line: int
    en: str
    de: str
    en_tokens: tuple[EnglishToken, ...]
    alignment: tuple[tuple[int, int], ...] | None = None
    _de_tokens: list[Token] = field(default_factory=list, compare=False, repr=False)

    @property
    def de_tokens(self) -> list[Token]:
        if not self._de_tokens and self.de:
            self._de_tokens.extend(tokenize(self.de))
        return self._de_tokens


@dataclass(frozen=True)
class Variation:
    """One minimal pair: edits on the English and the German side plus the parameters that made it."""

    type: str
    en_edits: tuple[Edit, ...]
    de_edits: tuple[Edit, ...]
    word_en: str
    word_de: str
    new_en: str
    new_de: str
    position: int  # index of the (first) edited English token
    k: int | None = None
    detail: str = ""


@dataclass(frozen=True)
class Drop:
    """A candidate found and rejected, under a reason name that ends up in info.json."""

    reason: str


Outcome = Variation | Drop


@dataclass(frozen=True)
class StrategyResources:
    config: VariationsConfig
    lexicons: Lexicons
    ngram_en: BidirectionalNgram | None = None
    ngram_de: BidirectionalNgram | None = None


class Strategy(Protocol):
    type_name: str

    def generate(self, pair: SentencePair, resources: StrategyResources) -> list[Outcome]:
        """All variations of this type for one pair, plus a Drop for every rejected candidate."""
        ...


def aligned_de_indices(pair: SentencePair, en_index: int) -> set[int]:
    """German token indices linked to an English token by an external aligner (empty without one)."""
    if pair.alignment is None:
        return set()
    return {de for en, de in pair.alignment if en == en_index}


def de_char_to_token_index(tokens: list[Token], start: int) -> int:
    for index, token in enumerate(tokens):
        if token.start == start:
            return index
    raise ValueError(f"no German token starts at {start}")
