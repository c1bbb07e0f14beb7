"""bench/compare_builds.py's lockstep harness (bench/_lockstep.py): every build's
process reaches the same benchmark, runs batches of one size when told, and
keeps the test's own asserts; builds that reach different benchmarks, or a
test that fails in one of them, end the run with a message, not a table."""

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType
from typing import Iterator

import pytest

ROOT = Path(__file__).resolve().parents[1]

BENCH = '''
import os
import pytest
CALLS = []
CPUS = os.sched_getaffinity(0)

def work(x, y=0):
    CALLS.append(x)
    return x + y

def test_plain(benchmark):
    import __main__
    out = os.environ.get("TAB_TEST_LAYOUT_DIR")
    if out:     # what this process drew for its layout (compare_builds.BOOT)
        with open(os.path.join(out, str(os.getpid())), "w") as f:
            f.write(f"{os.environ['TAB_BENCH_LAYOUT']}\\n{len(__main__._held)}\\n{len(__main__._held[0])}")
    benchmark.extra_info.update(units=1, key="plain")
    assert benchmark(work, 2, y=3) == 5
    assert os.sched_getaffinity(0) == CPUS      # the batches' pinning is undone

def test_pedantic(benchmark):
    benchmark.extra_info.update(units=4, key="pedantic")    # the same work as test_plain, counted as 4 units
    before = len(CALLS)
    got = benchmark.pedantic(work, args=(1,), rounds=5, warmup_rounds=2)
    assert got == 1 and len(CALLS) - before >= 2 + 1

def test_no_units(benchmark):
    assert benchmark(work, 7) == 7      # not compared, but called: the test gets its result

def test_not_a_benchmark():
    raise AssertionError("deselected: it takes no benchmark fixture")
'''


@pytest.fixture
def cb(monkeypatch: pytest.MonkeyPatch) -> Iterator[ModuleType]:
    monkeypatch.syspath_prepend(str(ROOT / "bench"))
    import importlib
    yield importlib.import_module("compare_builds")


def _bench_dir(root: Path, text: str) -> Path:
    d = root / "bench"
    d.mkdir(parents=True)
    (d / "bench_toy.py").write_text(text)
    return d


def test_every_build_runs_every_benchmark_in_rounds(cb: ModuleType, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    import tabuleiro
    drawn = tmp_path / "layouts"
    drawn.mkdir()
    monkeypatch.setenv("TAB_TEST_LAYOUT_DIR", str(drawn))
    d = _bench_dir(tmp_path / "a", BENCH)
    # "two" is an unpacked build: each of its processes runs from a copy of
    # it made for that process (the worker asserts that tabuleiro._core comes
    # from there), and the copies are gone after the run
    unpacked = tmp_path / "vers-0123456789abcdef"
    import shutil
    import tabuleiro._core
    shutil.copytree(Path(tabuleiro.__file__).parent, unpacked / "tabuleiro")
    core = Path(tabuleiro._core.__file__)       # elsewhere under an editable install
    if not (unpacked / "tabuleiro" / core.name).exists():
        shutil.copy2(core, unpacked / "tabuleiro" / core.name)
    builds = [cb.Build("one", sys.executable, d), cb.Build("two", sys.executable, d, unpacked)]
    (tmp_path / "t").mkdir()
    rates = cb.run_lockstep(builds, ["bench_toy.py"], None, "wall", rounds=4, batch=0.001, procs=2,
                            budget=60.0, tmp=tmp_path / "t")
    assert not list((tmp_path / "t").glob("*.build"))
    assert set(rates) == {"one", "two"}
    for name in rates:
        assert set(rates[name]) == {"plain", "pedantic"}
        # a rate a round and process, in one order for every build
        assert all(len(v) == 4 * 2 and min(v) > 0 for v in rates[name].values())
        # units per second: the same calls, counted 4 units each in pedantic
        ratio = sorted(rates[name]["pedantic"])[4] / sorted(rates[name]["plain"])[4]
        assert 1.5 < ratio < 12, ratio
    # every process drew its own heap layout, from its own seed: the blocks
    # held ahead of the rest
    layouts = [f.read_text().split("\n") for f in drawn.iterdir()]
    assert sorted(v for v, _, _ in layouts) == ["0-0-0", "0-0-1", "0-1-0", "0-1-1"]
    assert len({(n, b) for _, n, b in layouts}) == 4


BROKEN = {
    # the other build reaches another test
    "different benchmarks": BENCH.replace("def test_plain", "def test_other"),
    # a test's assert fails after its benchmark, in one build only
    "ended differently": BENCH.replace("== 5", "== 6"),
    # the benchmarked call raises in one build: its traceback is the message
    "(?s)two: the benchmarked call raised.*the core broke": BENCH.replace(
        "    CALLS.append(x)", "    CALLS.append(x)\n    if len(CALLS) > 3: raise ValueError('the core broke')"),
}


@pytest.mark.parametrize("message", list(BROKEN), ids=["other-test", "failing-assert", "raising-call"])
def test_a_build_that_runs_differently_stops_the_run_with_a_message(cb: ModuleType, tmp_path: Path,
                                                                      message: str) -> None:
    a = _bench_dir(tmp_path / "a", BENCH)
    b = _bench_dir(tmp_path / "b", BROKEN[message])
    builds = [cb.Build("one", sys.executable, a), cb.Build("two", sys.executable, b)]
    (tmp_path / "t").mkdir()
    with pytest.raises(SystemExit, match=message):
        cb.run_lockstep(builds, ["bench_toy.py"], None, "wall", rounds=2, batch=0.001, procs=1, budget=1.0,
                        tmp=tmp_path / "t")


def test_summary_prints_a_kept_runs_table_and_its_verdict(tmp_path: Path) -> None:
    import gzip
    import json
    import subprocess
    # two processes a build, two rounds: by round, then process
    head = {"command": "x", "procs": 2, "builds": ["abi3", "vs", "vs-copy"],
            "pairs": [["abi3", "vs"], ["vs-copy", "vs"]]}
    rows = [{"key": "fast", "rates": {"abi3": [10, 10, 10, 10], "vs": [10, 10, 10, 10], "vs-copy": [10, 10, 10, 10]}},
            {"key": "slow", "rates": {"abi3": [9, 9, 9, 9], "vs": [10, 10, 10, 10], "vs-copy": [10, 9.9, 10, 10]}}]
    f = tmp_path / "run.jsonl.gz"
    f.write_bytes(gzip.compress("".join(json.dumps(x) + "\n" for x in [head, *rows]).encode()))
    res = subprocess.run([sys.executable, str(ROOT / "bench" / "compare_builds.py"), "--summary", str(f)],
                         capture_output=True, text=True)
    assert res.returncode == 1, res.stderr
    assert "FAIL: every median round ratio" in res.stdout and "slow (abi3/vs 0.900)" in res.stdout
    assert "fast (" not in res.stdout.split("FAIL:")[1]
    assert "0 below 0.97" in res.stdout      # the control
