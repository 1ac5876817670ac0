"""`mtprobes inspect`: counts, class balance and a few sample records of a built dataset."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from builders.core.dataset_dir import BuiltDataset


def summarize(path: str | Path, samples: int = 5) -> dict[str, Any]:
    ds = BuiltDataset.open(path)
    rows = ds.read_rows()
    balance: dict[str, dict[str, int]] = {}
    for field in ds.builder.balance_fields:
        counter = Counter(str(row.record.get(field)) for row in rows if field in row.record)
        balance[field] = dict(counter.most_common())
    first_subset = rows[0].subset if rows else "default"
    sample = [row.record for row in rows if row.subset == first_subset][:samples]
    return {
        "builder": ds.info["builder"],
        "signature": ds.info["signature"],
        "records": ds.info["records"],
        "counts": ds.info["counts"],
        "balance": balance,
        "samples": sample,
    }


def render_summary(summary: dict[str, Any]) -> str:
    lines = [f"builder:   {summary['builder']}", f"signature: {summary['signature']}", "records:"]
    for subset, splits in summary["records"].items():
        lines += [f"  {subset}/{split}: {n}" for split, n in splits.items()]
    counts = summary["counts"]
    lines.append(f"candidates: read {counts['read']}, kept {counts['kept']}")
    lines += [f"  dropped {reason}: {n}" for reason, n in counts["dropped"].items()]
    for field, values in summary["balance"].items():
        lines.append(f"balance of {field!r}: " + ", ".join(f"{k}={v}" for k, v in values.items()))
    lines.append(f"{len(summary['samples'])} sample records:")
    lines += ["  " + json.dumps(record, ensure_ascii=False)[:400] for record in summary["samples"]]
    return "\n".join(lines)
