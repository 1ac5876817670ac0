"""The output folder under bad luck: locks, interrupted --overwrite, disk full, tampering, symlinks, empty sets."""

from __future__ import annotations

import errno
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from toy_builder import ToyBuilder, ToyConfig

from builders.core.errors import InputError, MtprobesError, OutputLockedError, ValidationFailed
from builders.core.inspect import summarize
from builders.core.lock import OutputLock, lock_path_for
from builders.core.publish import plan_publish
from builders.core.validate import validate_dataset

TESTS_DIR = Path(__file__).resolve().parent


@pytest.fixture
def corpus(tmp_path: Path) -> tuple[Path, Path]:
    src, tgt = tmp_path / "in.en", tmp_path / "in.de"
    src.write_text("".join(f"Sentence number {i} is here .\n" for i in range(1, 21)))
    tgt.write_text("".join(f"Satz Nummer {i} ist hier .\n" for i in range(1, 21)))
    return src, tgt


def toy(corpus: tuple[Path, Path], **overrides: Any) -> ToyBuilder:
    return ToyBuilder(ToyConfig(src=str(corpus[0]), tgt=str(corpus[1]), **overrides))


def run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    full_env = {**os.environ, "PYTHONPATH": f"{TESTS_DIR}{os.pathsep}{TESTS_DIR.parent}", **(env or {})}
    code = "import toy_builder, sys; from builders.cli import main; sys.argv[0] = 'mtprobes'; main()"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=full_env,
                          check=False)


def toy_cli_sets(corpus: tuple[Path, Path]) -> list[str]:
    return ["--set", f"src={corpus[0]}", "--set", f"tgt={corpus[1]}", "--set", "checkpoint_every=1",
            "--set", "lines_per_unit=1"]


# --- one build per output -----------------------------------------------------------------------------------

def test_a_second_build_into_a_locked_output_fails_clearly(corpus: tuple[Path, Path], tmp_path: Path) -> None:
    final = tmp_path / "out" / "toy" / "default" / "v1"
    holder = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        lock_path_for(final).parent.mkdir(parents=True)
        lock_path_for(final).write_text(f"{holder.pid} {os.uname().nodename}\n")
        with pytest.raises(OutputLockedError, match=f"another build \\(pid {holder.pid}\\) is writing"):
            toy(corpus).build(tmp_path / "out", quiet=True)
        assert not final.exists() and lock_path_for(final).read_text().startswith(str(holder.pid))
        result = run_cli("build", "toy.v1", *toy_cli_sets(corpus), "--out", str(tmp_path / "out"), "-q")
        assert result.returncode == 1 and "another build" in result.stderr and "Traceback" not in result.stderr
    finally:
        holder.kill()
        holder.wait()


def test_a_stale_lock_of_a_dead_process_is_taken_over(corpus: tuple[Path, Path], tmp_path: Path) -> None:
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    final = tmp_path / "out" / "toy" / "default" / "v1"
    lock_path_for(final).parent.mkdir(parents=True)
    lock_path_for(final).write_text(f"{dead.pid} {os.uname().nodename}\n")
    assert toy(corpus).build(tmp_path / "out", quiet=True) == final
    assert not lock_path_for(final).exists()  # released after the build


def test_the_lock_is_released_when_the_build_fails(corpus: tuple[Path, Path], tmp_path: Path) -> None:
    corpus[1].write_text("only one line\n")
    with pytest.raises(InputError, match="line-aligned files differ"):
        toy(corpus).build(tmp_path / "out", quiet=True)
    assert not lock_path_for(tmp_path / "out" / "toy" / "default" / "v1").exists()
    with OutputLock(tmp_path / "x" / "v1") as lock:
        assert lock.path.read_text().split()[0] == str(os.getpid())
    assert not lock.path.exists()


# --- interrupted --overwrite ----------------------------------------------------------------------------------

def test_a_crash_between_the_renames_of_overwrite_is_recovered(corpus: tuple[Path, Path], tmp_path: Path) -> None:
    final = toy(corpus).build(tmp_path / "out", quiet=True)
    before = (final / "jsonl" / "test.jsonl").read_bytes()
    hidden = final.parent / ".v1.old-999999"
    os.replace(final, hidden)  # the state a kill after the first rename leaves: no dataset, a hidden copy
    again = toy(corpus, seed=14).build(tmp_path / "out", quiet=True, overwrite=True)
    assert not hidden.exists() and again == final
    assert (final / "jsonl" / "test.jsonl").read_bytes() != before
    # without --overwrite, the hidden copy is simply put back
    os.replace(final, hidden)
    with pytest.raises(MtprobesError, match="already exists; pass --overwrite"):
        toy(corpus).build(tmp_path / "out", quiet=True)
    assert final.is_dir() and not hidden.exists()
    validate_dataset(final)


