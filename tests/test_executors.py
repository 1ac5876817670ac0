"""Executors: local, a process pool and a real local Ray cluster give the same bytes, resume after kill -9, and
report a bad unit as the one-line error naming its file and line.

Ray starts once for the module (2 CPUs, no dashboard, a temporary directory); without Ray those tests skip.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from toy_builder import ToyBuilder, ToyConfig

from builders.core.config import load_config_file
from builders.core.errors import InputError, MtprobesError
from builders.core.registry import get_builder_class
from builders.core.resources import resource_path

try:
    import ray
except ImportError:  # the optional extra mtprobes[ray]
    ray = None

TESTS_DIR = Path(__file__).resolve().parent
REPO_ROOT = TESTS_DIR.parent
def needs_ray(test: Any) -> Any:
    """A test that starts or uses a real local Ray cluster: marked ``ray`` (``pytest -m 'not ray'`` leaves them
    out), skipped with a reason where Ray is absent."""
    skip = pytest.mark.skipif(ray is None, reason="Ray is not installed (pip install 'mtprobes[ray]')")
    return pytest.mark.ray(skip(test))
SOURCES = [f"Sentence number {i} is here ." if i % 7 else "" for i in range(1, 41)]
TARGETS = [f"Satz Nummer {i} ist hier ." for i in range(1, 41)]


@pytest.fixture(scope="module")
def ray_address() -> Iterator[str]:
    if ray is None:
        pytest.skip("Ray is not installed (pip install 'mtprobes[ray]')")
    temp_dir = tempfile.mkdtemp(prefix="ray-", dir="/tmp")  # short: Ray's socket paths must stay < 108 bytes
    # The cluster's processes inherit this environment: workers of every job (this one, and the CLI builds that
    # connect with --ray-address) import this checkout, not an installed copy, and the toy builder.
    saved = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join([str(REPO_ROOT), str(TESTS_DIR)])
    try:
        context = ray.init(num_cpus=2, include_dashboard=False, _temp_dir=temp_dir, log_to_driver=False)
    finally:
        if saved is None:
            del os.environ["PYTHONPATH"]
        else:
            os.environ["PYTHONPATH"] = saved
    yield str(context.address_info["gcs_address"])
    ray.shutdown()


@pytest.fixture(scope="module")
def alignment_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """eflomal samples from /dev/urandom: builds that share this cache share one alignment, as in production."""
    return tmp_path_factory.mktemp("alignment")


def file_hashes(folder: Path) -> dict[str, str]:
    """sha256 of every output file, info.json included (it holds no wall time)."""
    return {str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(p for p in folder.rglob("*") if p.is_file())}


def sample_config(name: str, cache: Path, **overrides: Any) -> Any:
    family = name.rpartition(".")[0]
    values = load_config_file(resource_path("samples", family, "demo.yaml"))
    if family == "pronouns":
        # alignment in shards of 8 documents: the shards are a first map on the same executor
        values.update(alignment_cache=str(cache), align_shard_docs=8)
    values.update(checkpoint_every=2, **overrides)
    return get_builder_class(name).config_class.from_mapping(values)


def requirements_missing(name: str) -> str:
    from builders.core.compat import spacy_english

    probe = spacy_english()
    if name in {"pronouns.v1", "variations.v1"} and not probe.available:
        return probe.reason
    if name == "commute_ext.v1":
        for module in ("open_clip", "faiss", "torch"):
            try:
                __import__(module)
            except ImportError:
                return f"{module} is not installed"
    return ""


@needs_ray
@pytest.mark.slow
@pytest.mark.parametrize("name", ["pronouns.v1", "shuffles.v1", "variations.v1", "commute_ext.v1"])
def test_every_executor_gives_the_same_bytes(
    name: str, ray_address: str, alignment_cache: Path, tmp_path: Path
) -> None:
    if reason := requirements_missing(name):
        pytest.skip(reason)
    hashes = {}
    for executor in ("local", "processes", "ray"):
        config = sample_config(name, alignment_cache, executor=executor, workers=2)
        folder = get_builder_class(name)(config).build(tmp_path / executor, overwrite=True, quiet=True)
        hashes[executor] = file_hashes(folder)
    assert len(hashes["local"]) > 5
    assert hashes["processes"] == hashes["local"]
    assert hashes["ray"] == hashes["local"]


def run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    code = "import sys, toy_builder; from builders.cli import main; sys.argv = ['mtprobes', *sys.argv[1:]]; main()"
    full_env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TESTS_DIR), str(REPO_ROOT)]), **(env or {})}
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=full_env)


@pytest.fixture
def corpus(tmp_path: Path) -> tuple[Path, Path]:
    src, tgt = tmp_path / "in.en", tmp_path / "in.de"
    src.write_text("\n".join(SOURCES) + "\n")
    tgt.write_text("\n".join(TARGETS) + "\n")
    return src, tgt


@needs_ray
def test_killed_ray_build_resumes_to_the_same_bytes(
    corpus: tuple[Path, Path], ray_address: str, tmp_path: Path
) -> None:
    """kill -9 of the driver after 3 chunks, then --resume under Ray (and, for the last part, a process pool)."""
    sets = ["--set", f"src={corpus[0]}", "--set", f"tgt={corpus[1]}", "--set", "checkpoint_every=1"]
    reference_config = ToyConfig(src=str(corpus[0]), tgt=str(corpus[1]), checkpoint_every=1)
    reference = ToyBuilder(reference_config).build(tmp_path / "ref", quiet=True)
    ray_args = ["--executor", "ray", "--ray-address", ray_address, "--workers", "2"]
    out = tmp_path / "out"
    killed = run_cli("build", "toy.v1", *sets, *ray_args, "--out", str(out), "-q",
                     env={"MTPROBES_TEST_KILL_AFTER_CHUNKS": "3"})
    assert killed.returncode == -9, killed.stderr
    partial = out / "toy" / "default" / ".v1.partial" / "checkpoint"
    assert len(list(partial.glob("chunk-*.pkl"))) == 3
    again = run_cli("build", "toy.v1", *sets, *ray_args, "--out", str(out), "-q", "--resume",
                    env={"MTPROBES_TEST_KILL_AFTER_CHUNKS": "8"})
    assert again.returncode == -9, again.stderr
    resumed = run_cli("build", "toy.v1", *sets, "--executor", "processes", "--workers", "2", "--out", str(out),
                      "-q", "--resume")
    assert resumed.returncode == 0, resumed.stderr
    assert file_hashes(out / "toy" / "default" / "v1") == file_hashes(reference)


@needs_ray
@pytest.mark.parametrize("executor", ["processes", "ray"])
def test_a_bad_unit_gives_the_one_line_input_error(
    executor: str, corpus: tuple[Path, Path], ray_address: str, tmp_path: Path
) -> None:
    config = ToyConfig(src=str(corpus[0]), tgt=str(corpus[1]), bad_line=23, executor=executor, workers=2)
    with pytest.raises(InputError) as caught:
        ToyBuilder(config).build(tmp_path, quiet=True)
    assert str(caught.value) == f"{corpus[0]}:23: a line the toy builder refuses"


@needs_ray
def test_a_dead_ray_worker_is_retried(
    corpus: tuple[Path, Path], ray_address: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    marker = tmp_path / "died"
    config = ToyConfig(src=str(corpus[0]), tgt=str(corpus[1]), die_once_marker=str(marker), executor="ray")
    with caplog.at_level("WARNING", logger="mtprobes"):
        folder = ToyBuilder(config).build(tmp_path / "ray", quiet=True)
    reference = ToyBuilder(ToyConfig(src=str(corpus[0]), tgt=str(corpus[1]))).build(tmp_path / "ref", quiet=True)
    assert marker.exists()  # a worker did die, and its unit ran again elsewhere
    assert file_hashes(folder) == file_hashes(reference)
    # said to the user, not in the output; every task in flight on the dead worker is retried (one, or two when
    # Ray had queued a second task on that worker), so the count depends on scheduling, never zero
    retried = [re.fullmatch(r"(\d+) tasks? retried after a worker died", message) for message in caplog.messages]
    counts = [int(match.group(1)) for match in retried if match]
    assert len(counts) == 1 and counts[0] >= 1, caplog.messages


@needs_ray
def test_a_ray_task_whose_worker_always_dies_is_one_error(
    corpus: tuple[Path, Path], ray_address: str, tmp_path: Path
) -> None:
    """Ray retries the task (max_retries), then the build ends with one line, not Ray's traceback or a hang."""
    config = ToyConfig(src=str(corpus[0]), tgt=str(corpus[1]), die_on_line=23, executor="ray")
    with pytest.raises(MtprobesError, match=r"a Ray task failed 4 times \(WorkerCrashedError.*rerun with --resume"):
        ToyBuilder(config).build(tmp_path, quiet=True)


