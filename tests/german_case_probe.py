"""One helper for the tests of german_case: the case the clause gives the last occurrence of a word."""

from __future__ import annotations

from builders.pronouns.german import tokenize
from builders.pronouns.german_case import german_case


def case_of_last(text: str, word: str) -> str:
    tokens = tokenize(text)
    index = [k for k, t in enumerate(tokens) if t.text == word][-1]
    return german_case(tokens, index)
