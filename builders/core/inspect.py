"""`mtprobes inspect`: counts, per-class and per-type balance, and whole sample items of a built dataset, or
(``--dropped``) the candidates the build dropped, with their reasons."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from pathlib import Path
from typing import Any

from builders.core.context import Row
from builders.core.dataset_dir import BuiltDataset, read_dropped
from builders.core.errors import UsageError
from builders.core.writer_paths import DROPPED_FILE

# Fields that class items in every family's records; counted when present, besides the builder's balance_fields.
# The first one a record has also spreads the default sample over its values.
CLASS_FIELDS = ("type", "pronoun class", "shuffle")
# A --where that matches nothing lists at most this many values of its field.
SHOWN_VALUES = 20
# Sample items are printed as JSON, a flat object or a list of scalars on one line and long lists cut to
# their first few entries (a CoMMuTE item has 15 candidates per translation).
LIST_HEAD = 5


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


def _class_key(row: Row) -> Hashable:
    """The group a record is sampled from: its subset, split and first class field (type, pronoun class ...)."""
    first = next((field for field in CLASS_FIELDS if field in row.record), None)
    return (row.subset, row.split, str(row.record[first]) if first else "")


def spread_sample(rows: list[Row], count: int, seed: int | None, key: Callable[[Row], Hashable]) -> list[Row]:
    """``count`` rows spread over the groups ``key`` makes (as even a share each as their sizes allow), evenly
    spaced within a group, or drawn at random with a seed; shown in file order."""
    groups: dict[Hashable, list[int]] = {}
    for position, row in enumerate(rows):
        groups.setdefault(key(row), []).append(position)
    quotas = dict.fromkeys(groups, 0)
    total, wanted = 0, min(count, len(rows))
    while total < wanted:  # one more for every group with rows left, in turn
        for group, positions in groups.items():
            if quotas[group] < len(positions) and total < wanted:
                quotas[group] += 1
                total += 1
    rng = random.Random(seed)
    chosen: list[int] = []
    for group, positions in groups.items():
        quota = quotas[group]
        if seed is None:
            chosen += [positions[(j * len(positions)) // quota] for j in range(quota)]
        else:
            chosen += rng.sample(positions, quota)
    return [rows[position] for position in sorted(chosen)]


def _dropped_rows(path: Path) -> list[Row]:
    return [Row("dropped", entry, str(entry.get("reason", ""))) for entry in read_dropped(path)]


def _no_match_hint(rows: list[Row], conditions: dict[str, str]) -> str:
    """`no match; values of type: DEL, INS, SUBGEN, SUBNUM` for each condition field."""
    hints = []
    for field in conditions:
        values = sorted({json.dumps(row.record[field], ensure_ascii=False).strip('"')
                         for row in rows if field in row.record})
        shown = ", ".join(values[:SHOWN_VALUES]) + (f" and {len(values) - SHOWN_VALUES} more"
                                                    if len(values) > SHOWN_VALUES else "")
        hints.append(f"values of {field}: {shown}")
    return "no match; " + "; ".join(hints)


def summarize(
    path: str | Path, samples: int = 5, where: Sequence[str] = (), seed: int | None = None, dropped: bool = False
) -> dict[str, Any]:
    if samples < 0:
        raise UsageError(f"--sample must be 0 or more, got {samples}")
    ds = BuiltDataset.open(path)
    rows = _dropped_rows(ds.path) if dropped else ds.read_rows()
    conditions = parse_where(where)
    if conditions:
        unknown = sorted(f for f in conditions if rows and all(f not in row.record for row in rows))
        if unknown:
            known = sorted({name for row in rows for name in row.record})
            raise UsageError(f"--where: no {'dropped candidate' if dropped else 'record'} has field(s) {unknown}; "
                             f"fields: {known}")
    matched = [row for row in rows if _matches(row.record, conditions)]
    fields = ("reason",) if dropped else (*ds.builder.balance_fields, *CLASS_FIELDS)
    balance: dict[str, dict[str, int]] = {}
    for field in dict.fromkeys(fields):
        counter = Counter(str(row.record[field]) for row in matched if field in row.record)
        if counter:
            balance[field] = dict(counter.most_common())
    shown = spread_sample(matched, samples, seed, (lambda row: row.subset) if dropped else _class_key)
    return {
        "builder": ds.info["builder"],
        "signature": ds.info["signature"],
        "records": ds.info["records"],
        "counts": ds.info["counts"],
        "dropped": dropped,
        "where": conditions,
        "matched": len(matched),
        "no_match": _no_match_hint(rows, conditions) if conditions and not matched else "",
        "balance": balance,
        "samples": [row.record for row in shown],
        "sample_places": [f"dropped/{row.subset}" if dropped else f"{row.subset}/{row.split}" for row in shown],
    }


def compact_json(value: Any, depth: int = 0) -> str:
    """JSON of a sample item: objects of scalars and lists of scalars on one line, lists longer than LIST_HEAD
    cut to their head and a ``"… N more"`` entry (so an uncut item still reads back with json.loads)."""
    if not isinstance(value, dict | list) or not value or _flat(value):
        return json.dumps(value, ensure_ascii=False, default=str)
    pad = "  " * (depth + 1)
    if isinstance(value, dict):
        inner = [f"{pad}{json.dumps(k, ensure_ascii=False)}: {compact_json(v, depth + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(inner) + "\n" + "  " * depth + "}"
    inner = [pad + compact_json(v, depth + 1) for v in value[:LIST_HEAD]]
    if len(value) > LIST_HEAD:
        inner.append(f'{pad}"… {len(value) - LIST_HEAD} more"')
    return "[\n" + ",\n".join(inner) + "\n" + "  " * depth + "]"


def _flat(value: dict[str, Any] | list[Any]) -> bool:
    values = value.values() if isinstance(value, dict) else value
    return not any(isinstance(v, dict | list) for v in values) and (isinstance(value, dict) or len(value) <= 20)


def render_summary(summary: dict[str, Any]) -> str:
    lines = [f"builder:   {summary['builder']}", f"signature: {summary['signature']}", "records:"]
    for subset, splits in summary["records"].items():
        lines += [f"  {subset}/{split}: {n}" for split, n in splits.items()]
    counts = summary["counts"]
    lines.append(f"candidates: read {counts['read']}, kept {counts['kept']}")
    lines += [f"  dropped {reason}: {n}" for reason, n in counts["dropped"].items()]
    what = f"dropped candidates ({DROPPED_FILE})" if summary["dropped"] else "records"
    if summary["where"]:
        shown = " and ".join(f"{k}={v}" for k, v in summary["where"].items())
        lines.append(f"where {shown}: {summary['no_match'] or str(summary['matched']) + ' ' + what}")
    for field, values in summary["balance"].items():
        lines.append(f"by {field!r}: " + ", ".join(f"{k}={v}" for k, v in values.items()))
    lines.append(f"{len(summary['samples'])} of {summary['matched']} {what}:")
    for place, record in zip(summary["sample_places"], summary["samples"], strict=True):
        lines.append(f"--- {place}")
        lines.append(compact_json(record))
    return "\n".join(lines)
