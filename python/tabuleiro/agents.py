"""AI opponents for both games.

>>> from tabuleiro import agents, capivarias
>>> bot = agents.make("ismcts", iterations=500, seed=1)
>>> s = capivarias.new_game(seed=4)
>>> move = bot.choose(s)            # never mutates s, never peeks at hidden cards
>>> move in s.legal_moves()
True
>>> top = bot.analyse(s)[0]         # (move, visits, mean value) for UIs
>>> top.visits > 0
True

Agents are frozen dataclasses: picklable by their parameters, so arenas can
ship them to other processes. Every agent is deterministic: the same
parameters (seed included) and the same view give the same move. Before it
searches, an agent replaces the state by ``state.determinize(player, seed')``
with ``seed'`` mixed from its seed and the player's information-state key, so
nothing it computes can depend on cards the player cannot see.

=========  ==================================================================
name       what it does
=========  ==================================================================
random     uniform over the legal moves
greedy     best immediate score (Capulana: the best ``weaving_options`` step)
flatmc     flat Monte Carlo over root moves (rollouts from determinizations)
mcts       UCT over determinized worlds, one tree over action histories
ismcts     information-set MCTS (in Capivárias open loop on chance)
level      a strength level 1..10: one of the above with a budget (``LEVELS``)
=========  ==================================================================

Parameters, checked once by :func:`make` (``TypeError`` for a wrong type,
``ValueError`` for a value out of range):

================  =========================  ====================================================
parameter         type and range             meaning
================  =========================  ====================================================
seed              int in [0, 2**64)          every agent: same seed and view, same move
iterations        int in [0, 2**62]          search budget in simulations (0: time alone)
time              float in (0,86400] / None  wall-clock budget in seconds (with iterations: both)
c                 float in [0, 1000] / None  UCT exploration; None = the game's default
rollout           "random" / "heuristic"     rollout policy below the tree
shaped            bool / None                the game's shaped reward instead of its true returns
prior             bool / None                progressive widening under the game's move prior
horizon           bool / None                rollouts end at the game's horizon (Capivárias: the round's last take, played greedily; no effect where a game has none)
control_variates  bool / None                uniform rollouts (``rollout='random'``) corrected step by step by the game's rollout baseline: the same mean, less noise (Capivárias; no effect where a game has none); None = the game's default for ismcts with the horizon on and no ``time`` budget, else off
threads           int in [1, 64]             root parallelism (GIL released); iterations are shared
max_nodes         int in [16, 2**26]         tree node cap per thread (at most 64 bytes a node)
level             int in [1, 10]             ``level`` only: the strength level (``LEVELS``)
================  =========================  ====================================================

A tree runs at most 2**32 - 1 iterations (its visit counts are 32-bit), so a
search of one thread stops there whatever its budget; threads multiply it.
All trees of one search together may take at most 8 GiB (``MAX_TREE_BYTES``):
``make`` refuses a ``max_nodes`` and ``threads`` that could exceed it, and a
tree that cannot be allocated raises ``MemoryError``.

The per-game defaults of ``c``, ``shaped``, ``prior`` and ``horizon`` are
the game's (``state.game.search_defaults``): Capivárias c=1.4 on its true ±1
returns, rollouts ending with the round (valued by the round tally, later
rounds as coin flips: docs/engine-notes.md); Capulana c=0.4 (0.7 until issue
25's SPRT, docs/strength.md; the levels too, recalibrated) on a reward half
win share, half score margin, with the weaving prior, rollouts to the end.
Capulana's prior looks one card ahead below the root and a whole weaving
step ahead at the root, where it also biases the choice of child (a
progressive bias that fades with visits), so that a small search weaves at
least as well as ``greedy`` and a large one still overrules it (issue 25).
Capivárias' ``ismcts`` corrects each uniform rollout by control variates:
at every step, what a baseline (a fitted model of the round's margin) says
of the move drawn, less its mean over every legal move, is taken off. The
rollout's mean stays the same; its variance falls by about half, at twice
the cost of a rollout (docs/strength.md: the SPRT against ``mcts``). So it
does that with an iteration budget alone: given a ``time`` budget, the
plain search's extra iterations do as well or better. ``flatmc`` and
``mcts``, and ``ismcts`` with ``horizon=False`` or a ``time`` budget, keep
plain rollouts unless asked.
A search can be stopped from another thread with ``stop=StopFlag()`` passed
to ``choose``/``analyse``; Ctrl-C raises ``KeyboardInterrupt`` within a
fraction of a second.
"""

