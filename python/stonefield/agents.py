"""Agents by name: the agent strings of the command line, the lab and the play page.

An agent string is a name, optionally followed by a colon and comma-separated ``key=value``
settings::

    random                      a RandomAgent (seed 0)
    random:seed=3
    mcts                        MCTS with 1000 iterations
    mcts:iterations=2000,c=1.0,threads=2,time=0.5,solver=false

``mcts`` takes the keyword arguments of :class:`stonefield.MCTS` (``iterations``, ``time``,
``c``, ``threads``, ``solver``, ``seed``, ``max_nodes``, ``reuse``, ``selection``,
``grave_ref``, ``grave_bias``, ``playouts``, ``preset``): ``mcts:selection=grave,time=0.5``,
``mcts:preset=strong``; without ``iterations`` or ``time`` it gets 1000 iterations. ``random``
takes ``seed``. Booleans are ``true`` or ``false``; ``iterations=none`` or ``time=none`` removes
that budget; ``mcts:2000`` is short for ``mcts:iterations=2000`` (a bare number as the first
setting). ``puct`` is :class:`stonefield.PUCT` (``simulations``, ``time``, ``threads``, ``c``,
``dirichlet_alpha``, ``dirichlet_fraction``, ``batch_size``, ``seed``, ``max_nodes``; with
``time`` and no ``simulations`` as many simulations as the time allows:
``puct:time=0.1,threads=2``) guided by the native rollout evaluator, or by a network trained with ``stonefield train`` (``checkpoint=PATH``, played with
numpy alone): ``puct:simulations=400,checkpoint=run/latest.npz``. As a player it searches
without root noise unless ``dirichlet_fraction`` is given. ``expert`` is the PUCT search guided
by the network shipped in the package for the game it plays (:func:`stonefield.expert`), with
PUCT's settings (``time``, ``simulations``, ``threads``, ``seed``, ...; 400 simulations when no
budget is given): ``expert``, ``expert:simulations=200,seed=1``, ``expert:time=0.1``. Every
mistake raises :class:`stonefield.InvalidOptionError` with a one-line message naming what is
allowed.

>>> parse_agent("mcts:iterations=2000,c=1.0")
MCTS(iterations=2000, time=None, c=1.0, threads=1, solver=None, seed=0, max_nodes=10000000, reuse=False)
>>> parse_agent("random:seed=3")
RandomAgent(seed=3)
>>> parse_agent("puct:simulations=200,seed=1")
PUCT('rollout', simulations=200, time=None, threads=1, c=1.25, dirichlet_alpha=0.3, dirichlet_fraction=0, batch_size=32, seed=1, max_nodes=10000000)
>>> agent_string(parse_agent("puct:simulations=200,c=2"))
'puct:simulations=200,c=2.0'
>>> agent_string(parse_agent("puct:time=0.1,threads=2"))
'puct:time=0.1,threads=2'
>>> agent_string(parse_agent("mcts:time=0.5,solver=false"))
'mcts:time=0.5,solver=false'
>>> agent_string(parse_agent("expert:simulations=200,seed=1"))
'expert:simulations=200,seed=1'
>>> parse_agent("alphazero")
Traceback (most recent call last):
...
stonefield.InvalidOptionError: unknown agent "alphazero"; agents: random, mcts, puct, expert (e.g. mcts:iterations=2000,c=1.0)
"""  # noqa: E501

from __future__ import annotations

from typing import Any, Callable, Protocol, Union, runtime_checkable

from ._core import MCTS, PUCT, InvalidOptionError, RandomAgent, RecordError, State

__all__ = [
    "Agent",
    "NativeAgent",
    "agent_kind",
    "agent_string",
    "is_native",
    "parse_agent",
    "rebuilt",
]

#: Agents whose whole games run in Rust.
NativeAgent = Union[MCTS, RandomAgent]

#: The one table of the native agent kinds: the class of each kind an agent string names.
#: Every one has ``seed`` and ``with_seed(seed)``, so that all of them are seated and
#: re-seeded the same way (``stonefield._seeds``).
_KIND_CLASSES: dict[str, type] = {"mcts": MCTS, "puct": PUCT, "random": RandomAgent}


