"""Hostile clients against a running ``tabuleiro serve`` (issue 22, part 3).

Each attack gets its error or is dropped, and the server keeps serving
every other table: a canary game against ``level:3`` is played (and
checked for leaked hidden cards) after every attack, and the server's log
must hold no traceback at the end. Bad moves, replays, other seats' and
other tables' tokens are in tests/test_serve.py; this file adds malformed
and oversized frames, connection storms, a reader that never reads and a
client that leaves during the AI's search."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import struct
import time
from typing import Any, Iterator

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
websockets = pytest.importorskip("websockets")

from tests.serve_helpers import LeakChecker, ServerProcess, create_table, http  # noqa: E402

from websockets.asyncio.client import connect  # noqa: E402


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    srv = ServerProcess(tmp_path_factory.mktemp("hostile") / "h.db", "--rate", "100000", "--burst", "100000",
                        "--max-send-queue", "16").start()
    yield srv
    assert srv.alive(), "the server crashed"
    srv.stop()
    log = srv.log.read_text()
    assert "Traceback" not in log and "Exception" not in log, log[-3000:]


async def recv(ws: Any, timeout: float = 10.0) -> dict[str, Any]:
    return dict(json.loads(await asyncio.wait_for(ws.recv(), timeout)))


def canary(server: ServerProcess, seed: int = 5) -> None:
    """A whole Capivárias game against level:3, every message leak-checked."""
    made = create_table(server, "capivarias", ["human", "level:3"], seed=seed)

    async def play() -> LeakChecker:
        checker = LeakChecker("capivarias", {}, seed, 0)
        url = f"{server.ws}/tables/{made['table']}/ws?token={made['seats'][0]['token']}"
        async with connect(url) as ws:
            while True:
                msg = await recv(ws)
                checker.check(msg)
                assert msg["type"] in ("view", "ack"), msg
                if msg["type"] == "view" and msg["over"]:
                    return checker
                if msg["type"] == "view" and msg["legal"]:
                    await ws.send(json.dumps({"type": "move", "move": msg["legal"][0]["move"], "ply": msg["ply"]}))

    checker = asyncio.run(play())
    assert checker.leaks == [] and checker.view_mismatches == 0
    assert server.alive()


def connections(server: ServerProcess) -> int:
    return int(http("GET", server.url + "/health")[1]["connections"])


def wait_connections(server: ServerProcess, n: int, timeout: float = 20.0) -> int:
    deadline = time.monotonic() + timeout
    got = connections(server)
    while got > n and time.monotonic() < deadline:
        time.sleep(0.1)
        got = connections(server)
    return got


# --- raw WebSocket frames -----------------------------------------------------------------------------------


def raw_client(server: ServerProcess, path: str, rcvbuf: int = 0) -> socket.socket:
    s = socket.socket()
    if rcvbuf:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.connect(("127.0.0.1", server.port))
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nUpgrade: websocket\r\n"
               f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = s.recv(1)
        assert chunk, "closed during the handshake"
        head += chunk
    assert head.startswith(b"HTTP/1.1 101"), head
    return s


def frame(payload: bytes, opcode: int = 1) -> bytes:
    mask = os.urandom(4)
    n = len(payload)
    head = bytes([0x80 | opcode])
    if n < 126:
        head += bytes([0x80 | n])
    elif n < 65536:
        head += bytes([0x80 | 126]) + struct.pack("!H", n)
    else:
        head += bytes([0x80 | 127]) + struct.pack("!Q", n)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


# --- the attacks -------------------------------------------------------------------------------------------


def test_malformed_and_oversized_messages(server: ServerProcess) -> None:
    made = create_table(server, "toy", ["human", "human"])
    url = f"{server.ws}/tables/{made['table']}/ws?token={made['seats'][0]['token']}"

    async def go() -> None:
        async with connect(url, max_size=None) as ws:
            assert (await recv(ws))["type"] == "view"
            for text, code in [("", "bad_json"), ("{", "bad_json"), ('{"type": NaN}', "bad_json"),
                               ("[" * 60000, "bad_json"), ('{"type": "move", "move": 1e999}', "bad_json"),
                               ('"just a string"', "bad_request"), ('{"type": "move", "id": {"a": 1}}', "bad_request"),
                               ('{"type": "\\ud800"}', "bad_request"), ("x" * 70000, "too_big"),
                               (json.dumps({"type": "move", "move": "p" * 60000}), "invalid_move")]:
                await ws.send(text)
                err = await recv(ws)
                assert (err["type"], err["code"]) == ("error", code), (text[:40], err)
            await ws.send(b"\xff" * 10_000)
            assert (await recv(ws))["code"] == "bad_json"
            await ws.send(json.dumps({"type": "sync"}))
            assert (await recv(ws))["ply"] == 0
        # a frame over the hard cap (1 MiB) closes the socket with 1009; the
        # server may close while the client is still sending, so the close
        # (or, on a loaded machine, the reset after it) can meet the send
        async with connect(url, max_size=None) as ws:
            await recv(ws)
            with pytest.raises((websockets.ConnectionClosed, ConnectionResetError)) as e:
                await ws.send("y" * (2 << 20))
                while True:
                    await recv(ws)
            if isinstance(e.value, websockets.ConnectionClosed) and e.value.rcvd is not None:
                assert e.value.rcvd.code == 1009

    asyncio.run(go())
    # invalid UTF-8 in a text frame: the protocol layer closes it (1007)
    s = raw_client(server, f"/tables/{made['table']}/ws?token={made['seats'][0]['token']}")
    s.sendall(frame(b"\xc3\x28 not utf-8"))
    s.settimeout(10)
    data, reset = b"", False
    while True:
        try:
            chunk = s.recv(65536)
        except ConnectionResetError:            # closed hard after its close frame
            reset = True
            break
        if not chunk:
            break
        data += chunk
    s.close()
    assert b"\x88" in data or reset            # a close frame came back, or the connection was cut
    canary(server)


@pytest.mark.slow
def test_thousands_of_connections_opened_and_dropped(server: ServerProcess) -> None:
    """1,200 connections, 60 at a time: a third close properly, a third are
    cut after the handshake, a third never finish it. None stays counted."""
    made = create_table(server, "toy", ["human", "random"])
    path = f"/tables/{made['table']}/ws?token={made['seats'][0]['token']}"
    base = connections(server)

    async def one(i: int) -> None:
        if i % 3 == 0:
            async with connect(server.ws + path) as ws:
                await recv(ws)
        elif i % 3 == 1:
            ws = await connect(server.ws + "/engine")
            assert ws.transport is not None
            ws.transport.abort()
        else:
            reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
            writer.write(b"GET /engine HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n")
            await writer.drain()
            writer.transport.abort()

    async def storm() -> None:
        sem = asyncio.Semaphore(60)

        async def guarded(i: int) -> None:
            async with sem:
                await one(i)

        await asyncio.gather(*(guarded(i) for i in range(1200)))

    asyncio.run(storm())
    assert wait_connections(server, base) == base
    canary(server, seed=6)


def test_a_reader_that_never_reads_is_dropped_and_memory_stays_bounded(server: ServerProcess) -> None:
    """A client with a 4 KiB receive buffer asks for 30,000 views and reads
    none: its queue (16 messages here) fills, the server drops it, and the
    server's memory grows by far less than the ~60 MB it was asked to send."""
    made = create_table(server, "capulana", ["human"] * 5, params={"players": 5})
    base = connections(server)
    rss0 = server.rss_kib()
    s = raw_client(server, f"/tables/{made['table']}/ws?token={made['seats'][0]['token']}", rcvbuf=4096)
    s.settimeout(2.0)
    sync = frame(b'{"type": "sync"}')
    sent = 0
    try:
        for _ in range(30_000):
            s.sendall(sync)
            sent += 1
    except (socket.timeout, OSError):
        pass                                    # the server stopped reading us: dropped
    assert wait_connections(server, base) == base
    grown = server.rss_kib() - rss0
    s.close()
    assert grown < 40 * 1024, f"RSS grew by {grown} KiB after {sent} unread requests"
    canary(server, seed=7)


