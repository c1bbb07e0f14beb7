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
import json
import math
import operator
from typing import Any, Callable, Mapping, Optional

from ._errors import InvalidStateError

U64 = 1 << 64


def check_seed(seed: Any, what: str = "seed") -> int:
    """A seed is an integer in [0, 2**64): an int or any integer type (numpy's
    too, through ``__index__``), not a bool, not a float; returned as an int."""
    if not isinstance(seed, bool):
        try:
            value = operator.index(seed)
        except TypeError:
            pass
        else:
            if 0 <= value < U64:
                return value
    raise ValueError(f"{what} must be an integer in [0, 2**64), not {seed!r}")


def int_in(value: Any, lo: int, hi: int) -> Optional[int]:
    """``value`` as an exact int when it is an int (not a bool) in
    ``[lo, hi)``, else None. An int subclass is judged by its value: its own
    ``<`` and ``<=`` may say anything, and the value goes on to C.

    >>> class Liar(int):
    ...     def __le__(self, other): return True
    ...     def __lt__(self, other): return True
    >>> int_in(1, 0, 2), int_in(Liar(7), 0, 2), int_in(True, 0, 2)
    (1, None, None)
    """
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    v = value if type(value) is int else operator.index(value)
    return v if lo <= v < hi else None


def short(value: Any, limit: int = 60) -> str:
    """``repr(value)`` cut to ``limit`` characters, for error messages.

    >>> short("x" * 100)[-5:]
    'xx...'
    """
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


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
            raise self.bad(f"game must be {short(name)}, not {short(game)}")

    def int(self, value: Any, what: str, *, null: bool = False) -> int:
        """An integer field (null as -1 where allowed); ranges are the C decoder's."""
        if value is None and null:
            return -1
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.bad(f"{what} must be an integer{' or null' if null else ''}, not {short(value)}")
        if not -(1 << 31) <= value < 1 << 31:
            raise self.bad(f"{what} is out of range")
        return value

    def bool(self, value: Any, what: str) -> bool:
        if not isinstance(value, bool):
            raise self.bad(f"{what} must be true or false, not {short(value)}")
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
            raise self.bad(f"{where}: a card is a name string, not {short(name)}")
        c = by_name.get(name)
        if c is None:
            raise self.bad(f"{where}: unknown card {short(name)}")
        return c.index  # type: ignore[no-any-return]

    def ids(self, names: Any, where: str, index_of: Callable[[Any, str], builtins.int], *,
            is_set: builtins.bool = False) -> builtins.list[builtins.int]:
        """``[count, ids...]`` of a list of cards; a set's ids in id order (the
        encoding's canonical form)."""
        ids = [index_of(x, where) for x in self.list(names, where)]
        return [len(ids)] + (sorted(ids) if is_set else ids)


#: The deepest nesting a state dict or view may have (theirs is at most 4).
MAX_DEPTH = 16
#: The most values (dicts, lists and scalars) a state dict or view may hold.
MAX_VALUES = 100_000


def parse_json(text: Any, what: str) -> Any:
    """Parse a state or view given as JSON text (str or bytes), refusing
    what is not strict JSON (NaN, Infinity) or nests too deeply, as an
    :class:`InvalidStateError` that starts ``what``.

    >>> parse_json('{"a": [1]}', "a state")
    {'a': [1]}
    >>> parse_json("[" * 100000, "a state")
    Traceback (most recent call last):
    ...
    tabuleiro._errors.InvalidStateError: a state given as JSON must parse: it nests too deeply
    """
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            raise InvalidStateError(f"{what} given as JSON must parse: it is not UTF-8") from None
    def no_constant(name: str) -> Any:
        raise ValueError(f"{name} is not a JSON number")

    try:
        value = json.loads(text, parse_constant=no_constant)
    except RecursionError:                   # json's decoder ends deep nesting so, cleanly
        raise InvalidStateError(f"{what} given as JSON must parse: it nests too deeply") from None
    except ValueError as e:                  # JSONDecodeError, a non-finite constant
        raise InvalidStateError(f"{what} given as JSON must parse: {str(e)[:80]}") from None
    return check_plain(value, what)


def json_problem(value: Any, max_depth: int, max_values: Optional[int] = None) -> Optional[str]:
    """Why ``value`` is not plain JSON data (dicts with string keys, lists,
    strings, integers, finite floats, booleans, null) at most ``max_depth``
    deep and ``max_values`` values large, as the end of a sentence
    ("nests deeper than 16 levels"), or None. Iterative: no input can make
    it recurse. The one walk behind :func:`check_plain` and the engine's
    request check.

    >>> json_problem([[1]], 2), json_problem([[[1]]], 2)
    (None, 'nests deeper than 2 levels')
    """
    stack = [(value, 1)]
    count = 0
    while stack:
        v, depth = stack.pop()
        count += 1
        if max_values is not None and count > max_values:
            return f"holds more than {max_values} values"
        if isinstance(v, (str, bool, int)) or v is None:
            continue
        if isinstance(v, float):
            if not math.isfinite(v):
                return "holds a number that is not finite"
            continue
        if depth > max_depth:
            return f"nests deeper than {max_depth} levels"
        if isinstance(v, Mapping):
            for k in v:
                if not isinstance(k, str):
                    return f"has a key that is not a string ({type(k).__name__})"
            stack.extend((x, depth + 1) for x in v.values())
        elif isinstance(v, (list, tuple)):
            stack.extend((x, depth + 1) for x in v)
        else:
            return f"holds a {type(v).__name__}, which is not a JSON value"
    return None


def check_plain(value: Any, what: str) -> Any:
    """``value`` itself when it is plain JSON data (dicts with string keys,
    lists, strings, integers, finite floats, booleans, null) at most
    :data:`MAX_DEPTH` deep and :data:`MAX_VALUES` values large; else an
    :class:`InvalidStateError` starting ``what``. Iterative: no input can
    make it recurse, so the checks after it meet only bounded values.

    >>> check_plain({"a": [1, 2.5, None]}, "a state")
    {'a': [1, 2.5, None]}
    >>> check_plain({"a": float("nan")}, "a state")
    Traceback (most recent call last):
    ...
    tabuleiro._errors.InvalidStateError: a state holds a number that is not finite
    """
    problem = json_problem(value, MAX_DEPTH, MAX_VALUES)
    if problem is not None:
        raise InvalidStateError(f"{what} {problem}")
    return value


def unsigned(seed: int) -> int:
    """The encoding's seed field back as the JSON seed in [0, 2**64)."""
    return seed & (U64 - 1)


def parse_loose(text: str) -> Any:
    """A ``key=value`` value written on a command line (an agent spec's
    keyword, an engine's option, a seat's parameter): an integer, a finite
    number, true/false, null/none, or the text itself.

    >>> [parse_loose(t) for t in ("3", "0.5", "True", "null", "inf", "ismcts")]
    [3, 0.5, True, None, 'inf', 'ismcts']
    """
    low = text.strip().lower()
    if low in ("true", "false"):
        return low == "true"
    if low in ("none", "null"):
        return None
    for conv in (int, float):
        try:
            v = conv(text)
        except ValueError:
            continue
        if isinstance(v, float) and not math.isfinite(v):
            break
        return v
    return text
