"""Reliability table: inputs that once gave a traceback (or hung), each with the exit code and the one line the
CLI must give now. Add a row for each new case: ``prepare`` writes what the case needs under tmp_path and
returns the command line; the table checks exit code, message and that no traceback reached the user."""

from __future__ import annotations

import json
import os
import pickle
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from builders.core.lock import process_start_time
from builders.core.resources import resource_path

TESTS_DIR = Path(__file__).resolve().parent
SOURCES = "".join(f"Sentence number {i} is here .\n" for i in range(1, 31))
TARGETS = "".join(f"Satz Nummer {i} ist hier .\n" for i in range(1, 31))
# 378 bytes that expand to 9**9 strings: each of 9 levels repeats the previous one 9 times.
ALIAS_BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{level}: &{level} [{', '.join([f'*{previous}'] * 9)}]\n"
    for previous, level in zip("abcdefgh", "bcdefghi", strict=True)
)


def run_cli(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None,
            timeout: float = 180) -> subprocess.CompletedProcess[str]:
    """The CLI in a subprocess with this checkout and the toy builder; a hang fails the test, not the run."""
    full_env = {**os.environ, "PYTHONPATH": f"{TESTS_DIR}{os.pathsep}{TESTS_DIR.parent}", **(env or {})}
    code = "import toy_builder, sys; from builders.cli import main; sys.argv[0] = 'mtprobes'; main()"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=full_env,
                          cwd=cwd, check=False, timeout=timeout)


def toy_sets(tmp_path: Path) -> list[str]:
    src, tgt = tmp_path / "in.en", tmp_path / "in.de"
    src.write_text(SOURCES)
    tgt.write_text(TARGETS)
    return ["--set", f"src={src}", "--set", f"tgt={tgt}", "--set", "checkpoint_every=1"]


def toy_build(tmp_path: Path, *extra: str) -> list[str]:
    return ["build", "toy.v1", *toy_sets(tmp_path), "--out", str(tmp_path / "out"), "-q", *extra]


def with_config(text: str | bytes, suffix: str = ".yaml") -> Callable[[Path], list[str]]:
    def prepare(tmp_path: Path) -> list[str]:
        config = tmp_path / f"config{suffix}"
        config.write_bytes(text.encode() if isinstance(text, str) else text)
        return [*toy_build(tmp_path), "--config", str(config)]

    return prepare


def config_is_a_folder(tmp_path: Path) -> list[str]:
    return [*toy_build(tmp_path), "--config", str(tmp_path)]


def killed_build(tmp_path: Path) -> Path:
    """A toy build SIGKILLed after 3 checkpoint chunks; returns its checkpoint folder."""
    killed = run_cli(*toy_build(tmp_path), env={"MTPROBES_TEST_KILL_AFTER_CHUNKS": "3"})
    assert killed.returncode == -9, killed.stderr
    return tmp_path / "out" / "toy" / "default" / ".v1.partial" / "checkpoint"


def truncated_checkpoint(tmp_path: Path) -> list[str]:
    chunk = killed_build(tmp_path) / "chunk-000001.pkl"
    chunk.write_bytes(chunk.read_bytes()[:40])
    return toy_build(tmp_path, "--resume")


def foreign_checkpoint(tmp_path: Path) -> list[str]:
    # A pickle that, if loaded, would create a file (and then fail on an attribute no module has).
    marker = tmp_path / "unpickled"
    payload = f"cbuiltins\nopen\n(S'{marker}'\nS'w'\ntR0cbuilders.core.checkpoint\nNoSuchClass\n.".encode()
    (killed_build(tmp_path) / "chunk-000000.pkl").write_bytes(payload)
    return toy_build(tmp_path, "--resume")


def built_with_records(value: object) -> Callable[[Path], list[str]]:
    def prepare(tmp_path: Path) -> Path:
        assert run_cli(*toy_build(tmp_path)).returncode == 0
        folder = tmp_path / "out" / "toy" / "default" / "v1"
        info = json.loads((folder / "info.json").read_text())
        info["records"] = value
        (folder / "info.json").write_text(json.dumps(info))
        return folder

    return prepare  # type: ignore[return-value]


