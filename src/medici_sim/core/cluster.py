"""Runs on a Dask cluster: each batch's chunks become tasks; totals merge in batch order.

Dask distributed does the scheduling (``pip install 'medici-sim[distributed]'``). A task
is (run configuration, first game, number of games): its games depend only on the
master seed and their indices (R25), and its result is the chunk's additive statistics,
so the tables equal a single-machine run's. A task lost with its worker is run again by
Dask on another worker, and its result is taken once: no batch is lost or counted twice.
"""
from __future__ import annotations

import logging
import os
import signal
import threading
from contextlib import contextmanager
from functools import lru_cache

from .arguments import named
from .driver import ConfigError, PreparedRun, RunConfig, Totals, error_text, usable_cores

CHUNKS_PER_WORKER_THREAD = 2  # a little slack for uneven workers
CONNECT_S = 10  # seconds --scheduler gives Dask to connect (its own timeout)
CONNECT_SLACK_S = 5  # ... and then to give up, when Dask's timeout does not hold (its handshake)
WORKER_BYTES = 1 << 29  # memory of a local worker process holding a kernel (measured: about 260 MB)


def _dask():
    try:
        import distributed
    except ImportError:
        raise ConfigError(f"{named('scheduler')}/{named('cluster')} need Dask: "
                          "pip install 'medici-sim[distributed]'") from None
    return distributed


@lru_cache(maxsize=32)
def _worker_kernel(config: RunConfig | tuple[RunConfig, RunConfig], plugins: tuple[str, ...]):
    """A worker's kernel for a configuration (or a pair of them: ``pairing.PreparedPair``):
    built (and loaded from numba's cache) once."""
    from .pairing import PreparedPair
    from .plugins import load_plugin

    for plugin in plugins:
        load_plugin(plugin)
    return PreparedPair(*config) if isinstance(config, tuple) else PreparedRun(config)


def play_chunk(config: RunConfig | tuple[RunConfig, RunConfig], first_game: int, n_games: int,
               plugins: tuple[str, ...]) -> Totals:
    """The task: play games first_game .. first_game + n_games - 1 on a worker."""
    return _worker_kernel(config, plugins).play(first_game, n_games)


class DaskRunner:
    """Plays a batch's chunks as Dask tasks (see ``simulate.simulate``'s ``runner``)."""

    def __init__(self, client, plugins: tuple[str, ...] = ()):
        self.client = client
        self.plugins = plugins
        self.parts = CHUNKS_PER_WORKER_THREAD * max(1, sum(client.nthreads().values()))

    def __enter__(self) -> DaskRunner:
        return self

    def __exit__(self, *exc) -> None:
        pass

    def play(self, kernel: PreparedRun, ranges: list[tuple[int, int]]) -> list[Totals]:
        return self.play_tasks([(kernel, first, n) for first, n in ranges])

    def play_tasks(self, tasks: list[tuple[PreparedRun, int, int]]) -> list[Totals]:
        futures = self.client.map(play_chunk, [kernel.config for kernel, _, _ in tasks], [t[1] for t in tasks],
                                  [t[2] for t in tasks], [self.plugins] * len(tasks), pure=False)
        return self.client.gather(futures)  # in submission order


