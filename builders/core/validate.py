"""`mtprobes validate`: schema, JSONL/parquet agreement, manifest counts, card, and the builder's invariants."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import datasets
import pyarrow as pa

from builders import __version__
from builders.core.builder import make_signature
from builders.core.context import BuildContext
from builders.core.dataset_dir import BuiltDataset, read_parquet_schema
from builders.core.errors import ValidationFailed
from builders.core.hashes import hash_problems, hashes_digest
from builders.core.schema import check_record
from builders.core.writer_paths import DROPPED_FILE, jsonl_path_for


def _schema_problems(ds: BuiltDataset) -> list[str]:
    problems = []
    expected = ds.builder.features()
    for files in ds.parquet_files().values():
        for file in files:
            if not file.is_file():
                problems.append(f"{file.name}: listed in info.json but missing")
                continue
            stored = datasets.Features.from_arrow_schema(read_parquet_schema(file))
            if stored != expected:
                problems.append(f"{file.relative_to(ds.path)}: schema differs from {ds.builder.name} features")
    return problems


def _record_problems(ds: BuiltDataset) -> list[str]:
    problems = []
    features = ds.builder.features()
    rows = ds.read_rows()
    seen: Counter[tuple[str, str, object]] = Counter()
    by_split: dict[tuple[str, str], list[dict[str, object]]] = {}
    for row in rows:
        record_id = row.record.get("id")
        problems += [f"{row.subset}/{row.split} record {record_id!r}: {p}" for p in check_record(row.record, features)]
        seen[(row.subset, row.split, record_id)] += 1
        by_split.setdefault((row.subset, row.split), []).append(row.record)
    problems += [f"{s}/{sp}: duplicate id {i!r} ({n} times)" for (s, sp, i), n in seen.items() if n > 1]
    for subset, splits in ds.info["records"].items():
        for split, expected in splits.items():
            actual = len(by_split.get((subset, split), []))
            if actual != expected:
                problems.append(f"{subset}/{split}: info.json says {expected} records, parquet has {actual}")
    problems += _jsonl_problems(ds, by_split)
    problems += [f"invariant: {p}" for p in ds.builder.invariants(rows)]
    problems += ds.builder.extras_problems(ds.path, list(ds.info.get("extras", [])), rows)
    return problems


def as_stored(records: list[dict[str, Any]], features: datasets.Features) -> list[dict[str, Any]]:
    """Records as the parquet files hold them: JSONL writes 0.3333 where a float32 column holds 0.33329999,
    so both sides are compared after the same encoding into the declared types."""
    table = pa.Table.from_pylist([features.encode_example(r) for r in records], schema=features.arrow_schema)
    return table.to_pylist()


def _jsonl_problems(ds: BuiltDataset, by_split: dict[tuple[str, str], list[dict[str, object]]]) -> list[str]:
    problems = []
    features = ds.builder.features()
    for (subset, split), records in by_split.items():
        path = ds.path / jsonl_path_for(subset, split)
        if not path.is_file():
            problems.append(f"{path.relative_to(ds.path)}: missing")
            continue
        lines = path.read_text(encoding="utf-8").splitlines()
        if len(lines) != len(records):
            problems.append(f"{path.relative_to(ds.path)}: {len(lines)} lines, parquet has {len(records)} records")
            continue
        try:
            written = [json.loads(line) for line in lines]
            stored = as_stored(written, features)
        except (ValueError, TypeError, KeyError, pa.ArrowException) as err:
            problems.append(f"{path.relative_to(ds.path)}: does not match the features ({err})")
            continue
        for number, (line_record, record) in enumerate(zip(stored, as_stored(records, features), strict=True), 1):
            if line_record != record:
                problems.append(f"{path.relative_to(ds.path)}:{number}: differs from the parquet record")
                break
    return problems


def _manifest_problems(ds: BuiltDataset) -> list[str]:
    problems = []
    counts = ds.info["counts"]
    dropped = sum(counts["dropped"].values())
    if counts["read"] != counts["kept"] + dropped:
        problems.append(
            f"info.json counts do not add up: read {counts['read']} != kept {counts['kept']} + dropped {dropped}"
        )
    if any(n < 0 for n in counts["dropped"].values()) or counts["kept"] < 0:
        problems.append("info.json has negative counts")
    problems += _dropped_file_problems(ds)
    card = ds.path / "README.md"
    if not card.is_file() or not card.read_text(encoding="utf-8").startswith("---\n"):
        problems.append("README.md dataset card with Hub YAML header is missing")
    for extra in ds.info.get("extras", []):
        if not (ds.path / extra).exists():
            problems.append(f"extra file {extra} listed in info.json is missing")
    return problems


def _dropped_file_problems(ds: BuiltDataset) -> list[str]:
    """dropped.jsonl has one line per dropped candidate: its lines per reason are info.json's drop counts."""
    path = ds.path / DROPPED_FILE
    if not path.is_file():
        return [f"{DROPPED_FILE}: missing (built by an older mtprobes? rebuild)"]
    try:
        reasons = Counter(json.loads(line)["reason"] for line in path.read_text(encoding="utf-8").splitlines())
    except (ValueError, KeyError, TypeError) as err:
        return [f"{DROPPED_FILE}: not one JSON object with a reason per line ({err})"]
    expected = Counter({reason: n for reason, n in ds.info["counts"]["dropped"].items() if n})
    if reasons != expected:
        differ = sorted(r for r in set(reasons) | set(expected) if reasons[r] != expected[r])
        shown = ", ".join(f"{r}: {reasons[r]} lines, {expected[r]} counted" for r in differ)
        return [f"{DROPPED_FILE}: lines per reason differ from info.json counts ({shown})"]
    return []


