"""Capulana in the front ends: its :class:`Presentation` (the terminal game,
the demo, the strength ladder). No rich here: the drawings, and what they
compute from a seat's view, are in ``_capulana_screen``.

>>> PRESENTATION.levels[:5]
('random', 'greedy', 8, 30, 100)
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

_RULES = """\
How to play Capulana (1 of 2: the game; rules 2: the screen)
Goal: after 4 rounds, the best capulana: a row of fabric cards whose visible
strips score in sets, plus the points of the revealed objectives you meet.
A round: as many cards as players are announced in slots, then
  Offer: each player makes 2 offers, on two different slots: bid 1 picks slot
    1, offer F13 adds a card of your hand face down (1 to 3 cards; empty only
    with at most 1 card in hand), done closes the offer. Every slot gets
    exactly 2 offers. The others see who offered on which slot, and how many
    cards, but not which.
  Auction: slot by slot, the offer of higher total value ($) wins (a tie: more
    cards, then the player nearer the start player). The winner takes the
    announced card and the loser's cards; the loser takes the winner's cards.
    Every offered and announced card is known to all from then on.
  Weaving: in turn, each player adds 0, 1 or 2 cards of their hand to the
    right end of their row (stop ends the turn early); no raw strip may be
    left visible. Nobody sees what the others wove until everyone has.
Scoring: a set is a run of 3 or more visible strips of one colour, or of one
pattern, and scores its length; a wild strip (*) counts for every colour (or
pattern). Colour sets and pattern sets both count. Final score: sets +
objectives met; the highest wins (tied players share the win)."""

_SCREEN = """\
How to play Capulana (2 of 2: the screen; rules: the game)
Y◆            a strip: its colour (Y yellow, G green, R red, B blue, O orange,
              * any colour) and pattern (◆ diamonds, ▲ triangles, ● circles,
              ≋ zigzags, ♣ leaves, ✱ any pattern); ░░ is raw: no colour, no
              pattern
F13 $10 ...   a fabric card: its name, its value in an auction, its 4 strips
objective     the 3 revealed objectives and their points
slot          the announced cards and the offers on them: yours with their
              cards, the others' face down (how many cards); (open): still
              being made
score 16+3    a capulana's set points now + the objectives it meets now
hand          how many cards each player holds, + how many lie in offers;
              known: cards everyone saw in an auction, held by that player
              (while offers are made, in their hand or in a face-down offer)
ᵏ             a card of your hand that the others know you hold
woven ✓       that player has finished weaving this step
weaving grid  a row per card and orientation (n as printed, r turned 180°),
              a column per placement (+ touching, >k over the last k strips,
              <k under, hiding its own first k strips); a cell is the move's
              number → your row's score after it (moves 2: the next page)"""

class CapulanaPresentation(Presentation):
    """Capulana: offers face down until the auction resolves, weaving hidden
    until the step ends (R5-R7); the moves list groups weaves by card.

    >>> PRESENTATION.normalise("f13 R>2"), PRESENTATION.normalise("Offer f13"), PRESENTATION.normalise("DONE")
    ('F13 r>2', 'offer F13', 'done')
    """

    levels = ("random", "greedy", 8, 30, 100, 1000, 2500, 5000, 10000, 20000)
    # the search the ladder was recalibrated with for issue 25 (docs/levels.md): today's defaults, pinned;
    # Capulana's policy has no horizon and no rollout baseline, so horizon=False and
    # control_variates=False only say what the ladder played
    level_search = {"c": 0.4, "rollout": "random", "shaped": True, "prior": True, "horizon": False,
                    "control_variates": False}
    notation = (
        "bid 1          start an offer on slot 1",
        "offer F13      add F13 to your offer (up to 3 cards)",
        "done           close your offer",
        "F13 r>2        weave F13 turned (n: as printed), over 2 strips (+ touching,",
        "               >k over k strips, <k under k strips)",
        "stop           end your weaving turn",
    )

    def rules(self, game: "Game") -> list[str]:
        """Two pages: the game and the screen.

        >>> from tabuleiro import load_game
        >>> [len(p.splitlines()) <= PRESENTATION.page_lines for p in PRESENTATION.rules(load_game("capulana"))]
        [True, True]
        """
        return [_RULES, _SCREEN]

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

    def moves_view(self, state: "State", me: int, page: int = 1) -> "RenderableType":
        """The moves; the weaving grid in pages that fit a 24-line terminal."""
        from ._capulana_screen import moves_view

        return moves_view(state, me, page)

    def compact(self, state: "State", me: int, labels: Sequence[str]) -> list["RenderableType"]:
        from ._capulana_screen import compact

        return compact(state, me, labels)

    def events(self, before: "State", after: "State", move: Any, mover: int, labels: Sequence[str],
               scored: Optional["State"] = None) -> list["Event"]:
        from ._capulana_screen import events
        from .tui.render import round_banners

        return events(before, after, move, mover, labels) + round_banners(before, move)

    def final_screen(self, state: "State", viewer: int, me: Optional[int],
                     labels: Sequence[str]) -> list["RenderableType"]:
        from ._capulana_screen import final_screen

        return final_screen(state, viewer, me, labels)


#: The presentation ``Capulana.presentation()`` returns.
PRESENTATION = CapulanaPresentation()
