"""Seats of a terminal game: ``human`` or an agent spec, and strength levels.

A seat spec is ``human`` or an agent name with optional ``key=value``
parameters after colons: ``greedy``, ``ismcts:iterations=2000:c=0.7``,
``level:7`` (a strength level, 1..10).

>>> parse_spec("ismcts:iterations=2000:c=0.7")
('ismcts', {'iterations': 2000, 'c': 0.7})
>>> parse_spec("level:7")
('level', {'level': 7})
>>> split_seats("human,ismcts:iterations=500,c=1,greedy")
['human', 'ismcts:iterations=500:c=1', 'greedy']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from .. import agents
from .._fields import parse_loose

__all__ = ["DEFAULT_LEVEL", "Seat", "level_agent", "make_seat", "parse_spec", "split_seats"]

#: The level of agent seats without a spec: greedy in every game's ladder
#: (docs/levels.md), the cheapest strong opponent.
DEFAULT_LEVEL = 5

_MASK = (1 << 64) - 1


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``name[:key=value]...`` (``level:N`` is short for ``level:level=N``).

    :raises ValueError: an empty name or a parameter without ``=``.
    """
    parts = [p.strip() for p in spec.strip().split(":")]
    name, args = parts[0].lower(), parts[1:]
    if not name:
        raise ValueError(f"seat {spec!r}: no agent name")
    params: dict[str, Any] = {}
    for a in args:
        if not a:
            continue
        key, eq, val = a.partition("=")
        if not eq:
            if name == "level" and "level" not in params:
                key, val = "level", a
            else:
                raise ValueError(f"seat {spec!r}: parameter {a!r} is not key=value")
        params[key.strip()] = parse_loose(val.strip())
    return name, params


def split_seats(text: str) -> list[str]:
    """Comma-separated seat specs; a ``key=value`` item continues the spec
    before it (``ismcts:iterations=500,c=1`` is one seat)."""
    out: list[str] = []
    for item in (t.strip() for t in text.split(",")):
        if "=" in item and ":" not in item and out:
            out[-1] += ":" + item
        else:
            out.append(item)
    return out


def _mix(a: int, b: int) -> int:
    z = (a * 0x9E3779B97F4A7C15 + b + 1) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def level_agent(level: int, seed: int) -> tuple[agents.Agent, str]:
    """The agent of a strength level (1..10, ``agents.make("level", ...)``)
    and how to describe it."""
    if isinstance(level, bool) or not isinstance(level, int) or not 1 <= level <= 10:
        raise ValueError(f"level must be an integer 1..10, not {level!r}")
    return agents.make("level", level=level, seed=seed), f"level {level}"


@dataclass
class Seat:
    """One seat: ``spec`` as it is saved (agents with their seed), ``agent``
    (None for a person) and ``label`` for the screen."""

    spec: str
    agent: Optional[agents.Agent]
    label: str

    @property
    def human(self) -> bool:
        return self.agent is None

    def budget_in(self, game: str) -> Optional[int]:
        """The iteration budget of a search agent in ``game`` (for the
        spinner); a level's is that of the agent it plays there.

        >>> make_seat("level:8", 1, 7).budget_in("capivarias")
        1000
        >>> make_seat("greedy", 1, 7).budget_in("capivarias") is None
        True
        """
        agent = self.agent
        if isinstance(agent, agents.LevelAgent):
            agent = agent.agent_for(game)
        it = getattr(agent, "iterations", None)
        return it if isinstance(it, int) and it > 0 else None

    def describe(self, game: str) -> str:
        """What the seat plays in ``game``, as docs/levels.md's ladder says
        it: a level's agent with its iterations a move; "" for a person.

        >>> make_seat("level:8", 1, 7).describe("capulana")
        'ismcts, 5,000 iterations a move'
        >>> make_seat("level:5", 1, 7).describe("capivarias")
        'greedy: the best immediate score, no search (levels 6 to 10 search and are stronger)'
        >>> make_seat("level:2", 1, 7).describe("capulana")
        'greedy: the best immediate score, no search (levels 3 to 10 search and are stronger)'
        >>> make_seat("greedy", 1, 7).describe("capivarias")
        'the best immediate score, no search'
        """
        agent = self.agent
        if agent is None:
            return ""
        level = None
        if isinstance(agent, agents.LevelAgent):
            level, agent = agent.level, agent.agent_for(game)
        name = agent.name
        it = getattr(agent, "iterations", None)
        if isinstance(it, int) and it > 0:
            return f"{name}, {it:,} iterations a move"
        secs = getattr(agent, "time", None)
        if secs:
            return f"{name}, {secs:g} s a move"
        what = _PLAIN.get(name, name)
        if level is not None and name == "greedy":
            return f"greedy: {what} (levels {level + 1} to 10 search and are stronger)"
        return what


_PLAIN = {"greedy": "the best immediate score, no search", "random": "random moves"}



def make_seat(spec: str, index: int, game_seed: int) -> Seat:
    """A seat from its spec; an agent without ``seed=`` gets one mixed from
    the game's seed and the seat index.

    >>> make_seat("human", 0, 7).human
    True
    >>> s = make_seat("ismcts:iterations=300", 1, 7)
    >>> s.label, s.agent.iterations, s.spec.startswith("ismcts:iterations=300:seed=")
    ('ismcts 300', 300, True)

    :raises ValueError: (or TypeError) an unknown agent or a bad parameter.
    """
    name, params = parse_spec(spec)
    if name == "human":
        if params:
            raise ValueError("the human seat takes no parameters")
        return Seat("human", None, "you")
    if "seed" not in params:
        params["seed"] = _mix(game_seed, index)
    spec_out = ":".join([name] + [f"{k}={v}" for k, v in params.items()])
    if name == "level":
        spec_out = ":".join(["level", str(params.get("level"))] +
                            [f"{k}={v}" for k, v in params.items() if k != "level"])
        level = params.pop("level", None)
        seed = params.pop("seed")
        if params:
            raise ValueError(f"seat {spec!r}: a level takes only level and seed")
        agent, label = level_agent(level, seed)
        return Seat(spec_out, agent, label)
    agent = agents.make(name, **params)
    label = name
    budget = getattr(agent, "iterations", 0)
    if budget:
        label += f" {budget}"
    elif getattr(agent, "time", None):
        label += f" {agent.time:g}s"  # type: ignore[attr-defined]
    return Seat(spec_out, agent, label)
