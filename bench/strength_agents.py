"""Experimental agents for the strength work of issue 25 (docs/strength.md,
*Against the baseline build*): each is a built-in search with one thing
changed, played in the arena as a ``module:attr`` factory spec, e.g.

    tabuleiro arena capivarias --agents 'bench.strength_agents:lcb:z=1.0' engine:baseline ...

(run from the repository's root, so that ``bench`` imports). A direction
that SPRT accepts moves into the C search as its default; one that does
not stays here, written up, as a record of what was tried.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from tabuleiro import agents

__all__ = ["GreedyWeave", "LcbChild", "greedy_weave", "lcb"]


def _check_iterations(iterations: Any) -> None:
    """ValueError unless iterations is a positive int (bools refused)."""
    if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
        raise ValueError(f"iterations must be a positive integer, not {iterations!r}")


@dataclass
class LcbChild:
    """ISMCTS whose final move is the root child with the highest lower
    confidence bound ``mean - z / sqrt(visits)`` (returns lie in [-1, 1]),
    instead of the most visited one (the robust child, today's rule).

    With ``z = 0`` it is the max child (best mean); large ``z`` tends to the
    robust child. Children with no visits are never chosen.
    """

    z: float = 1.0
    iterations: int = 1000
    seed: int = 0
    search: agents.SearchAgent = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if isinstance(self.z, bool) or not isinstance(self.z, (int, float)) or not (math.isfinite(self.z)
                                                                                    and self.z >= 0):
            raise ValueError(f"z must be a finite number >= 0, not {self.z!r}")
        _check_iterations(self.iterations)
        self.search = agents.SearchAgent(kind="ismcts", iterations=self.iterations, seed=self.seed)

    def choose(self, state: Any) -> Any:
        res = self.search.search(state)
        tried = [a for a in res.analysis if a.visits > 0]
        if not tried:
            return res.move
        # most visits break ties, then the lowest action id: deterministic
        best = max(tried, key=lambda a: (a.mean - self.z / math.sqrt(a.visits), a.visits, -a.move.action))
        return best.move


def lcb(*, seed: int = 0, z: float = 1.0, iterations: int = 1000) -> LcbChild:
    """The arena factory: ``bench.strength_agents:lcb:z=1.0,iterations=1000``."""
    return LcbChild(z=z, iterations=iterations, seed=seed)


@dataclass
class GreedyWeave:
    """A probe, not a candidate: Capulana's ``greedy`` move in a weaving
    turn (the best complete weaving step), ``ismcts`` everywhere else (the
    auction). It asks whether a small-budget search loses to ``greedy`` in
    the weaving, where a hundred random rollouts cannot rank thousands of
    placements, or in the bidding, where ``greedy`` plays at random.
    """

    iterations: int = 100
    seed: int = 0
    search: agents.SearchAgent = field(init=False, repr=False)
    greedy: agents.GreedyAgent = field(init=False, repr=False)

    def __post_init__(self) -> None:
        _check_iterations(self.iterations)
        self.search = agents.SearchAgent(kind="ismcts", iterations=self.iterations, seed=self.seed)
        self.greedy = agents.GreedyAgent(seed=self.seed)

    def choose(self, state: Any) -> Any:
        if state.phase == "weave":
            return self.greedy.choose(state)
        return self.search.choose(state)


def greedy_weave(*, seed: int = 0, iterations: int = 100) -> GreedyWeave:
    """The arena factory: ``bench.strength_agents:greedy_weave:iterations=100``."""
    return GreedyWeave(iterations=iterations, seed=seed)
