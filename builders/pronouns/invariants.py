"""Invariants of a pronouns.v1 record, used by `mtprobes validate`; the pronoun inventory and the tokenizer
come from the record's language pack."""

from __future__ import annotations

from typing import Any

from builders.pronouns.packs import LanguagePack, make_pack, other_forms


def record_problems(record: dict[str, Any], pack: LanguagePack | None = None) -> list[str]:
    pack = pack or make_pack("de")
    problems = []
    pronoun = str(record["ref pronoun"]).lower()
    if pronoun not in pack.forms:
        problems.append(f"ref pronoun {record['ref pronoun']!r} is not {'/'.join(pack.forms)}")
        return problems
    if record["pronoun class"] != pronoun:
        problems.append("pronoun class differs from the ref pronoun")
    if record["ref ante head gender"] != pack.forms[pronoun].gender:
        problems.append("antecedent gender does not agree with the pronoun")
    if record["intrasegmental"] != (record["ante distance"] == 0):
        problems.append("intrasegmental disagrees with ante distance")
    if not 0 <= record["ante distance"] < record["segment id"]:
        problems.append(f"ante distance {record['ante distance']} points before the document start")
    tokens = [t.text for t in pack.tokenize(record["ref segment"])]
    if (
        not 0 < record["ref pronoun id"] <= len(tokens)
        or tokens[record["ref pronoun id"] - 1] != record["ref pronoun"]
    ):
        problems.append("ref pronoun id does not point at the ref pronoun")
    problems += _error_problems(record, pronoun, pack)
    return problems


NUMBER_WORDS = {1: "one variant", 2: "two variants"}


def _error_problems(record: dict[str, Any], pronoun: str, pack: LanguagePack) -> list[str]:
    problems = []
    genders = [e["replacement gender"] for e in record["errors"]]
    expected = sorted(form.gender for _, form in other_forms(pack, pronoun))
    # a variant that may be right German is pruned (german_variants_filter): one or more of the others remain
    if not genders or not set(genders) <= set(expected) or len(set(genders)) != len(genders):
        count = NUMBER_WORDS.get(len(expected), f"{len(expected)} variants")
        problems.append(f"expected {count} with the other gender(s) {expected}, got {genders}")
    for error in record["errors"]:
        if error["contrastive"] == record["ref segment"]:
            problems.append("a contrastive variant equals the reference")
        if error["type"] != "pronominal coreference":
            problems.append(f"unexpected error type {error['type']!r}")
    if len({e["contrastive"] for e in record["errors"]}) != len(record["errors"]):
        problems.append("two contrastive variants are identical")
    return problems
