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

_RULES = """\
How to play {title} (1 of 2: the game; rules 2: the screen)
Goal: win 2 rounds. The river has three segments, 0 to 2 in flow order, and
each segment has your side and the other player's side.
Your turn: take one of the available cards and place it:
  herd card (C capicria, X capiôx, T capitchê; number 1 to 5): it enters
    segment 0 on your side. If a card of its herd lies in that segment (either
    side), the lower number is pushed on to the next segment, which can push
    again (a 1 beats a 5); pushed out of segment 2, a card is discarded.
  capionça (OP push, OS switch one, OA switch all): under a segment that has
    none yet; at once it pushes one capybara there on, switches one to the
    other side, or switches every card there to the other side.
{expansion}The available row refills to 4 cards when 1 is left; the round ends when 1
is left and the pile is empty (who took the last card starts the next one).
Scoring: each capybara on your side scores its number + the river modifier of
its segment. The higher total wins the round; a tie is a win for both. With 2
wins you win the game; both at 2 or more: the next untied round decides; still
undecided after round 9, the game is a draw."""

_EXPANSION = """\
  capitico (K): joins a capybara of its herd (its guardian), which comes to
    your side; a guardian is never pushed; +1 point. capissor (S): sends a
    capitico and its guardian back to segment 0. capiolin (V): enters the first
    segment where your side is empty; a capybara pushed off its side switches.
"""

_CAPITICO = "C4+KC          a capybara with the capitico that guards it\n"

_SCREEN = """\
How to play Capivárias (2 of 2: the screen; rules: the game)
river ↓        the segments in flow order: 0, where herds enter, to 2
segment 1 -1   the segment's river modifier, added to each capybara scoring
               there (the river card itself is hidden: only its modifier shows)
P0 / P1        each player's side of the segment: its cards, then =N, what
               that side scores there now (numbers + modifier{plus})
{capitico}under          the capionça placed under that segment this round (· none)
round score    each side's total now: who would win if the round ended here
available      the cards you may take, with their kind (push, switch one ...)
pile           the cards left to draw; the top card's river side shows
discard        cards pushed out of segment 2{extra} and cards
               that could not be placed
round wins     rounds won so far (P0 1 – 0 P1); 2 wins the game
moves          C3 take C3 · OP1@2/C3 OP1 under segment 2, pushing C3 · OS1@0/X4
               switch X4 · OA1@1 switch all · OP2@1 no target (help: notation)
After your move you read what the other player did, in full (every move is
public), and at the end of a round the river as it was scored."""

class CapivariasPresentation(Presentation):
    """Capivárias: every move public, a round's river drawn as it was scored.

    >>> PRESENTATION.normalise("c3"), PRESENTATION.normalise("discard kx")
    ('C3', 'discard KX')
    """

    levels = ("random", 2, 4, 8, "greedy", 100, 300, 1000, 3000, 10000)
    # the ladder's calibration (docs/levels.md, issue 25): every search parameter it played with
    # (it was calibrated before ismcts took control variates by default: plain rollouts, pinned)
    level_search = {"c": 1.4, "rollout": "random", "shaped": False, "prior": False, "horizon": True,
                    "control_variates": False}
    featured = True
    notation = (
        "C3 · X1 · T5   take a herd card into segment 0",
        "OP1@2/C3       capionça OP1 under segment 2, pushing C3 (OS1@0/X4 switches X4,",
        "               OA1@1 switches all, OP2@1 has no target)",
        "discard OA1    take a card that cannot be placed (it is discarded)",
    )
    #: The notation of the expansion's cards, in ``help`` only when they are played.
    expansion_notation = (
        "V2             take a capiolin (to the first segment where your side is empty)",
        "KC/C4          capitico KC on its guardian C4",
        "S1/KC          capissor: KC and its guardian go back to segment 0",
    )

    def help_notation(self, game: "Game") -> tuple[str, ...]:
        """The base notation, and the expansion's only when it is played.

        >>> from tabuleiro import load_game
        >>> any("KC" in x for x in PRESENTATION.help_notation(load_game("capivarias")))
        False
        >>> any("KC" in x for x in PRESENTATION.help_notation(load_game("capivarias", expansion=True)))
        True
        """
        if not game.params.get("expansion"):
            return self.notation
        return self.notation[:1] + self.expansion_notation + self.notation[1:]

    def rules(self, game: "Game") -> list[str]:
        """Two pages: the game (the expansion's cards only when played) and the screen."""
        expansion = bool(game.params.get("expansion"))
        return [_RULES.format(title=self.title(game), expansion=_EXPANSION if expansion else ""),
                _SCREEN.format(capitico=_CAPITICO if expansion else "", extra=", used capissors" if expansion else "",
                               plus=", +1 a capitico" if expansion else "")]

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
        from .tui.render import round_banners

        return events(after, move, mover, labels, scored) + round_banners(before, move)

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
