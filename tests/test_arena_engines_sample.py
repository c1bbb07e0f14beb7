"""The sample external engine (examples/flatmc-engine/engine.mjs, Node):
the contract seen from outside the package.

* It speaks the protocol on its own (a session driven line by line here).
* In the arena it never receives a hidden card: everything the arena sent
  it is recorded (a ``tee`` in front of it), and every view it got is the
  true view of its seat at one of its decisions, recomputed from the
  records; no line holds a full state or the deal's seed.
* It plays a short match against ``tabuleiro engine`` itself as an external
  engine, ``tc=5+0.05`` under ``--jobs 2`` (the acceptance run in short,
  with ``--sprt ... stop=no``), and the command prints the result, the
  SPRT line (checked against the SPRT of the games in the file) and the
  termination counts.

And the C random engine (examples/random-engine/random_engine.c, the
overhead benchmark's engine): it reads requests in any key order and plays
legal moves; a match between two of them gives the same games for one and
two jobs.
"""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import tabuleiro
from tabuleiro import arena
from tabuleiro.arena import Engine

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "examples" / "flatmc-engine" / "engine.mjs"
PY = sys.executable
ORACLE = f"{PY} -m tabuleiro engine"
NODE = shutil.which("node")

needs_node = pytest.mark.skipif(NODE is None, reason="the sample engine needs Node (node on PATH)")


def _sample(**options: Any) -> Engine:
    return Engine(cmd=[str(NODE), str(SAMPLE), "--oracle", ORACLE], options=options, name="sample")


@needs_node
def test_the_sample_engine_speaks_the_protocol_on_its_own() -> None:
    st = tabuleiro.load_game("capivarias").new_initial_state(seed=4)
    legal = [{"move": str(m), "id": m.action} for m in st.legal_moves()]
    reqs = [{"id": 1, "cmd": "ping"},
            {"id": 2, "cmd": "load", "view": st.view(0), "player": 0, "seat": 0},
            {"id": 3, "cmd": "go", "player": 0, "legal": legal, "seed": "7", "mode": "random"},
            {"id": 4, "cmd": "go", "player": 0, "legal": legal, "seed": "7", "playouts": 2},
            {"id": 5, "cmd": "bogus"},
            {"id": 6, "cmd": "quit"}]
    res = subprocess.run([str(NODE), str(SAMPLE), "--oracle", ORACLE], capture_output=True, text=True,
                         input="".join(json.dumps(r) + "\n" for r in reqs) + "not json\n", timeout=120)
    answers = [json.loads(line) for line in res.stdout.splitlines()]
    assert [a["id"] for a in answers] == [1, 2, 3, 4, 5, 6]
    assert [a["ok"] for a in answers] == [True, True, True, True, False, True]
    ids = {m["id"] for m in legal}
    assert answers[2]["move"]["id"] in ids and answers[3]["move"]["id"] in ids
    assert answers[4]["error"]["code"] == "unknown_command"
    assert res.returncode == 0


def _true_views(records: list[dict[str, Any]], label: str) -> list[str]:
    """The view of ``label``'s seat at each of its decisions, replayed from the records."""
    out = []
    for r in records:
        game = tabuleiro.load_game(r["game"], **r["params"])
        st = game.new_initial_state(seed=r["deal_seed"])
        seats = {p for p, lab in enumerate(r["seats"]) if lab == label}
        for a in r["moves"]:
            if st.current_player in seats:
                out.append(json.dumps(st.view(st.current_player), sort_keys=True))
            st.push(a)
    return out


@needs_node
@pytest.mark.parametrize("game, params, mode", [("capivarias", {}, "random"), ("capulana", {"players": 3}, "random"),
                                                ("toy", {}, "flatmc")])
def test_the_sample_engine_never_receives_a_hidden_card(tmp_path: Path, game: str, params: dict[str, Any],
                                                        mode: str) -> None:
    sent = tmp_path / "sent.jsonl"
    inner = f"{shlex.quote(str(NODE))} {shlex.quote(str(SAMPLE))} --oracle {shlex.quote(ORACLE)}"
    spy = Engine(cmd=["sh", "-c", f"tee -a {shlex.quote(str(sent))} | exec {inner}"],
                 options={"mode": mode, "playouts": 1}, name="sample")
    out = tmp_path / "r.jsonl"
    deals = 1 if mode == "flatmc" else 2
    arena.run(game, [spy, "random", "greedy"][:2 if game != "capulana" else 3], params=params, deals=deals,
              seed=5, jobs=1, out=out)
    records = arena.read_results(out)
    assert all(r["termination"] == "normal" for r in records)
    lines = [json.loads(line) for line in sent.read_text().splitlines()]
    loads = [m for m in lines if m["cmd"] == "load"]
    gos = [m for m in lines if m["cmd"] == "go"]
    assert {m["cmd"] for m in lines} <= {"ping", "load", "go", "quit"}
    for m in lines:
        assert "state" not in m
        assert "seed" not in m or m["cmd"] == "go"
    for m in loads:
        assert m["seat"] == m["player"] and "seed" not in m["view"]
    # every view sent is the true view of the engine's seat at one of its decisions, one for one
    assert sorted(json.dumps(m["view"], sort_keys=True) for m in loads) == sorted(_true_views(records, "engine:sample"))
    assert len(gos) == len(loads)
    # the go's seed is a hash of what the engine was sent, not the deal's
    deal_seeds = {str(r["deal_seed"]) for r in records}
    assert not deal_seeds & {m["seed"] for m in gos}