def agent_kind(agent: object) -> str | None:
    """The kind of a native agent (``"mcts"``, ``"puct"`` or ``"random"``), None for any
    other agent: the one place that tells the kinds apart. An expert (``sf.expert``, the
    agent string ``expert``) is a ``"puct"``: a PUCT search that :func:`agent_string` writes
    back as ``expert:...``.

    >>> import stonefield as sf
    >>> agent_kind(sf.PUCT(simulations=10)), agent_kind(sf.RandomAgent()), agent_kind(object())
    ('puct', 'random', None)
    """
    for kind, cls in _KIND_CLASSES.items():
        if isinstance(agent, cls):
            return kind
    return None


#: Iterations of a bare ``mcts`` (no budget given).
DEFAULT_ITERATIONS = 1000


@runtime_checkable
class Agent(Protocol):
    """Anything with ``act(state) -> int`` (a legal action for ``state.current_player``)."""

    def act(self, state: State) -> int: ...


def _int(text: str) -> int:
    return int(text)


def _float(text: str) -> float:
    return float(text)


def _bool(text: str) -> bool:
    low = text.lower()
    if low not in ("true", "false"):
        raise ValueError
    return low == "true"


def _grave_ref(text: str) -> float:
    if text.lower() in ("inf", "infinity"):
        return float("inf")
    return int(text)


def _optional(parse: Callable[[str], Any]) -> Callable[[str], Any]:
    def inner(text: str) -> Any:
        return None if text.lower() == "none" else parse(text)

    return inner


# Per agent name: its settings, each with a parser and the words for its error message.
_SETTINGS: dict[str, dict[str, tuple[Callable[[str], Any], str]]] = {
    "random": {"seed": (_int, "an integer ≥ 0")},
    "mcts": {
        "iterations": (_optional(_int), "an integer ≥ 1 or none"),
        "time": (_optional(_float), "seconds > 0 or none"),
        "c": (_float, "a number ≥ 0"),
        "threads": (_int, "an integer from 1 to 256"),
        "solver": (_optional(_bool), "true, false or none"),
        "seed": (_int, "an integer ≥ 0"),
        "max_nodes": (_int, "an integer"),
        "reuse": (_bool, "true or false"),
        "selection": (str, "uct or grave"),
        "grave_ref": (_grave_ref, "an integer ≥ 1 or inf"),
        "grave_bias": (_float, "a number ≥ 0"),
        "playouts": (str, "random, mast or knowledge"),
        "preset": (str, "strong"),
    },
    "puct": {
        "simulations": (_optional(_int), "an integer ≥ 1 or none"),
        "time": (_optional(_float), "seconds > 0 or none"),
        "threads": (_int, "an integer from 1 to 256"),
        "c": (_float, "a number ≥ 0"),
        "dirichlet_alpha": (_float, "a number > 0"),
        "dirichlet_fraction": (_float, "a number from 0 to 1"),
        "batch_size": (_int, "an integer from 1 to 65536"),
        "seed": (_int, "an integer ≥ 0"),
        "max_nodes": (_int, "an integer ≥ 1024"),
        "evaluator": (str, "rollout"),
        "checkpoint": (str, "the path of a checkpoint written by stonefield train"),
    },
    "expert": {
        "time": (_optional(_float), "seconds > 0 or none"),
        "simulations": (_optional(_int), "an integer ≥ 1 or none"),
        "threads": (_int, "an integer ≥ 1"),
        "seed": (_int, "an integer ≥ 0"),
        "c": (_float, "a number ≥ 0"),
        "dirichlet_alpha": (_float, "a number > 0"),
        "dirichlet_fraction": (_float, "a number from 0 to 1"),
        "batch_size": (_int, "an integer from 1 to 65536"),
        "max_nodes": (_int, "an integer ≥ 1024"),
    },
}

#: The agent kinds an agent string may name: the one grammar of ``match``, ``play``'s seats,
#: the lab and the ladder.
AGENT_KINDS = tuple(_SETTINGS)

#: Every setting of :class:`stonefield.PUCT` an agent string may set, beside ``checkpoint``.
PUCT_SETTINGS = (
    "simulations",
    "time",
    "threads",
    "c",
    "dirichlet_alpha",
    "dirichlet_fraction",
    "batch_size",
    "seed",
    "max_nodes",
)

#: Root noise of a ``puct`` agent string: none (an agent string names a player; self-play
#: that wants AlphaZero's noise builds ``sf.PUCT`` itself or asks for it).
PUCT_STRING_NOISE = 0.0

#: Every setting of :class:`stonefield.MCTS`, in its constructor's order: what an agent string
#: may set, and what an agent is rebuilt from when it is seated or reseeded.
MCTS_SETTINGS = tuple(_SETTINGS["mcts"])

