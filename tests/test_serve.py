"""``tabuleiro serve`` (docs/server.md): the HTTP and WebSocket API against a
real server on 127.0.0.1, one subprocess per module (plus a few with their
own limits). What each test proves is in its name and docstring."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any, Iterator

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
websockets = pytest.importorskip("websockets")

import tabuleiro  # noqa: E402
from tests.serve_helpers import LeakChecker, ServerProcess, create_table, http  # noqa: E402

from websockets.asyncio.client import connect  # noqa: E402


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    srv = ServerProcess(tmp_path_factory.mktemp("serve") / "t.db", "--rate", "200", "--burst", "200",
                        "--max-seat-sockets", "3").start()
    yield srv
    assert srv.stop() in (0, -15)             # uvicorn re-raises SIGTERM after its graceful shutdown
    log = srv.log.read_text()
    assert "Traceback" not in log and '"event":"server_stopped"' in log, log[-3000:]


async def recv(ws: Any, timeout: float = 10.0) -> dict[str, Any]:
    return dict(json.loads(await asyncio.wait_for(ws.recv(), timeout)))


async def recv_type(ws: Any, kind: str, timeout: float = 10.0) -> dict[str, Any]:
    while True:
        msg = await recv(ws, timeout)
        if msg["type"] == kind:
            return msg


def table_ws(server: ServerProcess, made: dict[str, Any], seat: int = 0) -> str:
    return f"{server.ws}/tables/{made['table']}/ws?token={made['seats'][seat]['token']}"


# --- HTTP ---------------------------------------------------------------------------------------------------


def test_health(server: ServerProcess) -> None:
    status, out = http("GET", server.url + "/health")
    assert status == 200 and out["ok"] is True and out["version"] == tabuleiro.__version__


def test_create_answers_a_token_per_human_seat_and_the_agents_specs(server: ServerProcess) -> None:
    made = create_table(server, "capulana", ["human", "level:3", "human"], params={"players": 3})
    assert [s["kind"] for s in made["seats"]] == ["human", "agent", "human"]
    assert made["seats"][1] == {"seat": 1, "kind": "agent", "spec": "level:3"}
    tokens = [made["seats"][0]["token"], made["seats"][2]["token"]]
    assert len(set(tokens)) == 2 and all(len(t) >= 43 for t in tokens)
    assert made["params"] == {"players": 3, "legacy_determinize": False} or made["params"]["players"] == 3
    assert "seed" not in made


@pytest.mark.parametrize("body, code, status", [
    ({"game": "chess", "seats": ["human", "human"]}, "bad_request", 400),
    ({"game": "toy", "seats": ["human"]}, "bad_request", 400),
    ({"game": "toy", "seats": ["human", "os:system"]}, "bad_request", 400),
    ({"game": "toy", "seats": ["human", "tests.helpers:Anything"]}, "bad_request", 400),
    ({"game": "toy", "seats": ["human", "ismcts:iterations=lots"]}, "bad_request", 400),
    ({"game": "toy", "seats": ["human", "ismcts:iterations=10000000"]}, "limit", 400),
    ({"game": "toy", "seats": ["human", "ismcts:threads=8"]}, "limit", 400),
    ({"game": "capulana", "params": {"players": 9}, "seats": ["human"] * 9}, "bad_request", 400),
    ({"game": "toy", "seed": -1, "seats": ["human", "human"]}, "bad_request", 400),
    ([1, 2], "bad_request", 400),
])
def test_create_refuses_bad_bodies_naming_the_problem(server: ServerProcess, body: Any, code: str,
                                                      status: int) -> None:
    got, out = http("POST", server.url + "/tables", body)
    assert (got, out["error"]["code"]) == (status, code), out
    assert out["error"]["message"]


def test_create_refuses_bad_json_and_huge_bodies(server: ServerProcess) -> None:
    assert http("POST", server.url + "/tables", raw=b"{nope")[1]["error"]["code"] == "bad_json"
    status, out = http("POST", server.url + "/tables", raw=b'{"game": "' + b"x" * 100_000 + b'"}')
    assert (status, out["error"]["code"]) == (413, "too_big")


def test_get_gives_the_seats_view_and_nothing_hidden(server: ServerProcess) -> None:
    """With a known seed the view is exactly ``State.view(seat)`` of the
    local game, and the answer holds neither the seed nor a hidden card."""
    seed = 424242
    made = create_table(server, "capivarias", ["human", "human"], seed=seed)
    state = tabuleiro.load_game("capivarias").new_initial_state(seed=seed)
    for seat in (0, 1):
        status, msg = http("GET", f"{server.url}/tables/{made['table']}",
                           headers={"Authorization": f"Bearer {made['seats'][seat]['token']}"})
        assert status == 200 and msg["seat"] == seat and msg["ply"] == 0
        assert msg["view"] == json.loads(json.dumps(state.view(seat)))
        assert (msg["legal"] != []) == (seat == state.current_player)
        checker = LeakChecker("capivarias", {}, seed, seat)
        checker.check(msg)
        assert checker.leaks == [] and str(seed) not in json.dumps(msg)


def test_get_refuses_missing_wrong_and_other_tables_tokens(server: ServerProcess) -> None:
    a = create_table(server, "toy", ["human", "random"])
    b = create_table(server, "toy", ["human", "random"])
    url = f"{server.url}/tables/{a['table']}"
    assert http("GET", url)[0] == 401
    assert http("GET", url + "?token=nope")[1]["error"]["code"] == "bad_token"
    status, out = http("GET", url, headers={"Authorization": f"Bearer {b['seats'][0]['token']}"})
    assert (status, out["error"]["code"]) == (403, "bad_token")
    assert http("GET", url + "?token=" + a["seats"][0]["token"])[0] == 200
    assert http("GET", f"{server.url}/tables/doesnotexist")[1]["error"]["code"] == "no_table"


def test_static_page_is_served(server: ServerProcess) -> None:
    status, text = http("GET", server.url + "/")
    assert status == 200 and "<html" in str(text)


# --- the table socket -----------------------------------------------------------------------------------------


def test_a_whole_game_against_level3_every_view_exact_and_no_leak(server: ServerProcess) -> None:
    """Every message of a whole Capivárias game is checked against the local
    replay: views equal ``State.view(0)``, no hidden card, no seed (one of
    13 digits: a short one turns up by chance, as 99 did in action id 1899)."""
    seed = 7305418296113

    async def play() -> LeakChecker:
        made = create_table(server, "capivarias", ["human", "level:3"], seed=seed)
        checker = LeakChecker("capivarias", {"expansion": False, "first_player": 0}, seed, 0)
        async with connect(table_ws(server, made)) as ws:
            while True:
                text = await asyncio.wait_for(ws.recv(), 10)
                assert str(seed) not in text, text
                msg = json.loads(text)
                checker.check(msg)
                assert msg["type"] in ("view", "ack"), msg
                if msg["type"] == "view" and msg["over"]:
                    assert msg["outcome"]["winners"] and msg["to_move"] is None
                    return checker
                if msg["type"] == "view" and msg["legal"]:
                    await ws.send(json.dumps({"type": "move", "move": msg["legal"][-1]["move"], "ply": msg["ply"]}))

    checker = asyncio.run(play())
    assert checker.leaks == [] and checker.view_mismatches == 0 and checker.state.is_terminal


def test_bad_moves_get_an_error_on_that_socket_only_and_change_nothing(server: ServerProcess) -> None:
    async def go() -> None:
        made = create_table(server, "toy", ["human", "human"], seed=5)
        async with connect(table_ws(server, made, 0)) as a, connect(table_ws(server, made, 0)) as a2, \
                connect(table_ws(server, made, 1)) as b:
            first = [await recv(a), await recv(a2), await recv(b)]
            assert [m["ply"] for m in first] == [0, 0, 0] and first[0]["to_move"] == 0
            await b.send(json.dumps({"type": "move", "move": first[0]["legal"][0]["move"], "id": "x"}))
            err = await recv(b)
            assert (err["type"], err["code"], err["id"]) == ("error", "not_your_turn", "x")
            for bad, code in [({"move": "play 99"}, "invalid_move"), ({"move": 12345}, "invalid_move"),
                              ({"move": "fold"}, "invalid_move"), ({"move": [1]}, "bad_request"),
                              ({"move": first[0]["legal"][0]["move"], "ply": 7}, "stale"),
                              ({}, "bad_request")]:
                await a.send(json.dumps({"type": "move", **bad}))
                err = await recv(a)
                assert (err["type"], err["code"]) == ("error", code), (bad, err)
            legal = {m["move"] for m in first[0]["legal"]}
            illegal = next(f"play {k}" for k in range(1, 7) if f"play {k}" not in legal)
            await a.send(json.dumps({"type": "move", "move": illegal}))
            assert (await recv(a))["code"] == "illegal_move"
            await a.send(json.dumps({"type": "sync"}))
            assert (await recv(a))["ply"] == 0              # nothing changed
            # a good move: ack to the sender, the view to all three sockets, no error anywhere else
            move = first[0]["legal"][0]["move"]
            await a.send(json.dumps({"type": "move", "move": move, "ply": 0, "id": 1}))
            ack = await recv(a)
            assert ack == {"type": "ack", "ply": 1, "move": ack["move"], "id": 1} and ack["move"]["move"] == move
            views = [await recv(a), await recv(a2), await recv(b)]
            assert [v["type"] for v in views] == ["view"] * 3 and {v["ply"] for v in views} == {1}
            assert views[1]["moves"][0]["move"] == move
            # the replay of the same message is refused: it never plays twice
            await a.send(json.dumps({"type": "move", "move": move, "ply": 0, "id": 1}))
            assert (await recv(a))["code"] in ("stale", "not_your_turn")
            await a2.send(json.dumps({"type": "ping", "id": 3}))
            assert await recv(a2) == {"type": "pong", "id": 3}
            await a.send("not json")
            assert (await recv(a))["code"] == "bad_json"
            await a.send(b"\x00\x01binary")
            assert (await recv(a))["code"] == "bad_json"
            await a.send(json.dumps({"type": "dance"}))
            assert (await recv(a))["code"] == "unknown_type"

    asyncio.run(go())


def test_socket_refusals_and_the_seat_socket_limit(server: ServerProcess) -> None:
    async def go() -> None:
        a = create_table(server, "toy", ["human", "random"])
        b = create_table(server, "toy", ["human", "random"])
        for url, code, close in [(f"{server.ws}/tables/{a['table']}/ws", "no_token", 4401),
                                 (f"{server.ws}/tables/{a['table']}/ws?token={b['seats'][0]['token']}", "bad_token",
                                  4403),
                                 (f"{server.ws}/tables/nosuchtable/ws?token=x", "no_table", 4404)]:
            async with connect(url) as ws:
                err = await recv(ws)
                assert err["code"] == code
                with pytest.raises(websockets.ConnectionClosed) as e:
                    await recv(ws)
                assert e.value.rcvd is not None and e.value.rcvd.code == close
        url = table_ws(server, a)
        socks = [await connect(url) for _ in range(3)]
        async with connect(url) as extra:
            assert (await recv(extra))["code"] == "too_many_connections"
        for s in socks:
            assert (await recv(s))["type"] == "view"
            await s.close()

    asyncio.run(go())


def test_origin_is_checked(server: ServerProcess) -> None:
    async def go() -> None:
        with pytest.raises(websockets.InvalidStatus) as e:
            await connect(f"{server.ws}/engine", origin="http://evil.example")  # type: ignore[arg-type]
        assert e.value.response.status_code == 403
        async with connect(f"{server.ws}/engine", origin=f"http://127.0.0.1:{server.port}") as ws:  # type: ignore
            await ws.send('{"id": 1, "cmd": "ping"}')
            assert (await recv(ws))["ok"] is True

    asyncio.run(go())


def test_agents_move_by_themselves_between_two_agents(server: ServerProcess) -> None:
    made = create_table(server, "capulana", ["human", "level:2", "random"], params={"players": 3}, seed=3)

    async def go() -> None:
        async with connect(table_ws(server, made)) as ws:
            seen = 0
            while True:
                msg = await recv(ws)
                if msg["type"] != "view":
                    continue
                seen = max(seen, msg["ply"])
                if msg["over"]:
                    break
                if msg["legal"]:
                    await ws.send(json.dumps({"type": "move", "move": msg["legal"][0]["move"], "ply": msg["ply"]}))
            assert seen > 20 and all(m["move"] is None or isinstance(m["move"], str) for m in msg["moves"])

    asyncio.run(go())


# --- the engine socket -----------------------------------------------------------------------------------------


def test_engine_socket_speaks_the_protocol_and_caps_the_budget(server: ServerProcess) -> None:
    async def go() -> None:
        async with connect(f"{server.ws}/engine") as ws:
            await ws.send('{"id": 1, "cmd": "new", "game": "toy", "seed": 3}')
            new = await recv(ws)
            assert new["ok"] and new["seed"] == "3" and new["game"] == "toy"
            await ws.send('{"id": 2, "cmd": "go", "iterations": 100000000}')
            err = await recv(ws)
            assert (err["id"], err["ok"], err["error"]["code"]) == (2, False, "limit")
            await ws.send('{"id": 3, "cmd": "go", "threads": 4}')
            assert (await recv(ws))["error"]["code"] == "limit"
            await ws.send('{"id": 4, "cmd": "go", "iterations": 200, "apply": true, "top": 1}')
            out = await recv(ws)
            assert out["ok"] and out["applied"] and out["id"] == 4
            await ws.send('{"id": 5, "cmd": "play", "move": "nonsense"}')
            assert (await recv(ws))["error"]["code"] == "invalid_move"
            await ws.send("{bad")
            assert (await recv(ws))["error"]["code"] == "bad_json"
            # a long search is stopped by stop, within the budget caps
            await ws.send('{"id": 6, "cmd": "go", "time": 4, "iterations": 0}')
            await asyncio.sleep(0.3)
            await ws.send('{"id": 7, "cmd": "stop"}')
            a, b = await recv(ws), await recv(ws)
            assert (a["id"], a["stopped"], b["id"], b["stopped"]) == (6, True, 7, True)
            # the view of a frontend that keeps its own game: load and go
            view = tabuleiro.load_game("capivarias").new_initial_state(seed=8).view(0)
            await ws.send(json.dumps({"id": 8, "cmd": "load", "view": view, "player": 0, "seat": 0}))
            assert (await recv(ws))["ok"]
            await ws.send('{"id": 9, "cmd": "go", "level": 3}')
            out = await recv(ws)
            assert out["ok"] and out["move"]["move"]
            await ws.send('{"id": 10, "cmd": "quit"}')
            assert (await recv(ws))["cmd"] == "quit"
            with pytest.raises(websockets.ConnectionClosed):
                await recv(ws)

    asyncio.run(go())


# --- limits with their own servers ---------------------------------------------------------------------------


def test_rate_limit_answers_then_closes_a_flood(tmp_path: Path) -> None:
    srv = ServerProcess(tmp_path / "r.db", "--rate", "5", "--burst", "5", "--rate-strikes", "50").start()
    try:
        async def go() -> None:
            async with connect(f"{srv.ws}/engine") as ws:
                for i in range(30):
                    await ws.send(json.dumps({"id": i, "cmd": "ping"}))
                answers = [await recv(ws) for _ in range(30)]
                limited = [a for a in answers if a.get("code") == "rate_limited"]
                assert all(a.get("ok") for a in answers[:5]) and len(limited) >= 5, answers
                assert all(a.get("ok") or a.get("code") == "rate_limited" for a in answers)
                try:
                    for i in range(300):            # 50 refused in a row close the socket
                        await ws.send(json.dumps({"id": i, "cmd": "ping"}))
                except websockets.ConnectionClosed:
                    pass
                with pytest.raises(websockets.ConnectionClosed) as e:
                    while True:
                        await recv(ws)
                assert e.value.rcvd is not None and e.value.rcvd.code == 1008
            async with connect(f"{srv.ws}/engine") as ws:          # the server goes on
                await ws.send('{"id": 1, "cmd": "ping"}')
                assert (await recv(ws))["ok"]

        asyncio.run(go())
    finally:
        srv.stop()


def test_table_and_connection_limits(tmp_path: Path) -> None:
    srv = ServerProcess(tmp_path / "l.db", "--max-tables", "2", "--max-connections", "2").start()
    try:
        create_table(srv, "toy", ["human", "random"])
        create_table(srv, "toy", ["human", "random"])
        status, out = http("POST", srv.url + "/tables", {"game": "toy", "seats": ["human", "random"]})
        assert (status, out["error"]["code"]) == (503, "too_many_tables")

        async def go() -> None:
            a, b = await connect(f"{srv.ws}/engine"), await connect(f"{srv.ws}/engine")
            async with connect(f"{srv.ws}/engine") as c:
                assert (await recv(c))["code"] == "too_many_connections"
            await a.close()
            await b.close()

        asyncio.run(go())
    finally:
        srv.stop()


def test_engine_jobs_are_capped_across_sockets_and_the_time_cap_stops_them(tmp_path: Path) -> None:
    srv = ServerProcess(tmp_path / "j.db", "--max-engine-jobs", "1", "--max-search-seconds", "1").start()
    try:
        async def go() -> None:
            async with connect(f"{srv.ws}/engine") as a, connect(f"{srv.ws}/engine") as b:
                for ws in (a, b):
                    await ws.send('{"id": 1, "cmd": "new", "game": "capivarias", "seed": 1}')
                    assert (await recv(ws))["ok"]
                await a.send('{"id": 2, "cmd": "perft", "depth": 40}')
                await a.send('{"id": 9, "cmd": "info"}')        # answered once the perft is under way
                info = await recv(a)
                assert (info["id"], info["running"]) == (9, "perft")
                await b.send('{"id": 3, "cmd": "go", "iterations": 100}')
                err = await recv(b)
                assert (err["id"], err["error"]["code"]) == (3, "limit")
                done = await recv(a, timeout=15)             # the 1 s time cap stopped the perft
                assert (done["id"], done["stopped"], done["nodes"]) == (2, True, None)
                await b.send('{"id": 4, "cmd": "go", "iterations": 100}')
                assert (await recv(b))["ok"]

        asyncio.run(go())
    finally:
        srv.stop()


def test_idle_tables_expire_and_their_sockets_close(tmp_path: Path) -> None:
    srv = ServerProcess(tmp_path / "e.db", "--idle-seconds", "1", "--sweep-seconds", "0.2").start()
    try:
        made = create_table(srv, "toy", ["human", "random"])

        async def go() -> None:
            async with connect(table_ws(srv, made)) as ws:
                assert (await recv(ws))["type"] == "view"
                with pytest.raises(websockets.ConnectionClosed) as e:
                    await recv(ws, timeout=20)
                assert e.value.rcvd is not None and e.value.rcvd.code == 4410

        asyncio.run(go())
        assert http("GET", f"{srv.url}/tables/{made['table']}?token={made['seats'][0]['token']}")[0] == 404
    finally:
        srv.stop()


def test_restart_keeps_every_table_and_move_and_the_token_still_works(tmp_path: Path) -> None:
    srv = ServerProcess(tmp_path / "k.db").start()
    seed = 98765432123
    made = create_table(srv, "capivarias", ["human", "level:3"], seed=seed)

    async def play(n: int) -> dict[str, Any]:
        async with connect(table_ws(srv, made)) as ws:
            acks = 0
            while True:
                msg = await recv(ws)
                if msg["type"] == "ack":
                    acks += 1
                if msg["type"] == "view" and (msg["over"] or acks == n) and msg["to_move"] != 1:
                    return msg
                if msg["type"] == "view" and msg["legal"]:
                    await ws.send(json.dumps({"type": "move", "move": msg["legal"][0]["move"], "ply": msg["ply"]}))

    try:
        before = asyncio.run(play(5))
        srv.kill()
        srv.start()
        status, after = http("GET", f"{srv.url}/tables/{made['table']}?token={made['seats'][0]['token']}")
        assert status == 200 and after["ply"] == before["ply"] and after["moves"] == before["moves"]
        assert after["view"] == before["view"]
        final = asyncio.run(play(1000))
        assert final["over"]
    finally:
        srv.stop()
    log = srv.log.read_text()
    assert made["seats"][0]["token"] not in log and str(seed) not in log and "Traceback" not in log


def test_without_the_extra_serve_says_what_to_install() -> None:
    """The core install has no web stack: ``tabuleiro serve`` then exits 2
    naming the extra, and the rest of the command still works."""
    import subprocess
    import sys

    code = ("import sys; sys.modules['starlette'] = None; sys.modules['uvicorn'] = None\n"
            "from tabuleiro.__main__ import main\n"
            "assert main(['demo', '--game', 'toy', '--quiet']) == 0\n"
            "sys.exit(main(['serve', '--port', '1']))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2, r.stderr
    assert "pip install 'tabuleiro[serve]'" in r.stderr
