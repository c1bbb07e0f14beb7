"""Tables and moves on disk: SQLite in WAL mode, one writer thread.

Every table and every applied move is committed here before the server
acknowledges it. Writes go through one thread that commits whatever is
waiting in one transaction (group commit), so a thousand moves arriving
together cost one ``fsync``, not a thousand. The database holds a seat's
token only as its SHA-256; it holds the deal's seed, which it needs to
rebuild the game after a restart (it is never sent nor logged).

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "t.db")
>>> st = Store(path)
>>> rec = TableRecord("t1", "toy", {}, 7, [{"kind": "human", "token_hash": "ab"}], 0.0)
>>> st.write_sync([st.op_create(rec)])
>>> st.write_sync([st.op_move("t1", 0, 5, 1.0)])
>>> [(t.id, t.moves) for t in st.load()]
[('t1', [5])]
>>> st.close()
"""

from __future__ import annotations

import json
import queue
import sqlite3
import threading
import time
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, Optional

__all__ = ["Store", "TableRecord"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    params TEXT NOT NULL,
    seed TEXT NOT NULL,
    seats TEXT NOT NULL,
    created REAL NOT NULL,
    touched REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS moves (
    table_id TEXT NOT NULL,
    ply INTEGER NOT NULL,
    action INTEGER NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (table_id, ply)
);
"""

#: One write: SQL and its parameters.
Op = tuple[str, tuple[Any, ...]]


@dataclass
class TableRecord:
    """A table as the database keeps it: ``seats`` holds, per seat,
    ``{"kind": "human", "token_hash": hex}`` or ``{"kind": "agent", "spec": text}``.

    >>> TableRecord("x", "toy", {}, 1, [], 0.0).moves
    []
    """

    id: str
    game: str
    params: dict[str, Any]
    seed: int
    seats: list[dict[str, Any]]
    touched: float
    moves: list[int] = field(default_factory=list)


class Store:
    """The database at ``path`` (created if missing), WAL mode,
    ``synchronous=FULL`` by default (``sync="normal"`` survives a killed
    process but not a power cut, and is faster).

    >>> Store(":memory:").close()
    """

    def __init__(self, path: str, *, sync: str = "full") -> None:
        if sync not in ("full", "normal"):
            raise ValueError(f"sync must be 'full' or 'normal', not {sync!r}")
        self.path = path
        self._sync = sync
        self._queue: "queue.Queue[Optional[tuple[list[Op], Future[None]]]]" = queue.Queue()
        self._db = self._connect()
        self._db.executescript(_SCHEMA)
        self._db.commit()
        self._thread: Optional[threading.Thread] = None
        self.commits = 0
        self.writes = 0
        self.commit_seconds = 0.0
        self.max_commit_seconds = 0.0

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute(f"PRAGMA synchronous={self._sync.upper()}")
        db.execute("PRAGMA busy_timeout=5000")
        return db

    # --- writes -----------------------------------------------------------------------------------------
    @staticmethod
    def op_create(rec: TableRecord) -> Op:
        """The write that stores a new table.

        >>> Store.op_create(TableRecord("x", "toy", {}, 1, [], 0.0))[0].split()[0]
        'INSERT'
        """
        return ("INSERT INTO tables (id, game, params, seed, seats, created, touched) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (rec.id, rec.game, json.dumps(rec.params), str(rec.seed), json.dumps(rec.seats), rec.touched,
                 rec.touched))

    @staticmethod
    def op_move(table_id: str, ply: int, action: int, at: float) -> Op:
        """The write that stores a table's move number ``ply`` (0-based).

        >>> Store.op_move("x", 0, 3, 1.0)[1]
        ('x', 0, 3, 1.0)
        """
        return ("INSERT INTO moves (table_id, ply, action, at) VALUES (?, ?, ?, ?)", (table_id, ply, action, at))

    @staticmethod
    def op_touch(table_id: str, at: float) -> Op:
        """The write that records a table's last activity.

        >>> Store.op_touch("x", 2.0)[1]
        (2.0, 'x')
        """
        return ("UPDATE tables SET touched = ? WHERE id = ?", (at, table_id))

    @staticmethod
    def op_delete(table_id: str) -> list[Op]:
        """The writes that remove a table and its moves.

        >>> len(Store.op_delete("x"))
        2
        """
        return [("DELETE FROM moves WHERE table_id = ?", (table_id,)), ("DELETE FROM tables WHERE id = ?",
                                                                       (table_id,))]

    def write_sync(self, ops: list[Op]) -> None:
        """Commit ``ops`` in one transaction, on the calling thread (start-up, tests).

        >>> Store(":memory:").write_sync([])
        """
        self._commit([ops])

    def _commit(self, batches: list[list[Op]]) -> None:
        db = self._db
        t0 = time.perf_counter()
        db.execute("BEGIN IMMEDIATE")
        try:
            for ops in batches:
                for sql, args in ops:
                    db.execute(sql, args)
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        took = time.perf_counter() - t0
        self.commits += 1
        self.writes += len(batches)
        self.commit_seconds += took
        self.max_commit_seconds = max(self.max_commit_seconds, took)

    def start(self) -> None:
        """Start the writer thread (:meth:`submit` needs it).

        >>> s = Store(":memory:"); s.start(); s.submit([]).result(); s.close()
        """
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="tabuleiro-serve-store", daemon=True)
            self._thread.start()

    def submit(self, ops: list[Op]) -> "Future[None]":
        """Queue ``ops`` for the writer thread: the future is done once they
        are committed (or holds the error; nothing of ``ops`` is then kept).

        >>> s = Store(":memory:"); s.start(); s.submit([]).result() is None
        True
        """
        fut: "Future[None]" = Future()
        self._queue.put((ops, fut))
        return fut

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            group = [item]
            while True:                         # everything already waiting: one transaction
                try:
                    nxt = self._queue.get_nowait()
                except queue.Empty:
                    break
                if nxt is None:
                    self._queue.put(None)
                    break
                group.append(nxt)
            try:
                self._commit([ops for ops, _ in group])
            except Exception:  # noqa: BLE001 - one bad batch must not lose the others: retry them alone
                for ops, fut in group:
                    try:
                        self._commit([ops])
                    except Exception as e:  # noqa: BLE001
                        fut.set_exception(e)
                    else:
                        fut.set_result(None)
                continue
            for _, fut in group:
                fut.set_result(None)

    def stats(self) -> dict[str, Any]:
        """Commits so far, writes (moves, tables) they held, and their time.

        >>> Store(":memory:").stats()["commits"]
        0
        """
        return {"commits": self.commits, "writes": self.writes,
                "commit_ms_mean": round(1000 * self.commit_seconds / max(1, self.commits), 2),
                "commit_ms_max": round(1000 * self.max_commit_seconds, 1)}

    def close(self) -> None:
        """Stop the writer (after what is queued) and close the database.

        >>> Store(":memory:").close()
        """
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join(30)
            self._thread = None
        self._db.close()

    # --- reads ------------------------------------------------------------------------------------------
    def load(self) -> list[TableRecord]:
        """Every table with its moves in order (start-up).

        >>> Store(":memory:").load()
        []
        """
        out: dict[str, TableRecord] = {}
        for tid, game, params, seed, seats, touched in self._db.execute(
                "SELECT id, game, params, seed, seats, touched FROM tables ORDER BY created, id"):
            out[tid] = TableRecord(tid, game, json.loads(params), int(seed), json.loads(seats), touched)
        for tid, action in self._db.execute("SELECT table_id, action FROM moves ORDER BY table_id, ply"):
            if tid in out:
                out[tid].moves.append(int(action))
        return list(out.values())

    def count_moves(self) -> int:
        """Moves stored, all tables together.

        >>> Store(":memory:").count_moves()
        0
        """
        return int(self._db.execute("SELECT COUNT(*) FROM moves").fetchone()[0])
