"""`mtprobes publish --push` end to end: the CLI uploads through huggingface_hub's real HTTP client.

The Hub is replaced by tests/hub_server.py (a local HTTP test double of the Hub API); the CLI runs in a
subprocess, so the token, endpoint and offline settings travel exactly as they would for a user.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hub_server import HubTestServer
from test_core_build import build, corpus, run_cli  # noqa: F401 - corpus is a fixture used below

from builders.core.publish import plan_publish

TOKEN = "hf_testTokenDoNotLeak0123456789"
REPO_ID = "org/toy"
API = f"/api/datasets/{REPO_ID}"
PUBLIC = "/api/agent-harnesses"  # the client's unauthenticated telemetry fetch (from HF_ENDPOINT)
# The CLI logs at INFO by default, so the Hub client's request lines (URL and status, no headers) show.
CLIENT_LOG_LINE = re.compile(
    r'^INFO httpx2: HTTP Request: [A-Z]+ http://127\.0\.0\.1:\d+/\S+ "HTTP/1\.\d \d+ '
)
UNREACHABLE = "http://127.0.0.1:9"


@pytest.fixture
def dataset(corpus: tuple[Path, Path], tmp_path: Path) -> Path:  # noqa: F811 - the imported fixture
    return build(corpus, tmp_path / "out", shard_size=10)


def publish(
    path: Path, tmp_path: Path, *args: str, hf_endpoint: str, log_level: str = "info", offline: str = "0"
) -> tuple[int, str, str]:
    # conftest sets HF_HUB_OFFLINE=1 for the test process; an upload has to be allowed to go online.
    env = {"HF_TOKEN": TOKEN, "HF_HOME": str(tmp_path / "hf-home"), "HF_HUB_OFFLINE": offline}
    env["HF_ENDPOINT"] = hf_endpoint
    result = run_cli("--log-level", log_level, "publish", str(path), "--repo-id", REPO_ID, *args, env=env)
    return result.returncode, result.stdout, result.stderr


def planned_bytes(path: Path) -> dict[str, bytes]:
    return {name: (path / name).read_bytes() for name, _ in plan_publish(path, REPO_ID).files}


def test_push_uploads_every_planned_file_byte_identical(dataset: Path, tmp_path: Path) -> None:
    expected = planned_bytes(dataset)
    assert {"README.md", "info.json", "jsonl/test.jsonl", "data/test-00003-of-00004.parquet"} <= set(expected)
    with HubTestServer(TOKEN) as hub:
        # --endpoint wins over HF_ENDPOINT; debug logging shows the client's internals, still without token
        code, out, err = publish(dataset, tmp_path, "--push", "--endpoint", hub.endpoint,
                                 hf_endpoint=UNREACHABLE, log_level="debug")
        assert code == 0, err
        uploaded = hub.files(REPO_ID)
        repo = hub.repos[("dataset", REPO_ID)]
        authorizations = {r.authorization for r in hub.requests}
    assert uploaded == expected and not any(name.startswith("hf/") for name in uploaded)
    assert repo.private is False and len(repo.commits) == 1
    assert authorizations == {f"Bearer {TOKEN}"}
    assert out.strip() == f"uploaded: {hub.endpoint}/datasets/{REPO_ID}/commit/{repo.commits[0]}"
    assert "DEBUG" in err and TOKEN not in out + err


def test_push_to_new_branch_of_private_repo_then_again(dataset: Path, tmp_path: Path) -> None:
    with HubTestServer(TOKEN) as hub:
        # no --endpoint: the CLI follows HF_ENDPOINT
        code, out, err = publish(dataset, tmp_path, "--push", "--revision", "dev", "--private",
                                 hf_endpoint=hub.endpoint)
        assert code == 0, err
        repo = hub.repos[("dataset", REPO_ID)]
        first_files = hub.files(REPO_ID, "dev")
        first_calls = [(r.method, r.path, r.status) for r in hub.requests]
        code, again, again_err = publish(dataset, tmp_path, "--push", "--revision", "dev",
                                         hf_endpoint=hub.endpoint)
        assert code == 0, again_err
        second_files = hub.files(REPO_ID, "dev")
        second_calls = {r.path: r.status for r in hub.requests[len(first_calls):]}
    assert repo.private is True and repo.branches["main"] == {}
    assert first_files == second_files == planned_bytes(dataset)
    assert first_calls == [  # the whole conversation, each answered 200 (no route the test double lacks)
        ("GET", PUBLIC, 200),
        ("POST", "/api/repos/create", 200),
        ("POST", f"{API}/branch/dev", 200),
        ("POST", "/api/validate-yaml", 200),
        ("POST", f"{API}/preupload/dev", 200),
        ("POST", f"{API}/commit/dev", 200),
    ]
    # publishing again: the Hub answers 409 (exists) for repo and branch, and the client goes on to commit
    assert second_calls["/api/repos/create"] == 409 and second_calls[f"{API}/branch/dev"] == 409
    assert second_calls[f"{API}/commit/dev"] == 200 and len(repo.commits) == 2
    assert again.strip().endswith(f"/commit/{repo.commits[1]}")
    assert TOKEN not in out + err + again + again_err


@pytest.mark.parametrize(
    ("server_token", "fail_status", "expected"),
    [
        ("hf_someoneElsesToken", None, "'401 Unauthorized'"),  # the Hub refuses the token
        (TOKEN, 500, "'500 Internal Server Error'"),  # the Hub is down
    ],
    ids=["wrong_token", "server_error"],
)
def test_hub_errors_give_one_clean_line(
    dataset: Path, tmp_path: Path, server_token: str, fail_status: int | None, expected: str
) -> None:
    with HubTestServer(server_token, fail_status=fail_status) as hub:
        code, out, err = publish(dataset, tmp_path, "--push", hf_endpoint=hub.endpoint)
        statuses = [r.status for r in hub.requests if r.path != PUBLIC]
        repos = dict(hub.repos)
    assert statuses and set(statuses) == {401 if fail_status is None else fail_status}
    assert repos == {}
    assert code == 1 and out == ""
    *client_log, error = err.strip().splitlines()
    assert error.startswith(f"error: upload to {REPO_ID} failed: HfHubHTTPError: ") and expected in error
    assert all(CLIENT_LOG_LINE.match(line) for line in client_log), client_log
    assert TOKEN not in err


def test_dry_run_sends_nothing(dataset: Path, tmp_path: Path) -> None:
    with HubTestServer(TOKEN) as hub:
        code, out, err = publish(dataset, tmp_path, "--endpoint", hub.endpoint, hf_endpoint=hub.endpoint)
        assert code == 0, err
        requests = list(hub.requests)
    assert requests == []
    assert out.startswith("Dry run: would upload") and "Run again with --push" in out
    assert json.loads((dataset / "info.json").read_text())["signature"] in out


def test_offline_mode_refuses_to_push(dataset: Path, tmp_path: Path) -> None:
    with HubTestServer(TOKEN) as hub:
        code, out, err = publish(dataset, tmp_path, "--push", hf_endpoint=hub.endpoint, offline="1")
        requests = list(hub.requests)
    assert requests == [] and code == 1
    assert err.count("\n") == 1 and err.startswith(f"error: upload to {REPO_ID} failed: OfflineModeIsEnabled")
    assert "HF_HUB_OFFLINE" in err
    assert TOKEN not in out + err
