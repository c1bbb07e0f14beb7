"""Plain JSON values for the C layer: the checks a state dict, a view or a
request passes before it is read (nesting, size, JSON types), their
conversion to the JSON text the games' JSON layer in C reads
(csrc/state_json.h: the fields, their types and their consistency are
judged there, for Python and the WebAssembly engine alike), and small
helpers for messages and seeds.

>>> plain_json({"game": "toy", "hands": ([1], [2])})
('{"game":"toy","hands":[[1],[2]]}', [4])
>>> check_plain({"a": [[[[[[[[[[[[[[[[[0]]]]]]]]]]]]]]]]]}, "a state")
Traceback (most recent call last):
...
tabuleiro._errors.InvalidStateError: a state nests deeper than 16 levels
"""

from __future__ import annotations

import json
import math
import operator
from typing import Any, Mapping, Optional

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
    return _walk(value, max_depth, max_values)[0]


def _walk(value: Any, max_depth: int, max_values: Optional[int]) -> tuple[Optional[str], bool]:
    """json_problem, and whether the value holds a tuple or a Mapping that
    is not a dict (which json.dumps alone would not carry as they are)."""
    stack = [(value, 1)]
    count = 0
    special = False
    while stack:
        v, depth = stack.pop()
        count += 1
        if max_values is not None and count > max_values:
            return f"holds more than {max_values} values", special
        if isinstance(v, (str, bool, int)) or v is None:
            continue
        if isinstance(v, float):
            if not math.isfinite(v):
                return "holds a number that is not finite", special
            continue
        if depth > max_depth:
            return f"nests deeper than {max_depth} levels", special
        if isinstance(v, Mapping):
            for k in v:
                if not isinstance(k, str):
                    return f"has a key that is not a string ({type(k).__name__})", special
            special = special or type(v) is not dict
            stack.extend((x, depth + 1) for x in v.values())
        elif isinstance(v, (list, tuple)):
            special = special or type(v) is not list
            stack.extend((x, depth + 1) for x in v)
        else:
            return f"holds a {type(v).__name__}, which is not a JSON value", special
    return None, special


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


def plain_json(value: Any, what: Optional[str] = None, *, simple: bool = False) -> tuple[str, list[int]]:
    """A value as the JSON text the C reader takes (csrc/state_json.h), and
    the preorder numbers of its nodes that are tuples (object keys count as
    nodes): the reader names them as Python does, so a tuple where a list
    belongs is refused as before. With ``what``, the value is checked as
    :func:`check_plain` checks it, in the same walk (else it must be plain
    already); ``simple``: it is known to hold only dicts and lists (what
    json.loads made).

    >>> plain_json({"a": (1, 2), "b": [3]})
    ('{"a":[1,2],"b":[3]}', [2])
    >>> plain_json({"a": {1}}, "a state")
    Traceback (most recent call last):
    ...
    tabuleiro._errors.InvalidStateError: a state holds a set, which is not a JSON value
    """
    if what is not None:
        problem, special = _walk(value, MAX_DEPTH, MAX_VALUES)
        if problem is not None:
            raise InvalidStateError(f"{what} {problem}")
        simple = not special
    if simple:
        return json.dumps(value, separators=(",", ":"), allow_nan=False), []
    tuples: list[int] = []
    simple = True
    stack = [value]
    count = 0
    while stack:
        v = stack.pop()
        if isinstance(v, tuple):
            tuples.append(count)
        if isinstance(v, Mapping):
            simple = simple and type(v) is dict
            for k, x in reversed(list(v.items())):
                stack.append(x)
                stack.append(k)
        elif isinstance(v, (list, tuple)):
            stack.extend(reversed(v))
        count += 1
    if tuples or not simple:
        value = _as_lists(value)
    return json.dumps(value, separators=(",", ":"), allow_nan=False), tuples


def _as_lists(value: Any) -> Any:
    """A copy with tuples as lists and every Mapping as a dict (iterative)."""
    def fresh(v: Any) -> Any:
        return {} if isinstance(v, Mapping) else [] if isinstance(v, (list, tuple)) else v

    root = fresh(value)
    stack = [(value, root)]
    while stack:
        v, out = stack.pop()
        items = v.items() if isinstance(v, Mapping) else enumerate(v) if isinstance(v, (list, tuple)) else ()
        for k, x in items:
            y = fresh(x)
            if isinstance(out, dict):
                out[k] = y
            else:
                out.append(y)
            if y is not x:
                stack.append((x, y))
    return root


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
