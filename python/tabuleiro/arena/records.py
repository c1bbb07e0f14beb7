"""Results files: the JSON-lines record of each game, the run header,
record validation (:func:`check_record`), reading (:func:`read_scan`,
:func:`read_results`) and resuming (:class:`ResultsFile`).

A results file is its run header, then one line per game. A re-run of the
same run resumes from it; a file of another run, or a file that is not a
results file, is refused unchanged (:class:`ResultsFileError`).
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping, Optional, Sequence, Union

from .._errors import TabuleiroError
from .engines import TERMINATIONS
from .scheduling import _MASK, deal_seed

__all__ = ["RECORD_VERSION", "HEADER_MARK", "HEADER_FIELDS", "MAX_LINE_BYTES", "ResultsFileError", "ResultsScan",
           "ResultsFile", "run_header", "is_header", "check_record", "scan_results", "read_scan", "read_results"]

#: The version of the records and headers this tabuleiro writes and reads.
RECORD_VERSION = 1
_ENCODE = json.JSONEncoder(separators=(",", ":")).encode


class ResultsFileError(TabuleiroError):
    """A results file (``out=``, ``--out``) that the arena will not read or
    write: not a regular file, not a results file, another run's file, or one
    it cannot open. Nothing in the file has been changed when it is raised.

    >>> read_results("/")
    Traceback (most recent call last):
    ...
    tabuleiro.arena.records.ResultsFileError: results file '/' is a directory, not a regular file
    """


#: The first bytes of every line the arena writes: a line cut off inside
#: them, or after them, is a torn record of ours.
_OUR_PREFIX = b'{"v":1,'
#: The value of a header's ``run`` field.
HEADER_MARK = "tabuleiro arena"
#: The run parameters a header holds: a resume must match every one.
HEADER_FIELDS = ("game", "params", "players", "seed", "agents", "schedule")
#: No line the arena writes comes near this; a longer line is not a record.
MAX_LINE_BYTES = 1 << 24
_REQUIRED = ("game", "params", "deal_seed", "seats", "returns", "scores")


def run_header(game: str, params: Mapping[str, Any], players: int, seed: int, agents: Sequence[str],
               schedule_mode: str) -> dict[str, Any]:
    """The header record of a run: the first line of its results file, what a
    resume must match (the deal count may grow or shrink; SPRT, jobs and
    backend do not change any game)."""
    return {"v": RECORD_VERSION, "run": HEADER_MARK, "game": game, "params": dict(params), "players": players,
            "seed": seed, "agents": list(agents), "schedule": schedule_mode}


def is_header(obj: Any) -> bool:
    """Whether a decoded line is a run header (of any version)."""
    return isinstance(obj, Mapping) and obj.get("run") == HEADER_MARK


def _is_int(x: Any, lo: int = 0, hi: int = _MASK) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and lo <= x <= hi


def _is_num(x: Any) -> bool:
    """A finite number a float can hold (an int past 2**64 is refused before math.isfinite overflows)."""
    if isinstance(x, bool):
        return False
    if isinstance(x, int):
        return -_MASK <= x <= _MASK
    return isinstance(x, float) and math.isfinite(x)


def _is_param_value(x: Any) -> bool:
    return x is None or isinstance(x, (str, bool)) or _is_num(x)


def _header_problem(h: Any) -> Optional[str]:
    """Why a decoded header line is not a usable header, or None."""
    if h.get("v") != RECORD_VERSION:
        return f"its header has version {h.get('v')!r}; this tabuleiro reads version {RECORD_VERSION}"
    if not (isinstance(h.get("game"), str) and isinstance(h.get("params"), dict)
            and all(isinstance(k, str) and _is_param_value(v) for k, v in h["params"].items())
            and _is_int(h.get("players"), 1, 64) and _is_int(h.get("seed"))
            and isinstance(h.get("agents"), list) and h["agents"]
            and all(isinstance(a, str) for a in h["agents"]) and h.get("schedule") in ("all", "cycle")):
        return "its header is malformed"
    return None


def check_record(rec: Any, header: Optional[Mapping[str, Any]] = None) -> Optional[str]:
    """Why ``rec`` is not a valid game record (of the run ``header``, when
    given), or None when it is. One place for the schema of a record:

    * ``game`` a string, ``params`` an object of scalars; ``seats`` a
      non-empty list of labels; ``returns`` and ``scores`` finite numbers,
      one a seat; ``deal_seed`` and, when present, ``seed`` integers in
      [0, 2**64), ``deal`` a non-negative integer; ``agents`` labels holding
      every seat.
    * When present: ``moves`` action ids, ``movers`` seats, ``us``
      non-negative integers and ``iters`` (or null) integers or nulls, all as
      long as ``moves``; ``termination`` one of ``normal``, ``timeout``,
      ``illegal``, ``crash``, and with any but ``normal`` the ``forfeit``
      seat that lost the game by it (and a ``reason`` string).
    * With a header: the header's game, parameters, seed, agents and number
      of players.

    >>> check_record({"game": "toy", "params": {}, "deal_seed": 1, "seats": ["a", "b"], "returns": [1.0],
    ...               "scores": [3, 1]})
    'returns has 1 entries for 2 seats'
    """
    if not isinstance(rec, Mapping):
        return f"a record is a JSON object, not {type(rec).__name__}"
    if is_header(rec):
        return "a run header in the middle of the file"
    missing = [k for k in _REQUIRED if k not in rec]
    if missing:
        return f"no {missing[0]!r} field"
    if not isinstance(rec["game"], str):
        return "game is not a string"
    params = rec["params"]
    if not isinstance(params, dict) or not all(isinstance(k, str) and _is_param_value(v) for k, v in params.items()):
        return "params is not an object of numbers, strings and booleans"
    seats = rec["seats"]
    if not isinstance(seats, list) or not seats or not all(isinstance(s, str) for s in seats):
        return "seats is not a non-empty list of agent labels"
    n = len(seats)
    for k in ("returns", "scores"):
        v = rec[k]
        if not isinstance(v, list) or not all(_is_num(x) for x in v):
            return f"{k} is not a list of finite numbers"
        if len(v) != n:
            return f"{k} has {len(v)} entries for {n} seats"
    if not _is_int(rec["deal_seed"]):
        return "deal_seed is not an integer in [0, 2**64)"
    if "seed" in rec and not _is_int(rec["seed"]):
        return "seed is not an integer in [0, 2**64)"
    if "deal" in rec and not _is_int(rec["deal"]):
        return "deal is not a non-negative integer"
    if "agents" in rec:
        ags = rec["agents"]
        if not isinstance(ags, list) or not all(isinstance(a, str) for a in ags):
            return "agents is not a list of agent labels"
        if not set(seats) <= set(ags):
            return "seats name an agent that is not in agents"
    moves = rec.get("moves")
    if moves is not None:
        if not isinstance(moves, list) or not all(_is_int(m, 0, 1 << 31) for m in moves):
            return "moves is not a list of action ids"
        for k in ("movers", "us"):
            v = rec.get(k)
            if v is None:
                continue
            hi = n - 1 if k == "movers" else _MASK
            if not isinstance(v, list) or not all(_is_int(x, 0, hi) for x in v):
                return f"{k} is not a list of " + ("seats" if k == "movers" else "non-negative integers")
            if len(v) != len(moves):
                return f"{k} has {len(v)} entries for {len(moves)} moves"
        its = rec.get("iters")
        if its is not None:
            if not isinstance(its, list) or not all(x is None or _is_int(x) for x in its):
                return "iters is not a list of integers or nulls"
            if len(its) != len(moves):
                return f"iters has {len(its)} entries for {len(moves)} moves"
    elif rec.get("movers") is not None or rec.get("us") is not None or rec.get("iters") is not None:
        return "movers, us or iters without moves"
    term = rec.get("termination", "normal")
    if term not in TERMINATIONS:
        return f"termination is not one of {', '.join(TERMINATIONS)}"
    fseat = rec.get("forfeit")
    if (term == "normal") != (fseat is None):
        return "forfeit is the seat that lost by a termination other than normal, and only then"
    if fseat is not None and not _is_int(fseat, 0, n - 1):
        return "forfeit is not a seat"
    if rec.get("reason") is not None and not isinstance(rec["reason"], str):
        return "reason is not a string"
    if header is not None:
        if rec["game"] != header["game"] or rec["params"] != header["params"]:
            return "a game or parameters other than the run's"
        if rec.get("seed", header["seed"]) != header["seed"]:
            return "a seed other than the run's"
        if "agents" in rec and rec["agents"] != header["agents"]:
            return "agents other than the run's"
        if not set(seats) <= set(header["agents"]):
            return "seats name an agent that is not in the run"
        if n != header["players"]:
            return f"{n} seats in a {header['players']}-player run"
        if "deal" in rec and rec["deal_seed"] != deal_seed(header["seed"], rec["deal"]):
            return "deal_seed is not the seed of its deal in this run"
    return None


def _header_mismatch(found: Mapping[str, Any], expected: Mapping[str, Any]) -> list[str]:
    """The run parameters in which a file's header differs from this run's
    (the master seed is named, never shown)."""
    out = []
    for k in HEADER_FIELDS:
        if found.get(k) != expected.get(k):
            out.append(f"{k} (the file's seed differs)" if k == "seed" else
                       f"{k} (the file's {found.get(k)!r}, this run's {expected.get(k)!r})")
    return out


def _legacy_mismatch(rec: Mapping[str, Any], expected: Mapping[str, Any]) -> Optional[str]:
    """How a record of a file without header (written before headers existed)
    differs from this run, or None."""
    if rec["game"] != expected["game"] or rec["params"] != expected["params"]:
        return f"game (the file's {rec['game']!r} {rec['params']!r}, this run's {expected['game']!r} " \
               f"{expected['params']!r})"
    if rec.get("seed") != expected["seed"]:
        return "seed (the file's seed differs)"
    if rec.get("agents") != expected["agents"]:
        return f"agents (the file's {rec.get('agents')!r}, this run's {expected['agents']!r})"
    if len(rec["seats"]) != expected["players"]:
        return f"players (the file's {len(rec['seats'])}, this run's {expected['players']})"
    return None


@dataclass
class ResultsScan:
    """What a results file holds: its ``header`` (None in a file written
    before headers), its valid game ``records`` in file order, the 1-based
    numbers of the lines skipped as unreadable or not records of the run
    (``bad_lines``), and how its last line ends (``tail``: ``"newline"``;
    ``"complete"``, a valid line missing only its newline; ``"torn"``, a cut
    off line of ours, at byte ``tail_offset``; ``"bad"``, another unterminated
    line, also in ``bad_lines``). ``empty``: no line at all (or only a torn
    one)."""

    header: Optional[dict[str, Any]] = None
    records: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    bad_lines: list[int] = dataclasses.field(default_factory=list)
    tail: str = "newline"
    tail_offset: int = 0
    empty: bool = True


def _is_torn_ours(line: bytes) -> bool:
    """A line cut off while the arena wrote it: it starts as our lines do."""
    return line.startswith(_OUR_PREFIX) or _OUR_PREFIX.startswith(line)


def _iter_lines(f: Any) -> Iterable[tuple[int, Optional[bytes], bool]]:
    """(offset, line without its newline or None if longer than
    MAX_LINE_BYTES, whether it ended with a newline), reading at most
    MAX_LINE_BYTES + 1 bytes of a line into memory."""
    off = 0
    while True:
        line = f.readline(MAX_LINE_BYTES + 1)
        if not line:
            return
        if line.endswith(b"\n"):
            yield off, line[:-1], True
            off += len(line)
            continue
        if len(line) <= MAX_LINE_BYTES:
            yield off, line, False
            return
        size = len(line)
        ended = False
        while True:
            more = f.readline(1 << 20)
            size += len(more)
            if not more:
                break
            if more.endswith(b"\n"):
                ended = True
                break
        yield off, None, ended
        off += size


def _decode(line: Optional[bytes]) -> Any:
    if line is None:
        return None
    try:
        return json.loads(line)
    except (ValueError, RecursionError):
        return None


def scan_results(f: Any, *, name: str = "results file") -> ResultsScan:
    """Read an open binary results file (see :class:`ResultsScan`).

    :raises ResultsFileError: if its first line is neither a run header nor a
        game record: it is not a results file.
    """
    scan = ResultsScan()
    first = True
    for lineno, (off, line, ended) in enumerate(_iter_lines(f), start=1):
        if not ended and line is not None and _is_torn_ours(line) and _decode(line) is None:
            scan.tail, scan.tail_offset = "torn", off
            break
        obj = _decode(line)
        if first:
            first = False
            if is_header(obj):
                problem = _header_problem(obj)
                if problem is not None:
                    raise ResultsFileError(f"{name} cannot be resumed: {problem}")
                scan.header = obj
            elif check_record(obj) is None:
                scan.records.append(obj)
            else:
                raise ResultsFileError(f"{name} is not an arena results file: its first line is not a run "
                                       f"header or a game record; give a new --out path")
            scan.empty = False
        elif check_record(obj, scan.header) is None:
            scan.records.append(obj)
        else:
            scan.bad_lines.append(lineno)
        if not ended:
            scan.tail = "bad" if scan.bad_lines and scan.bad_lines[-1] == lineno else "complete"
    return scan


def stat_regular(p: str, what: str, error: type[ValueError]) -> Optional[os.stat_result]:
    """``os.stat(p)``, or None for a new path; anything but a regular file
    (or a path under a file, or one that cannot be examined) raises
    ``error`` starting ``what``."""
    import stat
    try:
        st = os.stat(p)
    except FileNotFoundError:
        return None
    except NotADirectoryError:
        raise error(f"{what} is under a file, not in a directory") from None
    except OSError as e:
        raise error(f"{what} cannot be used: {e.strerror or e}") from None
    if not stat.S_ISREG(st.st_mode):
        raise error(f"{what} is {_stat_kind(st.st_mode)}, not a regular file")
    return st


def _stat_kind(mode: int) -> str:
    import stat
    for test, what in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return what
    return "not a regular file"


def _open_regular(path: Union[str, os.PathLike[str]], *, write: bool) -> int:
    """A file descriptor of the regular file at ``path`` (created if
    ``write`` and missing, with its directories). Anything else (a
    directory, a FIFO, a device, a socket) is refused before it is opened
    and again after (O_NONBLOCK: a FIFO swapped in between cannot block the
    open), so nothing reads without end or hangs.

    :raises ResultsFileError: naming the path and the problem.
    """
    import stat
    p = os.fspath(path)
    what = f"results file {p!r}"
    st = stat_regular(p, what, ResultsFileError)
    if st is None:
        if not write:
            raise ResultsFileError(f"{what} does not exist")
        parent = Path(p).parent
        try:
            parent.mkdir(parents=True, exist_ok=True)
        except (FileExistsError, NotADirectoryError):
            raise ResultsFileError(f"{what} is under a file, not in a directory") from None
        except OSError as e:
            raise ResultsFileError(f"{what}: cannot create its directory {str(parent)!r}: "
                                   f"{e.strerror or e}") from None
    flags = (os.O_RDWR | os.O_APPEND | os.O_CREAT) if write else os.O_RDONLY
    flags |= os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(p, flags, 0o666)
    except NotADirectoryError:
        raise ResultsFileError(f"{what} is under a file, not in a directory") from None
    except OSError as e:
        raise ResultsFileError(f"{what} cannot be opened for {'writing' if write else 'reading'}: "
                               f"{e.strerror or e}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise ResultsFileError(f"{what} is {_stat_kind(st.st_mode)}, not a regular file")
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


class ResultsFile:
    """A results file open for a run: checked, repaired, locked, appended to.

    Opening reads the file (:func:`scan_results`) and refuses, changing
    nothing, a file that is not a results file or holds another run (its
    header, or for a file without one its records, differ from this run's
    ``header``). Only then it repairs the end: a torn record of ours is cut
    off, a last line missing its newline gets one. A new or empty file gets
    the header. ``force_new``: an existing results file (of any run) is
    emptied first; a file that is not a results file is still refused.
    """

    def __init__(self, path: Union[str, os.PathLike[str]], header: Mapping[str, Any], *,
                 force_new: bool = False) -> None:
        self.path = os.fspath(path)
        name = f"results file {self.path!r}"
        fd = _open_regular(path, write=True)
        try:
            try:
                import fcntl
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except ImportError:       # pragma: no cover - not POSIX
                pass
            except OSError:
                raise ResultsFileError(f"{name} is in use by another arena run") from None
            with open(os.dup(fd), "rb") as f:
                scan = scan_results(f, name=name)
            if force_new and not scan.empty:
                os.ftruncate(fd, 0)
                scan = ResultsScan()
            if scan.header is not None:
                diff = _header_mismatch(scan.header, header)
                if diff:
                    raise ResultsFileError(f"{name} holds another run: its {'; '.join(diff)}. Resume with the "
                                           f"same game, parameters, seed, agents and schedule, or start over "
                                           f"with --force-new (force_new=True) or a new file")
            elif not scan.empty:
                for rec in scan.records:
                    diff1 = _legacy_mismatch(rec, header)
                    if diff1 is not None:
                        raise ResultsFileError(f"{name} (written without a run header) holds another run: its "
                                               f"{diff1}. Resume with the same game, parameters, seed and agents, "
                                               f"or start over with --force-new (force_new=True) or a new file")
            if scan.tail == "torn":
                os.ftruncate(fd, scan.tail_offset)
            elif scan.tail in ("complete", "bad"):
                _write_all(fd, b"\n")
            if scan.empty:
                _write_all(fd, (_ENCODE(dict(header)) + "\n").encode())
                scan.header = dict(header)
        except BaseException:
            os.close(fd)
            raise
        self.fd: Optional[int] = fd
        self.scan = scan

    @property
    def records(self) -> list[dict[str, Any]]:
        return self.scan.records

    @property
    def bad_lines(self) -> list[int]:
        return self.scan.bad_lines

    def append(self, records: Sequence[Mapping[str, Any]]) -> None:
        """One line per record, in one write."""
        assert self.fd is not None
        _write_all(self.fd, "".join(_ENCODE(r) + "\n" for r in records).encode())

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def _key(rec: Mapping[str, Any]) -> tuple[Any, ...]:
    """What identifies a game: the game and its parameters, the deal and who sits where."""
    return (rec["game"], tuple(sorted(rec["params"].items())), rec["deal_seed"], tuple(rec["seats"]))


def read_scan(path: Union[str, os.PathLike[str]], *, repair: bool = False) -> ResultsScan:
    """:func:`scan_results` of the file at ``path`` (a missing file is empty).
    ``repair=True`` cuts a torn last record of ours off the file and ends a
    complete or unreadable last line with a newline, as a resume does.

    :raises ResultsFileError: for a path that is not a regular file or not a
        results file.
    """
    if not os.path.lexists(os.fspath(path)):
        return ResultsScan()
    fd = _open_regular(path, write=False)
    with open(fd, "rb") as f:
        scan = scan_results(f, name=f"results file {os.fspath(path)!r}")
    if repair and scan.tail != "newline":
        fd = _open_regular(path, write=True)
        try:
            if scan.tail == "torn":
                os.ftruncate(fd, scan.tail_offset)
            else:
                _write_all(fd, b"\n")
        finally:
            os.close(fd)
    return scan


def read_results(path: Union[str, os.PathLike[str]], *, repair: bool = False) -> list[dict[str, Any]]:
    """The valid game records of a results file, in file order (the header
    and skipped lines are in :func:`read_scan`). A torn last record (a crash
    mid-write) is skipped and, with ``repair=True``, cut off the file; lines
    that are not valid records of the file's run are skipped
    (:func:`check_record`).

    :raises ResultsFileError: for a path that is not a regular file or not a
        results file.
    """
    return read_scan(path, repair=repair).records
