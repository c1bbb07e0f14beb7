"""Differential test of the WebAssembly build against the native build
(issue 23): seeded games of every game and player count, played through the
engine protocol by both, must give identical answers after every move: the
state (``to_dict``, through ``state``), the legal moves (``legal``), the
move played, and ``go`` answers (move, analysis with visits and means,
iterations, nodes) at three points a game for the same seed and iterations.
The rules, the random generator and the search are the same C code, so the
answers are equal, not merely close.

The native side is the installed tabuleiro's Python engine, in process; the
WebAssembly side is one long-lived ``node js/cli.mjs --serial``. The quick
loop plays 8 games per configuration; the full 500 are marked slow (about
1.5 minutes for this file on a loaded 2-core machine; the two largest
configurations are in test_wasm_differential_large.py).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import tabuleiro
from tests.test_wasm import python_answers
from tests.test_wasm_support import NodeEngine, node_engine, wasm_dist  # noqa: F401  (fixtures)

#: The configurations this file plays; Capulana with 4 and 5 players (the longest games) are in
#: test_wasm_differential_large.py, so that pytest-xdist runs the two halves on two workers.
CONFIGS = [("capivarias", {}), ("capivarias", {"expansion": True}), ("capulana", {"players": 2}),
           ("capulana", {"players": 3}), ("toy", {})]
LARGE = [("capulana", {"players": 4}), ("capulana", {"players": 5})]


def config_id(game: str, params: dict[str, Any]) -> str:
    return f"{game}-{'-'.join(f'{k}{v}' for k, v in params.items()) or 'default'}"


IDS = [config_id(g, p) for g, p in CONFIGS]


def game_requests(game: str, params: dict[str, Any], seed: int) -> list[str]:
    """The requests of one seeded game: new, then for every move state,
    legal (and at three points a go) and the move, by id or by notation."""
    rng = random.Random(seed)
    st = tabuleiro.load_game(game, **params).new_initial_state(seed=seed)
    lines = [json.dumps({"id": 0, "cmd": "new", "game": game, "seed": seed, **params})]
    length = st.game.info.max_game_length
    go_at = set(rng.sample(range(min(length, 40)), 3))
    k = 0
    while not st.is_terminal:
        lines.append(json.dumps({"id": f"s{k}", "cmd": "state"}))
        lines.append(json.dumps({"id": f"l{k}", "cmd": "legal"}))
        if k in go_at:
            lines.append(json.dumps({"id": f"g{k}", "cmd": "go", "agent": rng.choice(["ismcts", "mcts", "flatmc"]),
                                     "iterations": 100, "seed": rng.getrandbits(64), "top": 5}))
        a = rng.choice(st.legal_actions())
        move: Any = a if rng.random() < 0.5 else st.game.action_to_string(a)
        lines.append(json.dumps({"id": f"p{k}", "cmd": "play", "move": move}))
        st.push(a)
        k += 1
    lines.append(json.dumps({"id": "end", "cmd": "state"}))
    return lines


def check_games(node: NodeEngine, game: str, params: dict[str, Any], n: int, *, batch: int = 20) -> None:
    """n seeded games, node answering a batch while the Python engine does."""
    for start in range(0, n, batch):
        seeds = [seed * 7919 + 13 for seed in range(start, min(n, start + batch))]
        games = [game_requests(game, params, s) for s in seeds]
        lines = [line for g in games for line in g]
        node.send(lines)
        want = python_answers(lines)
        got = node.receive(len(lines))
        for g, w, line in zip(got, want, lines):
            assert w["ok"], (line, w)
            assert g == w, (game, params, line)


@pytest.mark.parametrize("game,params", CONFIGS, ids=IDS)
def test_wasm_equals_native_quick(node_engine: NodeEngine, game: str, params: dict[str, Any]) -> None:
    check_games(node_engine, game, params, 8)


@pytest.mark.slow
@pytest.mark.parametrize("game,params", CONFIGS, ids=IDS)
def test_wasm_equals_native_500_games(node_engine: NodeEngine, game: str, params: dict[str, Any]) -> None:
    check_games(node_engine, game, params, 500)
