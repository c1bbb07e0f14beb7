"""Capivárias in the front ends: its :class:`Presentation` (the terminal
game, the demo, the strength ladder). No rich here: the drawings, and what
they compute from a seat's view, are in ``_capivarias_screen``.

>>> from tabuleiro import capivarias
>>> PRESENTATION.title(capivarias.new_game(seed=1, expansion=True).game)
'Capivárias + expansion'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Optional, Sequence

from ._present import Presentation

if TYPE_CHECKING:
    from rich.console import RenderableType

    from ._game import Game
    from ._state import State
    from .tui.render import Event

__all__ = ["PRESENTATION", "CapivariasPresentation"]

class CapivariasPresentation(Presentation):
    """Capivárias: every move public, a round's river drawn as it was scored.

    >>> PRESENTATION.normalise("c3"), PRESENTATION.normalise("discard kx")
    ('C3', 'discard KX')
    """

    levels = ("random", 2, 4, 8, "greedy", 100, 300, 1000, 3000, 10000)
    featured = True
    public_moves = True
    notation = (
        "C3 · X1 · T5   take a herd card into segment 0",
        "V2             take a capiolin (it enters the first segment where your side is empty)",
        "OP1@2/C3       capionça under segment 2 pushing C3 (OS switch one, OA1@1 switch all, OP2@1 no target)",
        "KC/C4          capitico on its guardian C4 ·  S1/KC  capissor sends KC and its guardian to segment 0",
        "discard KX     take a card that cannot be placed",
    )

    def title(self, game: "Game") -> str:
        return game.title + (" + expansion" if game.params.get("expansion") else "")

    def normalise(self, text: str) -> str:
        parts = text.split()
        if parts and parts[0].lower() == "discard":
            return " ".join(["discard"] + [x.upper() for x in parts[1:]])
        return " ".join(x.upper() for x in parts)

    def apply(self, state: "State", move: Any) -> Optional["State"]:
        """``apply_round_end``: the river as scored when the move ended a round."""
        scored: Optional["State"] = state.apply_round_end(move)  # type: ignore[attr-defined]
        return scored

    def demo_lines(self, before: "State", after: "State", scored: Optional["State"]) -> list[str]:
        if scored is None:
            return []
        return ["", f"--- end of round {scored.to_dict()['round']}: the river as scored ---", str(scored),
                f"round wins now {after.to_dict()['round_wins']}", ""]

    def demo_result(self, state: "State", moves: int) -> str:
        d = state.to_dict()
        result = "a draw (R30)" if d["winner"] is None else f"player {d['winner']} wins"
        return f"{moves} moves, {d['round']} rounds: {result}; returns {state.returns()}"

    def board(self, game: "Game", view: Mapping[str, Any], me: int, labels: Sequence[str]) -> "RenderableType":
        from ._capivarias_screen import board

        return board(view, me, labels)

    def events(self, before: "State", after: "State", move: Any, mover: int, labels: Sequence[str],
               scored: Optional["State"] = None) -> list["Event"]:
        from ._capivarias_screen import events

        return events(after, move, mover, labels, scored)

    def scored_screen(self, scored: "State", viewer: Optional[int], labels: Sequence[str]) -> Optional["RenderableType"]:
        from ._capivarias_screen import board

        return board(scored.view(0), viewer, labels, wins=False,
                     title=f"The river as scored, round {scored.view(0)['round']}")

    def final_screen(self, state: "State", viewer: int, me: Optional[int],
                     labels: Sequence[str]) -> list["RenderableType"]:
        from ._capivarias_screen import final_screen

        return [final_screen(state, me, labels)]


#: The presentation ``Capivarias.presentation()`` returns.
PRESENTATION = CapivariasPresentation()
