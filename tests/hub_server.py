"""A test double of the Hugging Face Hub HTTP API: just the routes that ``HfApi.upload_folder`` uses.

It lets the tests send real bytes through huggingface_hub's own client (``mtprobes publish --push``)
without the network. It is not a model or data fake: it stores what it is sent and answers in the
Hub's wire format, so the client's own request building, NDJSON commit encoding and error handling run
unchanged. (The PyPI package ``hf-local-hub`` would be the natural choice, but it ships only a Python
wrapper around a Go server binary that must be built from source.)

Routes (everything else answers 404 and is recorded, so tests can see unexpected calls):

- ``GET /api/agent-harnesses``                        public, no token: the client's best-effort telemetry
                                                      registry (answered empty: no agent detected)
- ``POST /api/repos/create``                          create a repo (409 if it exists; ``visibility`` kept)
- ``POST /api/validate-yaml``                         the README front matter must be a YAML mapping
- ``POST /api/{type}s/{org}/{name}/branch/{branch}``  new branch from main (409 if it exists)
- ``POST /api/{type}s/{org}/{name}/preupload/{rev}``  every file is uploaded inline ("regular", never LFS)
- ``POST /api/{type}s/{org}/{name}/commit/{rev}``     NDJSON commit; base64 file contents are stored

Every other request must carry ``Authorization: Bearer <token>`` or gets 401; ``fail_status`` makes
every authenticated request fail with that status (e.g. 500) to test the client's error path.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any
from urllib.parse import unquote, urlsplit

import yaml

REPO_ROUTE = r"^/api/(?P<type>model|dataset|space)s/(?P<repo>[^/]+/[^/]+)/{action}/(?P<rev>[^/]+)$"
# Routes the real Hub serves without a token, with the answer given here.
PUBLIC_PATHS: dict[tuple[str, str], dict[str, Any]] = {
    ("GET", "/api/agent-harnesses"): {"standardEnvVars": [], "harnesses": {}},
}


@dataclass(frozen=True)
class RecordedRequest:
    method: str
    path: str
    authorization: str | None
    body: bytes
    status: int


@dataclass
class HostedRepo:
    private: bool
    branches: dict[str, dict[str, bytes]] = field(default_factory=lambda: {"main": {}})
    commits: list[str] = field(default_factory=list)


class HubError(Exception):
    """Ends a request with an HTTP error status and the Hub's JSON error body."""

    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.extra = extra


Reply = tuple[int, dict[str, Any]]


