"""Draws the README's pictures: one position of each game. Run from the repository root:
``python docs/pictures.py`` (rewrites docs/*.svg)."""

from __future__ import annotations

from pathlib import Path

import stonefield as sf

# (file, game, options, actions to play, seed): positions with something to see.
PICTURES = [
    ("windflowers.svg", "windflowers", {}, 22, 7),
    ("smallholder.svg", "smallholder", {}, 24, 3),
    ("faraday.svg", "faraday", {"order": 5}, 30, 2),
    ("subsume.svg", "subsume", {"size": 5}, 45, 0),
    # The designer's aside: without removal, the stones inside settled loops stay, faded.
    ("subsume-kept.svg", "subsume", {"size": 5, "remove_surrounded": False}, 45, 30),
]


def position(name: str, options: dict, moves: int, seed: int) -> sf.State:
    state = sf.make(name, **options).new_state()
    for i in range(moves):
        action = state.random_action(seed + i)
        if action is None:
            break
        state.apply(action)
    return state


def main() -> None:
    here = Path(__file__).parent
    for file, name, options, moves, seed in PICTURES:
        state = position(name, options, moves, seed)
        (here / file).write_text(state.to_svg(size=360) + "\n", encoding="utf-8")
        print(file, len(state.history), "actions")


if __name__ == "__main__":
    main()
