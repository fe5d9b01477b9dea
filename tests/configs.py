"""Game configurations the Python test suite runs over: every game, every option value, several
sizes. The values come from each game's option declaration (``sf.option_spec``); only the sizes
and the combinations are chosen here. A game without an entry below still gets its defaults and
every value of each of its choice and flag options."""

from __future__ import annotations

from typing import Any

import stonefield as sf

CONFIGS: list[tuple[str, dict[str, Any]]] = []


def values(game: str, option: str) -> list[Any]:
    """Every value of a choice or flag option, or every integer of a range, as declared."""
    for o in sf.option_spec(game):
        if o["name"] == option:
            if o["kind"] == "choice":
                return [v["name"] for v in o["values"] or []]
            if o["kind"] == "bool":
                return [False, True]
            assert o["min"] is not None and o["max"] is not None
            return list(range(o["min"], o["max"] + 1))
    raise KeyError(f"{game} has no option {option!r}")


# Windflowers: every grid at three sizes, every player count, scoring, tie-break and flag.
for grid in values("windflowers", "grid"):
    for size in (3, 4, 5):
        CONFIGS.append(("windflowers", {"grid": grid, "size": size}))
for players in values("windflowers", "players"):
    CONFIGS.append(("windflowers", {"players": players}))
for scoring in values("windflowers", "scoring"):
    for tiebreak in values("windflowers", "tiebreak"):
        CONFIGS.append(
            ("windflowers", {"scoring": scoring, "tiebreak": tiebreak, "size": 3, "players": 3})
        )
CONFIGS.append(("windflowers", {"last_placer_breaks_ties": True, "grid": "hex", "size": 3}))
CONFIGS.append(("windflowers", {"max_moves": 9}))

# Faraday: every grid at two orders, every scoring, surplus charge on every grid.
for grid in values("faraday", "grid"):
    CONFIGS.append(("faraday", {"grid": grid, "order": 4}))
    CONFIGS.append(("faraday", {"grid": grid, "order": 3, "surplus_charge": True}))
for scoring in values("faraday", "scoring"):
    CONFIGS.append(("faraday", {"scoring": scoring, "order": 4}))
for min_offer in values("faraday", "min_offer_stones"):
    CONFIGS.append(("faraday", {"order": 3, "min_offer_stones": min_offer}))
CONFIGS.append(("faraday", {}))

# The Smallholder: every ruleset, every value of each rule option, the boards of one bit-set word
# and one wide board.
for ruleset in values("smallholder", "ruleset"):
    CONFIGS.append(("smallholder", {"ruleset": ruleset}))
for key in ("groups", "adjacent", "territory", "capture"):
    for value in values("smallholder", key):
        CONFIGS.append(("smallholder", {"board": "hex3", key: value}))
for board in values("smallholder", "board"):
    if sf.make("smallholder", board=board).num_sites <= 64 or board == "hex8":
        CONFIGS.append(("smallholder", {"board": board}))
CONFIGS.append(("smallholder", {"max_moves": 12, "capture": "groupwise_reentry"}))

# Subsume: the smallest sizes, one larger board, and both asides' flags together.
for size in values("subsume", "size")[:6] + [12]:
    CONFIGS.append(("subsume", {"size": size}))
for anti_blob in values("subsume", "anti_blob"):
    for remove in values("subsume", "remove_surrounded"):
        asides = {"anti_blob": anti_blob, "remove_surrounded": remove}
        CONFIGS.append(("subsume", {"size": 4, **asides}))

# Any other game: its defaults and every value of each choice and flag option.
for game in sf.games():
    if any(name == game for name, _ in CONFIGS):
        continue
    CONFIGS.append((game, {}))
    for o in sf.option_spec(game):
        if o["kind"] != "int":
            for value in values(game, o["name"]):
                CONFIGS.append((game, {o["name"]: value}))


def config_id(config: tuple[str, dict[str, Any]]) -> str:
    name, options = config
    return name + "-" + "-".join(f"{k}={v}" for k, v in options.items())
