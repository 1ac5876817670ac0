"""Issue 26: a Ray cluster as users run one (docs/cluster.md). A real ``ray start --head`` on 127.0.0.1, with
token authentication on (a token in ~/.ray/auth_token, as Ray itself writes after any local ``ray.init()``),
then every documented command: ``ray status``, ``ray list tasks``, ``ray summary tasks``, ``ray job submit``,
and ``mtprobes build --executor ray`` through the head address, ``RAY_ADDRESS`` and ``ray://``.

The head runs in its own session with its own ports, temporary folder and HOME, and is stopped by signalling that
session (never ``ray stop``, which would stop every Ray on the machine). Skipped where Ray is absent.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

try:
    import ray
except ImportError:  # the optional extra mtprobes[ray]
    ray = None

pytestmark = [pytest.mark.ray, pytest.mark.slow,
              pytest.mark.skipif(ray is None, reason="Ray is not installed (pip install 'mtprobes[ray]')")]
TESTS_DIR = Path(__file__).resolve().parent
REPO_ROOT = TESTS_DIR.parent
RAY = Path(sys.executable).parent / "ray"


@dataclass(frozen=True)
class Head:
    gcs: str  # HOST:PORT, what `ray start --address` and `--ray-address` take
    client: str  # ray://HOST:PORT
    dashboard: str  # http://HOST:PORT, what `ray job submit --address` takes
    env: dict[str, str]  # HOME with the cluster's token, PYTHONPATH of this checkout


def free_ports(count: int) -> list[int]:
    sockets = [socket.socket() for _ in range(count)]
    for sock in sockets:
        sock.bind(("127.0.0.1", 0))
    ports = [sock.getsockname()[1] for sock in sockets]
    for sock in sockets:
        sock.close()
    return ports


@pytest.fixture(scope="module")
def head() -> Iterator[Head]:
    folder = Path(tempfile.mkdtemp(prefix="rayh-", dir="/tmp"))  # short: Ray's socket paths stay < 108 bytes
    home = folder / "home"
    (home / ".ray").mkdir(parents=True)
    (home / ".ray" / "auth_token").write_text(secrets.token_hex(32))
    env = {**os.environ, "HOME": str(home), "PYTHONPATH": os.pathsep.join([str(REPO_ROOT), str(TESTS_DIR)])}
    for name in ("RAY_ADDRESS", "RAY_AUTH_MODE"):
        env.pop(name, None)
    gcs, client, dashboard, agent, agent_grpc, metrics, runtime_env = free_ports(7)
    command = [str(RAY), "start", "--head", "--block", f"--port={gcs}", "--num-cpus=2",
               "--node-ip-address=127.0.0.1", f"--ray-client-server-port={client}", "--include-dashboard=true",
               f"--dashboard-port={dashboard}", f"--dashboard-agent-listen-port={agent}",
               f"--dashboard-agent-grpc-port={agent_grpc}", f"--metrics-export-port={metrics}",
               f"--runtime-env-agent-port={runtime_env}", f"--temp-dir={folder / 'ray'}"]
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)
    try:
        wait_until_listening(gcs, process)
        started = Head(f"127.0.0.1:{gcs}", f"ray://127.0.0.1:{client}", f"http://127.0.0.1:{dashboard}", env)
        wait_for_status(started)
        yield started
    finally:
        stop_session(process)
        shutil.rmtree(folder, ignore_errors=True)


def wait_until_listening(port: int, process: subprocess.Popen[bytes], timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"ray start --head exited with {process.returncode}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.5)
    raise RuntimeError(f"ray start --head did not listen on {port} within {timeout} s")


def wait_for_status(head: Head, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if ray_cli("status", "--address", head.gcs, head=head, auth=True).returncode == 0:
            return
        time.sleep(2)
    raise RuntimeError("ray status never succeeded")


def stop_session(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM to `ray start --block` stops the processes it started; then whatever is left of its session."""
    process.terminate()
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=30)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)  # the session this fixture created, and only it


def ray_cli(*args: str, head: Head, auth: bool) -> subprocess.CompletedProcess[str]:
    env = {**head.env, **({"RAY_AUTH_MODE": "token"} if auth else {})}
    return subprocess.run([str(RAY), *args], env=env, capture_output=True, text=True, timeout=180)


