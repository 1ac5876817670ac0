"""`mtprobes config NAME [--keys]`: a builder's keys with type, default and meaning, from the dataclass fields.

Nothing here constructs the config, so required keys that are still empty never stop the printing.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, get_type_hints

import yaml

from builders.core.config import MEANING, REQUIRED, BuildConfig


@dataclass(frozen=True)
class KeyDoc:
    name: str
    type: str
    default: Any
    meaning: str
    required: str


def _default_of(field: dataclasses.Field[Any]) -> Any:
    if field.default is not dataclasses.MISSING:
        return field.default
    if field.default_factory is not dataclasses.MISSING:
        return field.default_factory()
    return None


def _type_name(hint: Any) -> str:
    return hint.__name__ if isinstance(hint, type) else str(hint).replace("typing.", "")


def describe_keys(config_class: type[BuildConfig]) -> list[KeyDoc]:
    hints = get_type_hints(config_class)
    return [
        KeyDoc(
            name=f.name,
            type=_type_name(hints[f.name]),
            default=_default_of(f),
            meaning=f.metadata.get(MEANING, ""),
            required=f.metadata.get(REQUIRED, ""),
        )
        for f in dataclasses.fields(config_class)
        if f.init
    ]


def _yaml_value(value: Any) -> str:
    return yaml.safe_dump(value, default_flow_style=True, allow_unicode=True, width=10**6).strip().removesuffix("\n...")


def render_starting_config(builder_name: str, config_class: type[BuildConfig]) -> str:
    """A complete YAML config with every key at its default and a comment saying what it means."""
    lines = [
        f"# Starting config for {builder_name}: fill in the REQUIRED keys, then",
        f"#   mtprobes build {builder_name} --config this.yaml",
        "# In paths, {config_dir} is the folder of this file and {resources} the bundled resources folder.",
    ]
    for key in describe_keys(config_class):
        comment = key.meaning
        if key.required:
            comment = f"REQUIRED ({key.required}): {comment}"
        lines.append(f"{key.name}: {_yaml_value(key.default)}  # {comment}".rstrip(" #"))
    return "\n".join(lines) + "\n"


def render_key_table(config_class: type[BuildConfig]) -> str:
    """One block per key: name, type, default, then its meaning (and when it is required)."""
    blocks = []
    for key in describe_keys(config_class):
        head = f"{key.name}  ({key.type}, default {_yaml_value(key.default)})"
        body = key.meaning + (f" REQUIRED {key.required}." if key.required else "")
        blocks.append(f"{head}\n    {body}")
    return "\n".join(blocks)
