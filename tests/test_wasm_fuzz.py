"""Property test: random requests (right and wrong fields of every command)
get the same answers from the WebAssembly engine as from the Python engine,
in unbound and seat-bound sessions. Budgets are kept small and seeds given,
so both engines' answers are deterministic (a ``time`` budget is not)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.test_wasm import python_answers, same
from tests.test_wasm_support import NodeEngine, node_engine, wasm_dist  # noqa: F401  (fixtures)

SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-3, 40), st.sampled_from([2.0, 0.5, -1.5, 1e300]),
                    st.text(max_size=6), st.sampled_from(["0", "7", "18446744073709551615", "bid 1", "X5", "play 3",
                                                         "OP1@0", "done", "random", "mcts", "heuristic"]))
VALUES = st.one_of(SCALARS, st.lists(SCALARS, max_size=3), st.dictionaries(st.sampled_from(["game", "count", "x"]),
                                                                            SCALARS, max_size=2))
FIELDS = ["game", "players", "expansion", "first_player", "seat", "player", "move", "count", "agent", "iterations",
          "c", "rollout", "threads", "max_nodes", "shaped", "prior", "horizon", "level", "apply", "top", "seed"]
CMDS = ["new", "info", "state", "view", "legal", "play", "undo", "go", "perft", "ping", "isready", "stop", "load",
        "nope"]


@st.composite
def request(draw: Any, k: int) -> str:
    cmd = draw(st.sampled_from(CMDS))
    req: dict[str, Any] = {"id": k, "cmd": cmd}
    for f in draw(st.lists(st.sampled_from(FIELDS), max_size=4, unique=True)):
        req[f] = draw(VALUES)
    if cmd == "new":
        req["game"] = draw(st.sampled_from(["toy", "capivarias", "capulana", req.get("game")]))
        req["seed"] = draw(st.integers(0, 50))              # a drawn seed would differ
    if cmd == "perft":
        req["depth"] = draw(st.one_of(st.integers(-1, 3), SCALARS.filter(lambda v: not isinstance(v, int) or v < 4)))
    if cmd == "go" and isinstance(req.get("iterations"), int) and req["iterations"] > 0:
        req["iterations"] = min(req["iterations"], 30)
    if cmd == "go" and "iterations" not in req and "level" not in req:
        req["iterations"] = 20                              # the default 1000 is fine but slower
    if cmd == "go" and isinstance(req.get("level"), int) and req["level"] > 4:
        req["level"] = 4                                    # levels 5.. search thousands of iterations
    if cmd == "undo" and isinstance(req.get("count"), int) and req["count"] > 3:
        req["count"] = 3
    return json.dumps(req)


@st.composite
def session(draw: Any) -> list[str]:
    game = draw(st.sampled_from(["toy", "capivarias", "capulana"]))
    seat = draw(st.sampled_from([None, 0, 1]))
    head = {"id": 0, "cmd": "new", "game": game, "seed": draw(st.integers(0, 1000)), "seat": seat}
    return [json.dumps(head)] + [draw(request(k)) for k in range(1, draw(st.integers(1, 8)))]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(lines=session())
def test_random_requests_answer_as_the_python_engine(node_engine: NodeEngine, lines: list[str]) -> None:
    same(node_engine.run(lines), python_answers(lines), lines)
