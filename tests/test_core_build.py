from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import datasets
import pyarrow.parquet as pq
import pytest
import yaml
from toy_builder import ToyBuilder, ToyConfig

from builders.core.errors import InputError, MtprobesError, OutputExistsError, ValidationFailed
from builders.core.inspect import summarize
from builders.core.publish import plan_publish
from builders.core.validate import validate_dataset

TESTS_DIR = Path(__file__).resolve().parent
SOURCES = [f"Sentence number {i} is here ." if i % 7 else "" for i in range(1, 41)]
TARGETS = [f"Satz Nummer {i} ist hier ." for i in range(1, 41)]


@pytest.fixture
def corpus(tmp_path: Path) -> tuple[Path, Path]:
    src, tgt = tmp_path / "in.en", tmp_path / "in.de"
    src.write_text("\n".join(SOURCES) + "\n")
    tgt.write_text("\n".join(TARGETS) + "\n")
    return src, tgt


def build(corpus: tuple[Path, Path], out: Path, **overrides: object) -> Path:
    config = ToyConfig(src=str(corpus[0]), tgt=str(corpus[1]), **overrides)  # type: ignore[arg-type]
    return ToyBuilder(config).build(out, overwrite=True, quiet=True)


def data_bytes(path: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(path)): p.read_bytes()
        for p in sorted(path.rglob("*"))
        if p.is_file() and p.suffix in (".parquet", ".jsonl", ".arrow")
    }


def test_build_writes_the_full_layout(corpus: tuple[Path, Path], tmp_path: Path) -> None:
    path = build(corpus, tmp_path / "out")
    assert path == tmp_path / "out" / "toy" / "default" / "v1"
    assert (path / "data" / "test-00000-of-00001.parquet").is_file()
    info = json.loads((path / "info.json").read_text())
    assert info["counts"] == {"read": 40, "kept": 35, "dropped": {"empty_line": 5}}
    assert info["records"] == {"default": {"test": 35}}
    assert set(info["inputs"].values()) and all(len(h) == 64 for h in info["inputs"].values())
    assert info["signature"].startswith("mtprobes:0.1.0|builder:toy.v1|data:1.0.0|config:default@")
    loaded = datasets.load_dataset("parquet", data_dir=str(path / "data"))
    assert loaded["test"].num_rows == 35 and loaded["test"][0]["id"] == "toy-00001"
    from_disk = datasets.load_from_disk(str(path / "hf" / "default"))
    assert from_disk["test"]["id"] == loaded["test"]["id"]
    jsonl = [json.loads(x) for x in (path / "jsonl" / "test.jsonl").read_text().splitlines()]
    assert jsonl == loaded["test"].to_list()
    card = (path / "README.md").read_text()
    header = yaml.safe_load(card.split("---\n")[1])
    assert header["configs"][0]["data_files"][0] == {"split": "test", "path": "data/test-*.parquet"}
    assert header["license"] == "cc-by-4.0" and header["size_categories"] == ["n<1K"]
    assert "@misc{toy" in card and info["signature"] in card


def test_same_seed_gives_identical_bytes_other_seed_differs(corpus: tuple[Path, Path], tmp_path: Path) -> None:
    first = data_bytes(build(corpus, tmp_path / "a"))
    assert first == data_bytes(build(corpus, tmp_path / "b"))
    assert first != data_bytes(build(corpus, tmp_path / "c", seed=14))


def test_shards_split_records(corpus: tuple[Path, Path], tmp_path: Path) -> None:
    path = build(corpus, tmp_path / "out", shard_size=10)
    shards = sorted(p.name for p in (path / "data").glob("*.parquet"))
    assert shards == [f"test-0000{i}-of-00004.parquet" for i in range(4)]
    assert sum(pq.read_metadata(path / "data" / s).num_rows for s in shards) == 35
    validate_dataset(path)


def test_existing_output_refused_without_overwrite(corpus: tuple[Path, Path], tmp_path: Path) -> None:
    build(corpus, tmp_path / "out")
    config = ToyConfig(src=str(corpus[0]), tgt=str(corpus[1]))
    with pytest.raises(OutputExistsError, match="--overwrite"):
        ToyBuilder(config).build(tmp_path / "out", quiet=True)


