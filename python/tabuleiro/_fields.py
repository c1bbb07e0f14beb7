"""Reading a state dict's fields for the C encoding: the one place each game's
``Game._encode_dict`` gets its shape and type checks from. Consistency (cards
in two places, rulings) is the C decoder's alone.

>>> f = Fields("Toy")
>>> f.seed(2**64 - 1)
-1
>>> f.get({}, "round")
Traceback (most recent call last):
...
tabuleiro._errors.InvalidStateError: invalid Toy state: missing key 'round'
"""

from __future__ import annotations

import builtins
from typing import Any, Callable, Mapping, Optional

from ._errors import InvalidStateError

U64 = 1 << 64


class Fields:
    """Shape and type checks of one game's state dicts; every error is an
    :class:`InvalidStateError` whose message starts ``invalid <Title> state:``."""

    def __init__(self, title: str) -> None:
        self.title = title

    def bad(self, msg: str) -> InvalidStateError:
        return InvalidStateError(f"invalid {self.title} state: {msg}")

    def get(self, d: Mapping[str, Any], key: str) -> Any:
        if key not in d:
            raise self.bad(f"missing key {key!r}")
        return d[key]

    def game(self, d: Mapping[str, Any], name: str) -> None:
        """The dict says it is a state of game ``name``."""
        game = self.get(d, "game")
        if game != name:
            raise self.bad(f"game must be {name!r}, not {game!r}")

    def int(self, value: Any, what: str, *, null: bool = False) -> int:
        """An integer field (null as -1 where allowed); ranges are the C decoder's."""
        if value is None and null:
            return -1
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.bad(f"{what} must be an integer{' or null' if null else ''}, not {value!r}")
        if not -(1 << 31) <= value < 1 << 31:
            raise self.bad(f"{what} is out of range")
        return value

    def bool(self, value: Any, what: str) -> bool:
        if not isinstance(value, bool):
            raise self.bad(f"{what} must be true or false, not {value!r}")
        return value

    def list(self, value: Any, what: str, length: Optional[builtins.int] = None) -> builtins.list[Any]:
        if not isinstance(value, list):
            raise self.bad(f"{what} must be a list, not {type(value).__name__}")
        if length is not None and len(value) != length:
            raise self.bad(f"{what} must have {length} entries, not {len(value)}")
        return value

    def seed(self, value: Any) -> builtins.int:
        """The seed as the encoding holds it (the uint64 bit pattern as int64)."""
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < U64:
            raise self.bad("seed must be an integer in [0, 2**64)")
        return value - U64 if value >= 1 << 63 else value

    def card(self, name: Any, where: str, by_name: Mapping[str, Any]) -> builtins.int:
        """The index of a card named by a string (``by_name`` maps names to
        cards with an ``index``)."""
        if not isinstance(name, str):
            raise self.bad(f"{where}: a card is a name string, not {name!r}")
        c = by_name.get(name)
        if c is None:
            raise self.bad(f"{where}: unknown card {name!r}")
        return c.index  # type: ignore[no-any-return]

    def ids(self, names: Any, where: str, index_of: Callable[[Any, str], builtins.int], *,
            is_set: builtins.bool = False) -> builtins.list[builtins.int]:
        """``[count, ids...]`` of a list of cards; a set's ids in id order (the
        encoding's canonical form)."""
        ids = [index_of(x, where) for x in self.list(names, where)]
        return [len(ids)] + (sorted(ids) if is_set else ids)


def unsigned(seed: int) -> int:
    """The encoding's seed field back as the JSON seed in [0, 2**64)."""
    return seed & (U64 - 1)
