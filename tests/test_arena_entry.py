"""The arena checks its agents and its plot path where they enter, before
any game is played: a message and exit status 2, never a traceback (issue 26).
"""

from __future__ import annotations

import importlib
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from tabuleiro import arena
from tests.helpers import deny_writes

pytest.importorskip("matplotlib")


from tests.test_arena_records import run_cli  # noqa: E402  (tabuleiro arena in this process)


# --- module:attr specs that are not agents --------------------------------------------------------

def make_nothing(seed: int) -> int:
    """A factory that makes something without choose(state)."""
    return seed


def make_broken(seed: int) -> Any:
    raise RuntimeError("no model file")


class NoSeed:
    """An agent class that cannot take seed=."""

    def choose(self, state: Any) -> int:
        return state.legal_actions()[0]  # type: ignore[no-any-return]


CALLS: list[int] = []


def counted(seed: int) -> Any:
    CALLS.append(seed)
    return NoSeed()


@pytest.mark.parametrize("spec,msg", [
    ("json:dumps", "json:dumps is not an agent factory: it cannot be called as json:dumps(seed=...)"),
    ("os:system", "os:system is not an agent factory"),
    ("tests.test_arena_entry:make_nothing", "is not an agent: it has no choose(state) and "
                                            "tests.test_arena_entry:make_nothing(seed=...) made a int"),
    ("tests.test_arena_entry:make_broken", "failed (RuntimeError: no model file)"),
    ("tests.test_arena_entry:NoSeed", "cannot be called as tests.test_arena_entry:NoSeed(seed=...)"),
    ("tests.test_arena_entry:make_nothing:depth=3", "cannot be called as "
                                                    "tests.test_arena_entry:make_nothing(seed=..., depth=...)"),
])
def test_a_spec_that_is_not_an_agent_is_refused_before_any_game(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], spec: str, msg: str) -> None:
    with pytest.raises(ValueError, match="agent spec"):
        arena.parse_agent(spec)
    out = tmp_path / "r.jsonl"
    rc, _, err = run_cli(capsys, "toy", "--agents", "greedy", spec, "--deals", "1", "--jobs", "1",
                         "--out", str(out))
    assert rc == 2 and msg in err and "Traceback" not in err, err
    assert not out.exists()


def test_a_factory_is_checked_once_with_its_keywords_and_then_plays() -> None:
    # the spec imports this file as tests.test_arena_entry, which may not be the module pytest loaded
    calls = importlib.import_module("tests.test_arena_entry").CALLS
    calls.clear()
    s = arena.run("toy", ["greedy", "tests.test_arena_entry:counted"], deals=2, seed=1, jobs=1)
    assert s["games"] == 4
    assert calls[0] == 0 and len(calls) == 1 + 4          # the check, then once per game


