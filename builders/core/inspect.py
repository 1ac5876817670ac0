"""`mtprobes inspect`: counts, per-class and per-type balance, and whole sample items of a built dataset."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from builders.core.context import Row
from builders.core.dataset_dir import BuiltDataset
from builders.core.errors import UsageError

# Fields that class items in every family's records; counted when present, besides the builder's balance_fields.
CLASS_FIELDS = ("type", "pronoun class", "shuffle")


def parse_where(conditions: Sequence[str]) -> dict[str, str]:
    """`--where field=value` pairs; a value matches the field's JSON text or its string form."""
    parsed: dict[str, str] = {}
    for condition in conditions:
        field, sep, value = condition.partition("=")
        if not sep or not field.strip():
            raise UsageError(f"--where expects field=value, got {condition!r}")
        parsed[field.strip()] = value
    return parsed


def _matches(record: dict[str, Any], where: dict[str, str]) -> bool:
    for field, wanted in where.items():
        if field not in record:
            return False
        value = record[field]
        if wanted not in (str(value), json.dumps(value, ensure_ascii=False)):
            return False
    return True


def _pick(rows: list[Row], count: int, seed: int | None) -> list[Row]:
    """The first `count` rows, or with a seed `count` rows drawn at random (shown in file order)."""
    if seed is None or count >= len(rows):
        return rows[:count]
    chosen = sorted(random.Random(seed).sample(range(len(rows)), count))
    return [rows[i] for i in chosen]


def summarize(
    path: str | Path, samples: int = 5, where: Sequence[str] = (), seed: int | None = None
) -> dict[str, Any]:
    ds = BuiltDataset.open(path)
    rows = ds.read_rows()
    conditions = parse_where(where)
    if conditions:
        unknown = sorted(f for f in conditions if rows and all(f not in row.record for row in rows))
        if unknown:
            raise UsageError(f"--where: no record has field(s) {unknown}; fields: {sorted(rows[0].record)}")
    matched = [row for row in rows if _matches(row.record, conditions)]
    balance: dict[str, dict[str, int]] = {}
    for field in dict.fromkeys([*ds.builder.balance_fields, *CLASS_FIELDS]):
        counter = Counter(str(row.record[field]) for row in matched if field in row.record)
        if counter:
            balance[field] = dict(counter.most_common())
    shown = _pick(matched, samples, seed)
    return {
        "builder": ds.info["builder"],
        "signature": ds.info["signature"],
        "records": ds.info["records"],
        "counts": ds.info["counts"],
        "where": conditions,
        "matched": len(matched),
        "balance": balance,
        "samples": [row.record for row in shown],
        "sample_places": [f"{row.subset}/{row.split}" for row in shown],
    }


def render_summary(summary: dict[str, Any]) -> str:
    lines = [f"builder:   {summary['builder']}", f"signature: {summary['signature']}", "records:"]
    for subset, splits in summary["records"].items():
        lines += [f"  {subset}/{split}: {n}" for split, n in splits.items()]
    counts = summary["counts"]
    lines.append(f"candidates: read {counts['read']}, kept {counts['kept']}")
    lines += [f"  dropped {reason}: {n}" for reason, n in counts["dropped"].items()]
    if summary["where"]:
        shown = " and ".join(f"{k}={v}" for k, v in summary["where"].items())
        lines.append(f"where {shown}: {summary['matched']} records")
    for field, values in summary["balance"].items():
        lines.append(f"by {field!r}: " + ", ".join(f"{k}={v}" for k, v in values.items()))
    lines.append(f"{len(summary['samples'])} of {summary['matched']} records:")
    for place, record in zip(summary["sample_places"], summary["samples"], strict=True):
        lines.append(f"--- {place}")
        lines.append(json.dumps(record, ensure_ascii=False, indent=2, default=str))
    return "\n".join(lines)
