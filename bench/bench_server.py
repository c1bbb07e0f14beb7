"""Load and restart bench of ``tabuleiro serve`` (issue 22, part 3; docs/server.md).

Starts the server on 127.0.0.1 with a fresh database, then runs N concurrent
WebSocket clients, each creating tables and playing whole Capivárias games
against ``level:3`` for a fixed time, and reports games/s, the move latency
(a move sent to the view that shows it: p50/p99), the latency to the client's
next turn (the agent's reply included), errors (must be 0) and the server's
peak RSS. Every message every client received is then checked for hidden
cards (the views' own card lists, tests/serve_helpers.LeakChecker) and for
the seed.

    python bench/bench_server.py --clients 50 200 1000 --seconds 20
    python bench/bench_server.py --restart 200 --seconds 20 --kill-after 8

``--restart N`` SIGKILLs the server ``--kill-after`` seconds into a load run
of N clients, starts it again on the same database, and counts every move
the clients saw acknowledged (an ack, or a view showing it) against what
the restarted server holds: lost moves must be 0.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


@dataclass
class Stats:
    games: int = 0
    moves: int = 0
    errors: list[str] = field(default_factory=list)
    move_latency: list[float] = field(default_factory=list)
    turn_latency: list[float] = field(default_factory=list)
    #: table id -> (token, highest ply the client saw acknowledged, moves list of the last view)
    acked: dict[str, tuple[str, int, list[Any]]] = field(default_factory=dict)


async def post_table(port: int, body: dict[str, Any]) -> dict[str, Any]:
    data = json.dumps(body).encode()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"POST /tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                 f"Content-Length: {len(data)}\r\nConnection: close\r\n\r\n".encode() + data)
    await writer.drain()
    raw = await reader.read()
    writer.close()
    head, _, text = raw.partition(b"\r\n\r\n")
    if not head.startswith(b"HTTP/1.1 201"):
        raise RuntimeError(f"POST /tables: {head.splitlines()[0]!r} {text[:200]!r}")
    return dict(json.loads(text))


async def client(i: int, port: int, deadline: float, stats: Stats, record: Any, rng: random.Random,
                 stop_on_error: bool, think: float) -> None:
    from websockets.asyncio.client import connect

    while time.monotonic() < deadline:
        seed = rng.getrandbits(63)
        try:
            made = await post_table(port, {"game": "capivarias", "seats": ["human", "level:3"], "seed": seed})
        except Exception as e:  # noqa: BLE001
            stats.errors.append(f"create: {type(e).__name__}: {e}")
            if stop_on_error:
                return
            continue
        table, token = made["table"], made["seats"][0]["token"]
        stats.acked[table] = (token, 0, [])
        game_key = f"{i}:{table}:{seed}"
        try:
            async with connect(f"ws://127.0.0.1:{port}/tables/{table}/ws?token={token}", max_size=None,
                               open_timeout=60, ping_interval=None) as ws:
                sent_at: Optional[float] = None
                sent_ply = -1
                while True:
                    text = await asyncio.wait_for(ws.recv(), 60)
                    now = time.perf_counter()
                    record(game_key, text)
                    msg = json.loads(text)
                    if msg["type"] == "error":
                        stats.errors.append(f"{msg['code']}: {msg['message']}")
                        if stop_on_error:
                            return
                        continue
                    if msg["type"] == "ack":
                        _, ply, moves = stats.acked[table]
                        stats.acked[table] = (token, max(ply, msg["ply"]), moves)
                        continue
                    stats.acked[table] = (token, max(stats.acked[table][1], msg["ply"]), msg["moves"])
                    if sent_at is not None and msg["ply"] == sent_ply + 1:
                        stats.move_latency.append(now - sent_at)
                    if msg["over"]:
                        stats.games += 1
                        break
                    if msg["legal"]:
                        if sent_at is not None:
                            stats.turn_latency.append(now - sent_at)
                        move = rng.choice(msg["legal"])["move"]
                        if think > 0:
                            await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
                        sent_at, sent_ply = time.perf_counter(), msg["ply"]
                        await ws.send(json.dumps({"type": "move", "move": move, "ply": msg["ply"]}))
                        stats.moves += 1
        except Exception as e:  # noqa: BLE001
            stats.errors.append(f"socket: {type(e).__name__}: {e}")
            if stop_on_error:
                return


class PeakRSS:
    def __init__(self, server: Any) -> None:
        self.server, self.peak, self._stop = server, 0, threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.peak = max(self.peak, self.server.rss_kib())
            except (OSError, AssertionError):
                pass
            self._stop.wait(0.2)

    def __enter__(self) -> "PeakRSS":
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._stop.set()
        self._thread.join()


def server_cpu(server: Any) -> float:
    """CPU seconds (user + system) the server process has used."""
    import os

    fields = Path(f"/proc/{server.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
    return round((int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK"), 1)


def check_leaks(path: Path) -> tuple[int, int, int]:
    """(messages, leaks, seed mentions) over every recorded message."""
    from tests.serve_helpers import LeakChecker

    checkers: dict[str, LeakChecker] = {}
    messages = leaks = seeds = 0
    with open(path, encoding="utf-8") as f:
        for line in f:
            key, _, text = line.rstrip("\n").partition("\t")
            seed = key.rsplit(":", 1)[1]
            if key not in checkers:
                checkers[key] = LeakChecker("capivarias", {}, int(seed), 0)
            msg = json.loads(text)
            checkers[key].check(msg)
            messages += 1
            seeds += seed in text
    for c in checkers.values():
        leaks += len(c.leaks) + c.view_mismatches
    return messages, leaks, seeds


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] * 1000


async def load(port: int, n: int, seconds: float, record: Any, seed: int, *, stop_on_error: bool = False,
               kill: Optional[tuple[float, Any]] = None, think: float = 0.0) -> tuple[Stats, float]:
    stats = Stats()
    start = time.monotonic()
    deadline = start + seconds
    tasks = [asyncio.ensure_future(client(i, port, deadline, stats, record, random.Random(seed * 7919 + i),
                                          stop_on_error, think)) for i in range(n)]
    if kill is not None:
        await asyncio.sleep(kill[0])
        kill[1]()
    await asyncio.gather(*tasks)
    return stats, time.monotonic() - start


def _recorded_server(prefix: str, db: str, server_args: list[str]) -> tuple[Path, Any, Any, Any]:
    """A server started in a new work directory, the open messages.tsv there
    (the caller closes it) and record(key, text), which appends a line to it."""
    from tests.serve_helpers import ServerProcess

    work = Path(tempfile.mkdtemp(prefix=prefix))
    srv = ServerProcess(work / db, *server_args).start()
    out = open(work / "messages.tsv", "w", encoding="utf-8")

    def record(key: str, text: str) -> None:
        out.write(f"{key}\t{text}\n")

    return work, srv, out, record


def run_load(n: int, seconds: float, server_args: list[str], seed: int, think: float) -> dict[str, Any]:
    from tests.serve_helpers import http

    work, srv, out, record = _recorded_server("bench-serve-", "load.db", server_args)
    try:
        with PeakRSS(srv) as rss:
            stats, elapsed = asyncio.run(load(srv.port, n, seconds, record, seed, think=think))
        alive = srv.alive()
        cpu = server_cpu(srv)
        health = http("GET", srv.url + "/health")[1]
    finally:
        srv.stop()
        out.close()
    messages, leaks, seeds = check_leaks(work / "messages.tsv")
    return {"clients": n, "think_s": think, "seconds": round(elapsed, 1), "games": stats.games,
            "games_per_s": round(stats.games / elapsed, 2), "moves": stats.moves,
            "moves_per_s": round(stats.moves / elapsed, 1),
            "move_p50_ms": round(pct(stats.move_latency, 0.50), 1), "move_p99_ms": round(pct(stats.move_latency, 0.99), 1),
            "turn_p50_ms": round(pct(stats.turn_latency, 0.50), 1), "turn_p99_ms": round(pct(stats.turn_latency, 0.99), 1),
            "errors": len(stats.errors), "error_samples": stats.errors[:5], "rss_mib": round(rss.peak / 1024, 1),
            "server_cpu_s": cpu, "health": health,
            "messages_checked": messages, "leaks": leaks, "seed_mentions": seeds, "server_alive": alive}


def run_restart(n: int, seconds: float, kill_after: float, server_args: list[str], seed: int,
                think: float) -> dict[str, Any]:
    from tests.serve_helpers import http

    work, srv, out, record = _recorded_server("bench-restart-", "restart.db", server_args)
    try:
        stats, _ = asyncio.run(load(srv.port, n, seconds, record, seed, stop_on_error=True,
                                    kill=(kill_after, srv.kill), think=think))
        out.close()
        srv.start()                              # same port, same database
        acked = lost = mismatched = lost_tables = 0
        for table, (token, ply, moves) in stats.acked.items():
            acked += ply
            status, view = http("GET", f"{srv.url}/tables/{table}", headers={"Authorization": f"Bearer {token}"})
            if status != 200:
                lost += ply
                lost_tables += 1
                continue
            lost += max(0, ply - view["ply"])
            mismatched += view["moves"][:len(moves)] != moves
        stored = srv.log.read_text().count('"event":"tables_loaded"')
        alive = srv.alive()
    finally:
        srv.stop()
    messages, leaks, seeds = check_leaks(work / "messages.tsv")
    return {"clients": n, "kill_after_s": kill_after, "tables": len(stats.acked), "acknowledged_moves": acked,
            "lost_moves": lost, "lost_tables": lost_tables, "tables_with_other_moves": mismatched, "completed_games_before_kill": stats.games,
            "server_restarted": alive and stored == 2, "messages_checked": messages, "leaks": leaks,
            "seed_mentions": seeds}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, nargs="*", default=[50, 200, 1000])
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--restart", type=int, default=0, metavar="N", help="the SIGKILL restart test with N clients")
    ap.add_argument("--kill-after", type=float, default=8.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--think", type=float, default=1.0, help="mean seconds a client waits before each move "
                    "(uniform in [0.5, 1.5] times it; 0: move at once, the saturation run)")
    ap.add_argument("--server-arg", action="append", default=[], help="passed to tabuleiro serve (repeat)")
    ap.add_argument("--json", type=Path, help="also write the results here")
    args = ap.parse_args()
    server_args = [a for arg in args.server_arg for a in arg.split()]
    results = []
    if args.restart:
        r = run_restart(args.restart, args.seconds, args.kill_after, server_args, args.seed, args.think)
        print(json.dumps(r), flush=True)
        results.append(r)
    else:
        print(f"think time {args.think:g} s (mean), {args.seconds:g} s a run", file=sys.stderr)
        print("| clients | games/s | moves/s | move p50 / p99 (ms) | next turn p50 / p99 (ms) | errors | "
              "server RSS (MiB) | messages checked | leaks |")
        print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for n in args.clients:
            r = run_load(n, args.seconds, server_args, args.seed, args.think)
            results.append(r)
            print(f"| {n} | {r['games_per_s']} | {r['moves_per_s']} | {r['move_p50_ms']} / {r['move_p99_ms']} | "
                  f"{r['turn_p50_ms']} / {r['turn_p99_ms']} | {r['errors']} | {r['rss_mib']} | "
                  f"{r['messages_checked']} | {r['leaks']} |", flush=True)
            print(f"  server CPU {r['server_cpu_s']} s in {r['seconds']} s; {r['health']}", file=sys.stderr)
            if r["errors"]:
                print(f"  errors: {r['error_samples']}", file=sys.stderr)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