@pytest.mark.slow
def test_a_client_that_leaves_during_the_ai_search(server: ServerProcess) -> None:
    """The seat's socket closes right after its move, while the agent
    searches: the agent's move is stored all the same, and the reconnecting
    client carries on from it."""
    made = create_table(server, "capulana", ["human", "ismcts:iterations=5000", "ismcts:iterations=5000"],
                        params={"players": 3}, seed=12)
    url = f"{server.ws}/tables/{made['table']}/ws?token={made['seats'][0]['token']}"

    async def go() -> None:
        for _ in range(3):
            async with connect(url) as ws:
                msg = await recv(ws, timeout=30)
                while True:                     # play until a move hands the turn to an agent
                    while not (msg["type"] == "view" and msg["legal"]):
                        msg = await recv(ws, timeout=30)
                    await ws.send(json.dumps({"type": "move", "move": msg["legal"][0]["move"], "ply": msg["ply"]}))
                    assert (await recv(ws))["type"] == "ack"
                    msg = await recv(ws)
                    if msg["over"] or msg["to_move"] != 0:
                        break
                ply = msg["ply"]
            if msg["over"]:
                return
            # gone while the agents search; come back once it is our turn again
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                status, view = http("GET", url.replace("ws://", "http://").replace("/ws?", "?"))
                assert status == 200
                if view["ply"] > ply and (view["to_move"] == 0 or view["over"]):
                    break
                await asyncio.sleep(0.05)
            assert view["ply"] > ply

    asyncio.run(go())
    canary(server, seed=8)
