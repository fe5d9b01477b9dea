"""Draws the learning curve of one or more training runs: the score against UCT per iteration
(a moving mean over ``--window`` iterations, with the per-iteration scores faint behind it),
and for runs evaluated against the strong preset (``--strong-games``) the score against
``mcts:preset=strong`` at equal time per move with its 95 % interval per checkpoint, dashed.

    python experiments/training/curve.py OUT.png LABEL=runs/a/results.json [LABEL=...] [--window 25]

Needs matplotlib (the ``lab`` extra). Also prints the mean score of each block of ``--block``
iterations, pooled over the block's games, with its 95 % Wilson interval, as a Markdown table.
"""

from __future__ import annotations

import argparse
import json
import math

import numpy as np


def wilson(score: float, n: int) -> tuple[float, float]:
    """95 % Wilson interval of a mean score over ``n`` games."""
    z = 1.96
    centre = (score + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(score * (1 - score) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("out")
    p.add_argument("runs", nargs="+", metavar="LABEL=RESULTS_JSON")
    p.add_argument("--window", type=int, default=25)
    p.add_argument("--block", type=int, default=100)
    args = p.parse_args()

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=110)
    opponent = "UCT"
    for spec in args.runs:
        label, path = spec.split("=", 1)
        with open(path, encoding="utf-8") as f:
            run = json.load(f)
        rows = run["rows"]
        games = run["config"]["eval_games"]
        opponent = f"UCT at {run['config']['uct_iterations']} iterations"
        rows_uct = [r for r in rows if "score_vs_uct" in r] or rows
        it = np.array([r["iteration"] for r in rows_uct])
        score = np.array([r.get("score_vs_uct", np.nan) for r in rows_uct])
        minutes = np.cumsum([r["seconds"] for r in rows]) / 60
        w = min(args.window, len(score))
        mean = np.convolve(score, np.ones(w) / w, mode="valid")
        (line,) = ax.plot(it[w - 1 :], mean, label=f"{label} ({minutes[-1]:.0f} min)")
        ax.plot(it, score, ".", color=line.get_color(), alpha=0.15, markersize=3)
        strong = [r for r in rows if "score_vs_strong" in r]
        if strong:
            si = np.array([r["iteration"] for r in strong])
            ss = np.array([r["score_vs_strong"] for r in strong])
            ax.plot(si, ss, "--", color=line.get_color(), label=f"{label}: vs strong, equal time")
            ax.fill_between(
                si,
                [r["strong_low"] for r in strong],
                [r["strong_high"] for r in strong],
                color=line.get_color(),
                alpha=0.1,
            )
            print(f"\n{label} against mcts:preset=strong at equal time per move:")
            print("| iteration | board | s a move | score vs strong | 95 % interval |")
            print("|---:|---|---:|---:|---|")
            for r in strong:
                ci = f"[{r['strong_low']:.3f}, {r['strong_high']:.3f}]"
                print(
                    f"| {r['iteration']} | {r.get('board', '')} | {r['seconds_per_move']:.4f} |"
                    f" {r['score_vs_strong']:.3f} | {ci} |"
                )
        print(f"\n{label}: {len(rows)} iterations, {minutes[-1]:.1f} minutes")
        print("| iterations | minutes | games | score against UCT | 95 % interval |")
        print("|---|---:|---:|---:|---|")
        for start in range(0, len(rows), args.block):
            block = score[start : start + args.block]
            n = len(block) * games
            lo, hi = wilson(float(block.mean()), n)
            print(
                f"| {start + 1}–{start + len(block)} | {minutes[start + len(block) - 1]:.1f} |"
                f" {n} | {block.mean():.3f} | [{lo:.3f}, {hi:.3f}] |"
            )
    ax.axhline(0.5, color="grey", linewidth=0.8, linestyle="--")
    ax.set_xlabel("iteration")
    ax.set_ylabel(f"score against {opponent}\n(moving mean of {args.window})")
    ax.set_ylim(0, 1)
    ax.legend(loc="lower right")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(args.out)


if __name__ == "__main__":
    main()
