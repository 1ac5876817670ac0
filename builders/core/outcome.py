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

# errno -> (what is wrong, when to run again). Any path a build writes (the output, alignment_cache, priors_out)
# may be full, read-only, not the user's, or a file where a folder should be: one line naming it, no traceback.
_IN_THE_WAY = ("a folder is needed here, but the path is or goes through a file", "once that file is moved away")
_OS_HINTS = {
    errno.ENOSPC: ("the disk is full", "once there is room"),
    errno.EDQUOT: ("the disk quota is exceeded", "once there is room"),
    errno.EROFS: ("the file system is read-only", "once it is writable"),
    errno.EACCES: ("permission denied", "once it is writable"),
    errno.EPERM: ("operation not permitted", "once it is writable"),
    errno.EEXIST: _IN_THE_WAY,  # mkdir(exist_ok=True) of a path that is a file
    errno.ENOTDIR: _IN_THE_WAY,  # a path through a file
    errno.EISDIR: ("a file is needed here, but it is a folder", "once that folder is moved away"),
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
        problem, when = _OS_HINTS[err.errno]
        raise MtprobesError(
            f"{where}: {problem} ({err.strerror}); {final_dir} was left as it was; "
            f"run the same command with --resume {when}"
        ) from None