def test_resume_with_nothing_to_resume_says_so_and_builds(corpus: tuple[Path, Path], tmp_path: Path,
                                                          caplog: pytest.LogCaptureFixture) -> None:
    resumed = toy(corpus).build(tmp_path / "out", quiet=True, resume=True)
    assert "nothing to resume (no .v1.partial/); building from the start" in caplog.text
    fresh = toy(corpus).build(tmp_path / "fresh", quiet=True)
    assert (resumed / "jsonl" / "test.jsonl").read_bytes() == (fresh / "jsonl" / "test.jsonl").read_bytes()


def test_resume_after_a_killed_overwrite_finishes_it(corpus: tuple[Path, Path], tmp_path: Path) -> None:
    sets = toy_cli_sets(corpus)
    out = str(tmp_path / "out")
    assert run_cli("build", "toy.v1", *sets, "--out", out, "-q").returncode == 0
    killed = run_cli("build", "toy.v1", *sets, "--set", "seed=5", "--out", out, "-q", "--overwrite",
                     env={"MTPROBES_TEST_KILL_AFTER_CHUNKS": "3"})
    assert killed.returncode == -9
    resumed = run_cli("build", "toy.v1", *sets, "--set", "seed=5", "--out", out, "-q", "--resume")
    assert resumed.returncode == 0, resumed.stderr
    final = tmp_path / "out" / "toy" / "default" / "v1"
    assert json.loads((final / "info.json").read_text())["seed"] == 5
    fresh = toy(corpus, seed=5, checkpoint_every=1, lines_per_unit=1).build(tmp_path / "fresh", quiet=True)
    assert (final / "jsonl" / "test.jsonl").read_bytes() == (fresh / "jsonl" / "test.jsonl").read_bytes()


@pytest.mark.parametrize(("units_before", "message", "kept"), [
    (0, "interrupted before the first checkpoint; nothing was kept", False),
    (3, r"interrupted; the finished units are kept in \.v1\.partial/: run the same command with --resume", True),
])
def test_ctrl_c_says_what_was_kept_and_leaves_no_output_folder(
    corpus: tuple[Path, Path], tmp_path: Path, units_before: int, message: str, kept: bool
) -> None:
    """Ctrl-C ended a build with status 130 and not a word; a resume gives the bytes of an uninterrupted build."""
    code = ("import sys, toy_builder; from builders.cli import main; process = toy_builder.ToyBuilder.process\n"
            "def interrupted(self, unit, plan, ctx, seen=[]):\n"
            "    seen.append(unit.key)\n"
            f"    if len(seen) > {units_before}: raise KeyboardInterrupt\n"
            "    return process(self, unit, plan, ctx)\n"
            "toy_builder.ToyBuilder.process = interrupted; sys.argv = ['mtprobes', *sys.argv[1:]]; main()")
    env = {**os.environ, "PYTHONPATH": f"{TESTS_DIR}{os.pathsep}{TESTS_DIR.parent}"}
    args = ["build", "toy.v1", *toy_cli_sets(corpus), "--out", str(tmp_path / "out"), "-q"]
    result = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env,
                            check=False)
    assert result.returncode == 130, result.stderr
    final = tmp_path / "out" / "toy" / "default" / "v1"
    assert re.fullmatch(f"error: {re.escape(str(final))}: {message}.*\n", result.stderr), result.stderr
    assert not final.exists() and (final.parent / ".v1.partial").is_dir() == kept
    resumed = run_cli(*args, *(["--resume"] if kept else []))
    assert resumed.returncode == 0, resumed.stderr
    fresh = toy(corpus, checkpoint_every=1, lines_per_unit=1).build(tmp_path / "fresh", quiet=True)
    assert (final / "jsonl" / "test.jsonl").read_bytes() == (fresh / "jsonl" / "test.jsonl").read_bytes()


# --- disk full -----------------------------------------------------------------------------------------------