@needs_ray
def test_a_ray_worker_unpickles_the_shared_data_once(ray_address: str, tmp_path: Path) -> None:
    """The plan is put in the object store once and fetched once per worker, not deserialised per unit."""
    import toy_builder

    from builders.core.executors import RayExecutor

    log = tmp_path / "unpickled"
    shared = toy_builder.LogsUnpickling(str(log), "x" * 1000)
    results = list(RayExecutor(workers=2).map(toy_builder.payload_length_plus, list(range(24)), shared))
    assert results == [item + 1000 for item in range(24)]
    processes = log.read_text().split()
    assert len(processes) == len(set(processes)) < 24  # once per worker process that ran a task


def test_results_come_in_item_order_and_a_failure_cancels_what_is_in_flight() -> None:
    from builders.core.executors import TaskFailure, in_order

    submitted: list[int | None] = []
    cancelled: list[int] = []

    def submit(item: int | None) -> int | None:
        submitted.append(item)
        return item

    def result_of(handle: int | None) -> int | TaskFailure | None:
        if handle == 3:
            return TaskFailure(InputError("in.en", "bad", line=handle))
        return None if handle is None else handle * 10

    results = in_order(submit, result_of, [0, None, 2, 3, 4, 5, 6, 7], window=2, cancel=cancelled.append)
    assert [next(results), next(results), next(results)] == [0, None, 20]  # a None item does not end the map
    with pytest.raises(InputError, match="in.en:3: bad"):
        next(results)
    assert submitted == [0, None, 2, 3, 4] and cancelled == [4]  # never more than the window in flight


