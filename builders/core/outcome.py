"""What a build tells the user beyond its files: warnings about degenerate sets, and OS errors as one line."""

from __future__ import annotations

import errno
import logging
from collections.abc import Iterator, Sized
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from builders.core.errors import MtprobesError

if TYPE_CHECKING:
    from builders.core.context import BuildContext

log = logging.getLogger("mtprobes")

_OS_HINTS = {
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is exceeded",
    errno.EROFS: "the file system is read-only",
}


def warn(ctx: BuildContext, message: str) -> None:
    """Log a warning and keep it in info.json (notes.warnings), so validate and publish can repeat it."""
    log.warning("%s", message)
    ctx.notes.setdefault("warnings", []).append(message)


def warn_if_degenerate(ctx: BuildContext, rows: Sized, builder_name: str) -> None:
    if not rows:
        warn(ctx, f"{builder_name}: the set has 0 records (see the drop counts); publish refuses it unless --force")


@contextmanager
def reported_os_errors(final_dir: Path) -> Iterator[None]:
    """Disk full, quota, read-only: one line naming the file; the output folder is left as it was."""
    try:
        yield
    except OSError as err:
        if err.errno not in _OS_HINTS:
            raise
        where = err.filename or final_dir
        raise MtprobesError(
            f"{where}: {_OS_HINTS[err.errno]} ({err.strerror}); {final_dir} was left as it was; "
            "run the same command with --resume once there is room"
        ) from None