@needs_node
@pytest.mark.slow          # about 8 s: six engine processes and a pool of two workers start
def test_sample_engine_against_tabuleiro_engine_on_a_clock_with_two_jobs(tmp_path: Path) -> None:
    out = tmp_path / "m.jsonl"
    cmd = [PY, "-m", "tabuleiro", "arena", "capivarias", "--deals", "2", "--seed", "1", "--jobs", "2",
           "--out", str(out), "--no-progress", "--tc", "5+0.05",
           "--engine", f"sample={shlex.quote(str(NODE))} {shlex.quote(str(SAMPLE))} --oracle {shlex.quote(ORACLE)}",
           "--engine-option", "sample:playouts=1",
           "--engine", f"tab={ORACLE}", "--engine-option", "tab:iterations=50",
           "--agents", "engine:sample", "engine:tab", "--sprt", "elo0=0", "elo1=50", "stop=no"]
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr
    recs = arena.read_results(out)
    assert len(recs) == 4 and all(r["termination"] == "normal" for r in recs)
    # the SPRT line is the SPRT of these games, read again from the file
    sprt = arena.SPRT(elo0=0, elo1=50, stop=False)
    t = arena.summarize_file(out, sprt=sprt)["sprt"]
    assert t["final_pairs"] == 2
    verdict = {"H1": "H1 accepted", "H0": "H0 accepted", None: "undecided"}[t["result"]]
    line = next(x for x in res.stdout.splitlines() if x.startswith("SPRT "))
    assert line.startswith(f"SPRT [0, 50] (normalized, alpha=0.05, beta=0.05): LLR {t['llr']:.2f} in (-2.94, 2.94) "
                           f"after {t['pairs']} pairs: {verdict}"), line
    assert "engine:sample vs engine:tab: W" in res.stdout
    mine = [(r["returns"][r["seats"].index("engine:sample")], r["returns"][r["seats"].index("engine:tab")])
            for r in recs]
    w, d, lost = (sum(a > b for a, b in mine), sum(a == b for a, b in mine), sum(a < b for a, b in mine))
    assert f"engine:sample vs engine:tab: W {w} D {d} L {lost};" in res.stdout, res.stdout
    assert "terminations (games lost by timeout, illegal move, crash):" in res.stdout
    for name in ("engine:sample", "engine:tab"):
        assert f"  {name}: normal 4, timeout 0, illegal 0, crash 0" in res.stdout, res.stdout
    assert (out.parent / "m.engines" / "sample.log").exists()


# --- the C random engine (examples/random-engine), the overhead benchmark's engine ----------

CC = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
C_SOURCE = ROOT / "examples" / "random-engine" / "random_engine.c"


@pytest.fixture(scope="module")
def c_engine(tmp_path_factory: pytest.TempPathFactory) -> str:
    # the package itself is built from C source by the README's test command, so a compiler is there
    assert CC is not None, "no C compiler (cc, gcc or clang) on PATH: the package's own build needs one"
    exe = tmp_path_factory.mktemp("c") / "random_engine"
    subprocess.run([CC, "-O2", "-Wall", "-Wextra", "-Werror", "-o", str(exe), str(C_SOURCE)], check=True,
                   timeout=120)
    return str(exe)


def test_the_c_random_engine_answers_in_any_key_order_and_plays_legal_moves(c_engine: str) -> None:
    reqs = ['{"cmd":"ping","id":1}',
            '{"id":"two","cmd":"go","legal":[{"move":"a \\"id\\":9","id":7},{"move":"b","id":8}],"seed":"5"}',
            '{"legal":[{"id":3}],"seed":1,"cmd":"go","id":3}',
            '{"id":4,"cmd":"go","legal":[]}',
            '{"id":5,"cmd":"quit"}']
    res = subprocess.run([c_engine], input="\n".join(reqs) + "\n", capture_output=True, text=True, timeout=30)
    answers = [json.loads(line) for line in res.stdout.splitlines()]
    assert [a["id"] for a in answers] == [1, "two", 3, 4, 5]
    assert answers[1]["move"]["id"] in (7, 8) and answers[2]["move"]["id"] == 3
    assert answers[3]["ok"] is False and res.returncode == 0


def test_two_c_random_engines_play_a_match_and_repeat_it(c_engine: str) -> None:
    a = Engine(cmd=[c_engine], name="a")
    b = Engine(cmd=[c_engine], name="b")
    one = arena.run("capivarias", [a, b], deals=20, seed=3, jobs=1, tc="5+0.05")
    two = arena.run("capivarias", [a, b], deals=20, seed=3, jobs=2, tc="5+0.05")
    assert one["games"] == 40 and one["terminations"]["engine:a"]["normal"] == 40
    strip = ("timing",)
    assert {k: v for k, v in one.items() if k not in strip} == {k: v for k, v in two.items() if k not in strip}
