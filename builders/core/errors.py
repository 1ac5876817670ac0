"""User-facing errors: one clear line, naming the file and line where that applies."""

from __future__ import annotations

from pathlib import Path
from typing import Any


class MtprobesError(Exception):
    """An error caused by the user's input or environment, printed as one line by the CLI."""

    # Process exit status: 1 for bad input, failed validation, a locked output or a Hub error; 2 for usage.
    exit_code: int = 1


class UsageError(MtprobesError):
    """A command line or config that cannot work as given (exit status 2, like click's usage errors)."""

    exit_code = 2


class InputError(MtprobesError):
    """Bad input data: names the file and, where known, the line (1-based) or byte offset."""

    def __init__(
        self,
        path: str | Path,
        message: str,
        *,
        line: int | None = None,
        byte_offset: int | None = None,
    ) -> None:
        self.path = str(path)
        self.line = line
        self.byte_offset = byte_offset
        where = self.path
        if line is not None:
            where += f":{line}"
        if byte_offset is not None:
            where += f" (byte {byte_offset})"
        super().__init__(f"{where}: {message}")
        self.message = message

    def __reduce__(self) -> tuple[Any, ...]:
        # raised on a worker, re-raised on the driver: rebuild from the constructor's arguments
        return _rebuild_input_error, (self.path, self.message, self.line, self.byte_offset)


def _rebuild_input_error(path: str, message: str, line: int | None, byte_offset: int | None) -> InputError:
    return InputError(path, message, line=line, byte_offset=byte_offset)


class ConfigError(UsageError):
    """A config key that does not exist, or a value of the wrong type; names the key."""


class UnknownBuilderError(UsageError):
    """An unknown registry name, with the closest known names."""


class OutputExistsError(MtprobesError):
    """The output directory exists and neither --resume nor --overwrite was given."""


class BuildInterrupted(MtprobesError):
    """Ctrl-C (SIGINT) during a build: says whether --resume can go on (exit status 130, as the shell's)."""

    exit_code = 130


class OutputLockedError(MtprobesError):
    """Another live build holds the lock of the same output folder."""


class ValidationFailed(MtprobesError):
    """A built dataset does not pass its schema, invariants or manifest checks."""

    def __init__(self, path: str | Path, problems: list[str]) -> None:
        self.problems = problems
        head = "; ".join(problems[:5])
        more = f" (+{len(problems) - 5} more)" if len(problems) > 5 else ""
        super().__init__(f"{path}: validation failed: {head}{more}")
        self.path = str(path)

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), (self.path, self.problems)
