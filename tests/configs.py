"""Game configurations the Python test suite runs over: every game, every option value, several
sizes. Each game adds its entries here."""

from __future__ import annotations

from typing import Any

CONFIGS: list[tuple[str, dict[str, Any]]] = []

# Windflowers: every grid at three sizes, every player count, scoring, tie-break and flag.
for grid in ("hex", "trisquare", "square"):
    for size in (3, 4, 5):
        CONFIGS.append(("windflowers", {"grid": grid, "size": size}))
for players in (2, 3, 4):
    CONFIGS.append(("windflowers", {"players": players}))
for scoring in ("stones", "largest_group"):
    for tiebreak in ("underdog", "cascade"):
        CONFIGS.append(
            ("windflowers", {"scoring": scoring, "tiebreak": tiebreak, "size": 3, "players": 3})
        )
CONFIGS.append(("windflowers", {"last_placer_breaks_ties": True, "grid": "hex", "size": 3}))
CONFIGS.append(("windflowers", {"max_moves": 9}))

# Faraday: every grid at two orders, every scoring, surplus charge on every grid.
for grid in ("trisquare_omni", "trisquare", "hex_limping", "hex", "hex_omni", "square_omni"):
    CONFIGS.append(("faraday", {"grid": grid, "order": 4}))
    CONFIGS.append(("faraday", {"grid": grid, "order": 3, "surplus_charge": True}))
for scoring in ("simple_orthogonal", "simple", "special_orthogonal", "special"):
    CONFIGS.append(("faraday", {"scoring": scoring, "order": 4}))
CONFIGS.append(("faraday", {}))


def config_id(config: tuple[str, dict[str, Any]]) -> str:
    name, options = config
    return name + "-" + "-".join(f"{k}={v}" for k, v in options.items())