from __future__ import annotations

import functools
import math
import random as _random
from dataclasses import dataclass
from typing import Any, Mapping, NamedTuple, Optional

from ._core import MAX_NODES, MAX_THREADS, StopFlag
from ._errors import GameOverError
from ._game import game_class, games, load_view
from ._state import State

__all__ = ["Agent", "Analysis", "RandomAgent", "GreedyAgent", "SearchAgent", "LevelAgent", "SearchResult", "StopFlag",
           "make", "NAMES", "LEVELS"]

_MASK = (1 << 64) - 1
_KINDS = {"flatmc": 0, "mcts": 1, "ismcts": 2}
#: The agent names :func:`make` takes (besides ``level``).
NAMES = ("random", "greedy", "flatmc", "mcts", "ismcts")
MAX_ITERATIONS = 1 << 62
MAX_TIME = 86400.0
#: Bytes a tree node costs at most (node, edge and hash-table slot).
NODE_BYTES = 64
#: The most memory the trees of one search may take (all threads together).
MAX_TREE_BYTES = 8 << 30


class Analysis(NamedTuple):
    """One candidate move of a search: its visits and mean value (for the mover).

    >>> from tabuleiro import toy
    >>> a = make("mcts", iterations=50, seed=1).analyse(toy.new_game(seed=2))[0]
    >>> a.move, a.visits, round(a.mean, 2)
    (Move.parse('play 6'), 49, 0.8)
    """

    move: Any
    visits: int
    mean: float


class SearchResult(NamedTuple):
    """What ``Agent.search`` found: the ``move`` to play, the candidates best
    first (``analysis``), the ``iterations`` and tree ``nodes`` it used, and
    whether a stop request (``StopFlag``) ended it early (``stopped``).

    >>> from tabuleiro import capivarias
    >>> r = make("ismcts", iterations=50, seed=1).search(capivarias.new_game(seed=4))
    >>> r.move == r.analysis[0].move, r.iterations, r.stopped
    (True, 50, False)
    """

    move: Any
    analysis: list[Analysis]
    iterations: int
    nodes: int
    stopped: bool


def _mix(seed: int, key: int) -> int:
    z = (seed * 0x9E3779B97F4A7C15 + key) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def _state(state: Any) -> State:
    """The state an agent plays from: a State, or a seat's view (a dict as
    ``State.view`` returns it, or its JSON) made into a state with
    ``Game.from_view``: the agent's worlds come from the view alone."""
    if isinstance(state, State):
        return state
    if isinstance(state, (Mapping, str, bytes)):
        return load_view(state)
    raise TypeError(f"agents play tabuleiro states or views, not {type(state).__name__}")


def _mover_seed(state: State, seed: int) -> tuple[int, int]:
    player = state.current_player
    if player is None:
        raise GameOverError("the game is over: there is no move to choose")
    return player, _mix(seed, state.infostate_key(player))


