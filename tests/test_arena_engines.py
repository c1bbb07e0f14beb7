"""External engines in the arena (issue 24): time controls, the engine
contract from the arena's side, adjudication (an engine that sleeps past its
clock, answers an illegal move, exits mid-game or prints garbage loses
exactly the games it should, with the right ``termination``, and the match
finishes), determinism and resuming, and bad input refused at the entry
point.

The misbehaving engines are small Python scripts written into ``tmp_path``;
they play the toy game (6 moves) and misbehave at their second decision of
a game exactly when their hand held a 6 at their first one, which the test
recomputes from each record's moves.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

import tabuleiro
from tabuleiro import arena
from tabuleiro.arena import Engine, parse_tc

PY = sys.executable
TAB = [PY, "-m", "tabuleiro", "engine"]

BAD_ENGINE = textwrap.dedent("""
    import json, os, sys, time
    how = sys.argv[1]
    view = seat = None
    flag = False
    for line in sys.stdin:
        req = json.loads(line)
        cmd, rid = req.get("cmd"), req.get("id")
        if cmd == "load":
            view, seat = req["view"], req["seat"]
            out = {"id": rid, "ok": True, "cmd": "load"}
        elif cmd == "go":
            mine = view["piles"][seat]
            if not mine:
                flag = 6 in view["hands"][seat]
            out = {"id": rid, "ok": True, "cmd": "go", "move": req["legal"][0]}
            if len(mine) == 1 and flag:
                if how == "sleep":
                    time.sleep(60)
                elif how == "illegal":
                    out["move"] = {"move": "play 9", "id": 99999}
                elif how == "exit":
                    os._exit(3)
                elif how == "garbage":
                    print("this is not JSON {", flush=True)
                    continue
        elif cmd == "quit":
            break
        else:
            out = {"id": rid, "ok": True, "cmd": cmd}
        print(json.dumps(out), flush=True)