def test_disk_full_while_writing_is_one_line_and_leaves_nothing_half_written(
    corpus: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    final = toy(corpus).build(tmp_path / "out", quiet=True)
    before = {p.relative_to(final): p.read_bytes() for p in final.rglob("*") if p.is_file()}

    def full_disk(table: Any, where: Any, **kwargs: Any) -> None:
        raise OSError(errno.ENOSPC, "No space left on device", str(where))

    monkeypatch.setattr("builders.core.writer.pq.write_table", full_disk)
    with pytest.raises(MtprobesError, match="the disk is full .*was left as it was"):
        toy(corpus, seed=14).build(tmp_path / "out", quiet=True, overwrite=True)
    assert {p.relative_to(final): p.read_bytes() for p in final.rglob("*") if p.is_file()} == before
    assert not (final.parent / ".v1.partial" / "output").exists()
    assert not list(final.parent.glob(".v1.old-*")) and not lock_path_for(final).exists()


# --- tampering and truncation ----------------------------------------------------------------------------------

@pytest.fixture
def built(corpus: tuple[Path, Path], tmp_path: Path) -> Path:
    return toy(corpus).build(tmp_path / "out", quiet=True)


def test_every_output_file_is_hashed_and_signed(built: Path) -> None:
    info = json.loads((built / "info.json").read_text())
    files = info["files_sha256"]
    assert "data/test-00000-of-00001.parquet" in files and "jsonl/test.jsonl" in files
    assert any(name.startswith("hf/default/") for name in files)
    assert "info.json" not in files and "README.md" not in files
    assert info["signature"].rpartition("|")[2].startswith("files:")
    validate_dataset(built)


@pytest.mark.parametrize(
    ("tamper", "message"),
    [
        (lambda p: shutil.rmtree(p / "hf"), "hf/default/dataset_dict.json: listed in info.json but missing"),
        (lambda p: (p / "extra.txt").write_text("x"), "extra.txt: not written by the build"),
        (lambda p: _edit_info(p, seed=99), "seed 99 differs from the config"),
        (lambda p: _edit_info(p, config_seed=99), "signature does not match"),
        (lambda p: (p / "README.md").write_text((p / "README.md").read_text() + "\nedited\n"),
         "README.md: differs from the card"),
        (lambda p: (p / "hf" / "default" / "dataset_dict.json").write_text("{}"),
         "hf/default/dataset_dict.json: changed since the build"),
    ],
    ids=["deleted hf", "added file", "changed seed", "changed config seed", "edited card", "edited hf"],
)
def test_validate_names_each_tampered_file(built: Path, tamper: Any, message: str) -> None:
    tamper(built)
    with pytest.raises(ValidationFailed, match=message):
        validate_dataset(built)


def _edit_info(path: Path, seed: int | None = None, config_seed: int | None = None) -> None:
    info = json.loads((path / "info.json").read_text())
    if seed is not None:
        info["seed"] = seed
    if config_seed is not None:
        info["config"]["seed"] = config_seed
        info["seed"] = config_seed
    (path / "info.json").write_text(json.dumps(info, indent=2))


def test_a_truncated_parquet_is_one_clear_error_in_validate_and_inspect(built: Path) -> None:
    shard = built / "data" / "test-00000-of-00001.parquet"
    shard.write_bytes(shard.read_bytes()[: shard.stat().st_size // 2])
    with pytest.raises(InputError, match=r"test-00000-of-00001\.parquet: cannot read parquet .*truncated"):
        validate_dataset(built)
    with pytest.raises(InputError, match=r"test-00000-of-00001\.parquet: cannot read parquet"):
        summarize(built)
    result = run_cli("inspect", str(built))
    assert result.returncode == 1 and "Traceback" not in result.stderr and "cannot read parquet" in result.stderr


def test_publish_refuses_symlinks(built: Path, tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("outside the dataset")
    (built / "notes.txt").symlink_to(secret)
    with pytest.raises(MtprobesError, match=r"refusing to publish symbolic links \(notes\.txt\)"):
        plan_publish(built, "org/toy")
    with pytest.raises(ValidationFailed, match="notes.txt: is a symbolic link"):
        validate_dataset(built)


def test_an_empty_set_warns_and_publish_needs_force(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    src, tgt = tmp_path / "e.en", tmp_path / "e.de"
    src.write_text("\n\n")
    tgt.write_text("a\nb\n")
    path = ToyBuilder(ToyConfig(src=str(src), tgt=str(tgt))).build(tmp_path / "out", quiet=True)
    assert "the set has 0 records" in caplog.text
    info = json.loads((path / "info.json").read_text())
    assert any("0 records" in w for w in info["notes"]["warnings"])
    validate_dataset(path)
    with pytest.raises(MtprobesError, match="0 records; nothing worth publishing .*--force"):
        plan_publish(path, "org/empty")
    assert plan_publish(path, "org/empty", force=True).files
    result = run_cli("validate", str(path))
    assert result.returncode == 0 and "warning:" in result.stderr and "0 records" in result.stderr


def test_repeated_shuffles_warn(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    from builders.shuffles.builder import ShufflesBuilder
    from builders.shuffles.config import ShufflesConfig

    jsonl = tmp_path / "two.jsonl"
    jsonl.write_text('{"src": "a dog", "ref": "ein Hund", "image": "dog.jpg"}\n'
                     '{"src": "a cat", "ref": "eine Katze", "image": "cat.jpg"}\n')
    path = ShufflesBuilder(ShufflesConfig(input_format="jsonl", jsonl=str(jsonl), shuffles=3)).build(
        tmp_path / "out", quiet=True)
    from builders.core.naming import slug

    assert path.relative_to(tmp_path / "out").as_posix() == f"shuffles/{slug(tmp_path.name)}-two/v1"
    assert "2 of the 3 shuffles repeat an earlier one" in caplog.text
    assert any("repeat" in w for w in json.loads((path / "info.json").read_text())["notes"]["warnings"])
