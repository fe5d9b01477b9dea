"""How long Ctrl-C takes to stop each long call: each call is started, SIGINT is sent 0.5 s in,
and the time from the signal to the KeyboardInterrupt is printed (two runs each), as a markdown
table. See docs/reliability.md.

    python experiments/ctrl_c_latency/ctrl_c_latency.py
"""

from __future__ import annotations

import os
import signal
import threading
import time
from typing import Any, Callable

import stonefield as sf


def measure(name: str, call: Callable[[], Any], after: float = 0.5, runs: int = 2) -> None:
    seen = []
    for _ in range(runs):
        sent: dict[str, float] = {}

        def fire(sent: dict[str, float] = sent) -> None:
            sent["at"] = time.perf_counter()
            os.kill(os.getpid(), signal.SIGINT)

        timer = threading.Timer(after, fire)
        timer.start()
        try:
            call()
            seen.append("finished first")
        except KeyboardInterrupt:
            seen.append(f"{time.perf_counter() - sent['at']:.3f} s")
        finally:
            timer.cancel()
    print(f"| {name} | {' / '.join(seen)} |", flush=True)


class FirstLegal:
    def act(self, state: sf.State) -> int:
        return int(state.legal_actions()[0])


def main() -> None:
    big = sf.make("subsume", size=30).new_state()
    wf = sf.make("windflowers").new_state()
    duel = ["mcts:iterations=3000", "random"]
    print("| call | Ctrl-C to KeyboardInterrupt |\n|---|---|")
    measure("`MCTS(iterations=10**9).act`, Windflowers", lambda: sf.MCTS(iterations=10**9).act(wf))
    measure("`MCTS(iterations=20000).act`, Subsume 30", lambda: sf.MCTS(iterations=20000).act(big))
    measure("`MCTS(time=1000).act`, Subsume 30", lambda: sf.MCTS(time=1000).act(big))
    measure(
        "`MCTS(iterations=10**9, threads=2).analyse`",
        lambda: sf.MCTS(iterations=10**9, threads=2).analyse(wf),
    )
    measure(
        "`simulate('windflowers', 10**7, threads=1)`",
        lambda: sf.simulate("windflowers", 10**7, threads=1),
    )
    measure("`simulate('subsume', 10**7)`, every core", lambda: sf.simulate("subsume", 10**7))
    measure(
        "`match`, native, mcts:3000 vs random, Subsume 6, threads=1",
        lambda: sf.match("subsume", duel, games=2000, threads=1, size=6),
    )
    measure(
        "`match`, the same on every core",
        lambda: sf.match("subsume", duel, games=2000, size=6),
    )
    measure(
        "`match`, a Python agent vs mcts:3000",
        lambda: sf.match("subsume", [FirstLegal(), duel[0]], games=2000, size=6),
    )
    measure(
        "`selfplay`, mcts:3000, Subsume 6",
        lambda: sf.selfplay("subsume", duel[0], games=2000, size=6),
    )
    measure(
        "`lab.evaluate`, mcts:300 agents, Subsume 5 and 6",
        lambda: sf.lab.evaluate(
            "subsume", vary={"size": [5, 6]}, agents="mcts:iterations=300", games=2000
        ),
    )
    measure(
        "`lab.evaluate`, random agents, 5·10⁶ games per variant",
        lambda: sf.lab.evaluate("subsume", vary={"size": [5, 6]}, games=5 * 10**6),
    )


if __name__ == "__main__":
    main()
