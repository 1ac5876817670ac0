"""What reaches the terminal besides mtprobes' own lines: third-party advisories, bars and INFO lines stay off
unless -v; -q also hides mtprobes' progress bars and INFO lines.

The CLI calls :func:`configure_output` before each command (and again for -q/-v given after the command);
code that loads transformers or huggingface_hub calls :func:`quiet_libraries` right after importing them, so
the switches hold even when a library was imported before the command (tests, one process for many commands).
"""

from __future__ import annotations

import logging
import os
import warnings
from dataclasses import dataclass
from typing import Any, cast

from builders.core.progress import set_quiet

LOG_FORMAT = "%(levelname)s %(name)s: %(message)s"

# Libraries that log every HTTP request, file or step at INFO (eflomal: "Prepared 96 sentences for alignment").
NOISY_LOGGERS = (
    "httpx", "httpx2", "httpcore", "httpcore2", "huggingface_hub", "datasets", "urllib3", "filelock", "faiss",
    "eflomal", "transformers",
)

# Read by the libraries when they load; set (unless the user set them) before a command imports them.
QUIET_ENVIRONMENT = {
    "HF_HUB_DISABLE_PROGRESS_BARS": "1",  # huggingface_hub and transformers ("Loading weights" bars)
    "TRANSFORMERS_VERBOSITY": "error",
    "TRANSFORMERS_NO_ADVISORY_WARNINGS": "1",
    "TQDM_DISABLE": "1",
}
QUIET_WARNINGS = ("Recommended: pip install sacremoses",)


@dataclass
class OutputSettings:
    quiet: bool = False
    verbose: bool = False
    level: int = logging.INFO
    configured: bool = False  # by the CLI: a program that imports mtprobes keeps its libraries' defaults


_settings = OutputSettings()


class _ThirdPartyRootInfo(logging.Filter):
    """open_clip logs its INFO lines through the root logger, so no logger name can quiet them: drop INFO and
    below from the root logger that come from a library's files (mtprobes' own modules use named loggers)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.name == "root" and record.levelno <= logging.INFO and "site-packages" in record.pathname)


_ROOT_FILTER = _ThirdPartyRootInfo()


def configure_output(*, quiet: bool | None = None, verbose: bool | None = None, level: int | None = None) -> None:
    """Apply the output flags; arguments left None keep their earlier value (-q after the command adds to the
    options before it)."""
    if quiet is not None:
        _settings.quiet = quiet
    if verbose is not None:
        _settings.verbose = verbose
    if level is not None:
        _settings.level = level
    _settings.configured = True
    root_level = logging.WARNING if _settings.quiet else _settings.level
    logging.basicConfig(level=root_level, format=LOG_FORMAT)
    logging.getLogger().setLevel(root_level)
    debugging = _settings.level <= logging.DEBUG
    library_level = _settings.level if _settings.verbose or debugging else logging.WARNING
    for name in NOISY_LOGGERS:
        logging.getLogger(name).setLevel(library_level)
    for handler in logging.getLogger().handlers:
        if _settings.verbose or debugging:
            handler.removeFilter(_ROOT_FILTER)
        else:
            handler.addFilter(_ROOT_FILTER)
    _quiet_environment(not _settings.verbose)
    set_quiet(_settings.quiet)


_set_by_us: set[str] = set()


def _quiet_environment(on: bool) -> None:
    """Set the variables the user did not set, and the warning filters; -v after the command takes them back."""
    for key, value in QUIET_ENVIRONMENT.items():
        if on and key not in os.environ:
            os.environ[key] = value
            _set_by_us.add(key)
        elif not on and key in _set_by_us:
            del os.environ[key]
            _set_by_us.discard(key)
    for message in QUIET_WARNINGS:
        if on:
            warnings.filterwarnings("ignore", message=message)
        else:
            filters = cast(list[Any], warnings.filters)  # typeshed: a Sequence; it is the module's list
            filters[:] = [f for f in filters if not (f[0] == "ignore" and f[1] is not None and f[1].pattern == message)]


def quiet_libraries() -> None:
    """transformers' and huggingface_hub's own verbosity and bars, after they are imported: off unless -v."""
    if not _settings.configured:
        return
    import huggingface_hub.utils as hub_utils
    from transformers.utils import logging as transformers_logging

    if _settings.verbose:
        transformers_logging.set_verbosity_warning()
        transformers_logging.enable_progress_bar()
        hub_utils.enable_progress_bars()
        return
    transformers_logging.set_verbosity_error()
    transformers_logging.disable_progress_bar()
    hub_utils.disable_progress_bars()
    for message in QUIET_WARNINGS:
        warnings.filterwarnings("ignore", message=message)