def mtprobes(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    code = "import sys, toy_builder; from builders.cli import main; sys.argv = ['mtprobes', *sys.argv[1:]]; main()"
    return subprocess.run([sys.executable, "-c", code, *args], env=env, capture_output=True, text=True,
                          timeout=300)


def file_hashes(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def corpus(tmp_path: Path) -> list[str]:
    src, tgt = tmp_path / "in.en", tmp_path / "in.de"
    src.write_text("".join(f"Sentence {i} is here .\n" for i in range(30)))
    tgt.write_text("".join(f"Satz {i} ist hier .\n" for i in range(30)))
    return ["--set", f"src={src}", "--set", f"tgt={tgt}", "-q"]


def test_builds_join_the_running_cluster_by_address_environment_and_client(
    head: Head, corpus: list[str], tmp_path: Path
) -> None:
    """The head address (token authentication on: the token on this machine is sent as `auto` would send it),
    RAY_ADDRESS without --ray-address (no 'num_cpus must not be provided'), and the Ray client address all build
    the bytes of a local build."""
    reference = mtprobes("build", "toy.v1", *corpus, "--out", str(tmp_path / "local"), env=head.env)
    assert reference.returncode == 0, reference.stderr
    runs = {
        "address": (["--ray-address", head.gcs], head.env),
        "environment": ([], {**head.env, "RAY_ADDRESS": head.gcs}),
        "client": (["--ray-address", head.client], head.env),
    }
    for label, (args, env) in runs.items():
        built = mtprobes("build", "toy.v1", *corpus, "--executor", "ray", "--workers", "2", *args,
                         "--out", str(tmp_path / label), env=env)
        assert built.returncode == 0, f"{label}: {built.stderr[-2000:]}"
        assert file_hashes(tmp_path / label) == file_hashes(tmp_path / "local"), label


def test_the_documented_ray_commands_work(head: Head, corpus: list[str], tmp_path: Path) -> None:
    """`ray status`, `ray list tasks`, `ray summary tasks` (ray[default]) and `ray job submit` with the
    RAY_AUTH_MODE=token that docs/cluster.md gives for a cluster with token authentication."""
    built = mtprobes("build", "toy.v1", *corpus, "--executor", "ray", "--ray-address", head.gcs,
                     "--out", str(tmp_path / "out"), env=head.env)
    assert built.returncode == 0, built.stderr[-2000:]
    status = ray_cli("status", "--address", head.gcs, head=head, auth=True)
    assert status.returncode == 0 and "2.0 CPU" in status.stdout, status.stderr[-2000:]
    tasks = ray_cli("list", "tasks", "--address", head.gcs, head=head, auth=True)
    assert tasks.returncode == 0 and "_run_on_ray_worker" in tasks.stdout, tasks.stderr[-2000:]
    summary = ray_cli("summary", "tasks", "--address", head.gcs, head=head, auth=True)
    assert summary.returncode == 0 and "_run_on_ray_worker" in summary.stdout, summary.stderr[-2000:]
    job = ray_cli("job", "submit", "--address", head.dashboard, "--", "python", "-c", "print('job ran')",
                  head=head, auth=True)
    assert job.returncode == 0 and "job ran" in job.stdout, job.stderr[-2000:]
    refused = ray_cli("status", "--address", head.gcs, head=head, auth=False)
    assert refused.returncode != 0  # why the docs name RAY_AUTH_MODE=token


def test_an_unreachable_cluster_is_one_line_naming_it(corpus: list[str], tmp_path: Path) -> None:
    """Exit status 2 and one line naming the address, at once (Ray itself retries a dead address for minutes)."""
    (port,) = free_ports(1)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO_ROOT), str(TESTS_DIR)])}
    started = time.monotonic()
    failed = mtprobes("build", "toy.v1", *corpus, "--executor", "ray", "--ray-address", f"127.0.0.1:{port}",
                      "--out", str(tmp_path), env=env)
    assert failed.returncode == 2
    errors = [line for line in failed.stderr.splitlines() if line.startswith("error:")]
    assert errors == [f"error: cannot connect to the Ray cluster at 127.0.0.1:{port} (ConnectionRefusedError: "
                      "[Errno 111] Connection refused); is it running (ray status), and is the port right?"]
    assert "Traceback" not in failed.stderr
    assert time.monotonic() - started < 60
