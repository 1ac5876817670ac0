"""The <config> part of an output path: the config's ``name``, or, when it is ``default``, a name made of the
keys that tell builds apart (corpus or input files, split, languages), e.g. ``shuffles/val/v1``.

Two builds that differ in such a key then go to different folders instead of colliding.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from builders.core.config import BuildConfig

DEFAULT_NAME = "default"
_UNSAFE = re.compile(r"[^a-z0-9._]+")
_MAX_LENGTH = 80


def output_name(config: BuildConfig, identity_keys: Sequence[str]) -> str:
    if config.name != DEFAULT_NAME:
        return config.name
    parts: list[str] = []
    for key in identity_keys:
        value = getattr(config, key, "")
        if not value or (config.corpus and _is_path(value)):
            continue  # a named corpus stands for its files
        for token in slug(_describe(value)).split("-"):
            if token and token not in parts:
                parts.append(token)
    return "-".join(parts)[:_MAX_LENGTH].strip("-.") or DEFAULT_NAME


def slug(text: str) -> str:
    return _UNSAFE.sub("-", text.lower()).strip("-.")


def _is_path(value: object) -> bool:
    return isinstance(value, str) and ("/" in value or Path(value).suffix != "")


def _describe(value: object) -> str:
    """A path becomes its folder and stem (``NC-2016/dev.en`` -> ``NC-2016-dev``); other values as they are."""
    if isinstance(value, (list, tuple)):
        return "-".join(_describe(v) for v in value)
    if not _is_path(value):
        return str(value)
    path = Path(str(value).rstrip("/"))
    stem = path.name.split(".")[0] if path.suffix else path.name
    return f"{path.parent.name}-{stem}" if path.parent.name else stem
