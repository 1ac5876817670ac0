"""Resolving user-given paths without a traceback: a symbolic link loop is one error naming the link."""

from __future__ import annotations

import errno
from pathlib import Path

from builders.core.errors import InputError


def resolve_input(path: str | Path) -> Path:
    """``Path.resolve()``; a link loop (RuntimeError before Python 3.13, OSError ELOOP after) names the path."""
    path = Path(path)
    try:
        return path.resolve()
    except RuntimeError:
        raise InputError(path, "symbolic link loop") from None
    except OSError as err:
        if err.errno == errno.ELOOP:
            raise InputError(path, "symbolic link loop") from None
        raise