""")


@pytest.fixture
def bad_engine(tmp_path: Path) -> Path:
    p = tmp_path / "bad_engine.py"
    p.write_text(BAD_ENGINE)
    return p


# --- time controls ---------------------------------------------------------------------

def test_time_controls_read_as_fastchess_writes_them() -> None:
    assert parse_tc("st=0.1").movetime == 0.1
    tc = parse_tc("10+0.1")
    assert (tc.base, tc.increment, tc.moves) == (10.0, 0.1, None)
    assert parse_tc("tc=5+0.05") == parse_tc("5+0.05")
    assert parse_tc("40/60+0.6").moves == 40
    assert parse_tc("1:30").base == 90.0
    for bad in ("", "fast", "st=", "st=-1", "0", "10+", "+1", "0/10"):
        with pytest.raises(ValueError, match="time control"):
            parse_tc(bad)


def test_a_clock_charges_moves_adds_the_increment_and_flags_an_overrun() -> None:
    c = parse_tc("1+0.5").clock(margin=0.1)
    assert c.charge(0.9) and c.remaining == pytest.approx(0.6)
    assert c.charge(0.65)                          # 0.05 over, inside the margin
    assert c.remaining == pytest.approx(0.5)
    assert not c.charge(0.61 + 0.1)                # beyond time + margin
    st = parse_tc("st=0.2").clock(margin=0.05)
    assert st.charge(0.24) and st.charge(0.1) and not st.charge(0.26)
    per = parse_tc("2/1").clock()
    assert per.moves_to_go() == 2
    per.charge(0.1), per.charge(0.1)
    assert per.remaining == pytest.approx(1.8) and per.moves_to_go() == 2


# --- the contract, from the arena's side --------------------------------------------------

def test_tabuleiro_engine_as_an_external_engine_plays_whole_games() -> None:
    tab = Engine(cmd=TAB, options={"agent": "random"}, name="tab")
    s = arena.run("capivarias", [tab, "random"], deals=3, seed=1, jobs=1, tc="5+0.05")
    assert s["games"] == 6
    assert s["terminations"]["engine:tab"] == {"normal": 6, "timeout": 0, "illegal": 0, "crash": 0}


def test_games_with_engines_are_the_same_for_any_job_count_and_resume(tmp_path: Path) -> None:
    tab = Engine(cmd=TAB, options={"agent": "greedy"}, name="tab")
    out = tmp_path / "r.jsonl"
    one = arena.run("capivarias", [tab, "greedy"], deals=2, seed=3, jobs=1, out=out)
    two = arena.run("capivarias", [tab, "greedy"], deals=2, seed=3, jobs=2)
    recs = arena.read_results(out)
    assert all(r["termination"] == "normal" for r in recs) and len(recs) == 4
    strip = ("timing",)
    assert {k: v for k, v in one.items() if k not in strip} == {k: v for k, v in two.items() if k not in strip}
    before = out.read_bytes()
    again = arena.run("capivarias", [tab, "greedy"], deals=2, seed=3, jobs=1, out=out)
    assert out.read_bytes() == before and again["games"] == 4       # resumed: nothing played


def test_engine_options_are_sent_with_every_go_and_stderr_goes_to_the_log(tmp_path: Path) -> None:
    echo = tmp_path / "echo.py"
    echo.write_text(textwrap.dedent("""
        import json, sys
        for line in sys.stdin:
            req = json.loads(line)
            out = {"id": req.get("id"), "ok": True, "cmd": req.get("cmd")}
            if req.get("cmd") == "go":
                print("go with", sorted(k for k in req if k not in ("legal",)), file=sys.stderr, flush=True)
                out["move"] = req["legal"][-1]["move"]            # the notation is accepted too
            print(json.dumps(out), flush=True)
    """))
    eng = Engine(cmd=[PY, str(echo)], options={"depth": 3, "style": "calm"}, name="echo")
    s = arena.run("toy", [eng, "random"], deals=1, seed=0, jobs=1, tc="st=1", engine_log_dir=tmp_path / "logs")
    assert s["terminations"]["engine:echo"]["normal"] == 2
    log = (tmp_path / "logs" / "echo.log").read_text()
    assert "go with ['cmd', 'depth', 'id', 'movetime', 'player', 'seed', 'style']" in log
    assert "[arena" in log and "started pid" in log


# --- adjudication ---------------------------------------------------------------------------

def _expected_forfeit(rec: dict[str, Any], label: str) -> int | None:
    """The move index at which the bad engine misbehaves in this game, or None."""
    game = tabuleiro.load_game(rec["game"], **{k: v for k, v in rec["params"].items()})
    seat = rec["seats"].index(label)
    st = game.new_initial_state(seed=rec["deal_seed"])
    decisions = 0
    flag = False
    for i, a in enumerate(rec["moves"] + [None]):
        if st.is_terminal:
            return None
        if st.current_player == seat:
            if decisions == 0:
                flag = 6 in st.view(seat)["hands"][seat]
            elif decisions == 1 and flag:
                return i
            decisions += 1
        if a is None:
            return None
        st.push(a)
    return None


@pytest.mark.parametrize("how, termination, tc", [("sleep", "timeout", "st=0.5"), ("illegal", "illegal", None),
                                                   ("exit", "crash", None), ("garbage", "illegal", "3+0.1")])
def test_a_misbehaving_engine_loses_exactly_the_games_it_should(bad_engine: Path, tmp_path: Path, how: str,
                                                                termination: str, tc: str | None) -> None:
    eng = Engine(cmd=[PY, str(bad_engine), how], name="bad", timeout=20)
    out = tmp_path / "r.jsonl"
    s = arena.run("toy", [eng, "random"], deals=6, seed=11, jobs=1, out=out, tc=tc, tc_margin=0.1)
    recs = arena.read_results(out)
    assert len(recs) == 12 and s["games"] == 12                      # the match finished
    lost = 0
    for r in recs:
        at = _expected_forfeit(r, "engine:bad")
        seat = r["seats"].index("engine:bad")
        if at is None:
            assert r["termination"] == "normal" and "forfeit" not in r
            continue
        lost += 1
        assert r["termination"] == termination, r
        assert r["forfeit"] == seat and len(r["moves"]) == at
        assert r["returns"][seat] == -1.0 and r["returns"][1 - seat] == 1.0
        assert isinstance(r["reason"], str) and r["reason"]
    assert 0 < lost < 12                                             # some games, not all
    counts = s["terminations"]["engine:bad"]
    assert counts[termination] == lost and counts["normal"] == 12 - lost
    assert sum(counts.values()) == 12
    assert s["terminations"]["random"]["normal"] == 12
    log = (tmp_path / "r.engines" / "bad.log").read_text()
    assert log.count("started pid") == lost + 1                      # restarted after each forfeit
    assert log.count(f"lost by {termination}:") == lost
    assert not any(str(r["deal_seed"]) in log for r in recs)         # the engine's log holds no seed


def test_forfeits_count_as_losses_for_more_than_two_players(bad_engine: Path) -> None:
    """A forfeit at a 3-player table: the loser gets the worst return, the others share the game's utility."""
    crash = Engine(cmd=[PY, "-c", "import sys; sys.stdin.readline(); print('{\"id\":1,\"ok\":true}', flush=True)"],
                   name="dies")
    s = arena.run("capulana", [crash, "random", "greedy"], params={"players": 3}, deals=1, seed=2, jobs=1)
    assert s["terminations"]["engine:dies"]["crash"] == 3
    share = {row["agent"]: row["win_share"] for row in s["standings"]}
    assert share["engine:dies"] == 0.0 and share["random"] == share["greedy"] == 0.5