_EXAMPLE = "mcts:iterations=2000,c=1.0"

#: The settings a preset decides (they read None on an agent with a preset).
_PRESET_DECIDES = ("c", "selection", "grave_ref", "grave_bias", "playouts")

#: ``grave_ref`` as the agent reports an infinite one.
_INFINITE_REF = 2**32 - 1


def parse_agent(text: str) -> Any:
    """Builds the agent an agent string names.

    Args:
        text: ``NAME`` or ``NAME:key=value,key=value`` (see the module documentation).

    Returns:
        A :class:`stonefield.MCTS`, :class:`stonefield.RandomAgent` or
        :class:`stonefield.PUCT` (``puct``, and ``expert``: the expert of whichever game it
        plays, see :func:`stonefield.expert`).

    Raises:
        InvalidOptionError: an unknown name or setting, a malformed value, or settings the
            agent rejects (the message names what is allowed).
        TypeError: ``text`` is not a string.

    >>> parse_agent("mcts:iterations=50,threads=2").threads
    2
    >>> parse_agent("mcts:iters=50")
    Traceback (most recent call last):
    ...
    stonefield.InvalidOptionError: agent "mcts:iters=50": unknown setting "iters"; mcts takes iterations, time, c, threads, solver, seed, max_nodes, reuse, selection, grave_ref, grave_bias, playouts, preset
    >>> parse_agent("random:seed=x")
    Traceback (most recent call last):
    ...
    stonefield.InvalidOptionError: agent "random:seed=x": seed must be an integer ≥ 0, got "x"
    """  # noqa: E501
    if not isinstance(text, str):
        raise TypeError(f"an agent string is a str, got {type(text).__name__}")
    name, sep, rest = text.strip().partition(":")
    name = name.strip().lower()
    if name not in _SETTINGS:
        raise InvalidOptionError(
            f'unknown agent "{name}"; agents: {", ".join(_SETTINGS)} (e.g. {_EXAMPLE})'
        )
    allowed = _SETTINGS[name]
    settings: dict[str, Any] = {}
    for k, item in enumerate(rest.split(",") if sep and rest.strip() else []):
        key, eq, value = (part.strip() for part in item.partition("="))
        if k == 0 and not eq and name == "mcts" and key.isdigit():
            key, eq, value = "iterations", "=", key
        if not eq or not key:
            raise InvalidOptionError(
                f'agent "{text}": expected key=value, got "{item.strip()}" (e.g. {_EXAMPLE})'
            )
        key = key.lower().replace("-", "_")
        if key not in allowed:
            raise InvalidOptionError(
                f'agent "{text}": unknown setting "{key}"; {name} takes {", ".join(allowed)}'
            )
        if key in settings:
            raise InvalidOptionError(f'agent "{text}": setting "{key}" is given twice')
        parse, words = allowed[key]
        try:
            settings[key] = parse(value)
        except ValueError:
            raise InvalidOptionError(
                f'agent "{text}": {key} must be {words}, got "{value}"'
            ) from None
    try:
        if name == "random":
            return RandomAgent(**settings)
        if name == "puct":
            return _puct(settings)
        if name == "expert":
            from .experts import build

            return build(None, settings)
        if "iterations" not in settings and "time" not in settings:
            settings["iterations"] = DEFAULT_ITERATIONS
        return MCTS(**settings)
    except InvalidOptionError as e:
        raise InvalidOptionError(f'agent "{text}": {e}') from None


def _puct(settings: dict[str, Any]) -> Any:
    """The PUCT agent of a ``puct`` agent string's settings."""
    from ._core import PUCT

    checkpoint = settings.pop("checkpoint", None)
    evaluator: Any = settings.pop("evaluator", "rollout")
    if checkpoint is not None:
        if evaluator != "rollout":
            raise InvalidOptionError("give evaluator or checkpoint, not both")
        from ._checkpoint import read_checkpoint

        try:
            evaluator = read_checkpoint(checkpoint)
        except RecordError as e:
            raise InvalidOptionError(f"checkpoint {e}") from None
    elif evaluator != "rollout":
        raise InvalidOptionError(f"evaluator must be rollout, got {evaluator!r}")
    settings.setdefault("dirichlet_fraction", PUCT_STRING_NOISE)
    return PUCT(evaluator, **settings)


