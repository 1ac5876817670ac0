"""Invariants of a pronouns.v1 record, used by `mtprobes validate`."""

from __future__ import annotations

from typing import Any

from builders.pronouns.german import GENDER_OF_PRONOUN, tokenize


def record_problems(record: dict[str, Any]) -> list[str]:
    problems = []
    pronoun = str(record["ref pronoun"]).lower()
    if pronoun not in GENDER_OF_PRONOUN:
        problems.append(f"ref pronoun {record['ref pronoun']!r} is not er/sie/es")
        return problems
    if record["pronoun class"] != pronoun:
        problems.append("pronoun class differs from the ref pronoun")
    if record["ref ante head gender"] != GENDER_OF_PRONOUN[pronoun]:
        problems.append("antecedent gender does not agree with the pronoun")
    if record["intrasegmental"] != (record["ante distance"] == 0):
        problems.append("intrasegmental disagrees with ante distance")
    if not 0 <= record["ante distance"] < record["segment id"]:
        problems.append(f"ante distance {record['ante distance']} points before the document start")
    tokens = [t.text for t in tokenize(record["ref segment"])]
    if (
        not 0 < record["ref pronoun id"] <= len(tokens)
        or tokens[record["ref pronoun id"] - 1] != record["ref pronoun"]
    ):
        problems.append("ref pronoun id does not point at the ref pronoun")
    problems += _error_problems(record, pronoun)
    return problems


def _error_problems(record: dict[str, Any], pronoun: str) -> list[str]:
    problems = []
    genders = [e["replacement gender"] for e in record["errors"]]
    if len(record["errors"]) != 2 or len(set(genders)) != 2 or GENDER_OF_PRONOUN[pronoun] in genders:
        problems.append(f"expected two variants with the two other genders, got {genders}")
    for error in record["errors"]:
        if error["contrastive"] == record["ref segment"]:
            problems.append("a contrastive variant equals the reference")
        if error["type"] != "pronominal coreference":
            problems.append(f"unexpected error type {error['type']!r}")
    if len({e["contrastive"] for e in record["errors"]}) != len(record["errors"]):
        problems.append("two contrastive variants are identical")
    return problems
