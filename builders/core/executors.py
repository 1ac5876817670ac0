"""Where the units of a build run: in this process, in a process pool, or as Ray tasks.

Every executor yields the results in the order of the items it was given, whatever order the workers finish
in, so the checkpoint chunks, the rows and therefore the output bytes do not depend on the executor or on the
number of workers. A unit runs as ``run_unit(unit, (builder, shared_plan, work_dir))``: the builder holds only
its config, the unit carries its own slice of the corpus and ``Builder.shared_plan`` is the small rest of the plan,
so a worker needs nothing else and its memory does not grow with the corpus. The shared part travels once per
worker (process pool initializer, Ray object store), never once per unit. Whole-input passes that are split
into shards (pronoun alignment) use the same ``map`` with their own task.

A unit that fails on bad input (a :class:`MtprobesError` naming the file and line) is returned as a failure and
re-raised on the driver unchanged, so the user sees the same one-line error as with ``local``; a worker that
dies (killed, out of memory) is retried by Ray, and ends a process-pool build with an error instead of a hang.
"""

from __future__ import annotations

import abc
import logging
import os
import socket
import sys
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from builders.core.context import BuildContext, Counts, Row
from builders.core.errors import ConfigError, MtprobesError, UsageError

if TYPE_CHECKING:
    from builders.core.builder import Builder, Unit


LOG = logging.getLogger("mtprobes")
Item = TypeVar("Item")
Shared = TypeVar("Shared")
Result = TypeVar("Result")
# A task is a module-level function (picklable by name): task(item, shared) -> result.
Task = Callable[[Item, Shared], Result]


@dataclass
class UnitResult:
    key: str
    rows: list[Row]
    counts: Counts


@dataclass
class TaskFailure:
    """A user-facing error raised by a task on a worker, carried back to be raised on the driver."""

    error: MtprobesError


def run_unit(unit: Unit, job: tuple[Builder[Any], Any, Path]) -> UnitResult:
    """Process one unit with a fresh context: counts start at zero, randomness depends on seed and keys only."""
    builder, plan, work_dir = job
    ctx = BuildContext(config=builder.config, work_dir=work_dir, quiet=True)
    rows = builder.process(unit, plan, ctx)
    return UnitResult(unit.key, rows, ctx.counts)


def guarded(task: Task[Item, Shared, Result], item: Item, shared: Shared) -> Result | TaskFailure:
    try:
        return task(item, shared)
    except MtprobesError as error:
        return TaskFailure(error)


def unwrap(result: Result | TaskFailure) -> Result:
    if isinstance(result, TaskFailure):
        raise result.error
    return result


def worker_count(requested: int) -> int:
    return requested or os.cpu_count() or 1


# Tasks in flight per worker: enough to keep every worker busy, few enough that a corpus of millions of units
# is never submitted at once (memory) and a failure cancels little.
IN_FLIGHT_PER_WORKER = 4


def in_order(submit: Callable[[Item], Any], result_of: Callable[[Any], Result | TaskFailure],
             items: Sequence[Item], *, window: int, cancel: Callable[[Any], Any]) -> Iterator[Result]:
    """Results of ``items`` in their order, at most ``window`` submitted and unfinished at any time; what is
    still in flight when the consumer stops (an error, a closed generator) is cancelled."""
    pending: deque[Any] = deque()
    remaining = iter(items)
    try:
        pending.extend(submit(item) for item in islice(remaining, max(1, window)))
        while pending:
            result = unwrap(result_of(pending.popleft()))
            pending.extend(submit(item) for item in islice(remaining, 1))
            yield result
    finally:
        for handle in pending:
            cancel(handle)


class Executor(abc.ABC):
    """Runs a task over items; yields one result per item, in the order of ``items``."""

    name: ClassVar[str]

    def __init__(self, workers: int = 0, address: str = "") -> None:
        self.requested_workers = workers
        self.workers = worker_count(workers)
        self.address = address

    @abc.abstractmethod
    def map(self, task: Task[Item, Shared, Result], items: Sequence[Item], shared: Shared) -> Iterator[Result]:
        """``task(item, shared)`` for every item, in the order of ``items``; ``shared`` travels once per worker."""


class LocalExecutor(Executor):
    """In this process, one item after the other (the default; what every test and demo uses)."""

    name = "local"

    def map(self, task: Task[Item, Shared, Result], items: Sequence[Item], shared: Shared) -> Iterator[Result]:
        for item in items:
            yield task(item, shared)


# The task and shared data of the map a pool worker serves, set once per worker by the pool's initializer.
_WORKER_STATE: dict[str, Any] = {}


def _init_pool_worker(task: Task[Any, Any, Any], shared: Any) -> None:
    _WORKER_STATE.update(task=task, shared=shared)
    torch = sys.modules.get("torch")
    if torch is not None:
        # A forked child must not enter the OpenMP thread pool its parent started (it hangs: seen with the CLIP
        # encoder); one thread per worker is also what a pool of one process per core wants.
        torch.set_num_threads(1)


def _run_in_pool(item: Any) -> Any:
    return guarded(_WORKER_STATE["task"], item, _WORKER_STATE["shared"])


