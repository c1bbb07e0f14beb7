"""The part of the State API both games share (python-chess shape)."""

from __future__ import annotations

import json
from typing import Any, ClassVar

from ._errors import IllegalMoveError, InvalidMoveError


class StateProtocol:
    """Mixin for a game's ``State`` (which also subclasses its Cython core).

    A game sets ``_MOVE`` (its Move class) and ``_NUM_ACTIONS`` and provides
    ``parse_move``, ``from_dict`` and the core's ``_apply_action``,
    ``_to_dict`` and ``legal_actions``.
    """

    __slots__ = ()
    _MOVE: ClassVar[Any]
    _NUM_ACTIONS: ClassVar[int]

    def legal_moves(self) -> list[Any]:
        """The legal moves, in ascending action id order."""
        return [self._MOVE(a) for a in self.legal_actions()]  # type: ignore[attr-defined]

    def apply(self, move: Any) -> None:
        """Play a move given as an action id, a notation string or a Move.

        :raises InvalidMoveError: the input is not a move at all.
        :raises IllegalMoveError: the move is not legal now.
        The state is unchanged when either is raised.
        """
        if isinstance(move, int) and not isinstance(move, bool):
            if not 0 <= move < self._NUM_ACTIONS:
                raise InvalidMoveError(f"action id {move} is not in [0, {self._NUM_ACTIONS}) in {self.to_json()}")
            if not self._apply_action(move):  # type: ignore[attr-defined]
                raise IllegalMoveError(f"illegal move {str(self._MOVE(move))!r} (id {move}) in {self.to_json()}")
            return
        m = self.parse_move(move)  # type: ignore[attr-defined]
        self._apply_action(m.action)  # type: ignore[attr-defined]

    def to_json(self) -> str:
        """``to_dict()`` as compact JSON."""
        return json.dumps(self._to_dict(), separators=(",", ":"))  # type: ignore[attr-defined]

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return bool(self._to_dict() == other._to_dict())  # type: ignore[attr-defined]

    __hash__ = None  # type: ignore[assignment]

    def __copy__(self) -> Any:
        return self.clone()  # type: ignore[attr-defined]

    def __reduce__(self) -> Any:
        return (type(self).from_dict, (self._to_dict(),))  # type: ignore[attr-defined]

    def __repr__(self) -> str:
        return f"State.from_dict({self._to_dict()!r})"  # type: ignore[attr-defined]
