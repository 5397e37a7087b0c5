"""Dask runs (--cluster, --scheduler): the same tables as one machine, even when a worker dies."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

distributed = pytest.importorskip("distributed")

from conftest import run  # noqa: E402

from medici_sim.cli.common import parse_strategies  # noqa: E402
from medici_sim.core.cluster import DaskRunner, connect  # noqa: E402
from medici_sim.core.driver import ConfigError, RunConfig, simulate  # noqa: E402

MIX = ["--strategies", "expert,random,greedy,cautious", "--seating", "rotate", "--seed", "21", "--quiet"]


def tables(path) -> dict:
    document = json.loads(path.read_text())
    return {name: table for name, table in document.items() if name != "summary"}


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
    config = RunConfig(deck=deck, players=4, strategies=parse_strategies("expert,random,greedy,cautious", 4),
                       games=3_000_000, seed=9, seating="rotate", threads=2)
    expected = simulate(config).totals
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        pids = client.run(os.getpid)
        result, played = {}, []
        worker = threading.Thread(target=lambda: result.update(
            totals=simulate(config, runner=DaskRunner(client), batch_size=20_000, progress=played.append).totals))
        worker.start()
        while sum(played) < 300_000:  # some batches done, many to come
            assert worker.is_alive()
            time.sleep(0.01)
        os.kill(next(iter(pids.values())), signal.SIGKILL)
        worker.join(timeout=600)
        assert sum(played) == 3_000_000
    totals = result["totals"]
    for name in ("seat", "slot", "pairs", "run"):
        assert np.array_equal(getattr(totals, name), getattr(expected, name)), name


@pytest.mark.slow
def test_resume_on_a_cluster(tmp_path):
    """A run interrupted on one machine resumes on a local cluster to the same tables."""
    whole, resumed, saved = tmp_path / "whole.json", tmp_path / "resumed.json", tmp_path / "run.ckpt"
    base = [sys.executable, "-m", "medici_sim", "--games", "2000000", *MIX]
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


def test_cluster_option_errors(capsys, monkeypatch):
    for spec in ("local", "local:0", "remote:2", "local:x"):
        code, _, err = run(capsys, "-n", "100", "--cluster", spec)
        assert code == 2 and "--cluster must be local:N" in err
    code, _, err = run(capsys, "-n", "100", "--cluster", "local:1", "--scheduler", "tcp://127.0.0.1:1")
    assert code == 2 and "cannot be used together" in err
    code, _, err = run(capsys, "-n", "100", "--scheduler", "tcp://127.0.0.1:1")
    assert code == 2 and "--scheduler tcp://127.0.0.1:1: cannot connect" in err and err.count("\n") == 1
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if the extra were not installed
    with pytest.raises(ConfigError, match=r"pip install 'medici-sim\[distributed\]'"):
        with connect(None, "local:2"):
            pass
