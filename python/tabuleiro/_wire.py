"""The engine protocol's wire format: reading a request line (strict UTF-8
and JSON, bounded nesting, valid Unicode in every string), reading its
fields, and writing an answer as one strict-JSON line. No game knowledge
and no session state: :mod:`tabuleiro.engine` runs the session over it.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any, Optional

from ._fields import json_problem

#: The longest request line accepted, in bytes, without its line ending.
MAX_LINE = 1 << 20
#: The deepest nesting of arrays and objects a request may hold (a state dict nests 5 deep).
MAX_DEPTH = 64
#: Every error code a response can carry (docs/protocol.md says when each is used).
ERROR_CODES = ("bad_json", "bad_request", "unknown_command", "no_game", "invalid_move", "illegal_move",
               "invalid_state", "game_over", "busy", "not_your_seat", "forbidden", "line_too_long", "internal")
_MESSAGE_MAX = 300


class ProtocolError(Exception):
    """An error response: a code of :data:`ERROR_CODES` and a message."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _bad(message: str) -> ProtocolError:
    return ProtocolError("bad_request", message)


def _short(text: str, limit: int = _MESSAGE_MAX) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


# --- reading request fields -----------------------------------------------------------------------

_MISSING: Any = object()


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _int_field(req: dict[str, Any], name: str, *, lo: int, hi: int, default: Any = _MISSING) -> Any:
    v = req.get(name, _MISSING)
    if v is _MISSING or (v is None and default is not _MISSING):
        if default is _MISSING:
            raise _bad(f"missing field {name!r} (an integer in [{lo}, {hi}])")
        return default
    if not _is_int(v) or not lo <= v <= hi:
        raise _bad(f"field {name!r} must be an integer in [{lo}, {hi}], not {_short(json.dumps(v), 60)}")
    return v


#: The largest integer every JSON reader keeps exactly (a double's 53-bit mantissa: JavaScript's
#: ``Number.MAX_SAFE_INTEGER``). The protocol never emits an integer beyond it (docs/protocol.md).
SAFE_INT = (1 << 53) - 1
_U64 = 1 << 64


def _seed_value(v: Any, name: str) -> int:
    """A 64-bit seed given as a JSON integer or as its decimal string (what the
    protocol sends, since a JavaScript ``JSON.parse`` rounds integers past
    2^53): ``"0"`` .. ``"18446744073709551615"``, digits only, no leading zero."""
    if isinstance(v, str):
        if not (0 < len(v) <= 20 and v.isascii() and v.isdigit() and (v == "0" or v[0] != "0")):
            raise _bad(f"field {name!r} must be an integer in [0, 2^64) or its decimal string, "
                       f"not {_short(json.dumps(v), 60)}")
        v = int(v)
    elif not _is_int(v):
        raise _bad(f"field {name!r} must be an integer in [0, 2^64) or its decimal string, "
                   f"not {_short(json.dumps(v), 60)}")
    if not 0 <= v < _U64:
        raise _bad(f"field {name!r} must be in [0, 2^64), not {_short(json.dumps(v), 60)}")
    return int(v)


def _seed_field(req: dict[str, Any], name: str = "seed") -> Optional[int]:
    """The request's seed (absent or null: None)."""
    v = req.get(name)
    return None if v is None else _seed_value(v, name)


def _safe_ints(obj: Any) -> Any:
    """``obj`` with every integer beyond +-:data:`SAFE_INT` turned into its
    decimal string, so that a reader that holds numbers as doubles reads every
    value exactly. Only containers that hold one are copied."""
    if isinstance(obj, dict):
        out = None
        for k, v in obj.items():
            w = _safe_ints(v)
            if w is not v:
                if out is None:
                    out = dict(obj)
                out[k] = w
        return obj if out is None else out
    if isinstance(obj, list):
        items = [_safe_ints(v) for v in obj]
        return obj if all(a is b for a, b in zip(items, obj)) else items
    if isinstance(obj, int) and not isinstance(obj, bool) and not -SAFE_INT <= obj <= SAFE_INT:
        return str(obj)
    return obj


def _bool_field(req: dict[str, Any], name: str, default: bool) -> bool:
    v = req.get(name, default)
    if not isinstance(v, bool):
        raise _bad(f"field {name!r} must be true or false, not {_short(json.dumps(v), 60)}")
    return v


def _str_field(req: dict[str, Any], name: str, default: Any = _MISSING) -> Any:
    v = req.get(name, _MISSING)
    if v is _MISSING:
        if default is _MISSING:
            raise _bad(f"missing field {name!r} (a string)")
        return default
    if not isinstance(v, str):
        raise _bad(f"field {name!r} must be a string, not {_short(json.dumps(v), 60)}")
    return v


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _finite_float(text: str) -> float:
    x = float(text)
    if not math.isfinite(x):                    # 1e999: JSON's grammar, but no double holds it
        raise ValueError(f"the number {_short(text, 40)} is out of range (over 1.8e308)")
    return x