def _integrity_problems(ds: BuiltDataset) -> list[str]:
    """Every file as the build wrote it (sha256 in info.json), info.json as the build wrote it (the signature
    re-derived from its config, inputs and file hashes) and the card as rendered from info.json."""
    from builders.core.card import render_card

    recorded = ds.info.get("files_sha256")
    if not isinstance(recorded, dict):
        return ["info.json has no files_sha256 (built by an older mtprobes): rebuild to validate it"]
    problems = hash_problems(ds.path, recorded)
    expected = expected_signature(ds, recorded)
    if ds.info["signature"] != expected:
        problems.append(f"info.json: signature does not match its config, seed, inputs and files "
                        f"(recorded {ds.info['signature']!r}, derived {expected!r})")
    if ds.info.get("seed") != ds.builder.config.seed:
        problems.append(f"info.json: seed {ds.info.get('seed')!r} differs from the config's {ds.builder.config.seed}")
    card = ds.path / "README.md"
    if card.is_file() and card.read_text(encoding="utf-8") != render_card(ds.builder, ds.info):
        problems.append("README.md: differs from the card rendered from info.json")
    return problems


def expected_signature(ds: BuiltDataset, recorded: dict[str, str]) -> str:
    ctx = BuildContext(config=ds.builder.config, work_dir=ds.path, inputs=dict(ds.info.get("inputs", {})),
                       resources=dict(ds.info.get("resources", {})), tools=dict(ds.info.get("tools", {})))
    derived = make_signature(ds.builder, ctx).replace(
        f"mtprobes:{__version__}|", f"mtprobes:{ds.info.get('package_version', __version__)}|", 1)
    return f"{derived}|files:{hashes_digest(recorded)}"


def validate_dataset(path: str | Path) -> BuiltDataset:
    """Raise ValidationFailed listing every problem; return the opened dataset when all is well."""
    ds = BuiltDataset.open(path)
    problems = _manifest_problems(ds) + _schema_problems(ds)
    if not problems:
        problems += _record_problems(ds)
    problems += _integrity_problems(ds)  # last: the specific problems above say more than "sha256 differs"
    if problems:
        raise ValidationFailed(path, problems)
    return ds
