"""stonefield: fast, exact engines for The Smallholder, Windflowers, Faraday and Subsume.

The rules run in Rust; this package is the Python face of it.

>>> import stonefield as sf
>>> "windflowers" in sf.games()
True
>>> game = sf.make("windflowers", players=3, grid="square", size=4)
>>> game.num_sites, game.num_actions
(36, 37)
>>> state = game.new_state()
>>> state.apply(0)
>>> state.current_player
1
>>> int(state.board[0])
1
"""

from __future__ import annotations

from ._core import (
    MCTS,
    PUCT,
    EvaluatorError,
    Game,
    GameOverError,
    IllegalMoveError,
    InvalidOptionError,
    RandomAgent,
    RecordError,
    SearchResult,
    SolveInterrupted,
    SolveResult,
    SolveTable,
    State,
    StateGraph,
    StonefieldError,
    VectorEnv,
    __version__,
    games,
    make,
    state_graph,
)
from ._methods import attach as _attach_methods
from .agents import parse_agent
from .batch import SimulationResult, simulate
from .experts import expert
from .matches import Match, MatchInterrupted, match
from .options import option_spec, parse_options
from .proofs import ProofCheck, solve, verify_proof
from .records import from_record, to_record
from .records import load as load_record
from .records import save as save_record
from .render import to_svg
from .selfplay import SelfPlayData, selfplay
from .solver import Solver
from .strategies import MirrorAgent, RestrictedAgent
from .text import board_text

_attach_methods()

__all__ = [
    "EvaluatorError",
    "Game",
    "GameOverError",
    "IllegalMoveError",
    "InvalidOptionError",
    "MCTS",
    "Match",
    "MatchInterrupted",
    "MirrorAgent",
    "PUCT",
    "ProofCheck",
    "RandomAgent",
    "RecordError",
    "RestrictedAgent",
    "SearchResult",
    "SelfPlayData",
    "SimulationResult",
    "SolveInterrupted",
    "SolveResult",
    "SolveTable",
    "Solver",
    "State",
    "StateGraph",
    "StonefieldError",
    "VectorEnv",
    "__version__",
    "board_text",
    "expert",
    "from_record",
    "games",
    "load_record",
    "make",
    "match",
    "option_spec",
    "parse_agent",
    "parse_options",
    "save_record",
    "selfplay",
    "simulate",
    "solve",
    "state_graph",
    "to_record",
    "to_svg",
    "verify_proof",
]


def __getattr__(name: str) -> object:
    # stonefield.lab (the variant lab) loads on first use, so `import stonefield` stays light.
    if name == "lab":
        import importlib

        return importlib.import_module(".lab", __name__)
    raise AttributeError(f"module 'stonefield' has no attribute {name!r}")
