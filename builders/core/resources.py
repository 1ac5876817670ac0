"""One loader for files under ``resources/``: the repo folder in a checkout, ``builders/_resources`` in a wheel."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from builders.core.errors import MtprobesError


@cache
def resources_root() -> Path:
    package_dir = Path(__file__).resolve().parents[1]
    for candidate in (package_dir / "_resources", package_dir.parent / "resources"):
        if candidate.is_dir():
            return candidate
    raise MtprobesError("mtprobes resources not found: reinstall the package")


def resource_path(*parts: str) -> Path:
    """Path of a bundled resource; raises naming it when it is missing."""
    path = resources_root().joinpath(*parts)
    if not path.exists():
        raise MtprobesError(f"bundled resource {'/'.join(parts)} not found under {resources_root()}")
    return path


def expand_placeholders(value: str, config_dir: Path | None = None) -> str:
    """Expand ``{resources}`` and ``{config_dir}`` in path strings of config files."""
    value = value.replace("{resources}", str(resources_root()))
    if config_dir is not None:
        value = value.replace("{config_dir}", str(config_dir))
    return value
