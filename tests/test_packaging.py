from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from builders.core.resources import resources_root


def test_wheel_carries_the_resources(tmp_path: Path, repo_root: Path) -> None:
    pytest.importorskip("hatchling")
    subprocess.run(
        [sys.executable, "-m", "hatchling", "build", "-t", "wheel", "-d", str(tmp_path)],
        cwd=repo_root, check=True, capture_output=True,
    )
    (wheel,) = tmp_path.glob("mtprobes-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    bundled = [p.relative_to(resources_root()) for p in resources_root().rglob("*") if p.is_file()]
    assert bundled, "resources/ is empty"
    missing = [str(p) for p in bundled if f"builders/_resources/{p.as_posix()}" not in names]
    assert not missing, f"resources missing from the wheel: {missing[:5]}"
    assert "builders/cli.py" in names and "builders/ARCHITECTURE.md" in names


def test_cli_help_is_fast_and_lists_commands() -> None:
    result = subprocess.run([sys.executable, "-m", "builders", "--help"], capture_output=True, text=True, check=True)
    for command in ("ls", "build", "validate", "inspect", "publish", "demo"):
        assert command in result.stdout
    probe = "import builders.cli, sys; print(sorted({'torch', 'spacy', 'datasets'} & set(sys.modules)))"
    heavy = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True, text=True, check=True,
    )
    assert heavy.stdout.strip() == "[]", "importing the CLI must not load heavy libraries"