def test_a_dead_pool_worker_ends_the_build_with_an_error(corpus: tuple[Path, Path], tmp_path: Path) -> None:
    """No hang: the pool breaks, the build says so, and --resume continues from the checkpoints."""
    marker = tmp_path / "died"
    config = ToyConfig(src=str(corpus[0]), tgt=str(corpus[1]), die_once_marker=str(marker), executor="processes",
                       workers=2)
    with pytest.raises(MtprobesError, match="a worker process died"):
        ToyBuilder(config).build(tmp_path / "out", quiet=True)
    resumed = ToyBuilder(config).build(tmp_path / "out", resume=True, quiet=True)
    reference = ToyBuilder(ToyConfig(src=str(corpus[0]), tgt=str(corpus[1]))).build(tmp_path / "ref", quiet=True)
    assert file_hashes(resumed) == file_hashes(reference)


def test_alignment_shards_are_whole_documents() -> None:
    from builders.pronouns.align_shards import shard_bounds

    assert shard_bounds([3, 0, 2, 5, 1], 2) == [(0, 3), (3, 10), (10, 11)]
    assert shard_bounds([4, 4], 10) == [(0, 8)]


def test_an_aligner_crash_is_retried_once_then_named(monkeypatch: pytest.MonkeyPatch) -> None:
    from builders.pronouns import align_shards
    from builders.pronouns.align import AlignSettings, LinkLines

    calls = {"n": 0}

    def crashing(*args: Any, **kwargs: Any) -> LinkLines:
        calls["n"] += 1
        if calls["n"] <= crashes:
            raise subprocess.CalledProcessError(-11, ["eflomal"])
        return LinkLines(["0-0"], ["0-0"], "key", False)

    monkeypatch.setattr(align_shards, "lines_links", crashing)
    shard = align_shards.AlignShard(("it",), ("es",), 1.0)
    job = align_shards.AlignJob("eflomal", AlignSettings(), (Path("."),))
    crashes = 1
    assert align_shards.align_shard(shard, job) == LinkLines(["0-0"], ["0-0"], "key", False)
    calls["n"], crashes = 0, 2
    with pytest.raises(MtprobesError, match="eflomal failed on an alignment shard of 1 segments"):
        align_shards.align_shard(shard, job)


def test_executor_keys_stay_out_of_the_signature(corpus: tuple[Path, Path]) -> None:
    local = ToyConfig(src=str(corpus[0]), tgt=str(corpus[1]))
    pooled = ToyConfig(src=str(corpus[0]), tgt=str(corpus[1]), executor="ray", workers=8, ray_address="auto")
    assert local.to_dict() == pooled.to_dict()
    assert "executor" not in local.to_dict()
    with pytest.raises(MtprobesError, match="executor"):
        ToyBuilder(ToyConfig(src=str(corpus[0]), tgt=str(corpus[1]), executor="dask")).build(corpus[0].parent)


class _FlakyClientServer:
    """Stands in for the `ray` module's init/shutdown only, to test our retry policy (not Ray): ``init`` fails
    with the client server's "Initialization failure" ``failures`` times, then succeeds."""

    class exceptions:  # named as in ray, which the retry code reads
        class RayError(Exception):
            pass

    def __init__(self, failures: int) -> None:
        self.failures, self.calls, self.shutdowns = failures, 0, 0

    def init(self, **_: object) -> None:
        self.calls += 1
        if self.calls <= self.failures:
            raise ConnectionAbortedError("Initialization failure from server")

    def shutdown(self) -> None:
        self.shutdowns += 1


@pytest.mark.parametrize(("failures", "connected"), [(0, True), (2, True), (3, False)])
def test_a_client_server_that_fails_to_start_a_session_is_tried_again(failures: int, connected: bool) -> None:
    from builders.core.executors import CLIENT_INIT_RETRIES, RayConnectionError, _init_with_retries

    ray = _FlakyClientServer(failures)
    if connected:
        _init_with_retries(ray, "ray://head:10001", "ray://head:10001", pause_s=0.0)
    else:
        with pytest.raises(RayConnectionError, match=r"ray://head:10001 \(ConnectionAbortedError"):
            _init_with_retries(ray, "ray://head:10001", "ray://head:10001", pause_s=0.0)
    assert ray.calls == min(failures + 1, CLIENT_INIT_RETRIES + 1)
    assert ray.shutdowns == min(failures, CLIENT_INIT_RETRIES)