class HubTestServer:
    """Serves the routes above on 127.0.0.1 (free port) in a thread; use as a context manager."""

    def __init__(self, token: str, fail_status: int | None = None) -> None:
        self.token = token
        self.fail_status = fail_status
        self.repos: dict[tuple[str, str], HostedRepo] = {}
        self.requests: list[RecordedRequest] = []
        self._lock = threading.Lock()
        self._routes: list[tuple[str, re.Pattern[str], Callable[[re.Match[str], bytes], Reply]]] = [
            ("POST", re.compile(r"^/api/repos/create$"), self._create_repo),
            ("POST", re.compile(r"^/api/validate-yaml$"), self._validate_yaml),
            ("POST", re.compile(REPO_ROUTE.format(action="branch")), self._create_branch),
            ("POST", re.compile(REPO_ROUTE.format(action="preupload")), self._preupload),
            ("POST", re.compile(REPO_ROUTE.format(action="commit")), self._commit),
        ]
        self._http = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._http.daemon_threads = True
        self._thread = threading.Thread(target=self._http.serve_forever, name="hub-test-server", daemon=True)

    @property
    def endpoint(self) -> str:
        host, port = self._http.server_address[:2]
        return f"http://{host!s}:{port}"

    def files(self, repo_id: str, revision: str = "main", repo_type: str = "dataset") -> dict[str, bytes]:
        with self._lock:
            return dict(self.repos[(repo_type, repo_id)].branches[revision])

    def __enter__(self) -> HubTestServer:
        self._thread.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._http.shutdown()
        self._http.server_close()
        self._thread.join(timeout=5)

    # --- request handling -------------------------------------------------------------------------

    def handle(self, method: str, raw_path: str, authorization: str | None, body: bytes) -> Reply:
        with self._lock:
            status, payload = self._answer(method, urlsplit(raw_path).path, authorization, body)
            self.requests.append(RecordedRequest(method, raw_path, authorization, body, status))
        return status, payload

    def _answer(self, method: str, path: str, authorization: str | None, body: bytes) -> Reply:
        if (method, path) in PUBLIC_PATHS:
            return 200, PUBLIC_PATHS[(method, path)]
        if authorization != f"Bearer {self.token}":
            return 401, {"error": "Invalid credentials in Authorization header"}
        if self.fail_status is not None:
            return self.fail_status, {"error": f"test server set to fail with {self.fail_status}"}
        for route_method, pattern, handler in self._routes:
            match = pattern.match(path)
            if match and method == route_method:
                try:
                    return handler(match, body)
                except HubError as err:
                    return err.status, {"error": str(err), **err.extra}
        return 404, {"error": f"no such route: {method} {path}"}

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def _serve(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                authorization = self.headers.get("Authorization")
                status, payload = server.handle(self.command, self.path, authorization, body)
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                if status >= 400:
                    self.send_header("X-Error-Message", payload["error"])
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = do_PUT = do_DELETE = _serve

            def log_message(self, format: str, *args: Any) -> None:
                pass  # keep test output clean; requests are recorded in server.requests

        return Handler

    # --- routes (called with the lock held) ---------------------------------------------------------

    def _repo(self, match: re.Match[str]) -> HostedRepo:
        key = (match["type"], unquote(match["repo"]))
        if key not in self.repos:
            raise HubError(404, f"Repository not found: {key[1]}")
        return self.repos[key]

    def _branch(self, match: re.Match[str]) -> dict[str, bytes]:
        repo, revision = self._repo(match), unquote(match["rev"])
        if revision not in repo.branches:
            raise HubError(404, f"Invalid rev id: {revision}")
        return repo.branches[revision]

    def _create_repo(self, match: re.Match[str], body: bytes) -> Reply:
        request = json.loads(body)
        repo_type, repo_id = request.get("type") or "model", f"{request['organization']}/{request['name']}"
        prefix = "" if repo_type == "model" else f"{repo_type}s/"
        url = f"{self.endpoint}/{prefix}{repo_id}"
        if (repo_type, repo_id) in self.repos:  # the Hub's 409 carries the url too; the client reads it
            raise HubError(409, "You already created this repo", url=url)
        self.repos[(repo_type, repo_id)] = HostedRepo(private=request.get("visibility") == "private")
        return 200, {"url": url, "name": repo_id}

    def _validate_yaml(self, match: re.Match[str], body: bytes) -> Reply:
        content = json.loads(body)["content"]
        parts = content.split("---\n")
        front_matter = yaml.safe_load(parts[1]) if content.startswith("---\n") and len(parts) >= 3 else None
        if not isinstance(front_matter, dict):
            problem = {"message": "README.md front matter is not a YAML mapping"}
            return 400, {"errors": [problem], "warnings": []}
        return 200, {"errors": [], "warnings": []}

    def _create_branch(self, match: re.Match[str], body: bytes) -> Reply:
        repo, branch = self._repo(match), unquote(match["rev"])
        if branch in repo.branches:
            raise HubError(409, f"Reference already exists: {branch}")
        start = json.loads(body or b"{}").get("startingPoint") or "main"
        if start not in repo.branches:
            raise HubError(404, f"Invalid rev id: {start}")
        repo.branches[branch] = dict(repo.branches[start])
        return 200, {}

    def _preupload(self, match: re.Match[str], body: bytes) -> Reply:
        self._branch(match)
        paths = [entry["path"] for entry in json.loads(body)["files"]]
        files = [{"path": path, "uploadMode": "regular", "shouldIgnore": False} for path in paths]
        return 200, {"files": files}

    def _commit(self, match: re.Match[str], body: bytes) -> Reply:
        branch = self._branch(match)
        staged = dict(branch)
        for line in body.decode().splitlines():
            item = json.loads(line)
            if item["key"] == "file" and item["value"].get("encoding") == "base64":
                staged[item["value"]["path"]] = base64.b64decode(item["value"]["content"])
            elif item["key"] != "header":
                raise HubError(400, f"test server does not support commit operation {item['key']!r}")
        branch.clear()
        branch.update(staged)  # all or nothing, like a git commit
        oid = hashlib.sha1(body).hexdigest()
        self._repo(match).commits.append(oid)
        prefix = "" if match["type"] == "model" else f"{match['type']}s/"
        url = f"{self.endpoint}/{prefix}{unquote(match['repo'])}/commit/{oid}"
        return 200, {"commitUrl": url, "commitOid": oid, "pullRequestUrl": None}