class ProcessesExecutor(Executor):
    """A process pool on this machine; the shared data is sent to each worker once, by the pool initializer."""

    name = "processes"
    start_method: ClassVar[str] = "fork"

    def map(self, task: Task[Item, Shared, Result], items: Sequence[Item], shared: Shared) -> Iterator[Result]:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor
        from concurrent.futures.process import BrokenProcessPool

        # fork: workers start with what prepare() already loaded (spaCy pipelines, lexicons) instead of loading
        # it again in every worker (forkserver cost ~10 s per pronouns build on this 2-core machine)
        context = multiprocessing.get_context(self.start_method)
        workers = min(self.workers, max(1, len(items)))
        pool = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_init_pool_worker,
                                   initargs=(task, shared))
        with pool:
            try:
                yield from in_order(lambda item: pool.submit(_run_in_pool, item), lambda future: future.result(),
                                    items, window=IN_FLIGHT_PER_WORKER * workers, cancel=lambda f: f.cancel())
            except BrokenProcessPool as error:
                raise MtprobesError(f"a worker process died ({error}); rerun with --resume") from error


# The shared data of the map a Ray worker serves last: (object id, value). One entry, so a long-lived worker of
# a running cluster does not keep the plans of earlier builds.
_RAY_SHARED: dict[str, Any] = {}


@dataclass
class RayOutcome:
    """A task's result and its attempt (0: first try; more: Ray retried it after its worker died)."""

    result: Any
    attempt: int


def _run_on_ray_worker(task: Task[Any, Any, Any], item: Any, shared_box: list[Any]) -> RayOutcome:
    import ray

    (reference,) = shared_box
    key = reference.hex()
    if key not in _RAY_SHARED:
        _RAY_SHARED.clear()
        _RAY_SHARED[key] = ray.get(reference)
    return RayOutcome(guarded(task, item, _RAY_SHARED[key]), _attempt_number())


def _attempt_number() -> int:
    """This task's attempt, from Ray's core worker (not in the public runtime context; 0 where it is missing)."""
    try:
        from ray._private.worker import global_worker

        return int(global_worker.core_worker.get_current_task_attempt_number())  # type: ignore[attr-defined]
    except (ImportError, AttributeError):
        return 0


class RayConnectionError(UsageError):
    """The Ray cluster at an address cannot be reached or refuses us: one line naming the address (exit 2)."""

    def __init__(self, address: str, error: BaseException) -> None:
        lines = str(error).strip().splitlines()
        reason = f"{type(error).__name__}: {lines[0] if lines else ''}".rstrip(": ")
        hint = AUTH_HINT if "auth" in str(error).lower() else "is it running (ray status), and is the port right?"
        super().__init__(f"cannot connect to the Ray cluster at {address} ({reason}); {hint}")


AUTH_HINT = ("the cluster uses token authentication: put its token in ~/.ray/auth_token (or RAY_AUTH_TOKEN) on "
             "this machine; see docs/cluster.md")


