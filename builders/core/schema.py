"""Check records against a declared ``datasets.Features`` schema before anything is written."""

from __future__ import annotations

from typing import Any

import datasets

_PY_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "large_string": (str,),
    "bool": (bool,),
    "binary": (bytes,),
    "large_binary": (bytes,),
}


def _value_problem(value: Any, dtype: str) -> str | None:
    if value is None:
        return None  # Arrow columns are nullable; builders decide where None is legal via invariants
    if dtype in _PY_TYPES:
        ok = isinstance(value, _PY_TYPES[dtype])
    elif dtype.startswith(("int", "uint")):
        ok = isinstance(value, int) and not isinstance(value, bool)
        if ok and dtype.startswith("uint") and value < 0:
            return f"negative value {value} for {dtype}"
    elif dtype.startswith("float"):
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    else:
        ok = True
    return None if ok else f"expected {dtype}, got {type(value).__name__} {value!r:.60}"


def find_problems(value: Any, feature: Any, path: str = "") -> list[str]:
    """All mismatches between ``value`` and ``feature``, each prefixed with the field path."""
    where = path or "<record>"
    if isinstance(feature, dict):
        if not isinstance(value, dict):
            return [f"{where}: expected a mapping, got {type(value).__name__}"]
        problems = []
        missing = sorted(set(feature) - set(value))
        extra = sorted(set(value) - set(feature))
        if missing:
            problems.append(f"{where}: missing field(s) {missing}")
        if extra:
            problems.append(f"{where}: undeclared field(s) {extra}")
        for key in feature:
            if key in value:
                problems += find_problems(value[key], feature[key], f"{path}.{key}" if path else key)
        return problems
    if isinstance(feature, (list, datasets.Sequence, datasets.List, datasets.LargeList)):
        inner = feature[0] if isinstance(feature, list) else feature.feature
        if value is None:
            return []
        if not isinstance(value, (list, tuple)):
            return [f"{where}: expected a list, got {type(value).__name__}"]
        length = getattr(feature, "length", -1)
        if length not in (-1, None) and len(value) != length:
            return [f"{where}: expected {length} items, got {len(value)}"]
        problems = []
        for index, item in enumerate(value):
            problems += find_problems(item, inner, f"{where}[{index}]")
        return problems
    if isinstance(feature, datasets.ClassLabel):
        names = feature.names
        if isinstance(value, str):
            return [] if value in names else [f"{where}: label {value!r} not in {names}"]
        if isinstance(value, int) and 0 <= value < len(names):
            return []
        return [f"{where}: invalid class label {value!r}"]
    if isinstance(feature, datasets.Value):
        problem = _value_problem(value, feature.dtype)
        return [f"{where}: {problem}"] if problem else []
    if isinstance(feature, datasets.Image):
        if value is None or isinstance(value, (str, bytes, dict)):
            return []
        return [f"{where}: expected an image path, bytes or dict, got {type(value).__name__}"]
    return []


def check_record(record: dict[str, Any], features: datasets.Features) -> list[str]:
    return find_problems(record, dict(features))
