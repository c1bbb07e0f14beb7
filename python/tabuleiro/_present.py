"""How the shared front ends show a game: one :class:`Presentation` per game.

``tabuleiro play`` (the TUI), ``tabuleiro demo`` and the strength levels of
``tabuleiro.agents`` ask a game's presentation (``Game.presentation()``) for
everything that differs between games: the board a seat sees, how a move is
announced, the help on the notation, the round-end and final screens, the
demo's lines, the level ladder. They never branch on a game's name. A game
without a presentation of its own gets this base class, which draws a seat's
board from its view (``from_view(view).text(seat)``) and announces moves
as the game's event feed shows them to each seat (``Game.public_events``).

This module imports no rich: the methods that draw import it when called, so
the demo and the agents work on the core install.

>>> from tabuleiro import load_game
>>> p = load_game("toy").presentation()
>>> isinstance(p, Presentation), p.title(load_game("toy"))
(True, 'Toy')
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, ClassVar, Mapping, Optional, Sequence, Union

if TYPE_CHECKING:
    from rich.console import RenderableType

    from ._game import Game
    from ._state import State
    from .tui.render import Event

__all__ = ["Presentation"]

#: One step of a level ladder (``agents._ladder``): "random", "greedy" or an ismcts iteration budget.
LadderStep = Union[str, int]


class Presentation:
    """The per-game hooks of the front ends, with generic defaults. A game
    module subclasses it and names the module holding its instance
    (``PRESENTATION``) in its ``Game.PRESENTATION_MODULE``.

    >>> p = Presentation()
    >>> p.normalise("play 3"), p.levels, p.featured
    ('play 3', None, False)
    """

    #: The strength ladder of ``level:1`` .. ``level:10`` (``agents.LEVELS``),
    #: as steps "random", "greedy" or an ismcts iteration budget; None: the
    #: featured game's ladder.
    levels: ClassVar[Optional[tuple[LadderStep, ...]]] = None
    #: Search parameters every ismcts level keeps whatever the game's search
    #: defaults become: the values the ladder was calibrated with
    #: (docs/levels.md), so a level stays what its table says when a
    #: default changes.
    level_search: ClassVar[Mapping[str, Any]] = {}
    #: The package's main game: the default of ``tabuleiro demo``, and its
    #: ladder is ``agents.LEVELS["default"]``.
    featured: ClassVar[bool] = False
    #: Lines of help on the notation (after ``help``'s command list); see
    #: :meth:`help_notation` for the lines of one game's parameters.
    notation: ClassVar[tuple[str, ...]] = ("a move's notation is what the numbered list shows",)
    #: The most lines a page of ``rules`` (or of the moves list, where a game
    #: pages it) may take, so that it fits a 24-line terminal with the prompt.
    page_lines: ClassVar[int] = 22

    # --- plain text (no rich) ------------------------------------------------------------
    def title(self, game: "Game") -> str:
        """The game's name with what its parameters change, for headings.

        >>> from tabuleiro import load_game
        >>> Presentation().title(load_game("toy"))
        'Toy'
        """
        return game.title

    def help_notation(self, game: "Game") -> tuple[str, ...]:
        """The lines of :attr:`notation` that ``game`` (with its parameters)
        plays; the default is all of them.

        >>> from tabuleiro import load_game
        >>> Presentation().help_notation(load_game("toy"))
        ("a move's notation is what the numbered list shows",)
        """
        return self.notation

    def rules(self, game: "Game") -> list[str]:
        """The ``rules`` command's pages, how to play ``game``: its goal and
        scoring, and what the screen's columns and symbols mean. Each page is
        plain text of at most :attr:`page_lines` lines of at most 78
        characters (a 24-line, 80-column terminal). The default says where
        the rules are.

        >>> from tabuleiro import load_game
        >>> print(Presentation().rules(load_game("toy"))[0])
        How to play Toy
        There is no how-to-play page for this game here: its rules are in the
        documentation of its module (python -m pydoc tabuleiro.<game>).
        Every legal move is in the numbered list; type its number to play it.
        """
        return [f"How to play {game.title}\n"
                "There is no how-to-play page for this game here: its rules are in the\n"
                "documentation of its module (python -m pydoc tabuleiro.<game>).\n"
                "Every legal move is in the numbered list; type its number to play it."]

    def normalise(self, text: str) -> str:
        """Typed input made into notation, tried when the text as typed is
        not a move (e.g. letter case); the default leaves it.

        >>> Presentation().normalise("Play 3")
        'Play 3'
        """
        return text

    def apply(self, state: "State", move: Any) -> Optional["State"]:
        """Play ``move`` on ``state``; a snapshot to show if the move ended a
        scored stage (a round scored before the table is reset), else None.

        >>> from tabuleiro import toy
        >>> s = toy.new_game(seed=2)
        >>> Presentation().apply(s, "play 6") is None, len(s.history())
        (True, 1)
        """
        state.push(move)
        return None

    def demo_lines(self, before: "State", after: "State", scored: Optional["State"]) -> list[str]:
        """What ``tabuleiro demo`` prints after a move (``before`` and
        ``after`` are the states around it, ``scored`` what :meth:`apply`
        returned); the default prints the table once the game is over.

        >>> from tabuleiro import toy
        >>> s = toy.new_game(seed=2)
        >>> Presentation().demo_lines(s, s, None)
        []
        """
        return ["", str(after)] if after.is_terminal else []

    def demo_result(self, state: "State", moves: int) -> str:
        """The last line of ``tabuleiro demo`` for a finished game.

        >>> from tabuleiro import toy
        >>> s = toy.new_game(seed=2)
        >>> while not s.is_terminal:
        ...     s.push(s.legal_moves()[0])
        >>> Presentation().demo_result(s, 6)
        '6 moves; final scores [14, 7]; returns [1.0, -1.0]'
        """
        return f"{moves} moves; final scores {state.scores()}; returns {state.returns()}"

    # --- drawings (rich, imported when called) -------------------------------------------------
    def board(self, game: "Game", view: Mapping[str, Any], me: int, labels: Sequence[str]) -> "RenderableType":
        """The table as seat ``me`` sees it, drawn from its ``view`` only.
        The default is the game's text of a state rebuilt from the view (or
        the view itself when the game cannot rebuild one).

        >>> from tabuleiro import load_game
        >>> g = load_game("toy")
        >>> print(Presentation().board(g, g.new_initial_state(seed=1).view(0), 0, ["you", "greedy"]))
        Toy — player 0 to move (player 0's view)
        *P0 pile: -      score 0   hand: 1 2
         P1 pile: -      score 0   hand: 2 cards
        stock: 2 cards
        """
        from rich.text import Text

        try:
            text = game.from_view(view, me).text(me)
        except Exception:                       # a game without from_view: the view as it is
            text = json.dumps(view, indent=1)
        return Text(text)

    def moves_view(self, state: "State", me: int, page: int = 1) -> "RenderableType":
        """The legal moves of the player to move (``me``), numbered from 1.
        A game whose list can outgrow a screen shows it in pages (``moves
        2``); the default has one page.

        >>> from tabuleiro import toy
        >>> Presentation().moves_view(toy.new_game(seed=2), 0).renderables[0].plain
        ' 1 play 3'

        :raises ValueError: a page the list does not have.
        """
        from .tui.render import moves_list

        if page != 1:
            raise ValueError(f"no page {page} of moves: they fit on one")
        return moves_list(state.legal_moves())

    def compact(self, state: "State", me: int, labels: Sequence[str]) -> list["RenderableType"]:
        """A short status between a person's consecutive decisions (the
        default: nothing, the moves list follows).

        >>> from tabuleiro import toy
        >>> Presentation().compact(toy.new_game(seed=2), 0, ["you", ""])
        []
        """
        return []

    def events(self, before: "State", after: "State", move: Any, mover: int, labels: Sequence[str],
               scored: Optional["State"] = None) -> list["Event"]:
        """What one move shows, each line with its audience (None: all).
        ``before`` and ``after`` are the states around the move, ``scored``
        what :meth:`apply` returned. The default is each seat's own event
        feed (``Game.public_events``): a line every seat sees alike goes to
        all, one that differs (a move only its mover sees) to each seat its
        own; a new round's line is a banner.

        >>> from tabuleiro import toy
        >>> s = toy.new_game(seed=2)
        >>> b = s.clone(); s.push("play 6")
        >>> [(e.text.plain, e.audience) for e in Presentation().events(b, s, s.peek(), 0, ["you", ""])]
        [('P0 (you): play 6', None)]
        """
        from .tui.render import feed_events

        return feed_events(before, move, mover, labels)

    def scored_screen(self, scored: "State", viewer: Optional[int], labels: Sequence[str]) -> Optional["RenderableType"]:
        """What to draw after :meth:`apply` returned a snapshot ``scored``
        (not at the game's end: the final screen shows the last one).

        >>> from tabuleiro import toy
        >>> Presentation().scored_screen(toy.new_game(seed=2), 0, ["you", ""]) is None
        True
        """
        return None

    def final_screen(self, state: "State", viewer: int, me: Optional[int],
                     labels: Sequence[str]) -> list["RenderableType"]:
        """The end of a finished game as ``viewer`` sees it (``me``: the one
        person, None with several): the default draws the table and the
        result.

        >>> from tabuleiro import toy
        >>> s = toy.new_game(seed=2)
        >>> while not s.is_terminal:
        ...     s.push(s.legal_moves()[0])
        >>> Presentation().final_screen(s, 0, 0, ["you", "greedy"])[-1].plain
        'P0 (you) wins: scores 14, 7'
        """
        from rich.text import Text

        from .tui.render import who

        outcome = state.outcome()
        assert outcome is not None
        scores = ", ".join(str(x) for x in outcome.scores)
        if outcome.winners:
            names = ", ".join(who(q, labels) for q in outcome.winners)
            result = f"{names} win{'s' if len(outcome.winners) == 1 else ''}: scores {scores}"
        else:
            result = f"A draw: scores {scores}"
        return [self.board(state.game, state.view(viewer), viewer, labels), Text(result, style="bold")]
