"""Which games an arena plays: deal seeds, tables of agents, seat rotations.

Every deal (a seed derived from the run's master seed) is played once per
seat rotation of every table of agents (:func:`schedule`), so the luck of the
deal cancels out. Each agent's seed in a game is mixed from the deal seed,
its seat and its own seed (SplitMix64): the same run gives the same games
whatever the backend or job count.

>>> tables(3, 2), rotations((0, 1, 0))
([(0, 1), (0, 2), (1, 2)], [(0, 1, 0), (1, 0, 0), (0, 0, 1)])
>>> [lineup for _, _, lineup in schedule(2, 2, deals=2, seed=1)]
[(0, 1), (1, 0), (0, 1), (1, 0)]
"""

from __future__ import annotations

import itertools
from typing import Sequence

__all__ = ["GameSpec", "MAX_GAMES", "deal_seed", "tables", "rotations", "schedule"]

_MASK = (1 << 64) - 1
#: The most games one run schedules (the plan is held in memory, ~140 bytes a game).
MAX_GAMES = 2_000_000


def _mix(a: int, b: int) -> int:
    """SplitMix64 finaliser of ``a * golden + b``: the arena's seed derivation."""
    z = (a * 0x9E3779B97F4A7C15 + b + 0x632BE59BD9B4E019) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def deal_seed(seed: int, deal: int) -> int:
    """The seed of deal number ``deal`` of an arena run with master ``seed``."""
    return _mix(seed, deal)


def _seat_seed(deal_seed_: int, seat: int, agent_seed: int) -> int:
    """An agent's seed in one game: its deal, its seat and its own seed."""
    return _mix(_mix(deal_seed_, seat + 1), agent_seed)


GameSpec = tuple[int, int, tuple[int, ...]]   # (deal, deal seed, agent index per seat)


def tables(n_agents: int, n_players: int) -> list[tuple[int, ...]]:
    """The tables of agents (agent index per seat before rotation): every
    combination when there are more agents than seats, else one table with
    the agents repeated in turn to fill the seats."""
    if n_agents >= n_players:
        return list(itertools.combinations(range(n_agents), n_players))
    return [tuple(i % n_agents for i in range(n_players))]


def rotations(table: Sequence[int]) -> list[tuple[int, ...]]:
    """Every seat rotation of a table, each once."""
    out: list[tuple[int, ...]] = []
    for r in range(len(table)):
        t = tuple(table[r:]) + tuple(table[:r])
        if t not in out:
            out.append(t)
    return out


def schedule(n_agents: int, n_players: int, deals: int, seed: int, mode: str = "all",
             first_deal: int = 0) -> list[GameSpec]:
    """The games of an arena in order: deal by deal, each deal played by every
    table (``mode="all"``) or by one table in turn (``"cycle"``), in every seat
    rotation.

    :raises ValueError: more than :data:`MAX_GAMES` games.
    """
    ts = tables(n_agents, n_players)
    if mode not in ("all", "cycle"):
        raise ValueError(f"schedule must be 'all' or 'cycle', not {mode!r}")
    sizes = [len(rotations(t)) for t in ts]
    most = deals * (sum(sizes) if mode == "all" else max(sizes))
    if most > MAX_GAMES:
        raise ValueError(f"{deals} deals make {most} games, more than the {MAX_GAMES} one run "
                         "schedules: run fewer deals")
    out: list[GameSpec] = []
    for d in range(first_deal, first_deal + deals):
        ds = deal_seed(seed, d)
        for t in (ts if mode == "all" else [ts[d % len(ts)]]):
            for lineup in rotations(t):
                out.append((d, ds, lineup))
    return out
