"""The Python event feed that csrc/<game>_json.c replaced (tabuleiro at
commit 5d32849: Game.public_events, Game._seen_move, Capivárias' and Toy's
hooks, _capulana_events), kept verbatim as the oracle tests/test_state_json.py
holds sr_events_json to. Only the glue differs: functions taking the game."""
# mypy: ignore-errors

from __future__ import annotations

from typing import Any, Optional


# --- _capulana_events.py ---

def cp_seen_move(state: State, move: Move, player: int) -> tuple[Optional[str], str]:
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


def _cp_names(cards: list[str]) -> str:
    return " ".join(cards) or "nothing"


def cp_aftermath(before: State, after: State, player: int) -> list[dict[str, Any]]:
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
                        "text": f"slot {k} ({card}): P{winner} ({_cp_names(won['cards'])}) beats "
                                f"P{lost['player']} ({_cp_names(lost['cards'])}); P{winner} takes {card}"
                                + (f" and {_cp_names(lost['cards'])}" if lost["cards"] else "")
                                + (f", P{lost['player']} takes {_cp_names(won['cards'])}" if won["cards"] else "")})
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


# --- Game defaults and the other games ---

def default_seen_move(self, state: Any, move: Any, player: int) -> tuple[Optional[str], str]:
    """(notation or None, text) of the move as ``player`` sees it. By
    default a player sees only their own moves; a game whose rules show
    some moves to everyone overrides this."""
    mover = state.current_player
    if mover == player:
        return str(move), f"P{mover}: {move}"
    return None, f"P{mover} moved"


def cv_seen_move(self, state: Any, move: Any, player: int) -> tuple[Optional[str], str]:
    """Every move is public (a card taken from the row, face up, 2.4)."""
    return str(move), f"P{state.current_player}: {move}"


def cv_aftermath(self, before: Any, after: Any, player: int) -> list[dict[str, Any]]:
    b, a = before.to_dict(), after.to_dict()
    if a["round"] == b["round"] and a["winner"] is None and a["round_wins"] == b["round_wins"]:
        return []
    won = [p for p in (0, 1) if a["round_wins"][p] > b["round_wins"][p]]
    who = " and ".join(f"P{p}" for p in won) or "nobody"
    out: list[dict[str, Any]] = [{
        "kind": "round_end", "round": b["round"], "winners": won, "round_wins": list(a["round_wins"]),
        "text": f"round {b['round']} ends: {who} {'win' if len(won) > 1 else 'wins'} it "
                f"(round wins {a['round_wins'][0]}-{a['round_wins'][1]})"}]
    if not after.is_terminal:
        out.append({"kind": "round", "round": a["round"], "text": f"round {a['round']} begins"})
    return out


def toy_seen_move(self, state: Any, move: Any, player: int) -> tuple[Optional[str], str]:
    """Every move is public (a card played face up); the draw after it is not."""
    return str(move), f"P{state.current_player}: {move}"


def old_public_events(self, state: Any, move: Any, player: int) -> list[dict[str, Any]]:
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < self.num_players:
        raise ValueError(f"player must be an integer in [0, {self.num_players - 1}], not {player!r}")
    mover = state.current_player
    m = state.parse_move(move) if isinstance(move, (str, int)) else move
    after = state.clone()
    after.push(m)
    notation, text = SEEN[self.name](self, state, m, player)
    events: list[dict[str, Any]] = [{"kind": "move", "player": mover, "move": notation, "text": text}]
    events += AFTER[self.name](self, state, after, player)
    o = after.outcome()
    if o is not None:
        who = ", ".join(f"P{w}" for w in o.winners) or "nobody"
        events.append({"kind": "over", "winners": list(o.winners), "scores": list(o.scores),
                       "text": f"the game is over: {who} {'wins' if len(o.winners) == 1 else 'win'}"})
    return events


SEEN = {"capivarias": cv_seen_move, "capulana": lambda self, s, m, p: cp_seen_move(s, m, p), "toy": toy_seen_move}
AFTER = {"capivarias": cv_aftermath, "capulana": lambda self, b, a, p: cp_aftermath(b, a, p), "toy": lambda self, b, a, p: []}
