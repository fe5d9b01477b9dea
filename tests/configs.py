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

# The Smallholder: every ruleset, every value of each rule option, several boards.
for ruleset in ("nibbler", "gaps_original", "offshore_gaps", "stymie", "hull_setbacks"):
    CONFIGS.append(("smallholder", {"ruleset": ruleset}))
for key, values in (
    (
        "groups",
        (
            "must_create_if_only_1",
            "must_create_if_1_playable",
            "priority_if_only_1",
            "priority_if_1_playable",
            "priority_always",
        ),
    ),
    (
        "adjacent",
        (
            "smallest_playable",
            "smallest_playable_only",
            "smallest_else_lose",
            "smallest_only_else_lose",
        ),
    ),
    ("territory", ("gap", "hull")),
    ("capture", ("piecewise", "groupwise", "groupwise_reentry")),
):
    for value in values:
        CONFIGS.append(("smallholder", {"board": "hex3", key: value}))
for board in ("hex232323", "hex343434", "hex454545", "hex5", "hex8"):
    CONFIGS.append(("smallholder", {"board": board}))
CONFIGS.append(("smallholder", {"max_moves": 12, "capture": "groupwise_reentry"}))

# Subsume: sizes 3 to 8, and one larger board.
for size in (3, 4, 5, 6, 7, 8, 12):
    CONFIGS.append(("subsume", {"size": size}))


def config_id(config: tuple[str, dict[str, Any]]) -> str:
    name, options = config
    return name + "-" + "-".join(f"{k}={v}" for k, v in options.items())