def records_null(command: str, *extra: str) -> Callable[[Path], list[str]]:
    return lambda tmp_path: [command, str(built_with_records(None)(tmp_path)), *extra]  # type: ignore[arg-type]


def resume_after_interrupted_overwrite(tmp_path: Path) -> list[str]:
    assert run_cli(*toy_build(tmp_path)).returncode == 0
    # What an --overwrite killed during prepare leaves: its work folder, no checkpoint header yet.
    (tmp_path / "out" / "toy" / "default" / ".v1.partial").mkdir()
    return toy_build(tmp_path, "--resume")


def lock_held_by(start_time: str | None) -> Callable[[Path], list[str]]:
    """A lock naming this live test process (its pid), with its real or another start time."""
    def prepare(tmp_path: Path) -> list[str]:
        (tmp_path / "out" / "toy" / "default").mkdir(parents=True)
        owner = f"{os.getpid()} {socket.gethostname()} {start_time}\n"
        (tmp_path / "out" / "toy" / "default" / ".v1.lock").write_text(owner)
        return toy_build(tmp_path)

    return prepare


def fifo_input(tmp_path: Path) -> list[str]:
    sets = toy_sets(tmp_path)
    fifo = tmp_path / "fifo.en"
    os.mkfifo(fifo)  # nobody writes to it: opening it to read would block forever
    return ["build", "toy.v1", *sets, "--set", f"src={fifo}", "--out", str(tmp_path / "out")]


def image_features_elsewhere(tmp_path: Path) -> list[str]:
    commute = resource_path("samples", "commute_ext", "commute", "en-de")
    return ["image-features", str(commute), "--out", str(tmp_path / "features.npy")]


def repeated_shuffles(tmp_path: Path) -> list[str]:
    """A shuffles set of 2 examples: its 3 shuffles are the one derangement 3 times."""
    sample = resource_path("samples", "shuffles")
    folder = tmp_path / "two"
    (folder / "images").mkdir(parents=True)
    for name in ("sample.en", "sample.de", "sample.images.txt"):
        (folder / name).write_text("".join((sample / name).read_text().splitlines(keepends=True)[:2]))
    for image in (folder / "sample.images.txt").read_text().split():
        shutil.copy(sample / "images" / image, folder / "images" / image)
    built = run_cli("build", "shuffles", "--config", str(sample / "demo.yaml"), "--set", f"data_dir={folder}",
                    "--set", f"image_dir={folder / 'images'}", "--set", "features=", "--set", "shuffles=3",
                    "--set", "mixup_shuffles=0", "--out", str(tmp_path / "out"), "-q")
    assert built.returncode == 0, built.stderr
    return ["publish", str(tmp_path / "out" / "shuffles" / "sample" / "v1"), "--repo-id", "org/two"]


@dataclass(frozen=True)
class Case:
    name: str
    prepare: Callable[[Path], list[str]]
    exit_code: int
    message: str  # a fragment of stderr
    cwd_is_tmp: bool = False


