"""The skill games: the lab's agent at four times its budget against itself, every other
setting kept (one place copies an agent at another budget: ``at_budget``)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import stonefield as sf
from stonefield.agents import MCTS_SETTINGS, PUCT_SETTINGS, agent_string
from stonefield.lab.plan import SKILL_FACTOR, at_budget, make_plan, skill_agents

#: A value other than the default for every MCTS setting.
MCTS_VALUES: dict[str, Any] = {
    "iterations": 37,
    "time": 0.25,
    "c": 0.7,
    "threads": 2,
    "solver": True,
    "seed": 9,
    "max_nodes": 123_456,
    "reuse": True,
    "selection": "grave",
    "grave_ref": 7,
    "grave_bias": 0.01,
    "playouts": "mast",
    "preset": "strong",
}

#: A value other than the default for every PUCT setting.
PUCT_VALUES: dict[str, Any] = {
    "simulations": 21,
    "time": 30.0,
    "threads": 2,
    "c": 2.5,
    "dirichlet_alpha": 0.7,
    "dirichlet_fraction": 0.25,
    "batch_size": 4,
    "seed": 11,
    "max_nodes": 4096,
}


def test_every_setting_is_named() -> None:
    assert set(MCTS_VALUES) == set(MCTS_SETTINGS)
    assert set(PUCT_VALUES) == set(PUCT_SETTINGS)


@pytest.mark.parametrize("key", sorted(MCTS_VALUES))
def test_an_mcts_copy_keeps_every_setting_and_scales_the_budget(key: str) -> None:
    given = {"iterations": 10, key: MCTS_VALUES[key]}
    agent = sf.MCTS(**given)
    copy = at_budget(agent, 4)
    for k in MCTS_SETTINGS:
        if k in ("iterations", "time"):
            old = getattr(agent, k)
            assert getattr(copy, k) == (None if old is None else 4 * old), k
        else:
            assert getattr(copy, k) == getattr(agent, k), k
    # The copy is the same agent string but for the budget.
    assert agent_string(copy) == agent_string(agent).replace(
        f"iterations={agent.iterations}", f"iterations={4 * agent.iterations}"
    ).replace(f"time={agent.time}", f"time={None if agent.time is None else 4 * agent.time}")


def test_a_time_budget_is_scaled_too() -> None:
    copy = at_budget(sf.MCTS(time=0.5, preset="strong"), 4)
    assert copy.time == 2.0 and copy.iterations is None and copy.preset == "strong"


@pytest.mark.parametrize("key", sorted(PUCT_VALUES))
def test_a_puct_copy_keeps_every_setting_and_its_evaluator(key: str) -> None:
    def evaluator(obs: Any, mask: Any) -> Any:
        return np.ones(mask.shape, np.float32), np.zeros(mask.shape[0], np.float32)

    # More than one thread needs native evaluation.
    chosen: Any = "rollout" if key == "threads" else evaluator
    agent = sf.PUCT(chosen, **{"simulations": 10, key: PUCT_VALUES[key]})
    copy = at_budget(agent, 4)
    assert copy.evaluator is chosen or copy.evaluator == chosen
    for k in PUCT_SETTINGS:
        # The budgets scale: simulations and, as MCTS's, the time.
        scaled = k in ("simulations", "time") and getattr(agent, k) is not None
        want = 4 * getattr(agent, k) if scaled else getattr(agent, k)
        assert getattr(copy, k) == want, k


def test_agents_without_a_budget_are_refused() -> None:
    with pytest.raises(sf.InvalidOptionError, match="no budget"):
        at_budget(sf.RandomAgent(seed=2), 4)
    with pytest.raises(sf.InvalidOptionError, match="factor"):
        at_budget(sf.MCTS(iterations=5), 0)


@pytest.mark.parametrize(
    "agent",
    [
        "mcts:preset=strong,iterations=200",
        "mcts:iterations=50,selection=grave,grave_ref=5,playouts=mast,threads=2,c=0.3",
        "mcts:time=0.1,solver=false,reuse=true,max_nodes=50000,seed=4",
        "puct:simulations=30,c=2.0,batch_size=8",
        "expert:simulations=30,seed=2",
    ],
)
def test_the_skill_agent_is_the_lab_agent_at_four_times_its_budget(agent: str) -> None:
    plan = make_plan("subsume", None, {"size": 3}, agent, 2, 0, 0, 4)
    strong, base = skill_agents(plan)
    assert base is plan.agents[0]
    assert agent_string(at_budget(base, SKILL_FACTOR)) == agent_string(strong)
    assert type(strong) is type(base)
    if isinstance(base, sf.MCTS):
        assert strong.preset == base.preset and strong.selection == base.selection
        assert strong.playouts == base.playouts and strong.threads == base.threads


def test_without_a_budget_the_skill_games_use_plain_mcts() -> None:
    plan = make_plan("subsume", None, {"size": 3}, None, 2, 0, 0, 4)
    strong, base = skill_agents(plan)
    assert (strong.iterations, base.iterations) == (400, 100)


def test_the_strong_preset_at_four_times_its_budget_beats_itself() -> None:
    # With the preset dropped (the old copy), plain UCT at 4x lost to the preset.
    lab = sf.lab.evaluate(
        "windflowers",
        fixed={"grid": "hex", "size": 4},
        agents="mcts:preset=strong,iterations=50",
        games=2,
        skill=40,
        seed=1,
    )
    m = lab.metrics()[0]["skill"]
    assert m.n == 40 and m.low > 0.6, m
    assert "mcts:iterations=200,preset=strong against mcts:iterations=50" in lab.skill_label()
