"""The WebAssembly engine (issue 23): the JavaScript package's own tests
(``node --test js/test/``: the documented protocol sessions replayed), the
copies js/ keeps of Python facts, and the protocol's error and secrecy
answers compared with the Python engine's, request by request.

Skipped only when Node.js or Emscripten is absent (the reason says which);
the session fixture builds js/dist when it is missing or stale.
"""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path
from typing import Any

import pytest

import tabuleiro
from tabuleiro import agents
from tabuleiro.engine import Engine
from tests.test_wasm_support import JS, NodeEngine, node_engine, wasm_dist  # noqa: F401  (fixtures)


def python_answers(lines: list[str]) -> list[dict[str, Any]]:
    """The Python engine's answers to ``lines``, each job waited for before the next line."""
    out: list[bytes] = []
    eng = Engine(out.append)
    for line in lines:
        eng.handle_line(line.encode())
        job = eng._job
        if job is not None and job.thread is not None:
            job.thread.join()
    return [json.loads(x) for x in out]


def same(got: list[dict[str, Any]], want: list[dict[str, Any]], lines: list[str]) -> None:
    """Equal answers; a bad_json message is compared by its start (it quotes the JSON parser)."""
    assert len(got) == len(want)
    for g, w, line in zip(got, want, lines):
        if not w["ok"] and w["error"]["code"] == "bad_json":
            assert g["error"]["message"].startswith("not a JSON line: ")
            g = {**g, "error": w["error"]}
        assert g == w, line


def test_node_test_suite_passes(wasm_dist: Path) -> None:
    r = subprocess.run(["node", "--test", "test/"], cwd=JS, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]
    assert "# fail 0" in r.stdout
    passed = int(r.stdout.split("# pass ")[1].split()[0])
    assert passed >= 7, r.stdout[-2000:]        # 4 session tests and 3 job tests at least


def test_levels_and_version_match_python(wasm_dist: Path) -> None:
    code = ('import("./src/agents.js").then(a => import("./src/engine.js").then(e => '
            'console.log(JSON.stringify({levels: a.LEVELS, version: e.VERSION, protocol: e.PROTOCOL_VERSION}))))')
    r = subprocess.run(["node", "-e", code], cwd=JS, capture_output=True, text=True, timeout=60, check=True)
    got = json.loads(r.stdout)
    want = {k: {str(n): [a, p] for n, (a, p) in ladder.items()} for k, ladder in agents.LEVELS.items()}
    assert got["levels"] == want
    assert got["version"] == tabuleiro.__version__
    assert got["protocol"] == tabuleiro.engine.PROTOCOL_VERSION
    assert json.loads((JS / "package.json").read_text())["version"] == tabuleiro.__version__


