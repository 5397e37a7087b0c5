"""Dask runs (--cluster, --scheduler): the same tables as one machine, even when a worker dies."""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from contextlib import contextmanager, suppress
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

distributed = pytest.importorskip("distributed")

from conftest import run  # noqa: E402

from medici_sim.cli.common import parse_strategies  # noqa: E402
from medici_sim.core import cluster, driver  # noqa: E402
from medici_sim.core.cluster import DaskRunner, connect  # noqa: E402
from medici_sim.core.driver import ConfigError, RunConfig, simulate  # noqa: E402

MIX = ["--strategies", "expert,random,greedy,cautious", "--seating", "rotate", "--seed", "21", "--quiet"]


def tables(path) -> dict:
    document = json.loads(path.read_text())
    return {name: table for name, table in document.items() if name != "summary"}


# the whole suite only (a local cluster's worker processes: 10 CPU s a command); the quick subset starts a cluster
# in test_a_real_scheduler_is_still_welcome
@pytest.mark.slow
@pytest.mark.parametrize("command", [[], ["compare", "--players", "3,4"], ["balance", "--players", "4"]])
def test_local_cluster_gives_the_single_machine_tables(capsys, tmp_path, command):
    """2 local workers on loopback against one process: exactly equal tables (R25)."""
    games = ["--games", "40000"] if command else ["--games", "120000"]
    strategies = ["--strategies", "expert,random,greedy,cautious", "--seed", "21", "--quiet"]
    if not command:
        strategies += ["--seating", "rotate"]
    alone, dask = tmp_path / "alone.json", tmp_path / "dask.json"
    assert run(capsys, *command, *games, *strategies, "--out", str(alone))[0] == 0
    code, out, err = run(capsys, *command, *games, *strategies, "--cluster", "local:2", "--out", str(dask))
    assert code == 0, err
    assert tables(alone) == tables(dask)


@pytest.mark.slow
def test_a_lost_worker_costs_no_batch_and_counts_none_twice(deck):
    """Kill a worker process mid-run: Dask reruns its tasks elsewhere; the totals are unchanged."""
    config = RunConfig(components=deck, players=4, strategies=parse_strategies("expert,random,greedy,cautious", 4),
                       games=1_000_000, seed=9, seating="rotate", threads=2)
    expected = simulate(config).totals
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        pids = client.run(os.getpid)
        result, played = {}, []
        worker = threading.Thread(target=lambda: result.update(
            totals=simulate(config, runner=DaskRunner(client), batch_size=20_000, progress=played.append).totals))
        worker.start()
        while sum(played) < 200_000:  # some batches done, many to come
            assert worker.is_alive()
            time.sleep(0.01)
        os.kill(next(iter(pids.values())), signal.SIGKILL)
        worker.join(timeout=600)
        assert sum(played) == 1_000_000
    totals = result["totals"]
    for name in ("seat", "slot", "pairs", "run"):
        assert np.array_equal(getattr(totals, name), getattr(expected, name)), name


