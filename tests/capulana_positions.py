"""Build Capulana positions for tests: name the cards that matter, every other
fabric card goes to the deck in card-index order."""

from __future__ import annotations

from typing import Any, Mapping, Optional, Sequence

import tabuleiro
from tabuleiro import capulana

FABRIC = [c.name for c in capulana.CARDS if c.is_fabric]


def position(
    *,
    players: int = 2,
    round: int = 1,
    start_player: int = 0,
    phase: str = "offer",
    to_move: Optional[int] = 0,
    slots: Optional[Sequence[str]] = None,
    offers: Sequence[Mapping[str, Any]] = (),
    open_offer: Optional[Mapping[str, Any]] = None,
    hands: Optional[Sequence[Sequence[str]]] = None,
    capulanas: Optional[Sequence[Sequence[str]]] = None,
    woven: Optional[Sequence[int]] = None,
    weave_done: Optional[Sequence[bool]] = None,
    known: Optional[Mapping[str, int]] = None,
    objectives: Sequence[str] = ("OBJ1", "OBJ5", "OBJ9"),
    seed: int = 12345,
) -> dict[str, Any]:
    if slots is None:
        slots = ["F41", "F42", "F43", "F44", "F45"][:players] if phase == "offer" else []
    hands = hands or [[] for _ in range(players)]
    capulanas = capulanas or [[f"I{p + 1} n+"] for p in range(players)]
    used = set(slots)
    for o in list(offers) + ([open_offer] if open_offer else []):
        used.update(o["cards"])
    for h in hands:
        used.update(h)
    for row in capulanas:
        used.update(e.split()[0] for e in row)
    return {
        "game": "capulana",
        "players": players,
        "round": round,
        "start_player": start_player,
        "phase": phase,
        "to_move": to_move,
        "seed": seed,
        "objectives": list(objectives),
        "deck": [c for c in FABRIC if c not in used],
        "slots": list(slots),
        "offers": [dict(o) for o in offers],
        "open_offer": dict(open_offer) if open_offer else None,
        "hands": [sorted(h) for h in hands],
        "capulanas": [list(r) for r in capulanas],
        "woven": list(woven or [0] * players),
        "weave_done": list(weave_done or [phase == "over"] * players),
        "known": dict(known or {}),
    }


def load_loose(d: Mapping[str, Any]) -> capulana.State:
    """d loaded without the counts the rules imply for the phase and round
    (deck and hand sizes: issue 26), which a position that names only the
    cards a ruling needs does not keep; every other check applies."""
    g = tabuleiro.load_game("capulana", players=d["players"])
    return g._core.decode(g._encode_dict(d), loose=True)  # type: ignore[no-any-return]


def load(**kw: Any) -> capulana.State:
    return load_loose(position(**kw))


def moves(state: capulana.State) -> list[str]:
    return [str(m) for m in state.legal_moves()]
