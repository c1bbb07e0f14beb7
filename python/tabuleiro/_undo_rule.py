"""The engine's undo rule for a seat-bound session (docs/protocol.md, "The
undo rule"): a seat may take back only its own moves that showed it
nothing its view before them did not determine.
"""

from __future__ import annotations

import itertools
from typing import Any, Optional

from ._errors import IllegalMoveError, InvalidStateError

#: How many determinizations the undo rule plays the seat's own move in (besides the true world and from_view's).
UNDO_WORLDS = 256


def undo_shows(after: Any, seat: int) -> bool:
    """Would taking back the last move ``m`` of ``after`` let ``seat`` decide
    again knowing something it did not know before ``m``? (docs/protocol.md,
    "The undo rule".) True means refuse.

    Another player's move: always (the seat is not told which move it was, and
    what its view shows of it can depend on cards the seat does not see, so
    the seat could learn from it and then take back its own earlier move).

    The seat's own move: unless the seat's view after ``m`` (``V'``) is
    determined by its view before (``V``) and ``m``. The engine cannot visit
    every world consistent with ``V``; it plays ``m`` in the true one, in
    ``Game.from_view(V)`` (hidden cards in their first possible places) and in
    :data:`UNDO_WORLDS` draws of ``determinize(seat, k)`` (uniform over those
    worlds; fixed seeds, so the answer depends only on the position), and
    refuses when any of them (where ``m`` is legal) gives a view other than
    ``V'``."""
    before = after.clone()
    m = before.pop()
    if before.current_player != seat:
        return True
    want = after.view(seat)
    view = before.view(seat)
    try:
        first = [before.clone(), before.game.from_view(view, seat)]   # before itself stays unplayed
    except (InvalidStateError, ValueError):     # pragma: no cover - from_view loads every view; the others suffice
        first = [before.clone()]
    worlds = itertools.chain(first, (before.determinize(seat, k) for k in range(UNDO_WORLDS)))
    for world in worlds:
        try:
            world.push(m.action)
        except IllegalMoveError:
            continue                            # not legal in this world (the seat's moves rarely depend on it)
        if world.view(seat) != want:
            return True
    return False


def undo_refusal(state: Any, seat: int, count: int) -> Optional[str]:
    """Why ``seat`` may not take back the last ``count`` moves of ``state``
    (each judged by :func:`undo_shows`, latest first), or None when it may.
    A game whose determinization is not exact refuses every take-back: the
    worlds sampled would not be the ones the seat's view allows."""
    if not state.game.determinize_is_exact:
        return ("this game's determinization is not exact (legacy_determinize), so the undo rule cannot sample "
                "the worlds a seat's view allows: a seat-bound session cannot take moves back")
    probe = state.clone()
    for k in range(count):
        if undo_shows(probe, seat):
            return (f"{'the last move' if k == 0 else f'move {k + 1} from the end'} showed seat {seat} something "
                    "its view before it did not determine (a card, a deal, an auction, a weaving step) or was "
                    "another player's: a seat-bound session cannot take it back")
        probe.pop()
    return None
