"""Runs on a Dask cluster: each batch's chunks become tasks; totals merge in batch order.

Dask distributed does the scheduling (``pip install 'medici-sim[distributed]'``). A task
is (run configuration, first game, number of games): its games depend only on the
master seed and their indices (R25), and its result is the chunk's additive statistics,
so the tables equal a single-machine run's. A task lost with its worker is run again by
Dask on another worker, and its result is taken once: no batch is lost or counted twice.
"""
from __future__ import annotations

from contextlib import contextmanager
from functools import lru_cache

from .driver import ConfigError, Kernel, RunConfig, Totals

CHUNKS_PER_WORKER_THREAD = 2  # a little slack for uneven workers


def _dask():
    try:
        import distributed
    except ImportError:
        raise ConfigError("--scheduler/--cluster need Dask: pip install 'medici-sim[distributed]'") from None
    return distributed


@lru_cache(maxsize=32)
def _worker_kernel(config: RunConfig | tuple[RunConfig, RunConfig], plugins: tuple[str, ...]):
    """A worker's kernel for a configuration (or a pair of them: ``pairing.PairedKernel``):
    built (and loaded from numba's cache) once."""
    from .pairing import PairedKernel
    from .plugins import load_plugin

    for plugin in plugins:
        load_plugin(plugin)
    return PairedKernel(*config) if isinstance(config, tuple) else Kernel(config)


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

    def play(self, kernel: Kernel, ranges: list[tuple[int, int]]) -> list[Totals]:
        return self.play_tasks([(kernel, first, n) for first, n in ranges])

    def play_tasks(self, tasks: list[tuple[Kernel, int, int]]) -> list[Totals]:
        futures = self.client.map(play_chunk, [kernel.config for kernel, _, _ in tasks], [t[1] for t in tasks],
                                  [t[2] for t in tasks], [self.plugins] * len(tasks), pure=False)
        return self.client.gather(futures)  # in submission order


def parse_cluster(spec: str) -> int:
    """``local:N`` -> N worker processes."""
    kind, _, count = spec.partition(":")
    if kind != "local" or not count.isdigit() or not 1 <= int(count) <= 256:
        raise ConfigError(f"--cluster must be local:N with N between 1 and 256, got {spec!r}")
    return int(count)


@contextmanager
def connect(scheduler: str | None, cluster: str | None, plugins: tuple[str, ...] = ()):
    """A DaskRunner for ``--scheduler ADDRESS`` or ``--cluster local:N``, or None for neither."""
    if scheduler and cluster:
        raise ConfigError("--scheduler and --cluster cannot be used together")
    if not scheduler and not cluster:
        yield None
        return
    distributed = _dask()
    if cluster:
        # one single-threaded worker process per core asked for: tasks never oversubscribe
        with distributed.LocalCluster(n_workers=parse_cluster(cluster), threads_per_worker=1, processes=True,
                                      dashboard_address=None) as local, distributed.Client(local) as client:
            yield DaskRunner(client, plugins)
        return
    try:
        client = distributed.Client(scheduler, timeout="10s")
    except OSError as exc:
        raise ConfigError(f"--scheduler {scheduler}: cannot connect ({exc})") from None
    with client:
        yield DaskRunner(client, plugins)