# --- bad input ---------------------------------------------------------------------------

def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([PY, "-m", "tabuleiro", "arena", *args], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("args, message", [
    (["--engine", "tabuleiro engine", "--agents", "random"], "not NAME=CMD"),
    (["--engine", "x=/nonexistent/engine", "--agents", "engine:x", "random"], "no such program"),
    (["--agents", "engine:nope", "random"], "no engine named 'nope'"),
    (["--engine", f"t={PY} -m tabuleiro engine", "--engine-option", "u:depth=3", "--agents", "engine:t", "random"],
     "no engine named 'u'"),
    (["--engine", f"t={PY} -m tabuleiro engine", "--engine-option", "t:apply=true", "--agents", "engine:t",
      "random"], "option 'apply' is a field the arena sets itself"),
    (["--tc", "fast", "--agents", "random", "greedy"], "time control 'fast'"),
    (["--tc", "st=0.1", "--tc-margin", "-1", "--agents", "random", "greedy"], "--tc-margin"),
    (["--engine", f"q={PY} -c pass", "--agents", "engine:q", "random"], "closed its output"),
    (["--engine", f"h={PY} -c 'import time; time.sleep(60)'", "--engine-timeout", "1", "--agents", "engine:h",
      "random"], "no answer in time"),
    (["--engine-timeout", "0", "--agents", "random"], "--engine-timeout"),
    (["--engine", "a=x", "--engine", "a=y", "--agents", "random"], "defined twice"),
])
def test_bad_engine_and_clock_arguments_exit_2_naming_the_problem(tmp_path: Path, args: list[str],
                                                                  message: str) -> None:
    out = tmp_path / "r.jsonl"
    res = _cli("toy", "--deals", "1", "--jobs", "1", "--out", str(out), "--no-progress", *args)
    assert res.returncode == 2, res.stderr
    assert message in res.stderr
    assert not out.exists()


def test_a_record_with_a_bad_termination_is_skipped() -> None:
    rec = {"game": "toy", "params": {}, "deal_seed": 1, "seats": ["a", "b"], "returns": [1.0, -1.0],
           "scores": [1, 0]}
    assert arena.check_record(dict(rec, termination="normal")) is None
    assert arena.check_record(dict(rec, termination="timeout", forfeit=1, reason="late")) is None
    assert "termination" in str(arena.check_record(dict(rec, termination="resign")))
    assert "forfeit" in str(arena.check_record(dict(rec, termination="crash")))
    assert "forfeit" in str(arena.check_record(dict(rec, termination="crash", forfeit=2)))