def test_a_module_that_fails_on_import_is_a_value_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "boom_agent_mod.py").write_text("raise RuntimeError('half-written module')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ValueError, match=r"cannot import 'boom_agent_mod' \(RuntimeError: half-written module\)"):
        arena.parse_agent("boom_agent_mod:make")
    sys.modules.pop("boom_agent_mod", None)


# --- --plot -------------------------------------------------------------------------------------

def test_plot_paths_that_cannot_take_a_png_are_refused_before_any_game(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    afile = tmp_path / "afile"
    afile.write_text("x\n")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    out = tmp_path / "r.jsonl"
    for plot, msg in [(tmp_path, "is a directory, not a regular file"),
                      ("/dev/full", "is a character device, not a regular file"),
                      (fifo, "is a FIFO, not a regular file"),
                      (afile / "p.png", "is under a file, not in a directory"),
                      (afile / "sub" / "p.png", "is under a file, not in a directory"),
                      (tmp_path / "p.xyz", "matplotlib cannot write .xyz files")]:
        rc, _, err = run_cli(capsys, "toy", "--agents", "greedy", "random", "--deals", "1", "--jobs", "1",
                             "--out", str(out), "--plot", str(plot))
        assert rc == 2 and f"plot file '{plot}'" in err and msg in err and "Traceback" not in err, err
        assert not out.exists()                 # refused before the results file or any game
    assert afile.read_text() == "x\n"


def test_an_unwritable_plot_is_refused_before_any_game(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    png = tmp_path / "p.png"
    png.write_bytes(b"old")
    deny_writes(monkeypatch, png)
    out = tmp_path / "r.jsonl"
    rc, _, err = run_cli(capsys, "toy", "--agents", "greedy", "random", "--deals", "1", "--jobs", "1",
                         "--out", str(out), "--plot", str(png))
    assert rc == 2 and "cannot be written: Permission denied" in err, err
    assert not out.exists() and png.read_bytes() == b"old"


def test_a_plot_in_new_directories_is_written_and_the_check_leaves_no_file(tmp_path: Path) -> None:
    png = tmp_path / "runs" / "deep" / "p.png"
    arena.check_plot_path(png)
    assert not (tmp_path / "runs").exists()
    flat = tmp_path / "q.png"
    arena.check_plot_path(flat)
    assert not flat.exists()                    # the probe file is removed
    arena.run("toy", ["greedy", "random"], deals=2, seed=1, jobs=1, plot_to=png)
    assert png.stat().st_size > 1000


# --- a second review (issue 26): what the first round of fixes missed ---------------------------


def test_a_plot_on_the_results_file_is_refused_before_any_game(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.png"
    rc, _, err = run_cli(capsys, "toy", "--agents", "random", "greedy", "--deals", "2", "--jobs", "1",
                         "--out", str(out), "--plot", str(tmp_path / "." / "r.png"), "--no-progress")
    assert rc == 2 and "is the results file" in err
    assert not out.exists()
    link = tmp_path / "link.png"
    out.write_bytes(b"")
    link.symlink_to(out)
    with pytest.raises(ValueError, match="is the results file"):
        arena.run("toy", ["random", "greedy"], deals=1, jobs=1, out=out, plot_to=link)
    assert out.read_bytes() == b""


def test_too_many_deals_are_refused_before_any_allocation(capsys: pytest.CaptureFixture[str],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    rc, _, err = run_cli(capsys, "toy", "--agents", "random", "greedy", "--deals", str(10**9),
                         "--jobs", "1", "--no-progress")
    assert rc == 2 and "more than the 2000000 one run schedules" in err
    from tabuleiro.arena import scheduling
    monkeypatch.setattr(scheduling, "MAX_GAMES", 12)
    assert len(scheduling.schedule(2, 2, 6, 1)) == 12                 # the limit itself is allowed
    with pytest.raises(ValueError, match="7 deals make 14 games"):
        scheduling.schedule(2, 2, 7, 1)
    assert len(scheduling.schedule(3, 2, 2, 1)) == 12                 # 3 tables x 2 seatings a deal
    with pytest.raises(ValueError, match="3 deals make 18 games"):
        scheduling.schedule(3, 2, 3, 1)


def _records(tmp_path: Path) -> list[dict[str, Any]]:
    out = tmp_path / "s.jsonl"
    arena.run("toy", ["random", "greedy"], deals=2, jobs=1, out=out)
    return [json.loads(line) for line in out.read_text().splitlines()[1:]]


def test_records_whose_deals_disagree_are_a_clear_error_for_the_sprt(tmp_path: Path) -> None:
    recs = _records(tmp_path)
    for r in recs:
        r["deal"] = 0                              # four games now claim deal 0: two of each seating
    with pytest.raises(ValueError, match="disagree"):
        arena.summarize(recs, sprt=arena.SPRT())
    with pytest.raises(TypeError, match="SPRT"):
        arena.summarize(recs[:2], sprt="elo0=0")   # type: ignore[arg-type]
    bad = dict(recs[0], seats=[recs[0]["seats"][0]] * 2)
    with pytest.raises(ValueError, match="once each"):
        arena.summarize([bad], sprt=arena.SPRT())


def test_an_edited_deal_in_a_results_file_is_skipped_and_counted(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "s.jsonl"
    args = ("toy", "--agents", "random", "greedy", "--deals", "2", "--jobs", "1", "--out", str(out),
            "--sprt", "--no-progress")
    assert run_cli(capsys, *args)[0] == 0
    lines = out.read_text().splitlines()
    r3, r4 = json.loads(lines[3]), json.loads(lines[4])
    r4["deal"], r4["returns"], r3["returns"] = 0, [1.0, -1.0], [-1.0, 1.0]
    lines[3], lines[4] = json.dumps(r3), json.dumps(r4)
    out.write_text("\n".join(lines) + "\n")
    rc, text, err = run_cli(capsys, *args)
    assert rc == 0, err
    assert "skipped" in (text + err)


def test_a_huge_integer_in_a_record_is_skipped_not_an_overflow(tmp_path: Path) -> None:
    recs = _records(tmp_path)
    assert arena.check_record(dict(recs[0], scores=[10**400, 1])) == "scores is not a list of finite numbers"
    assert arena.check_record(dict(recs[0], params={"x": 10**400})) is not None
