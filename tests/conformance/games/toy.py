"""What the conformance suites need to know of Toy's cards: the integers
1..6 (written ``play 3``, ``card 3``, ``[1, 4]`` in text), and which of
them the rules hide from a player."""

from __future__ import annotations

from typing import Any

from tabuleiro import toy
from tests.conformance._support import NumberedCards

CARDS = NumberedCards(toy.NUM_CARDS)


def hidden_zones(state: Any, player: int) -> set[str]:
    """The other player's hand and the stock."""
    d = state.to_dict()
    return {str(c) for c in d["hands"][1 - player] + d["stock"]}
