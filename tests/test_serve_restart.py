"""SIGKILL during a load run, restart on the same database: every move a
client saw acknowledged is there (issue 22, part 3). Uses the load bench's
own clients (bench/bench_server.py), at a small scale; the bench runs the
same check at 200 clients (docs/server.md)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

ROOT = Path(__file__).resolve().parents[1]


def _bench() -> object:
    spec = importlib.util.spec_from_file_location("bench_server", ROOT / "bench" / "bench_server.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_server"] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_sigkill_during_load_loses_no_acknowledged_move() -> None:
    """30 clients play Capivárias against level:3 (0.05 s thinking a move);
    the server is SIGKILLed 4 s in and started again: 0 lost moves, 0 lost
    tables, every table's moves begin with what its client saw, and no
    message of the run leaked a hidden card or the seed."""
    bench = _bench()
    r = bench.run_restart(30, 8.0, 4.0, [], 3, 0.05)  # type: ignore[attr-defined]
    assert r["server_restarted"], r
    assert r["acknowledged_moves"] > 100, r
    assert (r["lost_moves"], r["lost_tables"], r["tables_with_other_moves"]) == (0, 0, 0), r
    assert (r["leaks"], r["seed_mentions"]) == (0, 0) and r["messages_checked"] > 100, r
