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
ismcts     information-set MCTS, nodes keyed by (player, information state)
=========  ==================================================================

Search parameters: ``iterations`` (default 1000), ``time`` (seconds; with
``iterations=0`` the search runs on time alone), ``c`` (UCT exploration;
default 1.4 for Capivárias' ±1 returns, 0.7 for Capulana's 0..1 returns), ``rollout`` (``"random"`` or
``"heuristic"``), ``threads`` (root parallelism, GIL released), ``seed``,
``max_nodes`` (node cap per thread; the tree stops growing there).
"""

from __future__ import annotations

import random as _random
from dataclasses import dataclass
from typing import Any, NamedTuple, Optional

from . import _capivarias, capivarias

__all__ = ["Agent", "Analysis", "RandomAgent", "GreedyAgent", "SearchAgent", "make", "NAMES"]

_MASK = (1 << 64) - 1
_KINDS = {"flatmc": 0, "mcts": 1, "ismcts": 2}
NAMES = ("random", "greedy", "flatmc", "mcts", "ismcts")


class Analysis(NamedTuple):
    move: Any
    visits: int
    mean: float


def _mix(seed: int, key: int) -> int:
    z = (seed * 0x9E3779B97F4A7C15 + key) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def _game(state: Any) -> tuple[Any, Any]:
    """(core module, Move class) of a state's game."""
    if isinstance(state, capivarias.State):
        return _capivarias, capivarias.Move
    try:
        from . import _capulana, capulana
    except ImportError:  # pragma: no cover - the Capulana engine is optional here
        raise TypeError(f"agents play Capivárias and Capulana states, not {type(state).__name__}") from None
    if isinstance(state, capulana.State):
        return _capulana, capulana.Move
    raise TypeError(f"agents play Capivárias and Capulana states, not {type(state).__name__}")


def _mover_seed(state: Any, seed: int) -> tuple[int, int]:
    player = state.current_player
    if player is None:
        raise ValueError("the game is over: there is no move to choose")
    return player, _mix(seed, state.infostate_key(player))


@dataclass(frozen=True)
class Agent:
    """Base class: ``choose(state) -> Move`` and ``analyse(state)``."""

    seed: int = 0

    @property
    def name(self) -> str:
        raise NotImplementedError

    def choose(self, state: Any) -> Any:
        raise NotImplementedError

    def analyse(self, state: Any) -> list[Analysis]:
        """The candidate moves with visit counts and mean values, best first."""
        return [Analysis(self.choose(state), 1, 0.0)]


@dataclass(frozen=True)
class RandomAgent(Agent):
    """Uniform over the legal moves."""

    @property
    def name(self) -> str:
        return "random"

    def choose(self, state: Any) -> Any:
        _, seed = _mover_seed(state, self.seed)
        return _random.Random(seed).choice(state.legal_moves())


@dataclass(frozen=True)
class GreedyAgent(Agent):
    """The move with the best immediate score (ties at random)."""

    @property
    def name(self) -> str:
        return "greedy"

    def choose(self, state: Any) -> Any:
        core, move_cls = _game(state)
        _, seed = _mover_seed(state, self.seed)
        return move_cls(core.greedy_action(state, seed))


@dataclass(frozen=True)
class SearchAgent(Agent):
    """flatmc, mcts or ismcts in the C core (GIL released)."""

    kind: str = "ismcts"
    iterations: int = 1000
    time: Optional[float] = None
    c: Optional[float] = None
    rollout: str = "random"
    threads: int = 1
    max_nodes: int = 1 << 20

    def __post_init__(self) -> None:
        if self.kind not in _KINDS:
            raise ValueError(f"unknown search {self.kind!r}; choose from {sorted(_KINDS)}")
        if self.rollout not in ("random", "heuristic"):
            raise ValueError(f"rollout must be 'random' or 'heuristic', not {self.rollout!r}")
        if not isinstance(self.iterations, int) or self.iterations < 0:
            raise ValueError(f"iterations must be a non-negative integer, not {self.iterations!r}")
        if self.time is not None and not self.time > 0:
            raise ValueError(f"time must be a positive number of seconds, not {self.time!r}")
        if self.iterations == 0 and self.time is None:
            raise ValueError("give a budget: iterations > 0 or time=")
        if not isinstance(self.threads, int) or not 1 <= self.threads <= 64:
            raise ValueError(f"threads must be 1..64, not {self.threads!r}")
        if self.c is not None and not self.c >= 0:
            raise ValueError(f"c must be >= 0 or None (the game's default), not {self.c!r}")
        if not isinstance(self.max_nodes, int) or self.max_nodes < 16:
            raise ValueError(f"max_nodes must be an integer >= 16, not {self.max_nodes!r}")
        if not isinstance(self.seed, int) or not 0 <= self.seed < 2**64:
            raise ValueError(f"seed must be in [0, 2**64), not {self.seed!r}")

    @property
    def name(self) -> str:
        return self.kind

    def _run(self, state: Any) -> tuple[Any, list[tuple[int, int, float]], Any]:
        core, move_cls = _game(state)
        player, seed = _mover_seed(state, self.seed)
        world = state.determinize(player, seed)   # the search only ever sees this world's view
        c = self.c if self.c is not None else (1.4 if core is _capivarias else 0.7)
        best, stats, _, _, _ = core.search(
            world, _KINDS[self.kind], seed, self.iterations, self.time or 0.0, c,
            1 if self.rollout == "heuristic" else 0, self.threads, self.max_nodes,
        )
        return best, stats, move_cls

    def choose(self, state: Any) -> Any:
        best, _, move_cls = self._run(state)
        return move_cls(best)

    def analyse(self, state: Any) -> list[Analysis]:
        _, stats, move_cls = self._run(state)
        out = [Analysis(move_cls(a), v, m) for a, v, m in stats]
        out.sort(key=lambda x: (-x.visits, -x.mean, x.move.action))
        return out


def make(name: str, **params: Any) -> Agent:
    """An agent by name: ``random``, ``greedy``, ``flatmc``, ``mcts``, ``ismcts``.

    >>> make("mcts", iterations=200, seed=3).iterations
    200
    """
    if name == "random":
        return RandomAgent(**params)
    if name == "greedy":
        return GreedyAgent(**params)
    if name in _KINDS:
        return SearchAgent(kind=name, **params)
    raise ValueError(f"unknown agent {name!r}; choose from {', '.join(NAMES)}")
