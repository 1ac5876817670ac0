"""Resolving user-given paths without a traceback: a symbolic link loop is one error naming the link."""

from __future__ import annotations

import errno
from pathlib import Path

from builders.core.errors import InputError

# A pipe such as --set src=<(cat sample.en), a socket or a device: it exists, yet reads once only.
NOT_REGULAR = ("is a pipe or device, not a regular file: inputs are hashed and read more than once, so write it to "
               "a file first")


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