@pytest.mark.slow
def test_resume_on_a_cluster(tmp_path):
    """A run interrupted on one machine resumes on a local cluster to the same tables."""
    whole, resumed, saved = tmp_path / "whole.json", tmp_path / "resumed.json", tmp_path / "run.ckpt"
    base = [sys.executable, "-m", "medici_sim", "--games", "800000", *MIX]
    assert subprocess.run([*base, "--out", str(whole)], timeout=600).returncode == 0
    proc = subprocess.Popen([*base, "--checkpoint", str(saved)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while not (saved.exists() and json.loads(saved.read_text())["progress"]["totals"]["run"][0] > 0):
        assert proc.poll() is None and time.monotonic() < deadline
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=60) == 130
    done = subprocess.run([*base, "--cluster", "local:2", "--resume", str(saved), "--out", str(resumed)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert tables(whole) == tables(resumed)


def refused(capsys, *args) -> str:
    code, out, err = run(capsys, *args)
    assert code == 2 and err.count("\n") == 1 and err.startswith("medici-sim: error: "), (code, out, err)
    return err


def test_cluster_option_errors(capsys, monkeypatch):
    monkeypatch.setattr(cluster, "CONNECT_S", 1)  # Dask tries a refused port again until its timeout: 10 s, else
    for spec in ("local", "local:0", "remote:2", "local:x"):
        assert "--cluster must be local:N" in refused(capsys, "-n", "100", "--cluster", spec)
    assert "an empty value" in refused(capsys, "-n", "100", "--cluster", "")
    assert "cannot be used together" in refused(capsys, "-n", "100", "--cluster", "local:1", "--scheduler",
                                                "tcp://127.0.0.1:1")
    assert "--scheduler tcp://127.0.0.1:1: cannot connect" in refused(capsys, "-n", "100", "--scheduler",
                                                                      "tcp://127.0.0.1:1")
    assert "an empty value" in refused(capsys, "-n", "100", "--scheduler", "")
    for address in ("nonsense", "tcp://127.0.0.1", "foo://127.0.0.1:8786", "inproc://x"):
        assert "not a Dask scheduler address such as tcp://HOST:8786" in refused(capsys, "-n", "100",
                                                                                 "--scheduler", address)
    assert "port 99999 is not between 1 and 65535" in refused(capsys, "-n", "100", "--scheduler",
                                                              "tcp://127.0.0.1:99999")
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if the extra were not installed
    with pytest.raises(ConfigError, match=r"pip install 'medici-sim\[distributed\]'"):
        with connect(None, "local:2"):
            pass


def test_a_local_cluster_is_bounded_by_the_machine(capsys, monkeypatch):
    """One single-threaded worker per core the process may use (affinity, cgroup quota), as many
    as the memory holds: more only cost memory (local:256 on 2 cores once started 256 processes,
    13.6 GB)."""
    assert 1 <= cluster.machine_workers() <= len(os.sched_getaffinity(0))
    with monkeypatch.context() as patched:
        patched.setattr(cluster.os, "sched_getaffinity", lambda pid: set(range(8)))
        patched.setattr(driver, "Path", lambda path: SimpleNamespace(read_text=lambda: "300000 100000"))
        for workers_held, expected in ((10, 3), (2, 2), (0.5, 1)):  # 3 cores of quota
            pages = workers_held * cluster.WORKER_BYTES // 4096
            patched.setattr(cluster.os, "sysconf", lambda name, pages=pages: {"SC_PAGE_SIZE": 4096,
                                                                              "SC_PHYS_PAGES": pages}[name])
            assert cluster.machine_workers() == expected
    monkeypatch.setattr(cluster, "machine_workers", lambda: 2)
    for command in ([], ["compare"], ["balance"]):
        assert "--cluster local:3: this machine holds at most local:2" in refused(capsys, *command, "-n", "100",
                                                                                  "--cluster", "local:3")
    assert "at most local:2" in refused(capsys, "tune", "greedy", "--cluster", "local:256")


def test_the_default_threads_are_the_cores_a_local_cluster_counts(monkeypatch):
    """No --threads: every core the process may use, as ``machine_workers`` counts them (affinity
    and cgroup quota), never the host's whole count; a RunConfig built in Python and the
    check-plugin pass count them alike (driver.usable_cores)."""
    from medici_sim.core.specs import default_threads

    monkeypatch.setattr(cluster.os, "sched_getaffinity", lambda pid: set(range(8)))
    monkeypatch.setattr(cluster.os, "cpu_count", lambda: 64)
    monkeypatch.setattr(driver, "Path", lambda path: SimpleNamespace(read_text=lambda: "300000 100000"))
    assert default_threads(None) == 3 and default_threads(5) == 5
    config = RunConfig(components=None, players=2, strategies=parse_strategies("random", 2, "card"), games=10)
    assert config.threads == 3
    monkeypatch.setattr(driver, "Path", lambda path: SimpleNamespace(read_text=lambda: "max 100000"))
    assert default_threads(None) == 8


@contextmanager
def peer(answer):
    """A TCP service on a loopback port for a few seconds, which does ``answer(connection)``."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.2)
    done = threading.Event()

    def serve():
        connections = []
        while not done.is_set():
            try:
                connection, _ = server.accept()
            except OSError:
                continue
            connections.append(connection)
            threading.Thread(target=answer, args=(connection, done), daemon=True).start()
        for connection in connections:
            connection.close()
        server.close()

    threading.Thread(target=serve, daemon=True).start()
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        done.set()


def garbage(connection, done) -> None:
    rng = np.random.default_rng(7)
    with suppress(OSError):
        while not done.wait(0.01):
            connection.sendall(rng.bytes(4096))


def silence(connection, done) -> None:
    done.wait(30)


def http(connection, done) -> None:
    with suppress(OSError):
        connection.recv(1024)
        connection.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
        done.wait(30)


@pytest.mark.parametrize("answer", [garbage, http])
def test_a_peer_that_is_not_dask_is_refused_in_one_line(capsys, answer):
    with peer(answer) as address:
        err = refused(capsys, "-n", "100", "--scheduler", address)
    assert f"--scheduler {address}: what answered there is not a Dask scheduler" in err


def test_a_peer_that_says_nothing_is_given_up_on(capsys, monkeypatch):
    """Dask's own timeout does not cover its handshake: a service that accepts and stays silent
    once hung the run for good."""
    monkeypatch.setattr(cluster, "CONNECT_S", 1)
    monkeypatch.setattr(cluster, "CONNECT_SLACK_S", 1)
    with peer(silence) as address:
        err = refused(capsys, "-n", "100", "--scheduler", address)
    assert f"--scheduler {address}: nothing there answered as a Dask scheduler within 2 s" in err


def test_a_scheduler_without_workers_is_refused_instead_of_waited_for(capsys, monkeypatch):
    monkeypatch.setattr(cluster, "CONNECT_S", 1)
    with distributed.LocalCluster(n_workers=0, processes=False, protocol="tcp", dashboard_address=None) as empty:
        err = refused(capsys, "-n", "100", "--scheduler", empty.scheduler_address)
    assert f"--scheduler {empty.scheduler_address}: the scheduler has no workers (" in err
    assert f"start some: dask worker {empty.scheduler_address})" in err


def test_a_real_scheduler_is_still_welcome(capsys, tmp_path):
    alone, dask = tmp_path / "alone.json", tmp_path / "dask.json"
    args = ["-n", "20000", "-p", "3", "--seed", "4", "--quiet"]
    assert run(capsys, *args, "--out", str(alone))[0] == 0
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as local:
        code, _, err = run(capsys, *args, "--scheduler", local.scheduler_address, "--out", str(dask))
    assert code == 0, err
    assert tables(alone) == tables(dask)


def workers_of(pid: int) -> list[int]:
    """The worker processes a process has spawned (from any of its threads)."""
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        with suppress(OSError):
            for child in (task / "children").read_text().split():
                with suppress(OSError):
                    if "spawn_main" in Path(f"/proc/{child}/cmdline").read_text(errors="replace"):
                        found.append(int(child))
    return found


@pytest.mark.slow
@pytest.mark.parametrize("after", ["starting", "running"])
def test_ctrl_c_reaches_the_workers_too_and_they_leave_it_to_the_command(tmp_path, after):
    """The terminal's Ctrl-C goes to the whole process group, local workers included: they ignore
    it (no traceback, no restart), the command stops and closes its cluster, whether it is still
    starting or running, and no worker outlives it."""
    saved = tmp_path / "c.ckpt"
    proc = subprocess.Popen([sys.executable, "-m", "medici_sim", "-n", "100000000", "-q", "-p", "2",
                             "--cluster", "local:2", "--checkpoint", str(saved)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + 180
    while not (saved.exists() if after == "running" else workers_of(proc.pid)):
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.02)
    workers = workers_of(proc.pid)
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "Restarting worker" not in err, err
    if after == "running":
        assert "PARTIAL RESULTS" in out
    deadline = time.monotonic() + 30
    while [w for w in workers if Path(f"/proc/{w}").exists()]:  # they leave with the command
        assert time.monotonic() < deadline, "a worker outlived the command"
        time.sleep(0.1)
