"""The lab on a Ray cluster of several nodes (Ray's own ``ray.cluster_utils.Cluster``: a head
and worker nodes, each a raylet of its own, on this one machine), with a node removed mid-run.

A run spread over the nodes gives exactly the local numbers; when a worker node goes away while
its chunks are in flight, those chunks are run again on the nodes left, and every chunk is
recorded once: nothing lost, nothing counted twice. Kept small (one CPU a worker node, none on
the head, short MCTS chunks) so that it stays well within CI on a loaded two-core machine.
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import stonefield as sf

# Chunks long enough (a few tenths of a second each) that a worker is seen running one.
ARGS: dict[str, Any] = dict(
    vary={"size": [3, 4]}, agents=sf.MCTS(iterations=300), games=12, seed=5, chunk=2
)


def busy(node: Any) -> bool:
    """Whether a chunk runs on the node now: one of its raylet's worker processes carries the
    chunk task's title (Ray names a worker ``ray::<task>`` while it runs one). Ray's own view
    of the nodes' free CPUs is not used: it lags, and on a loaded machine a whole run could
    pass without it showing a worker taken."""
    import psutil

    raylet = psutil.Process(node.all_processes["raylet"][0].process.pid)
    for p in raylet.children(recursive=True):
        try:
            if p.cmdline()[:1] == ["ray::_ray_task"]:
                return True
        except psutil.Error:
            pass
    return False


def columns(lab: Any) -> list[dict[str, Any]]:
    """Every variant's per-game columns as plain lists, for exact comparison."""
    out = []
    for v in lab.plan.variants:
        cols = lab.columns(v.index)
        out.append({k: None if c is None else np.asarray(c).tolist() for k, c in cols.items()})
    return out


@pytest.fixture()
def cluster() -> Any:
    ray = pytest.importorskip("ray")
    from ray.cluster_utils import Cluster

    # The session's single-node Ray (tests/test_lab.py), if it is up, would take the jobs.
    if ray.is_initialized():
        ray.shutdown()
    c = Cluster(
        initialize_head=True,
        # No CPU on the head: every chunk runs on a worker node. (With one, Ray's scheduler on
        # a loaded machine could keep a whole run on the head, and no worker be removed while
        # it ran a chunk.)
        head_node_args={"num_cpus": 0, "include_dashboard": False},
    )
    workers = [c.add_node(num_cpus=1) for _ in range(2)]
    c.wait_for_nodes()
    ray.init(address=c.address, log_to_driver=False, logging_level="ERROR")
    try:
        yield c, workers
    finally:
        ray.shutdown()
        c.shutdown()


def test_a_cluster_run_matches_local_and_survives_a_lost_node(cluster: Any, tmp_path: Path) -> None:
    import ray

    c, workers = cluster
    alive = [n for n in ray.nodes() if n["Alive"]]
    assert len(alive) == 3 and sum(n["Resources"].get("CPU", 0) for n in alive) == 2

    local = sf.lab.evaluate("subsume", **ARGS)
    spread = sf.lab.evaluate("subsume", backend="ray", **ARGS)
    assert columns(spread) == columns(local)
    assert spread.rows() == local.rows()

    # Again, and remove a worker node while a chunk runs on it: the chunk fails there and runs
    # again on the worker left. Whichever worker is first seen busy goes. A thread watches for
    # it through the whole run (watching from the progress callback, which blocks the driver,
    # could miss every chunk in flight on a loaded machine).
    removed: list[Any] = []
    finished = threading.Event()

    def remove_a_busy_node() -> None:
        while not finished.is_set():
            for w in workers:
                if busy(w):
                    removed.append(w)
                    c.remove_node(w)
                    return
            time.sleep(0.01)

    watcher = threading.Thread(target=remove_a_busy_node)
    watcher.start()
    out = tmp_path / "cluster.jsonl"
    try:
        survived = sf.lab.evaluate("subsume", backend="ray", out=str(out), **ARGS)
    finally:
        finished.set()
        watcher.join()
    assert len(removed) == 1, "no worker node was seen running a chunk, so none was removed"
    assert len([n for n in ray.nodes() if n["Alive"]]) == 2
    assert columns(survived) == columns(local)
    assert survived.rows() == local.rows()
    # The results file holds every chunk exactly once.
    lines = out.read_text().splitlines()[1:]
    chunks = [(e["variant"], e["kind"], e["first"]) for e in map(json.loads, lines)]
    expected = [
        (v, "games", first) for v in range(2) for first in range(0, ARGS["games"], ARGS["chunk"])
    ]
    assert sorted(chunks) == sorted(expected)
