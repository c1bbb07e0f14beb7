"""What the conformance suites need to know of Capivárias' cards (RULES.md
part 4): they are named by words (``C3``, ``OP1``), and which of them the
rules hide from a player."""

from __future__ import annotations

from typing import Any

from tabuleiro import capivarias
from tests.conformance._support import NamedCards

CARDS = NamedCards(frozenset(c.name for c in capivarias.CARDS))


def hidden_zones(state: Any, player: int) -> set[str]:
    """River cards show their river side only; the pile is face down."""
    d = state.to_dict()
    return {seg["river"] for seg in d["segments"]} | set(d["pile"])
