"""Checks `mtprobes validate` runs on every variations record (also usable on loaded JSONL records)."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Any

from builders.variations.config import VARIATION_TYPES
from builders.variations.text import Edit, apply_edits

SINGLE_EDIT_TYPES = {"DEL", "INS", "SUBNUM"}


def _side_problems(record: dict[str, Any], side: str) -> list[str]:
    original, varied = record[f"original_{side}"], record[f"varied_{side}"]
    edits = record[f"edits_{side}"]
    problems = []
    if original == varied:
        problems.append(f"varied_{side} equals original_{side}")
    if record["type"] in SINGLE_EDIT_TYPES and len(edits) != 1:
        problems.append(f"{record['type']} needs exactly one edit on the {side} side, found {len(edits)}")
    if not edits:
        return [*problems, f"no edit on the {side} side"]
    for edit in edits:
        if original[edit["start"] : edit["end"]] != edit["old"]:
            problems.append(f"edits_{side}: original[{edit['start']}:{edit['end']}] is not {edit['old']!r}")
        if varied[edit["varied_start"] : edit["varied_end"]] != edit["new"]:
            problems.append(f"edits_{side}: varied[{edit['varied_start']}:{edit['varied_end']}] is not "
                            f"{edit['new']!r}")
    try:
        rebuilt, _ = apply_edits(original, [Edit(e["start"], e["end"], e["old"], e["new"]) for e in edits])
    except ValueError as err:
        return [*problems, f"edits_{side}: {err}"]
    if rebuilt != varied:
        problems.append(f"applying edits_{side} to original_{side} does not give varied_{side}")
    if "  " in varied and "  " not in original:
        problems.append(f"varied_{side} has a double space")
    return problems


def _number(text: str) -> Decimal | None:
    digits = re.sub(r"(?<=\d)(st|nd|rd|th)$", "", text, flags=re.IGNORECASE)
    if "," in digits and "." in digits:
        digits = digits.replace(",", "") if digits.rfind(".") > digits.rfind(",") else (
            digits.replace(".", "").replace(",", "."))
    elif "," in digits:
        digits = digits.replace(",", "" if re.fullmatch(r"\d{1,3}(,\d{3})+", digits) else ".")
    elif re.fullmatch(r"\d{1,3}(\.\d{3})+", digits) and not re.fullmatch(r"\d+\.\d{1,2}", digits):
        digits = digits.replace(".", "")
    try:
        return Decimal(re.sub(r"[\s\u00a0\u202f]", "", digits))
    except InvalidOperation:
        return None


# SUBNUM repairs the English indefinite article with the number ("a 9.4" -> "an 8.4"), so an edit may start with one.
_ARTICLE = re.compile(r"(?i)^(a|an)\s+(?=\d)")


def _number_after_article(text: str, lang: str) -> Decimal | None:
    """The number an edit holds, read in its side's convention ('9.975' is 9.975 in English, 9975 in German);
    a record without a known direction falls back to guessing the convention from the digits."""
    from builders.variations.strategies.subnum import parse_value

    number = _ARTICLE.sub("", text, count=1)
    return parse_value(number, lang) if lang in ("en", "de") else _number(number)


def _subnum_problems(record: dict[str, Any]) -> list[str]:
    k = record["parameters"]["k"]
    if not k:
        return ["SUBNUM record without a non-zero k"]
    problems = []
    languages = dict(zip(("src", "ref"), str(record.get("direction", "")).split("-"), strict=False))
    for side in ("src", "ref"):
        lang = languages.get(side, "")
        for edit in record[f"edits_{side}"]:
            old, new = _number_after_article(edit["old"], lang), _number_after_article(edit["new"], lang)
            if old is None or new is None:
                problems.append(f"edits_{side}: {edit['old']!r} -> {edit['new']!r} is not a number change")
            elif new < 0 or new - old != k:
                problems.append(f"edits_{side}: {edit['old']!r} -> {edit['new']!r} is not n{k:+d} (>= 0)")
    return problems


def record_problems(record: dict[str, Any]) -> list[str]:
    if record.get("type") not in VARIATION_TYPES:
        return [f"unknown type {record.get('type')!r}"]
    problems = _side_problems(record, "src") + _side_problems(record, "ref")
    if record["type"] == "SUBNUM":
        problems += _subnum_problems(record)
    elif record["parameters"]["k"] is not None:
        problems.append(f"{record['type']} record has k={record['parameters']['k']}")
    return problems