def test_unwritable_output_dir(corpus: tuple[Path, Path], tmp_path: Path) -> None:
    if os.geteuid() == 0:
        blocker = tmp_path / "file"
        blocker.write_text("not a dir")
        out = blocker / "sub"  # root ignores permissions; a file in the path blocks writing all the same
    else:
        out = tmp_path / "ro"
        out.mkdir()
        out.chmod(0o500)
    with pytest.raises(MtprobesError, match="not writable"):
        build(corpus, out)


def test_duplicate_ids_are_refused(corpus: tuple[Path, Path], tmp_path: Path) -> None:
    with pytest.raises(ValidationFailed, match="duplicate record id 'toy-0'"):
        build(corpus, tmp_path / "out", duplicate_ids=True)
    assert not (tmp_path / "out" / "toy" / "default" / "v1").exists()


def test_line_count_mismatch_names_both_counts(corpus: tuple[Path, Path], tmp_path: Path) -> None:
    corpus[1].write_text("\n".join(TARGETS[:-2]) + "\n")
    with pytest.raises(InputError, match="has 40 lines.*has 38 lines"):
        build(corpus, tmp_path / "out")


def test_interrupted_build_resumes_to_identical_bytes(
    corpus: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reference = data_bytes(build(corpus, tmp_path / "ref", checkpoint_every=2))
    calls = {"n": 0}
    original = ToyBuilder.process

    def interrupted(self: ToyBuilder, unit, plan, ctx):  # type: ignore[no-untyped-def]
        calls["n"] += 1
        if calls["n"] == 6:
            raise KeyboardInterrupt
        return original(self, unit, plan, ctx)

    monkeypatch.setattr(ToyBuilder, "process", interrupted)
    config = ToyConfig(src=str(corpus[0]), tgt=str(corpus[1]), checkpoint_every=2)
    with pytest.raises(KeyboardInterrupt):
        ToyBuilder(config).build(tmp_path / "out", quiet=True)
    monkeypatch.setattr(ToyBuilder, "process", original)
    chunks = list((tmp_path / "out" / "toy" / "default" / ".v1.partial" / "checkpoint").glob("chunk-*.pkl"))
    assert len(chunks) == 2  # units 1-4 were checkpointed before the interruption
    path = ToyBuilder(config).build(tmp_path / "out", resume=True, quiet=True)
    assert data_bytes(path) == reference
    assert json.loads((path / "info.json").read_text())["counts"]["read"] == 40


def run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    code = "import toy_builder; from builders.cli import main; main()"
    full_env = {**os.environ, "PYTHONPATH": str(TESTS_DIR), **(env or {})}
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=full_env)


def test_killed_cli_build_resumes_to_identical_bytes(corpus: tuple[Path, Path], tmp_path: Path) -> None:
    sets = ["--set", f"src={corpus[0]}", "--set", f"tgt={corpus[1]}", "--set", "checkpoint_every=1"]
    reference = data_bytes(build(corpus, tmp_path / "ref", checkpoint_every=1))
    killed = run_cli("build", "toy.v1", *sets, "--out", str(tmp_path / "out"), "-q",
                     env={"MTPROBES_TEST_KILL_AFTER_CHUNKS": "5"})
    assert killed.returncode == -9
    refused = run_cli("build", "toy.v1", *sets, "--out", str(tmp_path / "out"), "-q")
    assert refused.returncode == 0  # without --resume the build starts again from scratch
    shutil.rmtree(tmp_path / "out")
    kill_late = {"MTPROBES_TEST_KILL_AFTER_CHUNKS": "7"}
    run_cli("build", "toy.v1", *sets, "--out", str(tmp_path / "out"), "-q", env=kill_late)
    resumed = run_cli("build", "toy.v1", *sets, "--out", str(tmp_path / "out"), "-q", "--resume")
    assert resumed.returncode == 0, resumed.stderr
    assert data_bytes(tmp_path / "out" / "toy" / "default" / "v1") == reference


def test_resume_with_other_config_is_refused(corpus: tuple[Path, Path], tmp_path: Path) -> None:
    sets = ["--set", f"src={corpus[0]}", "--set", f"tgt={corpus[1]}", "--set", "checkpoint_every=1"]
    run_cli("build", "toy.v1", *sets, "--out", str(tmp_path), "-q", env={"MTPROBES_TEST_KILL_AFTER_CHUNKS": "3"})
    other = run_cli("build", "toy.v1", *sets, "--set", "seed=5", "--out", str(tmp_path), "-q", "--resume")
    assert other.returncode == 1
    assert "cannot resume, the config differs from" in other.stderr  # seed is a config key; the inputs are the same


