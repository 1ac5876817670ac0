"""The command line as a new user meets it: starting configs, key lists, --version, -h and exit codes."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from builders.cli import app
from builders.core.config import MEANING, load_config_file
from builders.core.registry import entries, get_builder_class
from builders.core.resources import resource_path

REPO_ROOT = Path(__file__).resolve().parents[1]

BUILDERS = sorted(entry.name for entry in entries())
runner = CliRunner()


def invoke(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


@pytest.mark.parametrize("name", BUILDERS)
def test_config_prints_a_complete_commented_starting_config(name: str, tmp_path) -> None:
    code, text = invoke("config", name)
    assert code == 0, text
    config_class = get_builder_class(name).config_class
    fields = [f for f in dataclasses.fields(config_class) if f.init]
    (tmp_path / "start.yaml").write_text(text, encoding="utf-8")
    values = load_config_file(tmp_path / "start.yaml")
    assert list(values) == [f.name for f in fields]  # every key, in declaration order
    key_lines = [line for line in text.splitlines() if not line.startswith("#")]
    assert all("  # " in line for line in key_lines), "every key carries its meaning as a comment"
    assert yaml.safe_load(text) == values


@pytest.mark.parametrize("name", BUILDERS)
def test_every_config_key_declares_its_meaning(name: str) -> None:
    config_class = get_builder_class(name).config_class
    missing = [f.name for f in dataclasses.fields(config_class) if f.init and not f.metadata.get(MEANING)]
    assert not missing, f"{name}: keys without a meaning: {missing}"


@pytest.mark.parametrize("name", BUILDERS)
def test_config_keys_lists_type_default_and_meaning(name: str) -> None:
    code, text = invoke("config", name, "--keys")
    assert code == 0, text
    for field in dataclasses.fields(get_builder_class(name).config_class):
        if field.init:
            assert f"\n{field.name}  (" in "\n" + text
            assert field.metadata[MEANING] in text.replace("\n    ", " ")


def test_starting_config_with_required_keys_filled_builds_a_config(tmp_path) -> None:
    text = invoke("config", "shuffles")[1]
    (tmp_path / "c.yaml").write_text(text.replace("data_dir: ''", "data_dir: /some/where"), encoding="utf-8")
    config = get_builder_class("shuffles").config_class.from_sources(tmp_path / "c.yaml")
    assert config.data_dir == "/some/where"


@pytest.mark.parametrize(
    ("args", "code", "needle"),
    [
        (["--version"], 0, "mtprobes "),
        (["resources"], 0, "resources"),
        (["-h"], 0, "Usage:"),
        (["--help"], 0, "--install-completion"),
        (["build", "-h"], 0, "--overwrite"),
        (["config", "-h"], 0, "--keys"),
        (["config", "no-such-builder"], 2, "unknown builder"),
        (["build", "pronouns", "--no-such-flag"], 2, "No such option"),
        (["build", "shuffles", "--set", "no_such_key=1"], 2, "no_such_key"),
        (["validate", "/no/such/dataset"], 1, "info.json"),
        (["evaluate", "/no/set", "--kind", "awarenes", "-s", "x"], 2, "did you mean 'awareness'"),
        (["evaluate", "/no/set", "--kind", "contrapro", "-s", "x", "-O", "lower_is_better=maybe"], 2, "yes/no"),
        (["evaluate", "/no/set", "--kind", "contrapro", "-s", "x", "--mixup", "y"], 2, "does not read --mixup"),
    ],
)
def test_exit_codes_through_the_real_entry_point(args: list[str], code: int, needle: str) -> None:
    # The console script's main() maps MtprobesError to its exit code; CliRunner would only see the exception.
    result = subprocess.run([sys.executable, "-m", "builders", *args], capture_output=True, text=True, timeout=120)
    assert result.returncode == code, result.stdout + result.stderr
    assert needle in result.stdout + result.stderr


def test_help_has_no_boxes_and_is_not_cut_at_80_columns() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}  # piped, no terminal size
    result = subprocess.run([sys.executable, "-m", "builders", "-h"], capture_output=True, text=True, timeout=120,
                            env=env)
    assert "╭" not in result.stdout
    assert max(len(line) for line in result.stdout.splitlines()) > 80


def _run_cli(args: list[str], cwd) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "builders", *args], capture_output=True, text=True, timeout=300,
                          cwd=cwd, env={**os.environ, "PYTHONPATH": str(REPO_ROOT)})


def test_quiet_silences_transformers_on_a_bundled_model(tmp_path) -> None:
    pytest.importorskip("transformers", reason="the scorer needs transformers")
    (tmp_path / "src.en").write_text("The bank is closed.\nIt is big.\n", encoding="utf-8")
    (tmp_path / "correct.de").write_text("Die Bank ist zu.\nEr ist groß.\n", encoding="utf-8")
    (tmp_path / "incorrect.de").write_text("Das Ufer ist zu.\nSie ist groß.\n", encoding="utf-8")
    model = resource_path("models", "pronouns-sentence")
    args = ["score", ".", "--model", str(model), "--src-lang", "en", "--tgt-lang", "de", "--out", "run"]
    result = _run_cli(["-q", *args, "--name", "quiet"], tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stderr == "", "-q leaves sacremoses hints and weight-loading bars out"
    assert "scored 4 examples" in result.stdout


@pytest.mark.parametrize("flags", [["-q"], []], ids=["quiet", "default"])
def test_no_faiss_open_clip_or_blank_lines_on_the_bundled_clip(flags: list[str], tmp_path) -> None:
    for module in ("open_clip", "faiss", "torch"):
        pytest.importorskip(module, reason="commute_ext needs open_clip, faiss and torch")
    config = resource_path("samples", "commute_ext", "demo.yaml")
    result = _run_cli([*flags, "build", "commute_ext", "--config", str(config), "--out", "out"], tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stderr == "", "faiss's loader notices, open_clip's INFO lines and rich's blank lines stay out"
    assert result.stdout.startswith("wrote ")


@pytest.fixture(scope="module")
def shuffles_demo(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("inspect")
    result = _run_cli(["-q", "build", "shuffles", "--config", str(resource_path("samples", "shuffles", "demo.yaml")),
                       "--out", "out"], out)
    assert result.returncode == 0, result.stderr
    return out / "out" / "shuffles" / "sample" / "v1"


def test_inspect_shows_whole_items_picked_by_where_and_counts_per_class(shuffles_demo: Path) -> None:
    code, text = invoke("inspect", str(shuffles_demo), "--where", "shuffle=2", "--sample", "2")
    assert code == 0, text
    assert "where shuffle=2: 40 records" in text
    assert "by 'shuffle': 2=40" in text
    items = [json.loads(block) for block in text.split("--- random2/sample\n")[1:]]
    assert len(items) == 2 and all(item["shuffle"] == 2 and "distractor_image" in item for item in items)


def test_inspect_seeded_sample_is_repeatable_and_bad_where_is_a_usage_error(shuffles_demo: Path) -> None:
    first = invoke("inspect", str(shuffles_demo), "-n", "3", "--seed", "7")
    assert first == invoke("inspect", str(shuffles_demo), "-n", "3", "--seed", "7")
    assert first[1] != invoke("inspect", str(shuffles_demo), "-n", "3")[1]
    result = _run_cli(["inspect", str(shuffles_demo), "--where", "no_such_field=1"], shuffles_demo)
    assert result.returncode == 2 and "no_such_field" in result.stderr


@pytest.fixture(scope="module")
def variations_demo(tmp_path_factory) -> Path:
    pytest.importorskip("spacy", reason="variations.v1 parses English with spaCy")
    out = tmp_path_factory.mktemp("inspect-variations")
    config = resource_path("samples", "variations", "demo.yaml")
    result = _run_cli(["-q", "build", "variations", "--config", str(config), "--out", "out"], out)
    assert result.returncode == 0, result.stderr
    return out / "out" / "variations" / "demo" / "v1"


def _shown_places_and_types(text: str) -> tuple[set[str], set[str]]:
    places = {line.removeprefix("--- ") for line in text.splitlines() if line.startswith("--- ")}
    types = {json.loads(block.split("\n", 1)[1])["type"] for block in text.split("\n--- ")[1:] if '"type"' in block}
    return places, types


def test_inspect_spreads_its_default_sample_over_subsets_and_types(shuffles_demo: Path, variations_demo: Path) -> None:
    code, text = invoke("inspect", str(shuffles_demo))
    assert code == 0, text
    places, _ = _shown_places_and_types(text)
    assert len(places) == 5, "five items from five subsets, not five congruent ones"
    code, text = invoke("inspect", str(variations_demo))
    _, types = _shown_places_and_types(text)
    assert types == {"DEL", "INS", "SUBGEN", "SUBNUM"}


@pytest.mark.parametrize(
    ("args", "code", "expected"),
    [
        (["--where", "type=subnum"], 0, "where type=subnum: no match; values of type: DEL, INS, SUBGEN, SUBNUM"),
        (["--where", "type=SUBNUM", "-n", "2"], 0, "2 of "),
        (["--sample", "-1"], 2, "--sample"),
        (["--dropped", "--where", "reason=del_not_aligned", "-n", "1"], 0, '"reason": "del_not_aligned"'),
        (["--dropped", "--where", "reason=nothing"], 0, "no match; values of reason: "),
    ],
)
def test_inspect_messages(variations_demo: Path, args: list[str], code: int, expected: str) -> None:
    result = runner.invoke(app, ["inspect", str(variations_demo), *args])
    assert result.exit_code == code, result.output
    assert expected in result.output


def test_inspect_shows_commute_candidates_compactly(tmp_path) -> None:
    from builders.core.inspect import compact_json

    candidates = [{"rank": k, "uid": f"img{k}.png", "similarity": 0.5, "selected": k < 2} for k in range(15)]
    record = {"id": "en-de-0001", "translations": [{"line": 1, "images": candidates[:5], "candidates": candidates}]}
    text = compact_json(record)
    assert text.count("\n") < 25 and '"… 10 more"' in text
    assert json.dumps(candidates[0]) in text  # one candidate, one line
    whole = {"id": "x", "errors": [{"contrastive": "a", "replacement": "b"}]}
    assert json.loads(compact_json(whole)) == whole


def _all_commands(command: Any, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], Any]]:
    found = [(path, command)]
    for name, sub in getattr(command, "commands", {}).items():
        found += _all_commands(sub, (*path, name))
    return found


def test_no_command_help_shows_type_tags() -> None:
    import click
    import typer

    from builders.cli import _plain_metavars

    root = _plain_metavars(typer.main.get_command(app))
    assert len(_all_commands(root)) > 15
    for path, command in _all_commands(root):
        ctx = click.Context(command, info_name=" ".join(("mtprobes", *path)), terminal_width=120)
        text = command.get_help(ctx)
        for tag in ("<str>", "<int>", "<path>", "<float>", "<bool>", "<list"):
            assert tag not in text, f"mtprobes {' '.join(path)} -h shows {tag}"
