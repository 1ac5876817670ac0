"""One build per output folder: a lock file beside it holds the owner's pid, host and process start time.

``<parent>/.v1.lock`` is created exclusively; a second build into the same folder fails with one line that
names the owner. A lock left by a process that no longer runs (killed, crashed machine) is taken over, also
when its pid now belongs to another process: the start time recorded with the pid tells them apart.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
from pathlib import Path
from types import TracebackType

from builders.core.errors import MtprobesError, OutputLockedError

log = logging.getLogger("mtprobes")


def lock_path_for(final_dir: Path) -> Path:
    return final_dir.parent / f".{final_dir.name}.lock"


def process_start_time(pid: int) -> str | None:
    """The start time of a process in clock ticks since boot (field 22 of /proc/PID/stat); None where there is
    no /proc (macOS) or no such process. Fixed for the life of a process, so a reused pid shows another one."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="ascii", errors="replace")
    except OSError:
        return None
    # The command name (field 2) is in parentheses and may hold spaces: count fields after its last ")".
    fields = stat.rpartition(")")[2].split()
    return fields[19] if len(fields) > 19 else None


def pid_is_running(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # it exists, owned by another user
        return True
    return True


class OutputLock:
    """Context manager: hold ``.<name>.lock`` beside ``final_dir`` for the whole build; always released."""

    def __init__(self, final_dir: Path) -> None:
        self.final_dir = final_dir
        self.path = lock_path_for(final_dir)
        started = process_start_time(os.getpid())
        self.owner = f"{os.getpid()} {socket.gethostname()}" + (f" {started}" if started else "") + "\n"

    def __enter__(self) -> OutputLock:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            created = self._try_create()
        except OSError as err:
            raise MtprobesError(f"{self.path.parent}: output directory is not writable ({err.strerror})") from None
        while not created:
            holder = self._read_holder()
            if holder is not None and self._is_alive(holder):
                raise OutputLockedError(
                    f"{self.final_dir}: another build (pid {holder.split()[0]}) is writing this output; "
                    f"wait for it to finish (lock file {self.path})"
                )
            log.warning("%s: taking over the stale lock of a build that no longer runs (%s)",
                        self.path, (holder or "unreadable").strip())
            self._remove_if(holder)
            created = self._try_create()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self._remove_if(self.owner)
        with contextlib.suppress(OSError):  # a folder made for a build that failed early; kept when not empty
            self.path.parent.rmdir()

    def _try_create(self) -> bool:
        try:
            fd = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        except FileExistsError:
            return False
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(self.owner)
        return True

    def _read_holder(self) -> str | None:
        try:
            return self.path.read_text(encoding="utf-8")
        except (FileNotFoundError, UnicodeDecodeError):
            return None

    def _is_alive(self, holder: str) -> bool:
        pid_text, host, started = [*holder.split(), "", "", ""][:3]
        if not pid_text.isdigit():
            return False
        if host and host != socket.gethostname():
            return True  # another machine's process: it cannot be checked from here, so it is respected
        pid = int(pid_text)
        if pid == os.getpid() or not pid_is_running(pid):
            return False
        # A lock of an older release has no start time: the pid alone decides, as it did then.
        return not started or process_start_time(pid) in (started, None)

    def _remove_if(self, holder: str | None) -> None:
        """Remove the lock only while it still has the content seen (another build may have just taken it)."""
        if self._read_holder() == holder:
            self.path.unlink(missing_ok=True)