# Requests that go wrong, and bound sessions: every answer must equal the Python engine's.
ERROR_SESSION = [
    '{"id": 1, "cmd": "legal"}',
    '[1, 2]',
    '{"id": [1], "cmd": "info"}',
    '{"id": 2}',
    '{"id": 3, "cmd": 5}',
    '{"id": 4, "cmd": "Info"}',
    '{"id": 5, "cmd": "new", "game": "chess"}',
    '{"id": 6, "cmd": "new", "game": "capulana", "players": 6}',
    '{"id": 7, "cmd": "new", "game": "capulana", "players": 2.0}',
    '{"id": 8, "cmd": "new", "game": "capivarias", "players": 3}',
    '{"id": 9, "cmd": "new", "game": "capivarias", "expansion": 1}',
    '{"id": 10, "cmd": "new", "game": "toy", "seed": -1}',
    '{"id": 11, "cmd": "new", "game": "toy", "seed": "007"}',
    '{"id": 12, "cmd": "new", "game": "toy", "seed": 18446744073709551616}',
    '{"id": 13, "cmd": "new", "game": "capivarias", "seed": "18446744073709551615", "seat": 2}',
    '{"id": 14, "cmd": "new", "game": "capivarias", "seed": "18446744073709551615"}',
    '{"id": 15, "cmd": "play", "move": "X9"}',
    '{"id": 16, "cmd": "play", "move": 99999}',
    '{"id": 17, "cmd": "play", "move": true}',
    '{"id": 18, "cmd": "play"}',
    '{"id": 19, "cmd": "go", "agent": "alphazero"}',
    '{"id": 20, "cmd": "go", "agent": "random", "iterations": 5}',
    '{"id": 21, "cmd": "go", "iterations": 2.5}',
    '{"id": 22, "cmd": "go", "iterations": 0}',
    '{"id": 23, "cmd": "go", "time": 0}',
    '{"id": 24, "cmd": "go", "c": -1, "iterations": 10}',
    '{"id": 25, "cmd": "go", "rollout": "smart"}',
    '{"id": 26, "cmd": "go", "threads": 65}',
    '{"id": 27, "cmd": "go", "max_nodes": 8}',
    '{"id": 28, "cmd": "go", "level": 11}',
    '{"id": 29, "cmd": "go", "level": 3, "iterations": 5}',
    '{"id": 29.5, "cmd": "go", "level": false}',
    '{"id": 30, "cmd": "go", "level": 3, "agent": "mcts"}',
    '{"id": 31, "cmd": "go", "shaped": 1, "iterations": 5}',
    '{"id": 32, "cmd": "go", "apply": "yes"}',
    '{"id": 33, "cmd": "go", "top": -1}',
    '{"id": 34, "cmd": "undo", "count": 3}',
    '{"id": 35, "cmd": "perft", "depth": 65}',
    '{"id": 36, "cmd": "view"}',
    '{"id": 37, "cmd": "view", "player": 2}',
    '{"id": 38, "cmd": "load"}',
    '{"id": 39, "cmd": "load", "state": 5}',
    '{"id": 40, "cmd": "load", "state": {"game": "capivarias", "expansion": false}}',
    '{"id": 41, "cmd": "load", "state": {"game": "capulana", "players": 9}}',
    '{"id": 42, "cmd": "load", "state": {"game": "toy", "to_move": 0, "seed": "x", "hands": [], "stock": [], "piles": []}}',
    '{"id": 43, "cmd": "load", "state": {"game": "toy", "to_move": 0, "seed": 1, "hands": [[1, 2], [3, 4]], "stock": [5, 9], "piles": [[], []]}}',
    '{"id": 44, "cmd": "load", "state": {"game": "toy", "to_move": 0, "seed": 1, "hands": [[1, 2], [3, 4]], "stock": [5, 5], "piles": [[], []]}}',
    '{"id": 45, "cmd": "load", "view": {"game": "toy"}, "player": 0}',
    '{"id": 46, "cmd": "load", "view": {"game": "toy", "to_move": 0, "hands": [[3, 6], {"count": 2}], "stock": {"count": 2}, "piles": [[], []]}, "seat": 1, "player": 0}',
    '{"id": 47, "cmd": "load", "view": {"game": "toy", "to_move": 0, "hands": [[3, 6], {"count": 2}], "stock": {"count": 2}, "piles": [[], []]}, "player": 0, "seat": 0}',
    '{"id": 48, "cmd": "state"}',
    '{"id": 49, "cmd": "go", "iterations": 50, "seed": 3, "apply": true}',
    '{"id": 50, "cmd": "go", "iterations": 50, "seed": 3, "apply": true}',
    '{"id": 51, "cmd": "undo"}',
    '{"id": 52, "cmd": "new", "game": "capulana", "players": 4, "seed": 5, "seat": 2}',
    '{"id": 53, "cmd": "play", "move": "bid 0"}',
    '{"id": 54, "cmd": "play", "move": "offer F77"}',
    '{"id": 55, "cmd": "legal"}',
    '{"id": 56, "cmd": "go", "iterations": 30, "seed": 1}',
    '{"id": 57, "cmd": "perft", "depth": 1}',
    '{"id": 58, "cmd": "load", "state": {"game": "capulana", "players": 4, "round": 1}}',
    '{"id": 59, "cmd": "go", "agent": "greedy", "seed": 2, "apply": true}',
    '{"id": 60, "cmd": "go", "agent": "random", "seed": 2, "apply": true}',
    '{"id": 61, "cmd": "undo", "count": 2}',
    '{"id": 62, "cmd": "go", "level": 2, "seed": 9, "apply": true}',
    '{"id": 63, "cmd": "state"}',
    '{"id": "s", "cmd": "new", "game": "capivarias", "seed": 12, "expansion": true, "first_player": 1}',
    '{"id": 64, "cmd": "go", "agent": "flatmc", "iterations": 60, "seed": 4, "rollout": "heuristic", "top": 2}',
    '{"id": 65, "cmd": "go", "agent": "mcts", "iterations": 60, "seed": "4", "c": 0.5, "shaped": true, "prior": true, "threads": 3}',
    '{"id": 66, "cmd": "go", "agent": "greedy", "seed": 4}',
    '{"id": 67, "cmd": "go", "agent": "random", "seed": 18446744073709551615}',
    '{"id": 68, "cmd": "view", "player": 1}',
    '{"id": 69, "cmd": "info"}',
    '{"id": 70, "cmd": "cmd", "x": "\\ud800"}',
    '{"id": "\\udc00", "cmd": "info"}',
    '{"id": 71, "cmd": "play", "move": NaN}',
    '{"id": 72, "cmd": "new", "game": 1e999}',
    '[' * 65 + ']' * 65,
    '{"id": 1.5, "cmd": "ping"}',
    '{"id": 73, "cmd": "quit"}',
]


