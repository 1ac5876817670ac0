"""The "Fields" table of every dataset card: each record field, its type and its meaning.

A builder declares ``field_meanings`` (top-level field -> meaning); the table follows ``features()`` so it
lists every field in schema order, and a test checks that no field goes without a meaning.
"""

from __future__ import annotations

from typing import Any

import datasets


def type_name(feature: Any) -> str:
    """`string`, `int32`, `list of string`, `list of {contrastive, replacement, …}` for a datasets feature."""
    if isinstance(feature, datasets.Value):
        return str(feature.dtype)
    if isinstance(feature, list):
        return f"list of {type_name(feature[0])}" if feature else "list"
    if isinstance(feature, datasets.Sequence):
        return f"list of {type_name(feature.feature)}"
    if isinstance(feature, dict):
        return "{" + ", ".join(feature) + "}"
    return type(feature).__name__


def missing_meanings(features: datasets.Features, meanings: dict[str, str]) -> list[str]:
    """Fields without a meaning, and meanings of fields the schema does not have."""
    return ([f"{name}: no meaning" for name in features if not meanings.get(name)]
            + [f"{name}: not a field" for name in meanings if name not in features])


def fields_table(features: datasets.Features, meanings: dict[str, str]) -> str:
    rows = "".join(f"| `{name}` | {type_name(feature)} | {meanings.get(name, '')} |\n"
                   for name, feature in features.items())
    return f"## Fields\n\n| field | type | meaning |\n|---|---|---|\n{rows}"
