"""Field checks shared by the games' ``from_dict`` and constructors.

Each check raises :class:`~tabuleiro.InvalidStateError` (a ``ValueError``)
whose message starts with ``invalid <Game> state:`` and names the field.
"""

from __future__ import annotations

from typing import Any, Mapping, Optional

from ._errors import InvalidMoveError, InvalidStateError

U64 = 1 << 64


class Fields:
    """Checks of one game's state dict fields."""

    def __init__(self, game: str) -> None:
        self.game = game

    def bad(self, msg: str) -> InvalidStateError:
        return InvalidStateError(f"invalid {self.game} state: {msg}")

    def get(self, d: Mapping[str, Any], key: str) -> Any:
        if key not in d:
            raise self.bad(f"missing key {key!r}")
        return d[key]

    def int_(self, value: Any, what: str, lo: int, hi: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise self.bad(f"{what} must be an integer in [{lo}, {hi}], not {value!r}")
        return value

    def opt_int(self, value: Any, what: str, lo: int, hi: int) -> Optional[int]:
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise self.bad(f"{what} must be an integer in [{lo}, {hi}] or null, not {value!r}")
        return value

    def list_(self, value: Any, what: str, length: Optional[int] = None) -> list[Any]:
        if not isinstance(value, list):
            raise self.bad(f"{what} must be a list, not {type(value).__name__}")
        if length is not None and len(value) != length:
            raise self.bad(f"{what} must have {length} entries, not {len(value)}")
        return value

    def seed(self, value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < U64:
            raise self.bad(f"seed must be an integer in [0, 2**64), not {value!r}")
        return value


def check_seed(seed: Any) -> None:
    """Constructor argument check: a seed is an integer in [0, 2**64)."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < U64:
        raise ValueError(f"seed must be an integer in [0, 2**64), not {seed!r}")


def check_action_id(action: Any, num_actions: int) -> None:
    """A Move's id is an integer in [0, num_actions), else InvalidMoveError."""
    if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < num_actions:
        raise InvalidMoveError(f"action id {action!r} is not an integer in [0, {num_actions})")