class RayExecutor(Executor):
    """Ray tasks: the shared data is put once in the object store, each task gets a reference to it.

    Connects to ``address`` (``auto``, ``ray://host:10001``) or, when empty, reuses an initialised Ray or starts
    a local one with ``workers`` CPUs. At most 4 tasks per worker (``workers``, or every CPU of the cluster when
    0) are in flight, so a corpus of millions of units does not queue millions of tasks; tasks whose worker dies
    are retried (``max_retries``).
    """

    name = "ray"
    max_retries: ClassVar[int] = 3

    def map(self, task: Task[Item, Shared, Result], items: Sequence[Item], shared: Shared) -> Iterator[Result]:
        ray = _ray_module()
        self._connect(ray)
        remote = ray.remote(max_retries=self.max_retries, num_cpus=1)(_run_on_ray_worker)
        # in a list, the reference reaches the task unresolved: the worker fetches and unpickles the shared data
        # once (per map), not Ray once per task
        shared_box = [ray.put(shared)]
        # in flight: a few tasks per CPU of the cluster (or per requested worker), never the whole corpus
        cpus = self.requested_workers or int(ray.cluster_resources().get("CPU", self.workers))
        retried = [0]
        yield from in_order(lambda item: remote.remote(task, item, shared_box),
                            lambda ref: self._get(ray, ref, retried), items,
                            window=IN_FLIGHT_PER_WORKER * max(1, cpus), cancel=ray.cancel)
        if retried[0]:
            # run-only, like the executor keys: said to the user, never written to the output
            LOG.warning("%d task%s retried after a worker died", retried[0], "" if retried[0] == 1 else "s")

    def _get(self, ray: Any, ref: Any, retried: list[int]) -> Any:
        """The task's result (counting it in ``retried`` when Ray ran it again); a task that Ray could not finish
        after its retries (its worker or node died each time, out of memory) is one error, not Ray's traceback.
        Other exceptions are bugs and keep theirs."""
        try:
            outcome: RayOutcome = ray.get(ref)
            retried[0] += outcome.attempt > 0
            return outcome.result
        except ray.exceptions.RayTaskError:
            raise
        except ray.exceptions.RayError as error:
            reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
            raise MtprobesError(f"a Ray task failed {self.max_retries + 1} times ({type(error).__name__}: "
                                f"{reason}); rerun with --resume") from error

    def _connect(self, ray: Any) -> None:
        """Connect to ``address``; without one, to the cluster ``ray.init()`` would join (RAY_ADDRESS, or the
        last ``ray start`` on this machine); start a local one only when there is none."""
        if ray.is_initialized():
            return
        address = self.address or _running_cluster()
        if address:
            # an address the user did not give is named with where it came from
            label = address if self.address else f"{address} (from RAY_ADDRESS or the last `ray start` here)"
            _require_listening(address, label)
            _offer_auth_token(address)
            _init_with_retries(ray, address, label)
            return
        # A local cluster: its workers import what this driver imports, from the same places.
        ray.init(num_cpus=self.workers, include_dashboard=False, log_to_driver=False,
                 runtime_env={"env_vars": {"PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}})


# A Ray client server (ray://) that is busy can fail to start the session it spawns for a new client in time
# ("Initialization failure from server", a ConnectionAbortedError) although the cluster is fine: seen on a
# loaded head node. That one error is tried again after a pause; every other failure is reported at once.
CLIENT_INIT_RETRIES = 2
CLIENT_INIT_PAUSE_S = 3.0


def _init_with_retries(ray: Any, address: str, label: str, pause_s: float = CLIENT_INIT_PAUSE_S) -> None:
    import time

    for attempt in range(CLIENT_INIT_RETRIES + 1):
        try:
            ray.init(address=address, log_to_driver=False)
            return
        except ConnectionAbortedError as error:
            if attempt == CLIENT_INIT_RETRIES:
                raise RayConnectionError(label, error) from None
            LOG.warning("the Ray client server at %s did not start a session (%s); trying again", label, error)
            ray.shutdown()
            time.sleep(pause_s * (attempt + 1))
        except (ConnectionError, RuntimeError, ValueError, TimeoutError, ray.exceptions.RayError) as error:
            raise RayConnectionError(label, error) from None


def _running_cluster() -> str:
    """The address ``ray.init()`` would connect to without one (RAY_ADDRESS, or the cluster of the last
    ``ray start`` on this machine), or '' when it would start its own. Asked of Ray itself, so ``--executor ray``
    joins a running cluster exactly when a plain ``ray.init()`` would (passing num_cpus to one is an error)."""
    try:
        from ray._private.services import canonicalize_bootstrap_address

        return canonicalize_bootstrap_address(None) or ""  # type: ignore[arg-type]  # None: "would init() join one?"
    except (ImportError, AttributeError):  # a Ray without this helper: the environment variable only
        return os.environ.get("RAY_ADDRESS", "")
    except (ValueError, ConnectionError) as error:
        raise RayConnectionError(os.environ.get("RAY_ADDRESS", "the address Ray found"), error) from None


def _require_listening(address: str, label: str) -> None:
    """Fail fast when nothing listens at a head address: Ray itself retries a dead GCS address for minutes."""
    if address.startswith("ray://"):
        return  # the Ray client gives up on its own, with an error
    try:
        from ray._private.services import canonicalize_bootstrap_address

        resolved = canonicalize_bootstrap_address(address) or address  # "auto": the running cluster's address
        host, _, port = resolved.rpartition(":")
        socket.create_connection((host, int(port)), timeout=CONNECT_TIMEOUT_S).close()
    except ImportError:
        return
    except (OSError, ValueError) as error:  # ConnectionError: "auto" with no running cluster
        raise RayConnectionError(label, error) from None


CONNECT_TIMEOUT_S = 10


def _offer_auth_token(address: str) -> None:
    """With a token on this machine (~/.ray/auth_token, RAY_AUTH_TOKEN[_PATH]) and RAY_AUTH_MODE unset, send it
    as ``ray.init(address="auto")`` does: Ray enables token authentication by default once a token exists
    (``ray start --head``), but only for ``auto``, so an explicit head address would be refused."""
    if address == "auto" or os.environ.get("RAY_AUTH_MODE"):
        return
    try:
        from ray._private.authentication.authentication_token_setup import (
            maybe_enable_token_auth_if_token_available,
        )
    except ImportError:  # a Ray without token authentication
        return
    maybe_enable_token_auth_if_token_available(warn_if_disabled=False)


def _ray_module() -> Any:
    try:
        import ray
    except ImportError as error:
        raise MtprobesError("executor 'ray' needs Ray: pip install 'mtprobes[ray]'") from error
    return ray


EXECUTORS: dict[str, type[Executor]] = {
    executor.name: executor for executor in (LocalExecutor, ProcessesExecutor, RayExecutor)
}


def make_executor(name: str, workers: int = 0, address: str = "") -> Executor:
    if name not in EXECUTORS:
        raise ConfigError(f"config key 'executor': {name!r} is not one of {sorted(EXECUTORS)}")
    return EXECUTORS[name](workers, address)
