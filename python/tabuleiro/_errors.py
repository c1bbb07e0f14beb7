"""Errors shared by every game of tabuleiro.

Every error about the caller's input is a ``ValueError`` (or ``TypeError``);
its message names the problem from the mover's own view and never holds a
card the reader cannot see, nor the seed. Where the full state helps code
(not people), it is the exception's ``state`` attribute.
"""

from __future__ import annotations

from typing import Any, Optional


class TabuleiroError(ValueError):
    """Base of the package's input errors (a ``ValueError``).

    >>> from tabuleiro import toy
    >>> try:
    ...     toy.new_game(seed=2).push("play 9")
    ... except TabuleiroError as e:
    ...     print(type(e).__name__, isinstance(e, ValueError))
    InvalidMoveError True
    """

    def __init__(self, message: str, *, state: Optional[dict[str, Any]] = None) -> None:
        super().__init__(message)
        #: The full state the error happened in (hidden cards and seed
        #: included): for code, never shown in the message.
        self.state = state


class InvalidMoveError(TabuleiroError):
    """The input is not a move at all: unreadable notation, an id out of range
    or a value of the wrong type. The state is unchanged.

    >>> from tabuleiro import toy
    >>> toy.new_game(seed=2).push("play 9")
    Traceback (most recent call last):
    ...
    tabuleiro._errors.InvalidMoveError: a Toy move is 'play N' with N in 1..6, not 'play 9'
    """


class IllegalMoveError(TabuleiroError):
    """A well-formed move that is not legal in the current state. The state is
    unchanged.

    >>> from tabuleiro import toy
    >>> s = toy.new_game(seed=2)
    >>> s.push("play 1")
    Traceback (most recent call last):
    ...
    tabuleiro._errors.IllegalMoveError: illegal move 'play 1' (id 0): it is not one of player 0's legal moves now
    >>> s.history()
    []
    """


class InvalidStateError(TabuleiroError):
    """A state dict that cannot be loaded: it names the first problem found.

    >>> import tabuleiro
    >>> tabuleiro.load_state({"game": "toy"})
    Traceback (most recent call last):
    ...
    tabuleiro._errors.InvalidStateError: invalid Toy state: missing key 'to_move'
    """


class GameOverError(TabuleiroError):
    """The game is over: there is no move to make, choose or search.

    >>> from tabuleiro import agents, toy
    >>> s = toy.new_game(seed=2)
    >>> while not s.is_terminal:
    ...     s.push(s.legal_moves()[0])
    >>> agents.make("random").choose(s)
    Traceback (most recent call last):
    ...
    tabuleiro._errors.GameOverError: the game is over: there is no move to choose
    """


class EngineError(RuntimeError):
    """The engine met something that cannot happen in a legal game (an
    unfinished position with no legal action): a bug to report, never a hang.

    >>> issubclass(EngineError, RuntimeError), issubclass(EngineError, TabuleiroError)
    (True, False)
    """


__all__ = ["TabuleiroError", "InvalidMoveError", "IllegalMoveError", "InvalidStateError", "GameOverError",
           "EngineError"]
