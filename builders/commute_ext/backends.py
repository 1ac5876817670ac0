"""Optional backends of commute_ext, probed once (tests skip with the reason when one is absent)."""

from __future__ import annotations

import shutil
from functools import cache

from builders.core.compat import Probe, probe_module

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome")


@cache
def chromium_executable() -> str | None:
    """A system Chromium (Debian: apt-get install chromium); Playwright's own browser is never downloaded."""
    return next((path for name in CHROMIUM_NAMES if (path := shutil.which(name))), None)


@cache
def headless_chromium() -> Probe:
    """Playwright (Python package) driving the system Chromium, for the review page test."""
    playwright = probe_module("playwright")
    if not playwright.available:
        return Probe("playwright", False, reason=playwright.reason + " (pip install playwright)")
    if chromium_executable() is None:
        return Probe("chromium", False, reason="no chromium executable on PATH (Debian: apt-get install chromium)")
    return Probe("playwright", True, version=playwright.version)
