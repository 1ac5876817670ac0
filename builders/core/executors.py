"""Where the units of a build run: in this process, in a process pool, or as Ray tasks.

Every executor yields the results in the order of the units it was given, whatever order the workers finish
in, so the checkpoint chunks, the rows and therefore the output bytes do not depend on the executor or on the
number of workers. A unit runs as ``run_unit(builder, unit, plan)``: the builder holds only its config and the
plan is plain picklable data, so a worker needs nothing else. The plan travels once per worker (process pool
initializer, Ray object store), never once per unit.

A unit that fails on bad input (a :class:`MtprobesError` naming the file and line) is returned as a failure and
re-raised on the driver unchanged, so the user sees the same one-line error as with ``local``; a worker that
dies (killed, out of memory) is retried by Ray, and ends a process-pool build with an error instead of a hang.
"""

from __future__ import annotations

import abc
import os
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from builders.core.context import BuildContext, Counts, Row
from builders.core.errors import ConfigError, MtprobesError

if TYPE_CHECKING:
    from builders.core.builder import Builder, Unit


@dataclass
class UnitResult:
    key: str
    rows: list[Row]
    counts: Counts


@dataclass
class UnitFailure:
    """A user-facing error raised by a unit on a worker, carried back to be raised on the driver."""

    key: str
    error: MtprobesError


def run_unit(builder: Builder[Any], unit: Unit, plan: Any, work_dir: Path) -> UnitResult | UnitFailure:
    """Process one unit with a fresh context: counts start at zero, randomness depends on seed and keys only."""
    ctx = BuildContext(config=builder.config, work_dir=work_dir, quiet=True)
    try:
        rows = builder.process(unit, plan, ctx)
    except MtprobesError as error:
        return UnitFailure(unit.key, error)
    return UnitResult(unit.key, rows, ctx.counts)


def unwrap(result: UnitResult | UnitFailure) -> UnitResult:
    if isinstance(result, UnitFailure):
        raise result.error
    return result


def worker_count(requested: int) -> int:
    return requested or os.cpu_count() or 1


class Executor(abc.ABC):
    """Runs ``run_unit`` over units; yields one result per unit, in the order of ``units``."""

    name: ClassVar[str]

    def __init__(self, workers: int = 0, address: str = "") -> None:
        self.workers = worker_count(workers)
        self.address = address

    @abc.abstractmethod
    def map(self, builder: Builder[Any], units: Sequence[Unit], plan: Any, work_dir: Path) -> Iterator[UnitResult]:
        """Results of ``units`` in their order."""


class LocalExecutor(Executor):
    """In this process, one unit after the other (the default; what every test and demo uses)."""

    name = "local"

    def map(self, builder: Builder[Any], units: Sequence[Unit], plan: Any, work_dir: Path) -> Iterator[UnitResult]:
        for unit in units:
            yield unwrap(run_unit(builder, unit, plan, work_dir))


# The plan of the build a pool worker serves, set once per worker by the pool's initializer.
_WORKER_STATE: dict[str, Any] = {}


def _init_pool_worker(builder: Builder[Any], plan: Any, work_dir: Path) -> None:
    _WORKER_STATE.update(builder=builder, plan=plan, work_dir=work_dir)


def _run_in_pool(unit: Unit) -> UnitResult | UnitFailure:
    return run_unit(_WORKER_STATE["builder"], unit, _WORKER_STATE["plan"], _WORKER_STATE["work_dir"])


class ProcessesExecutor(Executor):
    """A process pool on this machine; the plan is sent to each worker once, by the pool initializer."""

    name = "processes"

    def map(self, builder: Builder[Any], units: Sequence[Unit], plan: Any, work_dir: Path) -> Iterator[UnitResult]:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor
        from concurrent.futures.process import BrokenProcessPool

        # forkserver, not fork: the driver may hold threads (torch, a Ray client) that a forked copy would
        # inherit in a locked state; the server preloads the family's module once for every worker
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload([type(builder).__module__])
        pool = ProcessPoolExecutor(
            max_workers=self.workers, mp_context=context, initializer=_init_pool_worker,
            initargs=(builder, plan, work_dir),
        )
        with pool:
            try:
                for result in pool.map(_run_in_pool, units, chunksize=1):
                    yield unwrap(result)
            except BrokenProcessPool as error:
                raise MtprobesError(f"{builder.name}: a worker process died ({error}); rerun with --resume") from error


class RayExecutor(Executor):
    """Ray tasks over units: the plan is put once in the object store, each task gets a reference to it.

    Connects to ``address`` (``auto``, ``ray://host:10001``) or, when empty, reuses an initialised Ray or starts
    a local one with ``workers`` CPUs. At most ``4 * workers`` tasks are in flight, so a corpus of millions of
    units does not queue millions of tasks; tasks whose worker dies are retried (``max_retries``).
    """

    name = "ray"
    max_retries: ClassVar[int] = 3

    def map(self, builder: Builder[Any], units: Sequence[Unit], plan: Any, work_dir: Path) -> Iterator[UnitResult]:
        ray = _ray_module()
        self._connect(ray)
        task = ray.remote(max_retries=self.max_retries, num_cpus=1)(run_unit)
        builder_ref, plan_ref = ray.put(builder), ray.put(plan)
        window = 4 * self.workers
        pending: deque[Any] = deque()
        remaining = iter(units)
        for unit in remaining:
            pending.append(task.remote(builder_ref, unit, plan_ref, work_dir))
            if len(pending) >= window:
                break
        while pending:
            result = ray.get(pending.popleft())
            following = next(remaining, None)
            if following is not None:
                pending.append(task.remote(builder_ref, following, plan_ref, work_dir))
            yield unwrap(result)

    def _connect(self, ray: Any) -> None:
        if ray.is_initialized():
            return
        if self.address:
            ray.init(address=self.address, log_to_driver=False)
            return
        # A local cluster: its workers must import this same package, wherever the driver found it.
        package_root = str(Path(__file__).resolve().parents[2])
        ray.init(num_cpus=self.workers, include_dashboard=False, log_to_driver=False,
                 runtime_env={"env_vars": {"PYTHONPATH": package_root}})


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
