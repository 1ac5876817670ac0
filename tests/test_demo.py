"""The demo configs of every builder: build, validate, corrupt, kill + resume (what `make demo` runs)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from builders.core.demo import demo_config, run_demo
from builders.core.errors import ValidationFailed
from builders.core.registry import entries, get_builder_class
from builders.core.validate import validate_dataset

DEMO_BUILDERS = [e.name for e in entries() if demo_config(e.name.rpartition(".")[0]) is not None]


def demo_dir(name: str, out: Path) -> Path:
    """Where the demo config of builder ``name`` writes (its name, or one made of its identifying keys)."""
    family = name.rpartition(".")[0]
    config_path = demo_config(family)
    assert config_path is not None
    builder_class = get_builder_class(name)
    return out / family / builder_class(builder_class.config_class.from_sources(config_path)).output_name() / "v1"


def data_bytes(path: Path) -> dict[str, bytes]:
    files = sorted(p for p in path.rglob("*") if p.suffix in (".parquet", ".jsonl"))
    return {str(p.relative_to(path)): p.read_bytes() for p in files}


def cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "builders", *args], capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, timeout=600)


@pytest.fixture(scope="module")
def demo_out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("demo")
    run_demo(out, quiet=True)
    return out


def test_demo_builds_and_reports_every_builder_with_a_sample(demo_out: Path) -> None:
    assert DEMO_BUILDERS, "no builder has a bundled demo sample"
    report = (demo_out / "REPORT.md").read_text()
    for name in DEMO_BUILDERS:
        assert f"| `{name}` | valid |" in report


@pytest.mark.parametrize("name", DEMO_BUILDERS)
def test_demo_output_validates_and_a_corrupted_copy_fails(name: str, demo_out: Path, tmp_path: Path) -> None:
    path = demo_dir(name, demo_out)
    validate_dataset(path)
    copy = tmp_path / "copy"
    shutil.copytree(path, copy)
    info = json.loads((copy / "info.json").read_text())
    subset, splits = next(iter(info["records"].items()))
    split = next(iter(splits))
    info["records"][subset][split] += 1
    (copy / "info.json").write_text(json.dumps(info))
    with pytest.raises(ValidationFailed, match=f"{subset}/{split}: info.json says {splits[split]} records"):
        validate_dataset(copy)
    result = cli("validate", str(copy))
    assert result.returncode == 1 and result.stderr.startswith("error: ") and "validation failed" in result.stderr


@pytest.mark.parametrize("name", DEMO_BUILDERS)
def test_killed_demo_build_resumes_to_identical_bytes(name: str, demo_out: Path, tmp_path: Path) -> None:
    family = name.rpartition(".")[0]
    config = demo_config(family)
    assert config is not None
    reference = data_bytes(demo_dir(name, demo_out))
    args = ["build", name, "--config", str(config), "--set", "checkpoint_every=1", "--out", str(tmp_path), "-q"]
    killed = cli(*args, env={"MTPROBES_TEST_KILL_AFTER_CHUNKS": "1"})
    assert killed.returncode == -9, killed.stderr
    assert not demo_dir(name, tmp_path).exists()
    resumed = cli(*args, "--resume")
    assert resumed.returncode == 0, resumed.stderr
    # checkpoint_every only changes how often progress is saved, never the records
    assert data_bytes(demo_dir(name, tmp_path)) == reference


def test_builder_classes_declare_a_card() -> None:
    for name in DEMO_BUILDERS:
        builder_class = get_builder_class(name)
        assert builder_class.citation.strip().startswith("@"), name
        assert builder_class.pretty_name and builder_class.description
