"""Issue 28: a JavaScript client (Node) plays whole games through the engine.

``tests/node/engine_client.mjs`` reads every answer with ``JSON.parse``
(numbers as doubles), plays a game as a table server would (an unbound
table session, a session bound to one seat and told every move, a third
session that reloads every state and view it received), and prints the
moves and the final state and view exactly as it holds them. Here they must
equal the engine's own: the same seed and moves replayed in Python give the
same final state (seed as the protocol's decimal string) and view.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import tabuleiro

CLIENT = Path(__file__).resolve().parent / "node" / "engine_client.mjs"
NODE = shutil.which("node")
SEED = "2784038556176488383"          # past 2^53: JSON.parse would round it as a number

pytestmark = pytest.mark.skipif(NODE is None, reason="Node.js is not installed (.ci/run installs it with apt)")


def play(game: str, params: dict[str, object], seat: int) -> dict[str, object]:
    argv = [sys.executable, "-m", "tabuleiro", "engine"]
    res = subprocess.run([NODE or "node", str(CLIENT), json.dumps(argv), game, json.dumps(params), SEED, str(seat)],
                         capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr[-3000:]
    out: dict[str, object] = json.loads(res.stdout.strip().splitlines()[-1])
    return out


@pytest.mark.parametrize("game, params, seat", [("capivarias", {}, 1), ("capivarias", {"expansion": True}, 0),
                                               ("capulana", {"players": 3}, 2), ("toy", {}, 0)])
def test_a_javascript_client_plays_a_whole_game(game: str, params: dict[str, object], seat: int) -> None:
    got = play(game, params, seat)
    truth = tabuleiro.load_game(game, **params).new_initial_state(seed=int(SEED))  # type: ignore[arg-type]
    for move in got["moves"]:  # type: ignore[attr-defined]
        truth.push(move)
    assert truth.is_terminal
    expected = truth.to_dict()
    assert got["state"] == {**expected, "seed": str(expected["seed"])}
    assert got["view"] == truth.view(seat)
    assert got["reloads"] == 2 * len(got["moves"]) + 2  # type: ignore[arg-type]
    assert got["events"] > len(got["moves"])  # type: ignore[operator]