def _puct_string(agent: Any) -> str:
    """The agent string of a PUCT search: the settings that differ from a ``puct`` string's
    defaults, and its evaluator (``checkpoint=PATH`` for a network read from a checkpoint, the
    evaluator's name for any other callable)."""
    default = PUCT(simulations=1, dirichlet_fraction=PUCT_STRING_NOISE)
    parts = []
    for key in PUCT_SETTINGS:
        value = getattr(agent, key)
        if key == "simulations" and value is None:
            # As many as the time allows: what a string with time and no simulations means.
            continue
        if value != getattr(default, key) or key == "simulations":
            parts.append(f"{key}={value}")
    evaluator = agent.evaluator
    path = getattr(evaluator, "path", None)
    if not isinstance(path, str):
        path = getattr(getattr(evaluator, "__self__", None), "path", None)
    if isinstance(path, str):
        parts.append(f"checkpoint={path}")
    elif evaluator != "rollout":
        parts.append(f"evaluator={getattr(evaluator, '__qualname__', type(evaluator).__name__)}")
    return "puct:" + ",".join(parts)


def _puct_settings(agent: Any) -> dict[str, Any]:
    """The settings of a PUCT agent, ``time`` and ``threads`` too where PUCT has them and the
    agent's differ from the defaults."""
    settings = {k: getattr(agent, k) for k in PUCT_SETTINGS}
    for key, default in (("time", None), ("threads", 1)):
        value = getattr(agent, key, default)
        if value != default:
            settings[key] = value
    return settings


#: The budget setting of each kind of search: what makes it stronger or weaker.
BUDGETS = {"mcts": "iterations", "puct": "simulations"}


def rebuilt(agent: Any, **changes: Any) -> Any:
    """A native agent rebuilt with ``changes`` to its settings, every other setting kept
    (a PUCT's evaluator too): the one way an agent is copied at another budget.

    >>> import stonefield as sf
    >>> rebuilt(sf.PUCT(simulations=10, c=0.5), simulations=40).c
    0.5

    Raises:
        TypeError: ``agent`` is not a native agent.
    """
    kind = agent_kind(agent)
    if kind == "random":
        return RandomAgent(**{"seed": agent.seed, **changes})
    if kind == "mcts":
        return MCTS(**{**{k: getattr(agent, k) for k in MCTS_SETTINGS}, **changes})
    if kind == "puct":
        return PUCT(agent.evaluator, **{**_puct_settings(agent), **changes})
    raise TypeError(f"only native agents can be rebuilt, got {type(agent).__name__}")


def is_native(agent: object) -> bool:
    """Whether whole games of this agent can run in Rust (an MCTS or a RandomAgent).

    >>> import stonefield as sf
    >>> is_native(sf.MCTS(iterations=10)), is_native(object())
    (True, False)
    """
    return agent_kind(agent) in ("mcts", "random")


def agent_string(agent: object) -> str:
    """A short name for an agent: the agent string of a native agent (settings that differ
    from the defaults), else the ``name`` attribute or the class name of a Python agent.

    >>> import stonefield as sf
    >>> agent_string(sf.MCTS(iterations=500, seed=2)), agent_string(sf.RandomAgent())
    ('mcts:iterations=500,seed=2', 'random')
    """
    kind = agent_kind(agent)
    native: Any = agent  # its kind says what it is
    if kind == "random":
        return "random" if native.seed == 0 else f"random:seed={native.seed}"
    if kind == "mcts":
        default = MCTS(iterations=1)
        # GRAVE's default c differs from UCT's.
        default_c = MCTS(iterations=1, selection=native.selection or "uct").c
        parts = []
        for key in MCTS_SETTINGS:
            value = getattr(native, key)
            if key == "c" and value == default_c:
                continue
            if key == "iterations":
                # A bare "mcts" means 1000 iterations, and no iterations with a time budget.
                if value is None or (value == DEFAULT_ITERATIONS and native.time is None):
                    continue
            elif value == getattr(default, key) or (value is None and key in _PRESET_DECIDES):
                # A preset's own settings read None: the preset names them.
                continue
            if key == "grave_ref" and value == _INFINITE_REF:
                value = "inf"
            shown = "none" if value is None else str(value).lower()
            parts.append(f"{key}={shown}")
        return "mcts" + (":" + ",".join(parts) if parts else "")
    if kind == "puct":
        from .experts import expert_string

        return expert_string(agent) or _puct_string(agent)
    name = getattr(agent, "name", None)
    return name if isinstance(name, str) else type(agent).__name__
