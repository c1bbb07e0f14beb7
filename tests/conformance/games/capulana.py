"""What the conformance suites need to know of Capulana's cards (RULES.md
part 4): they are named by words (``F13``; rows hold ``"F30 r>1"``), the
fixed example in its notation's messages, and which cards the rules hide
from a player."""

from __future__ import annotations

from typing import Any

from tabuleiro import capulana
from tests.conformance._support import NamedCards

#: capulana.py's message template "... like 'F30 r>1'" names no card of the state
CARDS = NamedCards(frozenset(c.name for c in capulana.CARDS), template_examples=("like 'F30 r>1'",))


def hidden_zones(state: Any, player: int) -> set[str]:
    """The deck, the others' hands, the strips the others wove this step and
    their offers, except the cards every player knows."""
    d = state.to_dict()
    out = set(d["deck"])
    for q, hand in enumerate(d["hands"]):
        if q == player:
            continue
        out |= set(hand)
        w = d["woven"][q]
        if w:
            out |= {e.split()[0] for e in d["capulanas"][q][-w:]}
    for o in d["offers"] + ([d["open_offer"]] if d["open_offer"] else []):
        if o["player"] != player:
            out |= set(o["cards"])
    return out - set(d["known"])
