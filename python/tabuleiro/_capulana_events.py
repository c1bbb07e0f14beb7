"""What a Capulana seat sees happen (the engine's event feed): which moves the
rules show to everyone, and the public results a move sets off. The Capulana
game (``capulana.Capulana``) hands ``Game.public_events`` these two hooks.

A bid and ``done`` are public; an offered card is face down (who, which slot
and how many cards are shown, 1.3); weaving is hidden until every player has
finished the step (R7). Public results: each slot's auction when the last
offer closes (every offered and announced card is public then, R6), everyone's
weaving when the step ends, and the next round's announced cards.

An auction event's ``revealed`` holds what the offers were: the table sees
them turned up, but no view keeps it (a view shows who holds each card
afterwards, not which offer it came from).
"""

from __future__ import annotations

from typing import Any, Optional

from ._state import Move, State


def seen_move(state: State, move: Move, player: int) -> tuple[Optional[str], str]:
    """(notation or None, text) of ``move`` as ``player`` sees it."""
    q = state.current_player
    kind = move.kind  # type: ignore[attr-defined]
    d = state.to_dict()
    if kind == "bid":
        return str(move), f"P{q} bids on slot {move.slot} ({d['slots'][move.slot]})"  # type: ignore[attr-defined]
    if kind == "done":
        o = d["open_offer"]
        n = len(o["cards"])
        return str(move), f"P{q} closes an offer of {n} card{'s' * (n != 1)} on slot {o['slot']}"
    if q == player:
        return str(move), f"P{q}: {move}"
    if kind == "offer":
        return None, f"P{q} adds a card to the offer on slot {d['open_offer']['slot']}, face down"
    return None, f"P{q} weaves (shown when the step ends)"


def _names(cards: list[str]) -> str:
    return " ".join(cards) or "nothing"


def aftermath(before: State, after: State, player: int) -> list[dict[str, Any]]:
    """The auction's results, the weaving shown at the end of a step, and a
    new round's start, in that order (each is public by R6/R7)."""
    b, a = before.to_dict(), after.to_dict()
    out: list[dict[str, Any]] = []
    if b["phase"] == "offer" and a["phase"] != "offer":          # the last offer closed: the auction (R5)
        offers = b["offers"] + [b["open_offer"]]
        for k, card in enumerate(b["slots"]):
            pair = [o for o in offers if o["slot"] == k]
            winner = a["known"][card]
            won = next(o for o in pair if o["player"] == winner)
            lost = next(o for o in pair if o is not won)
            out.append({"kind": "auction", "slot": k, "card": card, "winner": winner, "loser": lost["player"],
                        "revealed": {"offers": [{"player": o["player"], "cards": list(o["cards"])} for o in pair]},
                        "text": f"slot {k} ({card}): P{winner} ({_names(won['cards'])}) beats "
                                f"P{lost['player']} ({_names(lost['cards'])}); P{winner} takes {card}"
                                + (f" and {_names(lost['cards'])}" if lost["cards"] else "")
                                + (f", P{lost['player']} takes {_names(won['cards'])}" if won["cards"] else "")})
    if b["phase"] == "weave" and a["phase"] != "weave":          # everyone's weaving is shown (R7)
        for q in range(b["players"]):
            start = len(b["capulanas"][q]) - b["woven"][q]
            cards = a["capulanas"][q][start:]
            out.append({"kind": "woven", "player": q, "cards": cards,
                        "text": f"P{q} wove {', '.join(cards) or 'nothing'}"})
    if a["round"] > b["round"] and not after.is_terminal:
        out.append({"kind": "round", "round": a["round"], "slots": list(a["slots"]),
                    "text": f"round {a['round']} begins: slots {' '.join(a['slots'])}"})
    return out