def _valid_unicode(text: str) -> bool:
    """Can ``text`` be written as UTF-8 (no lone surrogate, which a JSON
    ``\\ud800`` escape can produce)?"""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _read_request(raw: bytes) -> Any:
    """The JSON value of a request line, checked once for everything an answer
    could later fail on: strict UTF-8, strict JSON (no NaN/Infinity, no number
    out of a double's range) and at most :data:`MAX_DEPTH` levels of nesting.
    Raises ``ProtocolError("bad_json")``; strings are checked by
    :func:`_unicode_problem`, which needs the parsed ``id`` and ``cmd``."""
    try:
        value = json.loads(raw.decode("utf-8"), parse_constant=_reject_constant, parse_float=_finite_float)
    except RecursionError:
        raise ProtocolError("bad_json", f"not a JSON line: nested deeper than {MAX_DEPTH} levels") from None
    except ValueError as e:                     # JSONDecodeError, UnicodeDecodeError, the hooks, int digits
        raise ProtocolError("bad_json", f"not a JSON line: {_short(str(e), 120)}") from None
    # json.loads gives only plain values and finite floats here, so the depth is all json_problem can find
    if json_problem(value, MAX_DEPTH) is not None:
        raise ProtocolError("bad_json", f"not a JSON line: nested deeper than {MAX_DEPTH} levels")
    return value


def _unicode_problem(req: dict[str, Any]) -> Optional[str]:
    """The first field of a request holding a string that is not valid
    Unicode (a lone surrogate: it cannot be written as UTF-8, so it can be
    neither echoed nor named), as a message, or None. The message names the
    top-level field, never the string."""
    try:                                        # the common case in one C call: every string encodes
        json.dumps(req, ensure_ascii=False).encode("utf-8")
        return None
    except UnicodeEncodeError:
        pass
    for key, v in req.items():
        if not _valid_unicode(key):
            return "a field name is not valid Unicode (it holds a lone surrogate escape such as \\ud800)"
        stack = [v]
        while stack:
            x = stack.pop()
            bad = (isinstance(x, str) and not _valid_unicode(x)) or \
                (isinstance(x, dict) and not all(_valid_unicode(k) for k in x))
            if bad:
                return (f"field {key!r} holds a string that is not valid Unicode (a lone surrogate escape such "
                        "as \\ud800): strings must encode as UTF-8")
            if isinstance(x, dict):
                stack.extend(x.values())
            elif isinstance(x, list):
                stack.extend(x)
    return None


def _echoable(v: Any) -> bool:
    """May ``v`` be echoed as an answer's ``id`` or ``cmd``: a JSON scalar that encodes strictly?"""
    if v is None or isinstance(v, bool) or _is_int(v):
        return True
    if isinstance(v, float):
        return math.isfinite(v)
    return isinstance(v, str) and _valid_unicode(v)


def _encode(obj: Any) -> Optional[bytes]:
    """``obj`` as one strict-JSON UTF-8 line, or None if it has no such form."""
    try:
        line = json.dumps(obj, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
        return (line + "\n").encode("utf-8")
    except Exception:  # noqa: BLE001 - TypeError, ValueError (NaN, a surrogate), RecursionError: all "no"
        return None


#: An integer of 16 digits or more (sign included) outside a float's
#: fraction and exponent: the only form an integer beyond :data:`SAFE_INT`
#: takes in encoded JSON. Digits inside a string match too; the caller
#: tells those apart.
_LONG_INT = re.compile(rb"(?<![\d.])-?\d{16,}(?![\d.eE])")


def _encode_answer(obj: dict[str, Any]) -> Optional[bytes]:
    """An answer as :func:`_encode` writes it, with every integer beyond
    :data:`SAFE_INT` but ``id`` turned into its decimal string, as
    :func:`_safe_ints` does.

    The answer is encoded once, and the few long integers of its line (a
    state's seed) are quoted in place; walking every container in Python
    first was half the engine's time on ``state``, ``legal`` and ``play``
    answers. A match is inside a string when an odd number of quotes comes
    before it, which holds while the line has no backslash (json writes a
    quote inside a string as ``\\"``); a line with one, or an ``id`` past
    :data:`SAFE_INT` (echoed exactly), takes the walk.

    >>> _encode_answer({"id": 1, "ok": True, "seed": 2**64 - 1, "n": [3, -2**60], "s": "12345678901234567"})
    b'{"id":1,"ok":true,"seed":"18446744073709551615","n":[3,"-1152921504606846976"],"s":"12345678901234567"}\\n'
    >>> _encode_answer({"id": 2**60, "x": 0.12345678901234568})
    b'{"id":1152921504606846976,"x":0.12345678901234568}\\n'
    """
    rid = obj.get("id")
    if not (isinstance(rid, int) and not isinstance(rid, bool) and not -SAFE_INT <= rid <= SAFE_INT):
        data = _encode(obj)
        if data is None or _LONG_INT.search(data) is None:
            return data
        if b"\\" not in data:
            parts, last, quotes = [], 0, 0
            for m in _LONG_INT.finditer(data):
                quotes += data.count(b'"', last, m.start())
                if quotes % 2 == 0 and not -SAFE_INT <= int(m.group()) <= SAFE_INT:
                    parts += [data[last:m.start()], b'"', m.group(), b'"']
                    last = m.end()
                    continue
                parts.append(data[last:m.end()])
                last = m.end()
            return b"".join(parts) + data[last:]
    return _encode({k: v if k == "id" else _safe_ints(v) for k, v in obj.items()})