def _int(name: str, value: Any, lo: int, hi: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an integer, not {value!r}")
    if not lo <= value <= hi:
        raise ValueError(f"{name} must be in [{lo}, {hi}], not {value}")


def _float(name: str, value: Any, lo: float, hi: float, *, open_lo: bool = False) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be a number, not {value!r}")
    if math.isnan(value) or value > hi or value < lo or (open_lo and value == lo):
        raise ValueError(f"{name} must be in {'(' if open_lo else '['}{lo:g}, {hi:g}], not {value!r}")


def _opt_bool(name: str, value: Any) -> None:
    if value is not None and not isinstance(value, bool):
        raise TypeError(f"{name} must be True, False or None (the game's default), not {value!r}")


@dataclass(frozen=True)
class Agent:
    """Base class: ``choose(state) -> Move`` and ``analyse(state)``.

    >>> bot = make("random", seed=1)
    >>> isinstance(bot, Agent), bot
    (True, RandomAgent(seed=1))
    """

    seed: int = 0

    def __post_init__(self) -> None:
        _int("seed", self.seed, 0, _MASK)

    @property
    def name(self) -> str:
        """The name :func:`make` knows the agent by (``"level"`` for a strength level).

        >>> make("flatmc", iterations=50).name
        'flatmc'
        """
        raise NotImplementedError

    def choose(self, state: Any, *, stop: Optional[StopFlag] = None) -> Any:
        """The move to play: from a State, or from a seat's view (see ``_state``).

        >>> from tabuleiro import toy
        >>> s = toy.new_game(seed=2)
        >>> bot = make("random", seed=1)
        >>> bot.choose(s), bot.choose(s.view(0))      # the same view, the same move
        (Move.parse('play 3'), Move.parse('play 3'))
        """
        raise NotImplementedError

    def analyse(self, state: Any, *, stop: Optional[StopFlag] = None) -> list[Analysis]:
        """The candidate moves with visit counts and mean values, best first.

        >>> from tabuleiro import toy
        >>> [(str(a.move), a.visits) for a in make("mcts", iterations=50, seed=1).analyse(toy.new_game(seed=2))]
        [('play 6', 49), ('play 3', 1)]
        """
        return [Analysis(self.choose(state), 1, 0.0)]

    def search(self, state: Any, *, stop: Optional[StopFlag] = None) -> SearchResult:
        """The move with everything known about how it was found (one search:
        ``move`` is what ``choose`` returns, ``analysis`` what ``analyse`` does).

        >>> from tabuleiro import toy
        >>> r = make("mcts", iterations=50, seed=1).search(toy.new_game(seed=2))
        >>> r.move, r.iterations, r.stopped
        (Move.parse('play 6'), 50, False)
        """
        move = self.choose(state, stop=stop)
        return SearchResult(move, [Analysis(move, 1, 0.0)], 0, 0, False)


@dataclass(frozen=True)
class RandomAgent(Agent):
    """Uniform over the legal moves.

    >>> from tabuleiro import toy
    >>> s = toy.new_game(seed=2)
    >>> RandomAgent(seed=1).choose(s) in s.legal_moves()
    True
    """

    @property
    def name(self) -> str:
        """``"random"``.

        >>> RandomAgent().name
        'random'
        """
        return "random"

    def choose(self, state: Any, *, stop: Optional[StopFlag] = None) -> Any:
        """A legal move drawn with the agent's seed mixed with the mover's
        information state.

        >>> from tabuleiro import toy
        >>> RandomAgent(seed=1).choose(toy.new_game(seed=2))
        Move.parse('play 3')
        """
        st = _state(state).clone()          # one snapshot: the game cannot end between two reads
        _, seed = _mover_seed(st, self.seed)
        return _random.Random(seed).choice(st.legal_moves())


@dataclass(frozen=True)
class GreedyAgent(Agent):
    """The move with the best immediate score (ties at random).

    >>> from tabuleiro import toy
    >>> GreedyAgent(seed=1).choose(toy.new_game(seed=2))      # 6 points, not 3
    Move.parse('play 6')
    """

    @property
    def name(self) -> str:
        """``"greedy"``.

        >>> GreedyAgent().name
        'greedy'
        """
        return "greedy"

    def choose(self, state: Any, *, stop: Optional[StopFlag] = None) -> Any:
        """The move with the best immediate score, ties broken by the agent's
        seed mixed with the mover's information state.

        >>> from tabuleiro import capivarias
        >>> GreedyAgent(seed=1).choose(capivarias.new_game(seed=4))
        Move.parse('C4')
        """
        st = _state(state).clone()
        _, seed = _mover_seed(st, self.seed)
        return st.MOVE(st._greedy(seed))


@dataclass(frozen=True)
class SearchAgent(Agent):
    """flatmc, mcts or ismcts in the C core (GIL released).

    >>> from tabuleiro import capivarias
    >>> bot = SearchAgent(kind="flatmc", iterations=50, seed=1)
    >>> bot == make("flatmc", iterations=50, seed=1)
    True
    >>> bot.choose(capivarias.new_game(seed=4))
    Move.parse('C1')
    """

    kind: str = "ismcts"
    iterations: int = 1000
    time: Optional[float] = None
    c: Optional[float] = None
    rollout: str = "random"
    threads: int = 1
    max_nodes: int = 1 << 20
    shaped: Optional[bool] = None
    prior: Optional[bool] = None
    horizon: Optional[bool] = None
    control_variates: Optional[bool] = None

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.kind not in _KINDS:
            raise ValueError(f"unknown search {self.kind!r}; choose from {sorted(_KINDS)}")
        if self.rollout not in ("random", "heuristic"):
            raise ValueError(f"rollout must be 'random' or 'heuristic', not {self.rollout!r}")
        _int("iterations", self.iterations, 0, MAX_ITERATIONS)
        if self.time is not None:
            _float("time", self.time, 0.0, MAX_TIME, open_lo=True)
        if self.iterations == 0 and self.time is None:
            raise ValueError("give a budget: iterations > 0 or time=")
        _int("threads", self.threads, 1, MAX_THREADS)
        if self.c is not None:
            _float("c", self.c, 0.0, 1000.0)
        _int("max_nodes", self.max_nodes, 16, MAX_NODES)
        per_thread = self.max_nodes if self.iterations == 0 else min(self.max_nodes, self.iterations // self.threads + 3)
        if per_thread * self.threads * NODE_BYTES > MAX_TREE_BYTES:
            raise ValueError(f"max_nodes={self.max_nodes} with threads={self.threads} could take "
                             f"{per_thread * self.threads * NODE_BYTES / 2**30:.1f} GiB of tree; the limit is "
                             f"{MAX_TREE_BYTES >> 30} GiB (lower max_nodes or threads)")
        _opt_bool("shaped", self.shaped)
        _opt_bool("prior", self.prior)
        _opt_bool("horizon", self.horizon)
        _opt_bool("control_variates", self.control_variates)
        if self.control_variates and self.rollout != "random":
            raise ValueError("control_variates need rollout='random' (they correct by the uniform rollout's "
                             f"expectation), not rollout={self.rollout!r}")

    @property
    def name(self) -> str:
        """The search: ``kind``.

        >>> SearchAgent(kind="mcts", iterations=50).name
        'mcts'
        """
        return self.kind

    def search(self, state: Any, *, stop: Optional[StopFlag] = None) -> SearchResult:
        """One search from a determinization of the mover's view, within the
        agent's budget (or until ``stop`` is set).

        >>> from tabuleiro import capivarias
        >>> r = SearchAgent(iterations=50, seed=1).search(capivarias.new_game(seed=4))
        >>> r.move, r.iterations, r.stopped
        (Move.parse('T2'), 50, False)
        """
        st = _state(state)
        player, seed = _mover_seed(st, self.seed)
        world = st.determinize(player, seed)   # the search only ever sees this world's view
        d = st.game.search_defaults
        best, stats, iterations, nodes, _, stopped = world._search(
            _KINDS[self.kind], seed, self.iterations, float(self.time or 0.0),
            float(self.c if self.c is not None else d["c"]), self.rollout == "heuristic",
            d["shaped"] if self.shaped is None else self.shaped, d["prior"] if self.prior is None else self.prior,
            d["horizon"] if self.horizon is None else self.horizon, self._control_variates(d),
            self.threads, self.max_nodes, stop,
        )
        mv = st.MOVE
        out = [Analysis(mv(a), v, m) for a, v, m in stats]
        out.sort(key=lambda x: (-x.visits, -x.mean, x.move.action))
        return SearchResult(mv(best), out, iterations, nodes, stopped)

    def _control_variates(self, defaults: Mapping[str, Any]) -> bool:
        """Whether this agent's rollouts take control variates: as asked, else
        the game's default for ismcts with uniform rollouts to the game's
        horizon and an iteration budget alone. Not with a time budget: a
        corrected rollout costs about twice a plain one, and at equal time
        the plain search's extra iterations did as well or better
        (docs/strength.md). Not with rollouts to the game's end: the baseline
        values a round as the horizon does, and that was never measured. Not
        for flatmc or mcts, which stay the plain reference searches.

        >>> d = {"horizon": True, "control_variates": True}
        >>> SearchAgent()._control_variates(d), SearchAgent(time=0.1)._control_variates(d)
        (True, False)
        """
        if self.control_variates is not None:
            return self.control_variates
        horizon = defaults["horizon"] if self.horizon is None else self.horizon
        return (bool(defaults.get("control_variates")) and self.kind == "ismcts" and self.rollout == "random"
                and bool(horizon) and self.time is None)

    def choose(self, state: Any, *, stop: Optional[StopFlag] = None) -> Any:
        """The ``move`` of :meth:`search`.

        >>> from tabuleiro import capivarias
        >>> SearchAgent(iterations=50, seed=1).choose(capivarias.new_game(seed=4))
        Move.parse('T2')
        """
        return self.search(state, stop=stop).move

    def analyse(self, state: Any, *, stop: Optional[StopFlag] = None) -> list[Analysis]:
        """The ``analysis`` of :meth:`search`: the root moves, most visited first.

        >>> from tabuleiro import capivarias
        >>> top = SearchAgent(iterations=50, seed=1).analyse(capivarias.new_game(seed=4))[0]
        >>> top.move, top.visits
        (Move.parse('T2'), 20)
        """
        return self.search(state, stop=stop).analysis


def _ladder(*steps: Any, search: Optional[Mapping[str, Any]] = None) -> dict[int, tuple[str, dict[str, Any]]]:
    """Levels 1.. from steps: "random", "greedy", or an ismcts iteration budget.

    Each ismcts level keeps the game's ``search`` parameters (its
    presentation's ``level_search``): the ones its ladder was calibrated
    with (docs/levels.md), so that a level stays what its table says when a
    search default changes (both ladders were recalibrated for issue 25
    and keep that build's defaults: Capulana's c = 0.4, random rollouts,
    shaping and the prior; Capivárias' c = 1.4, random rollouts, no
    shaping or prior, and the last-take horizon). What no parameter names is not pinned: how the
    horizon values a round, and Capivárias' open-loop node key.
    """
    return {n: (step, {}) if isinstance(step, str)
            else ("ismcts", {"iterations": step, **(search or {})})
            for n, step in enumerate(steps, 1)}


def _levels() -> dict[str, dict[int, tuple[str, dict[str, Any]]]]:
    """Each registered game's ladder, as its presentation declares it, and
    ``"default"``: the featured game's budgets (the first game's if none is
    featured) without its pinned search parameters, which were calibrated
    for that game alone: a game without a ladder searches with its own
    defaults."""
    out: dict[str, dict[int, tuple[str, dict[str, Any]]]] = {}
    default: Optional[dict[int, tuple[str, dict[str, Any]]]] = None
    for name in games():
        shown = game_class(name).presentation()
        if shown.levels is not None:
            out[name] = _ladder(*shown.levels, search=shown.level_search)
            if shown.featured or default is None:
                default = _ladder(*shown.levels)
    out["default"] = dict(default) if default is not None else _ladder(*["random"] * 4, *["greedy"] * 6)
    return out


#: Strength levels 1..10 per game: level -> (agent name, parameters), each
#: game's declared by its presentation (``Game.presentation().levels``). Every
#: budget is in iterations, not seconds, so a level plays the same move for
#: the same seed and view on any machine. Level 10 is the strongest budget
#: the calibration found worth its time (in Capivárias the first ladder's
#: ismcts won no more past about 10,000 iterations); docs/levels.md has the
#: measured table and the command that made it. A game without a table of
#: its own uses ``"default"`` (Capivárias' budgets, with the game's own
#: search defaults). Agents are made once per (level, seed, game): after
#: changing a table, call ``_level_agent.cache_clear()``.
LEVELS: dict[str, dict[int, tuple[str, dict[str, Any]]]] = _levels()


@functools.lru_cache(maxsize=256)
def _level_agent(level: int, seed: int, game: str) -> Agent:
    """The agent of a level in a game, made (and checked) once, not every move."""
    name, params = LEVELS.get(game, LEVELS["default"])[level]
    return make(name, seed=seed, **params)


@dataclass(frozen=True, kw_only=True)
class LevelAgent(Agent):
    """A strength level, 1 (a beginner) to 10 (the strongest calibrated
    search, well under a second a move): the agent and budget :data:`LEVELS`
    gives for the game being played.

    >>> from tabuleiro import capivarias
    >>> bot = make("level", level=6, seed=2)
    >>> bot.agent_for("capivarias")
    SearchAgent(seed=2, kind='ismcts', iterations=100, time=None, c=1.4, rollout='random', threads=1, max_nodes=1048576, shaped=False, prior=False, horizon=True, control_variates=False)
    >>> s = capivarias.new_game(seed=4)
    >>> bot.choose(s) == bot.agent_for("capivarias").choose(s)
    True
    """

    level: int = 5

    def __post_init__(self) -> None:
        super().__post_init__()
        _int("level", self.level, 1, 10)

    @property
    def name(self) -> str:
        """``"level"``.

        >>> LevelAgent(level=3).name
        'level'
        """
        return "level"

    def agent_for(self, game: str) -> Agent:
        """The agent this level plays ``game`` (a registered name) with.

        >>> make("level", level=5, seed=5).agent_for("capivarias")
        GreedyAgent(seed=5)
        >>> make("level", level=1).agent_for("toy")           # LEVELS["default"]
        RandomAgent(seed=0)
        """
        return _level_agent(self.level, self.seed, game)

    def _inner(self, state: Any) -> tuple[Agent, State]:
        st = _state(state)
        return self.agent_for(st.game.name), st

    def choose(self, state: Any, *, stop: Optional[StopFlag] = None) -> Any:
        """The move of :meth:`agent_for` the state's game.

        >>> from tabuleiro import capivarias
        >>> s, bot = capivarias.new_game(seed=4), make("level", level=4, seed=1)
        >>> bot.choose(s) == bot.agent_for("capivarias").choose(s)
        True
        """
        agent, st = self._inner(state)
        return agent.choose(st, stop=stop)

    def analyse(self, state: Any, *, stop: Optional[StopFlag] = None) -> list[Analysis]:
        """The analysis of :meth:`agent_for` the state's game.

        >>> from tabuleiro import capivarias
        >>> s, bot = capivarias.new_game(seed=4), make("level", level=4, seed=1)
        >>> sum(a.visits for a in bot.analyse(s)) == bot.agent_for("capivarias").iterations
        True
        """
        agent, st = self._inner(state)
        return agent.analyse(st, stop=stop)

    def search(self, state: Any, *, stop: Optional[StopFlag] = None) -> SearchResult:
        """The search of :meth:`agent_for` the state's game.

        >>> from tabuleiro import capivarias
        >>> r = make("level", level=4, seed=1).search(capivarias.new_game(seed=4))
        >>> r.move in capivarias.new_game(seed=4).legal_moves(), r.iterations
        (True, 8)
        """
        agent, st = self._inner(state)
        return agent.search(st, stop=stop)


def make(name: str, **params: Any) -> Agent:
    """An agent by name: ``random``, ``greedy``, ``flatmc``, ``mcts``,
    ``ismcts``, or ``level`` (``level=1..10`` and ``seed``; see :data:`LEVELS`).

    >>> make("mcts", iterations=200, seed=3).iterations
    200
    >>> make("level", level=7).agent_for("capulana").iterations
    2500

    :raises ValueError: an unknown agent or a parameter out of range.
    :raises TypeError: an unknown parameter or one of the wrong type.
    """
    if name == "random":
        return RandomAgent(**params)
    if name == "greedy":
        return GreedyAgent(**params)
    if name in _KINDS:
        return SearchAgent(kind=name, **params)
    if name == "level":
        extra = sorted(set(params) - {"level", "seed"})
        if extra:
            raise TypeError(f"a strength level takes only level and seed, not {', '.join(extra)}")
        if "level" not in params:
            raise TypeError("make('level') needs level=1..10")
        return LevelAgent(**params)
    raise ValueError(f"unknown agent {name!r}; choose from {', '.join(NAMES)}, level")
