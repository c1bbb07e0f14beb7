"""Errors shared by every game of tabuleiro."""

from __future__ import annotations


class InvalidMoveError(ValueError):
    """The input is not a move at all: unreadable notation, an id out of range
    or a value of the wrong type. The state is unchanged."""


class IllegalMoveError(ValueError):
    """A well-formed move that is not legal in the current state. The state is
    unchanged."""


class InvalidStateError(ValueError):
    """A state dict that cannot be loaded: it names the first problem found."""


__all__ = ["InvalidMoveError", "IllegalMoveError", "InvalidStateError"]
