"""Results files of the arena: what --out accepts, the run header, resuming,
record validation and skipped lines (issue 26, the hostile probe).

Every test here failed on the arena before the fixes: see the report of the
hard-arena branch. The games are Toy games (a few milliseconds a run), so a
property test can afford many files.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any, Optional

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabuleiro import arena
from tests.helpers import deny_writes
from tabuleiro.__main__ import main

AGENTS = ["greedy", "random"]


def toy(out: Optional[Path], **kw: Any) -> arena.Summary:
    """A small Toy arena (6 games) into ``out``."""
    args: dict[str, Any] = dict(deals=3, seed=5, jobs=1)
    args.update(kw)
    agents_ = args.pop("agents", AGENTS)
    return arena.run("toy", agents_, out=out, **args)


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """``tabuleiro arena ARGS`` in this process: (exit status, stdout, stderr)."""
    try:
        rc = main(["arena", *args])
    except SystemExit as e:
        rc = e.code if isinstance(e.code, int) else 1
    got = capsys.readouterr()
    return rc, got.out, got.err


def _limit_memory() -> None:          # pragma: no cover - runs in the child
    resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))


def cli_subprocess(*args: str) -> subprocess.CompletedProcess[str]:
    """The command in a child with 3 GiB of address space and a timeout: the
    unfixed arena read /dev/zero until it ran out of memory and blocked on a
    FIFO forever; here either ends the child, and the test fails."""
    return subprocess.run([sys.executable, "-m", "tabuleiro", "arena", *args], capture_output=True, text=True,
                          timeout=120, preexec_fn=_limit_memory, stdin=subprocess.DEVNULL)


TOY_CLI = ["toy", "--agents", "greedy", "random", "--deals", "2", "--jobs", "1", "--no-progress"]


# --- what --out accepts ------------------------------------------------------------------------

@pytest.mark.parametrize("device", ["/dev/zero", "/dev/full"])
def test_out_on_a_device_is_refused_at_once(device: str) -> None:
    r = cli_subprocess(*TOY_CLI, "--out", device)
    assert r.returncode == 2, r.stderr[-500:]
    assert f"results file '{device}' is a character device, not a regular file" in r.stderr
    assert "Traceback" not in r.stderr


def test_out_on_a_fifo_is_refused_without_hanging(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    r = cli_subprocess(*TOY_CLI, "--out", str(fifo))
    assert r.returncode == 2 and "is a FIFO, not a regular file" in r.stderr, r.stderr[-500:]


def test_a_fifo_swapped_in_after_the_stat_is_refused_after_the_open(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    # the race: the path was a regular file when checked, and is a FIFO when
    # opened. The open does not block (O_NONBLOCK) and fstat refuses it.
    fifo, regular = tmp_path / "fifo", tmp_path / "regular"
    os.mkfifo(fifo)
    regular.write_bytes(b"")
    real_stat = os.stat
    monkeypatch.setattr(os, "stat", lambda p, *a, **k: real_stat(regular) if os.fspath(p) == str(fifo)
                        else real_stat(p, *a, **k))
    errors: list[BaseException] = []

    def attempt() -> None:
        for call in (lambda: arena.read_results(fifo), lambda: toy(fifo)):
            try:
                call()
            except BaseException as e:   # noqa: BLE001 - collected and checked below
                errors.append(e)

    t = threading.Thread(target=attempt, daemon=True)
    t.start()
    t.join(60)          # generous: both calls end in milliseconds; a blocked open never ends
    assert not t.is_alive(), "opening a FIFO blocked"
    assert len(errors) == 2
    for e in errors:
        assert isinstance(e, arena.ResultsFileError) and "is a FIFO, not a regular file" in str(e)


def test_out_a_directory_or_under_a_file_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    afile = tmp_path / "afile"
    afile.write_text("x\n")
    for out, msg in [(tmp_path, "is a directory, not a regular file"),
                     (afile / "r.jsonl", "is under a file, not in a directory"),
                     (afile / "sub" / "r.jsonl", "is under a file, not in a directory")]:
        rc, _, err = run_cli(capsys, *TOY_CLI, "--out", str(out))
        assert rc == 2 and msg in err and "Traceback" not in err, err
    assert afile.read_text() == "x\n"


def test_out_unwritable_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "r.jsonl"
    toy(out)
    before = out.read_bytes()
    deny_writes(monkeypatch, out)
    rc, _, err = run_cli(capsys, *TOY_CLI, "--out", str(out))
    assert rc == 2 and "cannot be opened for writing: Permission denied" in err, err
    assert out.read_bytes() == before


def test_read_results_and_summarize_file_refuse_non_regular_files(tmp_path: Path) -> None:
    with pytest.raises(arena.ResultsFileError, match="is a character device"):
        arena.read_results("/dev/zero")
    with pytest.raises(arena.ResultsFileError, match="is a directory"):
        arena.summarize_file(tmp_path)
    assert arena.read_results(tmp_path / "missing.jsonl") == []


def test_two_runs_cannot_share_a_results_file(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    header = arena.run_header("toy", {}, 2, 5, AGENTS, "all")
    first = arena.ResultsFile(out, header)
    try:
        with pytest.raises(arena.ResultsFileError, match="in use by another arena run"):
            toy(out)
    finally:
        first.close()
    toy(out)


# --- resume keeps what is ours and touches nothing else --------------------------------------------

def test_a_complete_last_record_without_newline_is_kept(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    toy(out)
    full = out.read_bytes()
    out.write_bytes(full[:-1])                  # the last record, whole, without its newline
    s = toy(out)
    # kept byte for byte (it was cut and replayed: its thinking times, and with
    # time= agents its moves, came out different)
    assert out.read_bytes() == full and s["games"] == 6


def test_a_file_that_is_not_a_results_file_is_refused_unchanged(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    for text in (b"my notes\nline two", b"my notes\nline two\n", b"\n", b"[1, 2]\n",
                 b'{"game": "toy"}\n', b"x" * 100):
        notes = tmp_path / "notes.txt"
        notes.write_bytes(text)
        for extra in ([], ["--force-new"]):
            rc, _, err = run_cli(capsys, *TOY_CLI, "--out", str(notes), *extra)
            assert rc == 2 and "is not an arena results file" in err, (text, err)
            assert notes.read_bytes() == text


def test_only_a_torn_line_of_ours_is_cut(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    toy(out)
    full = out.read_bytes()
    lines = full.splitlines(keepends=True)
    # a torn record of ours, cut anywhere (even inside '{"v":1,'), is cut off and played again
    for cut in (1, 4, 9, 40, len(lines[-1]) - 2):
        out.write_bytes(b"".join(lines[:-1]) + lines[-1][:cut])
        toy(out)
        now = out.read_bytes().splitlines(keepends=True)
        assert now[:-1] == lines[:-1] and len(now) == len(lines)
    # an unterminated line that is not ours is kept, ended, and skipped
    out.write_bytes(full + b"the end")
    s = toy(out)
    assert out.read_bytes() == full + b"the end\n"
    assert s["skipped_lines"] == [len(lines) + 1] and s["games"] == 6


def test_a_torn_header_alone_is_a_fresh_file(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    toy(out)
    header = out.read_bytes().splitlines(keepends=True)[0]
    out.write_bytes(header[:25])
    toy(out)
    assert out.read_bytes().splitlines(keepends=True)[0] == header
    assert len(arena.read_results(out)) == 6


# --- records with the wrong types are skipped and counted ---------------------------------------------

BAD_FIELDS = [("returns", "lots"), ("params", [1, 2]), ("returns", [1.0]), ("scores", [1, "x"]),
              ("returns", [1.0, float("nan")]), ("seats", "greedy"), ("seats", [1, 2]), ("deal_seed", -1),
              ("deal_seed", 2 ** 64), ("seed", "s"), ("deal", True), ("movers", [7, 0, 1, 0, 1, 0]),
              ("moves", "abc"), ("us", [1]), ("iters", [1, "x"]), ("agents", ["greedy"]), ("game", 3)]


@pytest.mark.parametrize("field,value", BAD_FIELDS)
def test_a_middle_record_with_wrong_field_types_is_skipped_and_counted(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], field: str, value: Any) -> None:
    out = tmp_path / "r.jsonl"
    good = toy(out)
    lines = out.read_text().splitlines()
    rec = json.loads(lines[2])
    rec[field] = value
    lines[2] = json.dumps(rec)
    out.write_text("\n".join(lines) + "\n")
    s = toy(out)                                 # resumes: the bad line's game is played again
    assert s["skipped_lines"] == [3] and s["games"] == 6
    assert {k: v for k, v in s.items() if k not in ("timing", "skipped_lines")} == \
        {k: v for k, v in good.items() if k != "timing"}
    assert arena.summarize_file(out) == s
    assert "1 line of the results file skipped (line 3)" in str(s)
    rc, stdout, err = run_cli(capsys, "toy", "--agents", "greedy", "random", "--deals", "3", "--seed", "5",
                              "--jobs", "1", "--json", "--out", str(out))
    assert rc == 0 and json.loads(stdout)["skipped_lines"] == [3]
    assert "warning: 1 line of the results file skipped (line 3)" in err


def test_check_record_names_the_problem() -> None:
    rec = {"game": "toy", "params": {}, "deal_seed": 1, "seats": ["a", "b"], "returns": [1.0, -1.0],
           "scores": [3, 1], "moves": [0, 1], "movers": [0, 1]}
    assert arena.check_record(rec) is None
    assert arena.check_record({**rec, "returns": [1.0]}) == "returns has 1 entries for 2 seats"
    assert arena.check_record({**rec, "movers": [0]}) == "movers has 1 entries for 2 moves"
    assert arena.check_record({**rec, "params": {"x": [1]}}) is not None
    assert arena.check_record([rec]) is not None
    header = arena.run_header("toy", {}, 3, 0, ["a", "b"], "all")
    assert arena.check_record(rec, header) == "2 seats in a 3-player run"


def test_summarize_inconsistent_records_is_a_clear_error() -> None:
    rec = {"game": "toy", "params": {}, "deal_seed": 1, "seats": ["a", "b"], "returns": [1.0, -1.0],
           "scores": [3, 1]}
    with pytest.raises(ValueError, match="record 1 is not a valid game record: returns has 1 entries"):
        arena.summarize([rec, {**rec, "deal_seed": 2, "returns": [1.0]}])
    three = {**rec, "deal_seed": 3, "seats": ["a", "b", "a"], "returns": [1.0, 0.0, -1.0], "scores": [1, 2, 3]}
    with pytest.raises(ValueError, match="records of 2 and of 3 players"):
        arena.summarize([rec, three])


# --- the run header: one run per file --------------------------------------------------------------

@pytest.mark.parametrize("change,named", [({"seed": 6}, "seed (the file's seed differs)"),
                                          ({"agents": ["greedy", "greedy:seed=1"]}, "agents"),
                                          ({"agents": ["random", "greedy"]}, "agents"),
                                          ({"schedule_mode": "cycle"}, "schedule")])
def test_a_resume_of_another_run_is_refused(tmp_path: Path, change: dict[str, Any], named: str) -> None:
    out = tmp_path / "r.jsonl"
    first = toy(out)
    before = out.read_bytes()
    with pytest.raises(arena.ResultsFileError, match="holds another run") as info:
        toy(out, **change)
    assert named in str(info.value) and "--force-new" in str(info.value)
    assert "5" not in str(info.value).split("holds another run")[1].replace("r.jsonl", "")   # no seed
    assert out.read_bytes() == before
    # more (or fewer) deals of the same run resume
    assert toy(out, deals=4)["games"] == 8 and toy(out, deals=2)["games"] == 4
    assert arena.summarize_file(out, agents=AGENTS)["games"] == 8
    # force_new starts over, the file then holds the new run alone
    s = toy(out, force_new=True, **change)
    assert arena.summarize_file(out) == s and first["games"] == 6


def test_a_resume_with_other_game_parameters_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    arena.run("capulana", AGENTS, params={"players": 3}, deals=1, seed=2, jobs=1, out=out)
    before = out.read_bytes()
    with pytest.raises(arena.ResultsFileError, match=r"holds another run: its params .*players.: 4"):
        arena.run("capulana", AGENTS, params={"players": 4}, deals=1, seed=2, jobs=1, out=out)
    assert out.read_bytes() == before


def test_cli_refuses_another_run_and_force_new_starts_over(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.jsonl"
    assert run_cli(capsys, *TOY_CLI, "--out", str(out), "--seed", "1")[0] == 0
    before = out.read_bytes()
    rc, _, err = run_cli(capsys, *TOY_CLI, "--out", str(out), "--seed", "2")
    assert rc == 2 and "holds another run: its seed (the file's seed differs)" in err
    assert out.read_bytes() == before
    rc, _, err = run_cli(capsys, *TOY_CLI, "--out", str(out), "--seed", "2", "--force-new")
    assert rc == 0, err
    header, *recs = [json.loads(x) for x in out.read_text().splitlines()]
    assert header["seed"] == 2 and len(recs) == 4 and {r["seed"] for r in recs} == {2}


def test_files_without_a_header_resume_only_their_own_run(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    toy(out)
    legacy = b"".join(out.read_bytes().splitlines(keepends=True)[1:])   # as the previous version wrote it
    out.write_bytes(legacy)
    assert toy(out)["games"] == 6 and out.read_bytes() == legacy        # nothing played, nothing added
    s = toy(out, deals=4)
    assert s["games"] == 8 and out.read_bytes().startswith(legacy)
    assert arena.summarize_file(out) == s
    after = out.read_bytes()
    for change in ({"seed": 6}, {"agents": ["greedy", "flatmc:iterations=5"]}):
        with pytest.raises(arena.ResultsFileError, match="written without a run header.*holds another run"):
            toy(out, **change)
        assert out.read_bytes() == after


def test_a_header_of_a_newer_version_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    toy(out)
    lines = out.read_text().splitlines()
    h = json.loads(lines[0])
    h["v"] = 2
    out.write_text("\n".join([json.dumps(h)] + lines[1:]) + "\n")
    with pytest.raises(arena.ResultsFileError, match="version 2"):
        toy(out)


# --- the class: any damage to a file is refused or survived, and only a torn line of ours is cut ---

_PRISTINE: list[bytes] = []


def _pristine(tmp_path: Path) -> bytes:
    """One results file for every example (its thinking times vary from run
    to run, and hypothesis needs the same bytes to draw the same damage)."""
    if not _PRISTINE:
        toy(tmp_path / "pristine.jsonl")
        _PRISTINE.append((tmp_path / "pristine.jsonl").read_bytes())
    return _PRISTINE[0]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_damaged_file_is_refused_or_resumed_losing_nothing(tmp_path: Path, data: st.DataObject) -> None:
    out = tmp_path / "p.jsonl"
    full = _pristine(tmp_path)
    kind = data.draw(st.sampled_from(["cut", "flip", "insert", "append"]))
    at = data.draw(st.integers(0, len(full)))
    junk = data.draw(st.binary(max_size=30) | st.sampled_from([b"{", b'{"v":1,', b"\n", b"null\n", b'"x"',
                                                               b'{"v":1,"game":"toy"}', b"[1,2]\n"]))
    damaged = {"cut": full[:at], "flip": full[:at] + junk + full[at + len(junk):],
               "insert": full[:at] + junk + full[at:], "append": full + junk}[kind]
    out.write_bytes(damaged)
    try:
        s = toy(out)
    except arena.ResultsFileError:
        assert out.read_bytes() == damaged           # refused: untouched
        return
    after = out.read_bytes()
    keep = damaged
    if not damaged.endswith(b"\n") and damaged:
        tail = damaged[damaged.rfind(b"\n") + 1:]
        try:
            json.loads(tail)
            parsed = True
        except ValueError:
            parsed = False
        if not parsed and (tail.startswith(b'{"v":1,') or b'{"v":1,'.startswith(tail)):
            keep = damaged[: len(damaged) - len(tail)]          # a torn line of ours: the only cut
    assert after.startswith(keep), (kind, at, junk)
    assert s["games"] == 6 and arena.summarize_file(out) == s
