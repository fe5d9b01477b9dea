"""The lab on a Ray cluster of several nodes (Ray's own ``ray.cluster_utils.Cluster``: a head
and worker nodes, each a raylet of its own, on this one machine), with a node removed mid-run.

A run spread over the nodes gives exactly the local numbers; when a worker node goes away while
its chunks are in flight, those chunks are run again on the nodes left, and every chunk is
recorded once: nothing lost, nothing counted twice. Kept small (one CPU a node, short MCTS
chunks) so that it stays well within CI on a loaded two-core machine.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import stonefield as sf

# Chunks long enough (a few tenths of a second each) that every node is busy when one is removed.
ARGS: dict[str, Any] = dict(
    vary={"size": [3, 4]}, agents=sf.MCTS(iterations=300), games=8, seed=5, chunk=2
)


def busy(node_id: str) -> bool:
    """Whether the node's one CPU is taken (a chunk runs there)."""
    from ray._private import state

    free = state.state.available_resources_per_node().get(node_id, {})
    return bool(free.get("CPU", 0.0) < 1.0)


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
        head_node_args={"num_cpus": 1, "include_dashboard": False},
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
    assert len(alive) == 3 and sum(n["Resources"].get("CPU", 0) for n in alive) == 3

    local = sf.lab.evaluate("subsume", **ARGS)
    spread = sf.lab.evaluate("subsume", backend="ray", **ARGS)
    assert columns(spread) == columns(local)
    assert spread.rows() == local.rows()

    # Again, and once a chunk is in, remove a worker node while a chunk runs on it: the chunk
    # fails there and runs again on the nodes left. Whichever worker is busy goes (on a loaded
    # machine the scheduler may have left one of them idle); a callback that finds neither busy
    # within a few seconds tries again when the next chunk comes in.
    removed: list[Any] = []

    def remove_a_node(done: int, total: int, seconds: float) -> None:
        if removed:
            return
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            for w in workers:
                if busy(w.node_id):
                    removed.append(w)
                    c.remove_node(w)
                    return
            time.sleep(0.02)

    out = tmp_path / "cluster.jsonl"
    survived = sf.lab.evaluate(
        "subsume", backend="ray", out=str(out), progress=remove_a_node, **ARGS
    )
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