def corrupt_copy(path: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "corrupt"
    shutil.copytree(path, copy)
    return copy


@pytest.mark.parametrize(
    ("corruption", "message"),
    [
        ("drop_jsonl_line", "jsonl/test.jsonl: 34 lines, parquet has 35 records"),
        ("edit_jsonl_record", "jsonl/test.jsonl:1: differs from the parquet record"),
        ("inflate_count", "default/test: info.json says 36 records, parquet has 35"),
        ("break_counts", "counts do not add up: read 41 != kept 35 + dropped 5"),
        ("empty_source", "invariant: toy-00001: empty source"),
        ("remove_shard", "test-00000-of-00001.parquet: listed in info.json but missing"),
    ],
)
def test_validate_catches_corruption(corpus: tuple[Path, Path], tmp_path: Path, corruption: str, message: str) -> None:
    path = build(corpus, tmp_path / "out")
    validate_dataset(path)
    copy = corrupt_copy(path, tmp_path)
    jsonl = copy / "jsonl" / "test.jsonl"
    info_path = copy / "info.json"
    info = json.loads(info_path.read_text())
    if corruption == "drop_jsonl_line":
        jsonl.write_text("".join(jsonl.read_text().splitlines(keepends=True)[:-1]))
    elif corruption == "edit_jsonl_record":
        jsonl.write_text(jsonl.read_text().replace("Sentence number 1 ", "Sentence number one ", 1))
    elif corruption == "inflate_count":
        info["records"]["default"]["test"] = 36
    elif corruption == "break_counts":
        info["counts"]["read"] = 41
    elif corruption == "empty_source":
        table = pq.read_table(copy / "data" / "test-00000-of-00001.parquet")
        sources = table.column("src").to_pylist()
        sources[0] = " "
        import pyarrow as pa

        table = table.set_column(table.schema.get_field_index("src"), "src", pa.array(sources))
        pq.write_table(table, copy / "data" / "test-00000-of-00001.parquet")
        jsonl.write_text(jsonl.read_text().replace("Sentence number 1 is here .", " ", 1))
    elif corruption == "remove_shard":
        (copy / "data" / "test-00000-of-00001.parquet").unlink()
    info_path.write_text(json.dumps(info))
    with pytest.raises(ValidationFailed, match=re.escape(message)):
        validate_dataset(copy)


def test_inspect_and_publish_dry_run(corpus: tuple[Path, Path], tmp_path: Path) -> None:
    path = build(corpus, tmp_path / "out")
    summary = summarize(path)
    assert summary["balance"]["length_class"] == {"long": 35}
    assert len(summary["samples"]) == 5
    plan = plan_publish(path, "org/toy")
    names = [name for name, _ in plan.files]
    assert "README.md" in names and "data/test-00000-of-00001.parquet" in names and "info.json" in names
    assert not any(name.startswith("hf/") for name in names)
    text = plan.render()
    assert "Dry run" in text and "org/toy" in text and "configs:" in text


def test_cli_errors_are_one_line(corpus: tuple[Path, Path], tmp_path: Path) -> None:
    result = run_cli("build", "toy.v1", "--set", f"src={corpus[0]}", "--set", "tgt=/nonexistent.de",
                     "--out", str(tmp_path))
    assert result.returncode == 1
    assert result.stderr.strip() == "error: /nonexistent.de: file not found"
    result = run_cli("build", "toy.v1", "--set", "lines_per_unit=zero", "--out", str(tmp_path))
    assert result.returncode == 2 and "config key 'lines_per_unit'" in result.stderr


def test_publish_push_without_token_uploads_nothing(corpus: tuple[Path, Path], tmp_path: Path) -> None:
    path = build(corpus, tmp_path / "out")
    env = {"HF_TOKEN": "", "HF_HOME": str(tmp_path / "hf-home"), "HF_ENDPOINT": "http://127.0.0.1:9"}
    result = run_cli("publish", str(path), "--repo-id", "org/toy", "--push", env=env)
    assert result.returncode == 1
    assert "no Hugging Face token" in result.stderr and "nothing was uploaded" in result.stderr
