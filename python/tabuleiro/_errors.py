"""Errors shared by every game of tabuleiro.

Every error about the caller's input is a ``ValueError`` (or ``TypeError``);
its message names the problem from the mover's own view and never holds a
card the reader cannot see, nor the seed. Where the full state helps code
(not people), it is the exception's ``state`` attribute.
"""

from __future__ import annotations

from typing import Any, Optional


class TabuleiroError(ValueError):
    """Base of the package's input errors (a ``ValueError``)."""

    def __init__(self, message: str, *, state: Optional[dict[str, Any]] = None) -> None:
        super().__init__(message)
        #: The full state the error happened in (hidden cards and seed
        #: included): for code, never shown in the message.
        self.state = state


class InvalidMoveError(TabuleiroError):
    """The input is not a move at all: unreadable notation, an id out of range
    or a value of the wrong type. The state is unchanged."""


class IllegalMoveError(TabuleiroError):
    """A well-formed move that is not legal in the current state. The state is
    unchanged."""


class InvalidStateError(TabuleiroError):
    """A state dict that cannot be loaded: it names the first problem found."""


class GameOverError(TabuleiroError):
    """The game is over: there is no move to make, choose or search."""


class EngineError(RuntimeError):
    """The engine met something that cannot happen in a legal game (an
    unfinished position with no legal action): a bug to report, never a hang."""


__all__ = ["TabuleiroError", "InvalidMoveError", "IllegalMoveError", "InvalidStateError", "GameOverError",
           "EngineError"]