def test_errors_and_bound_sessions_answer_as_the_python_engine(wasm_dist: Path) -> None:
    node = NodeEngine()
    try:
        same(node.run(ERROR_SESSION), python_answers(ERROR_SESSION), ERROR_SESSION)
    finally:
        node.close()


@pytest.mark.parametrize("game,params", [("capivarias", {}), ("capulana", {"players": 3}), ("toy", {})])
def test_seat_bound_games_answer_as_the_python_engine(wasm_dist: Path, game: str, params: dict[str, Any]) -> None:
    """Whole seat-bound games with random requests (moves by id and by
    notation, legal, view, state, undo, go for either seat): the same
    answers, so the WebAssembly engine keeps the same secrets."""
    rng = random.Random(f"{game}-bound")
    node = NodeEngine()
    try:
        for g in range(3):
            st = tabuleiro.load_game(game, **params).new_initial_state(seed=100 + g)
            seat = rng.randrange(st.game.num_players)
            lines = [json.dumps({"id": 0, "cmd": "new", "game": game, "seed": 100 + g, "seat": seat, **params})]
            k = 0
            while not st.is_terminal and k < 300:
                k += 1
                p = st.current_player
                roll = rng.random()
                if roll < 0.1:
                    lines.append(json.dumps({"id": k, "cmd": rng.choice(["legal", "state", "view"])}))
                if roll < 0.05 and st.history():
                    lines.append(json.dumps({"id": k, "cmd": "undo"}))
                a = rng.choice(st.legal_actions())
                if p == seat and roll > 0.8:
                    lines.append(json.dumps({"id": k, "cmd": "go", "iterations": 20, "seed": k, "apply": False, "top": 2}))
                move: Any = a if roll < 0.5 else str(st.game.action_to_string(a))
                lines.append(json.dumps({"id": k, "cmd": "play", "move": move}))
                st.push(a)
            lines.append(json.dumps({"id": "end", "cmd": "state"}))
            same(node.run(lines), python_answers(lines), lines)
    finally:
        node.close()
