"""Build Capivárias positions for tests: name the cards that matter, the rest
of the game's cards go to the pile in card-index order."""

from __future__ import annotations

from typing import Any, Mapping, Optional, Sequence

import tabuleiro
from tabuleiro import capivarias


def position(
    *,
    sides: Sequence[Sequence[Sequence[str]]] = (((), ()), ((), ()), ((), ())),
    river: Sequence[str] = ("C3", "X3", "T4"),
    capionca: Sequence[Optional[str]] = (None, None, None),
    available: Sequence[str] = ("C2", "X2"),
    discard: Sequence[str] = (),
    pile: Optional[Sequence[str]] = None,
    expansion: bool = False,
    to_move: Optional[int] = 0,
    round: int = 1,
    round_wins: Sequence[int] = (0, 0),
    last_taker: Optional[int] = None,
    winner: Optional[int] = None,
    seed: int = 7,
    rest_to: str = "pile",
) -> dict[str, Any]:
    used = set(river) | {c for c in capionca if c} | set(available) | set(discard)
    for seg in sides:
        for side in seg:
            used |= set(side)
    rest = [c.name for c in capivarias.CARDS if (expansion or not c.expansion) and c.name not in used]
    if rest_to == "discard":
        discard, pile = list(discard) + [c for c in rest if c not in (pile or ())], list(pile or ())
    elif pile is None:
        pile = rest
    order = {c.name: c.index for c in capivarias.CARDS}
    return {
        "game": "capivarias",
        "expansion": expansion,
        "round": round,
        "round_wins": list(round_wins),
        "to_move": to_move,
        "last_taker": last_taker if round > 1 and last_taker is not None else (1 if round > 1 else None),
        "winner": winner,
        "seed": seed,
        "segments": [
            {"river": river[i], "capionca": capionca[i], "sides": [sorted(s, key=order.__getitem__) for s in sides[i]]}
            for i in range(3)
        ],
        "available": list(available),
        "pile": list(pile),
        "discard": sorted(discard, key=order.__getitem__),
    }


def load_loose(d: Mapping[str, Any]) -> capivarias.State:
    """d loaded without the counts the rules imply for the round (available
    and pile sizes, whose turn, round wins: issue 26), which a position that
    names only the cards a ruling needs does not keep; every other check
    applies."""
    g = tabuleiro.load_game("capivarias", expansion=d["expansion"])
    return g._core.decode(g._encode_dict(d), loose=True)  # type: ignore[no-any-return]


def load(**kw: Any) -> capivarias.State:
    return load_loose(position(**kw))


def sides_of(state: capivarias.State) -> list[list[list[str]]]:
    return [seg["sides"] for seg in state.to_dict()["segments"]]
