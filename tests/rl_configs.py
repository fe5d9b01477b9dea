"""The game configurations the RL adapter tests run the frameworks' own checkers on: every game in
its default configuration and on small boards, Windflowers with 2, 3 and 4 players."""

from __future__ import annotations

from typing import Any

RL_CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("smallholder", {}),
    ("windflowers", {}),
    ("faraday", {}),
    ("subsume", {}),
    ("windflowers", {"size": 3}),
    ("windflowers", {"players": 3, "size": 3, "grid": "hex"}),
    ("windflowers", {"players": 4, "size": 3, "grid": "square"}),
    ("faraday", {"order": 3}),
    ("faraday", {"order": 3, "grid": "square_omni", "surplus_charge": True}),
    ("smallholder", {"board": "hex3"}),
    ("smallholder", {"board": "hex3", "ruleset": "hull_setbacks"}),
    ("subsume", {"size": 3}),
]


def rl_id(config: tuple[str, dict[str, Any]]) -> str:
    name, options = config
    return name + ("".join(f"-{k}={v}" for k, v in options.items()) or "-defaults")