def machine_workers(worker_bytes: int = WORKER_BYTES) -> int:
    """The most workers a local cluster may start here: one single-threaded worker per core this
    process may use (``usable_cores``), and no more than the memory holds (about ``worker_bytes``
    each). More would only cost memory: a worker plays on one core. (The test suite sizes its
    pytest-xdist workers with it too.)"""
    cores = usable_cores()
    try:
        memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        memory = 0
    return max(1, min(cores, memory // worker_bytes) if memory else cores)


def parse_cluster(spec: str) -> int:
    """``local:N`` -> N worker processes, N at most what the machine holds (``machine_workers``)."""
    kind, _, count = spec.partition(":")
    if kind != "local" or not count.isdigit() or int(count) < 1:
        raise ConfigError(f"{named('cluster')} must be local:N with N at least 1, got {spec!r}")
    most = machine_workers()
    if int(count) > most:
        raise ConfigError(f"{named('cluster')} {spec}: this machine holds at most local:{most} (one single-threaded "
                          "worker per core medici-sim may use, about 0.5 GiB of memory each); more workers than cores "
                          "only cost memory")
    return int(count)


def _scheduler_address(address: str) -> str:
    """``--scheduler``: a Dask address with a host and a port (tcp://HOST:PORT, or HOST:PORT)."""
    from distributed.comm.addressing import get_address_host_port

    try:
        _, port = get_address_host_port(address)
    except ValueError as exc:
        raise ConfigError(f"{named('scheduler')} {address!r}: not a Dask scheduler address such as tcp://HOST:8786 "
                          f"({exc})") from None
    if not 1 <= port <= 65535:
        raise ConfigError(f"{named('scheduler')} {address!r}: port {port} is not between 1 and 65535")
    return address


def _client(distributed, address: str):
    """A client of the Dask scheduler at ``address``, or ConfigError saying why not, in one line.

    Dask's own timeout does not cover its handshake (a service that accepts the connection and
    says nothing hangs it), and what a peer that is not Dask sends can raise anything (a length
    of exabytes: an allocation error); a client that failed so even hangs the exit. So the
    handshake is tried first on its own, bounded here, on a thread of its own (asyncio would
    take over the main thread's signal wake-up); only a peer that answers it as Dask does is
    given to ``distributed.Client``."""
    import asyncio

    outcome: list = []

    async def handshake() -> None:
        comm = await asyncio.wait_for(distributed.comm.connect(address, timeout=CONNECT_S),
                                      CONNECT_S + CONNECT_SLACK_S)
        await comm.close()

    def attempt() -> None:
        try:
            asyncio.run(handshake())
            outcome.append(None)
        except Exception as exc:  # noqa: BLE001  the peer's answer, whatever it was, is reported below
            outcome.append(exc)

    worker = threading.Thread(target=attempt, name="medici-sim-connect", daemon=True)
    worker.start()
    worker.join(CONNECT_S + 2 * CONNECT_SLACK_S)
    failure = outcome[0] if outcome else TimeoutError()
    if type(failure) is TimeoutError:  # the bound above, not Dask's (its OSError says what it waited for)
        raise ConfigError(f"{named('scheduler')} {address}: nothing there answered as a Dask scheduler within "
                          f"{CONNECT_S + CONNECT_SLACK_S} s")
    if failure is None:
        try:
            client = distributed.Client(address, timeout=f"{CONNECT_S}s", set_as_default=False)
        except Exception as exc:  # noqa: BLE001  as above: the peer's doing
            failure = exc
        else:
            try:  # a scheduler without workers would have the run wait for ever
                client.wait_for_workers(1, timeout=CONNECT_S)
            except Exception as exc:  # noqa: BLE001  the peer's: Dask's own timeout error, or anything
                client.close()
                raise ConfigError(f"{named('scheduler')} {address}: the scheduler has no workers ({_first_line(exc)}; "
                                  f"start some: dask worker {address})") from None
            return client
    if isinstance(failure, OSError):  # refused, unreachable, timed out, closed
        raise ConfigError(f"{named('scheduler')} {address}: cannot connect ({_first_line(failure)})")
    raise ConfigError(f"{named('scheduler')} {address}: what answered there is not a Dask scheduler "
                      f"({type(failure).__name__}: {_first_line(failure)})")


def _first_line(error: Exception) -> str:
    lines = [line for line in error_text(error).splitlines() if line.strip()]
    return lines[0] if lines else type(error).__name__


def _local_cluster(distributed, workers: int):
    """A local cluster of ``workers`` single-threaded worker processes (tasks never oversubscribe).

    It starts on a thread of its own that blocks SIGINT and SIGTERM: every thread Dask starts
    from there inherits the mask, and so does every worker process they spawn (now, or when a
    worker is restarted). The terminal's Ctrl-C reaches the whole process group; the command
    answers it (cli.signals) and closes the cluster, so a worker must not (it would die with a
    traceback and be restarted). The main thread meanwhile waits, answering signals: a command
    stopped while its cluster starts closes it once it has started (a second signal quits at once)."""
    from multiprocessing import resource_tracker

    resource_tracker.ensure_running()  # once per process: started later, it would unblock the signals it blocks
    outcome: list = []
    started = threading.Event()  # (an interrupted Thread.join cannot be waited on again)

    def start() -> None:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
        try:
            # the workers' own log lines are not the command's: a heartbeat lost while a stopped command closes
            # the cluster is logged with a traceback (a task's error reaches the command as its exception)
            outcome.append(distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                                    dashboard_address=None, silence_logs=logging.CRITICAL))
        except BaseException as exc:  # noqa: BLE001  raised on the calling thread below
            outcome.append(exc)
        started.set()

    threading.Thread(target=start, name="medici-sim-cluster", daemon=True).start()
    try:
        started.wait()
    except BaseException:
        started.wait()
        if not isinstance(outcome[0], BaseException):
            outcome[0].close()
        raise
    if isinstance(outcome[0], BaseException):
        raise outcome[0]
    return outcome[0]


@contextmanager
def connect(scheduler: str | None, cluster: str | None, plugins: tuple[str, ...] = ()):
    """A DaskRunner for ``--scheduler ADDRESS`` or ``--cluster local:N``, or None for neither."""
    if scheduler is not None and cluster is not None:
        raise ConfigError(f"{named('scheduler')} and {named('cluster')} cannot be used together")
    if scheduler is None and cluster is None:
        yield None
        return
    workers = parse_cluster(cluster) if cluster is not None else None
    distributed = _dask()
    if workers is not None:
        with _local_cluster(distributed, workers) as local, distributed.Client(local) as client:
            yield DaskRunner(client, plugins)
        return
    with _client(distributed, _scheduler_address(scheduler)) as client:
        yield DaskRunner(client, plugins)