CASES = [
    Case("yaml_alias_bomb", with_config(ALIAS_BOMB), 2, "once its YAML aliases are expanded"),
    Case("yaml_20000_deep", with_config("a: " + "[" * 20_000 + "]" * 20_000 + "\n"), 2,
         "nested more than 50 levels deep"),
    Case("json_20000_deep", with_config('{"a": ' + "[" * 20_000 + "]" * 20_000 + "}", ".json"), 2,
         "nested more than 50 levels deep"),
    Case("set_value_20000_deep", lambda tmp: [*toy_build(tmp), "--set", "lines_per_unit=" + "[" * 20_000], 2,
         "nested more than 50 levels deep"),
    Case("mixed_int_and_text_keys", with_config("1: a\nfoo: b\n"), 2, "config key 1 (int) is not text"),
    Case("latin1_byte", with_config(b"corpus: caf\xe9\n"), 2, "config.yaml:1: not UTF-8 text (byte 11: 0xe9)"),
    Case("config_is_a_folder", config_is_a_folder, 2, "is a directory, expected a YAML or JSON config file"),
    Case("nul_in_name", with_config('name: "a\\0b"\n'), 2, "config key 'name': contains a NUL character"),
    Case("truncated_checkpoint", truncated_checkpoint, 0,
         "chunk-000001.pkl: checkpoint chunk is damaged or was not written by this build; computing its units "
         "and the 1 after it again"),
    Case("foreign_checkpoint", foreign_checkpoint, 0,
         "chunk-000000.pkl: checkpoint chunk is damaged or was not written by this build"),
    Case("validate_records_null", records_null("validate"), 1, "info.json: key 'records' must be a mapping"),
    Case("inspect_records_null", records_null("inspect"), 1, "info.json: key 'records' must be a mapping"),
    Case("publish_records_null", records_null("publish", "--repo-id", "org/toy"), 1,
         "info.json: key 'records' must be a mapping"),
    Case("resume_after_interrupted_overwrite", resume_after_interrupted_overwrite, 1,
         "interrupted before its first checkpoint: nothing to resume, and v1/ still holds the previous build"),
    Case("lock_pid_reused_by_another_process", lock_held_by("1"), 0, "taking over the stale lock"),
    Case("lock_of_a_live_build", lock_held_by(process_start_time(os.getpid())), 1,
         f"another build (pid {os.getpid()}) is writing this output"),
    Case("fifo_input", fifo_input, 1, "fifo.en: is a pipe or device, not a regular file"),
    Case("image_features_default_clip_outside_the_repository", image_features_elsewhere, 0, "6 x 64 features",
         cwd_is_tmp=True),
    Case("publish_repo_id_the_hub_refuses", lambda tmp: ["publish", str(tmp), "--repo-id", "../evil"], 2,
         "--repo-id '../evil' is not a name the Hub accepts"),
    Case("publish_repeated_shuffles_warns", repeated_shuffles, 0,
         "warning: shuffles.v1: 2 of the 3 shuffles repeat an earlier one"),
]


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_one_clear_line_never_a_traceback(case: Case, tmp_path: Path) -> None:
    args = case.prepare(tmp_path)
    result = run_cli(*args, cwd=tmp_path if case.cwd_is_tmp else None)
    output = result.stdout + result.stderr
    assert "Traceback" not in output, output
    assert result.returncode == case.exit_code, output
    assert case.message in output, output


def test_resumed_build_after_a_bad_chunk_has_the_bytes_of_a_clean_build(tmp_path: Path) -> None:
    clean = tmp_path / "clean"
    clean.mkdir()
    assert run_cli(*toy_build(clean)).returncode == 0
    args = foreign_checkpoint(tmp_path)
    assert run_cli(*args).returncode == 0
    assert not (tmp_path / "unpickled").exists()  # the foreign pickle was never loaded
    for name in ("data/test-00000-of-00001.parquet", "jsonl/test.jsonl"):
        built = tmp_path / "out" / "toy" / "default" / "v1" / name
        assert built.read_bytes() == (clean / "out" / "toy" / "default" / "v1" / name).read_bytes()


def test_checkpoint_chunks_carry_a_digest_of_this_build() -> None:
    """Not a pickle at byte 0: the chunk opens with its HMAC, so no pickle loader would take it as it is."""
    from builders.core.checkpoint import DIGEST_BYTES, Checkpoint
    from builders.core.context import Counts

    with tempfile.TemporaryDirectory() as folder:
        checkpoint = Checkpoint(Path(folder), "toy.v1", {"seed": 1}, {})
        checkpoint.reset()
        checkpoint.save(["u0"], [], Counts(read=1, kept=1))
        data = (Path(folder) / "chunk-000000.pkl").read_bytes()
        assert pickle.loads(data[DIGEST_BYTES:]).unit_keys == ["u0"]
        assert [c.unit_keys for c in Checkpoint(Path(folder), "toy.v1", {"seed": 1}, {}).load(["u0"])] == [["u0"]]
        # another build's key (a checkpoint folder copied over) does not verify: the chunk is recomputed
        (Path(folder) / "key").write_bytes(b"k" * 32)
        assert list(Checkpoint(Path(folder), "toy.v1", {"seed": 1}, {}).load(["u0"])) == []
