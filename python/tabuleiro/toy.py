"""Toy: a six-card game for two that exists to prove the game contract.

It is the smallest game with everything the contract has to carry: hidden
hands, a chance draw made by the state's own generator, a score where order
matters, a state codec. The rules and the codec are C (``csrc/toy.c``, rules
in ``csrc/toy.h``); this module is only the Python face: the notation, the
state dict and the view. There is no Cython of its own: the generic binding
runs it, and the conformance suite, perft and every agent play it unchanged.

Rules. Cards 1..6 (action id = card - 1). Each player is dealt 2 hidden
cards; 2 lie face down in the stock. Player 0 starts. A turn plays one card
of your hand face up onto your own pile (``play N``), then you draw one stock
card at random if any are left. The opponent moves next if they hold a card,
else you do; when both hands are empty the game is over. A pile scores the
sum of its cards, a card played onto a higher card counting double. The
higher score wins (returns +1 / -1, or 0 / 0 on equal scores).

>>> from tabuleiro import toy
>>> s = toy.new_game(seed=2)
>>> s.legal_moves()
[Move.parse('play 3'), Move.parse('play 6')]
>>> s.push("play 6")                # 6 points, then player 0 draws from the stock
>>> s.view(1)                       # what player 1 sees
{'game': 'toy', 'to_move': 1, 'hands': [{'count': 2}, [1, 4]], 'stock': {'count': 1}, 'piles': [[6], []]}
>>> while not s.is_terminal:
...     s.push(s.legal_moves()[0])
>>> s.to_dict()["piles"], s.scores(), s.returns()      # 6 + 3*2 + 5 against 1 + 2 + 4
([[6, 3, 5], [1, 2, 4]], [17, 7], [1.0, -1.0])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Optional

from ._errors import InvalidMoveError
from ._fields import check_seed
from ._game import Game, load_game
from ._present import Presentation
from ._state import Move as _Move
from ._state import State as _State
from ._state import parse_notation

__all__ = ["GAME", "NUM_ACTIONS", "Move", "State", "Toy", "new_game", "random_playouts"]

NUM_CARDS = 6
#: Action ids of the game: one per card (id = card - 1).
NUM_ACTIONS: int = NUM_CARDS


# --- moves -----------------------------------------------------------------------


@dataclass(frozen=True, repr=False)
class Move(_Move):
    """Playing one card onto your own pile: ``str()`` is ``play N``.

    >>> m = Move.parse("play 3")
    >>> m.action, m.card, str(m), Move(2) == m
    (2, 3, 'play 3', True)
    """

    NUM_ACTIONS: ClassVar[int] = NUM_ACTIONS

    @property
    def card(self) -> int:
        """The card played (1..6).

        >>> Move(5).card
        6
        """
        return self.action + 1

    def __str__(self) -> str:
        return f"play {self.card}"

    @classmethod
    def parse(cls, text: str) -> "Move":
        """Read ``play N`` (N in 1..6).

        >>> Move.parse("play 6")
        Move.parse('play 6')

        :raises InvalidMoveError: anything else.
        """
        return cls(parse_notation("toy", text))     # read in C (csrc/toy_json.c)


# --- state ------------------------------------------------------------------------


class State(_State):
    """A Toy position. The dict (``to_dict()``) is::

        {"game": "toy", "to_move": 0, "seed": 7,
         "hands": [[1, 5], [2, 3]], "stock": [4, 6], "piles": [[], []]}

    ``hands`` and ``stock`` are sets written in ascending order, ``piles`` in
    play order (bottom first); ``to_move`` is null once the game is over;
    ``seed`` is the generator that makes the next stock draw.

    >>> s = new_game(seed=2)
    >>> s.push("play 6")
    >>> s.to_dict()["piles"], s.current_player
    ([[6], []], 1)

    ``view(player)`` shows the opponent's hand and the stock as counts, and
    no seed:

    >>> new_game(seed=1).view(1)
    {'game': 'toy', 'to_move': 0, 'hands': [{'count': 2}, [3, 4]], 'stock': {'count': 2}, 'piles': [[], []]}
    """

    __slots__ = ()
    MOVE = Move
    GAME_NAME = "toy"

    def _text(self, seat: Optional[int]) -> str:
        """The position; hands and stock shown only where ``seat`` sees them
        (all of them when ``seat`` is None). ``*`` marks the player to move.

        >>> print(new_game(seed=1))
        Toy — player 0 to move (full state: every card shown)
        *P0 pile: -      score 0   hand: 1 2
         P1 pile: -      score 0   hand: 3 4
        stock: 5 6
        >>> print(new_game(seed=1).text(0))
        Toy — player 0 to move (player 0's view)
        *P0 pile: -      score 0   hand: 1 2
         P1 pile: -      score 0   hand: 2 cards
        stock: 2 cards
        """
        d = self.to_dict()
        me = d["to_move"]
        sc = self.scores()
        who = "full state: every card shown" if seat is None else f"player {seat}'s view"
        lines = ["Toy — " + ("game over" if me is None else f"player {me} to move") + f" ({who})"]
        for q in (0, 1):
            pile = " ".join(map(str, d["piles"][q])) or "-"
            hand = d["hands"][q]
            if seat is None or q == seat or not hand:
                shown = " ".join(map(str, hand))
            else:
                shown = f"{len(hand)} card{'s' if len(hand) != 1 else ''}"
            lines.append(f"{'*' if q == me else ' '}P{q} pile: {pile:<6} score {sc[q]:<3} hand: {shown or '-'}")
        n = len(d["stock"])
        if seat is None:
            lines.append(f"stock: {' '.join(map(str, d['stock'])) or '-'}")
        else:
            lines.append(f"stock: {n} card{'s' if n != 1 else ''}")
        if me is None:
            r = self.returns()
            lines.append("result: " + ("draw" if r[0] == 0 else f"player {0 if r[0] > 0 else 1} wins"))
        return "\n".join(lines)


# --- the game (its dicts, views and notation: csrc/toy_json.c) ------------------------------


class Toy(Game):
    """Toy (2 players, no parameters).

    >>> g = load_game("toy")
    >>> g.info.num_distinct_actions, g.info.max_game_length, g.info.hidden_information
    (6, 6, True)
    """

    name = "toy"
    title = "Toy"
    PARAM_TYPES: ClassVar[dict[str, type]] = {}
    STATE = State
    MOVE = Move
    PRESENTATION_MODULE = "tabuleiro.toy"

GAME = Toy


class ToyPresentation(Presentation):
    """Toy in the front ends: the generic board (the text of a state rebuilt
    from the seat's view) and the generic announcements, which show every
    move to all because the game's event feed does (a card played lies face
    up on its pile).

    >>> len(PRESENTATION.rules(GAME())), PRESENTATION.levels is None
    (1, True)
    """

    notation = ("play 3         play card 3 from your hand onto your pile",)

    def rules(self, game: Game) -> list[str]:
        """One page: the whole game."""
        return ["How to play Toy\n"
                "Cards 1 to 6. Each player is dealt 2 cards (hidden from the other);\n"
                "2 lie face down in the stock. On your turn play a card of your hand\n"
                "face up onto your own pile (play 3), then draw a stock card if any is\n"
                "left. The game ends when both hands are empty.\n"
                "Scoring: a pile scores the sum of its cards, and a card played onto a\n"
                "higher card counts double. The higher score wins; equal scores draw.\n"
                "The screen: *P0 marks the player to move; pile: the cards played, in\n"
                "order; score: the pile's points now; hand: your cards, or how many\n"
                "the other player holds; stock: the cards left to draw."]


#: The presentation ``Toy.presentation()`` returns.
PRESENTATION = ToyPresentation()

# --- module functions ----------------------------------------------------------------------


def new_game(*, seed: int) -> State:
    """A new game dealt from ``seed`` (the short form of
    ``load_game("toy").new_initial_state(seed=...)``).

    >>> new_game(seed=1) == load_game("toy").new_initial_state(seed=1)
    True
    """
    check_seed(seed)
    return load_game("toy").new_initial_state(seed=seed)  # type: ignore[return-value]


def random_playouts(n: int, *, seed: int) -> dict[str, Any]:
    """Play ``n`` uniformly random games entirely in C; aggregate statistics.

    >>> st = random_playouts(100, seed=3)
    >>> st["games"], st["actions"]
    (100, 600)
    """
    return load_game("toy").random_playouts(n, seed=seed)
