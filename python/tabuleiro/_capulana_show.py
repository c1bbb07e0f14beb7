"""Capulana in the front ends: its :class:`Presentation` (the terminal game,
the demo, the strength ladder). No rich here: the drawings, and what they
compute from a seat's view, are in ``_capulana_screen``.

>>> PRESENTATION.levels[:5]
('random', 8, 30, 100, 'greedy')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Optional, Sequence

from ._present import Presentation

if TYPE_CHECKING:
    from rich.console import RenderableType

    from ._game import Game
    from ._state import State
    from .tui.render import Event

__all__ = ["PRESENTATION", "CapulanaPresentation"]

class CapulanaPresentation(Presentation):
    """Capulana: offers face down until the auction resolves, weaving hidden
    until the step ends (R5-R7); the moves list groups weaves by card.

    >>> PRESENTATION.normalise("f13 R>2"), PRESENTATION.normalise("Offer f13"), PRESENTATION.normalise("DONE")
    ('F13 r>2', 'offer F13', 'done')
    """

    levels = ("random", 8, 30, 100, "greedy", 1000, 2500, 5000, 10000, 20000)
    notation = (
        "bid 1          start an offer on slot 1",
        "offer F13      add F13 to your offer (up to 3 cards) ·  done  close it",
        "F13 r>2        weave F13: n/r orientation; + touching, >k over k strips, <k under k strips",
        "stop           end your weaving turn",
    )

    def normalise(self, text: str) -> str:
        parts = text.split()
        if len(parts) == 1:
            return parts[0].lower()
        if len(parts) == 2 and parts[0].lower() in ("bid", "offer"):
            return f"{parts[0].lower()} {parts[1].upper()}"
        if len(parts) == 2:
            return f"{parts[0].upper()} {parts[1].lower()}"
        return text

    def demo_lines(self, before: "State", after: "State", scored: Optional["State"]) -> list[str]:
        rnd = before.to_dict()["round"]
        if after.is_terminal or after.to_dict()["round"] != rnd:
            return ["", f"--- after round {rnd} ---", str(after), ""]
        return []

    def demo_result(self, state: "State", moves: int) -> str:
        scores = state.scores()
        best = max(scores)
        winners = [p for p, x in enumerate(scores) if x == best]
        return f"{moves} moves; final scores {scores}; winner(s) {winners}; returns {state.returns()}"

    def board(self, game: "Game", view: Mapping[str, Any], me: int, labels: Sequence[str]) -> "RenderableType":
        from ._capulana_screen import board

        return board(view, me, labels)

    def moves_view(self, state: "State", me: int) -> "RenderableType":
        from ._capulana_screen import moves_view

        return moves_view(state, me)

    def compact(self, state: "State", me: int, labels: Sequence[str]) -> list["RenderableType"]:
        from ._capulana_screen import compact

        return compact(state, me, labels)

    def events(self, before: "State", after: "State", move: Any, mover: int, labels: Sequence[str],
               scored: Optional["State"] = None) -> list["Event"]:
        from ._capulana_screen import events

        return events(before, after, move, mover, labels)

    def final_screen(self, state: "State", viewer: int, me: Optional[int],
                     labels: Sequence[str]) -> list["RenderableType"]:
        from ._capulana_screen import final_screen

        return final_screen(state, viewer, me, labels)


#: The presentation ``Capulana.presentation()`` returns.
PRESENTATION = CapulanaPresentation()
