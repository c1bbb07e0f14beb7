"""Benchmark figures of two (or more) builds, measured in one run.

Each build runs the bench files (the pytest-benchmark suites of bench/) in
processes of its own, under bench/_lockstep.py in place of pytest-benchmark:
every process reaches the same benchmark, and this coordinator then has
each run a batch of calls (about ``--batch`` seconds, the same number of
calls for every build) back to back, a fraction of a second apart, in an
order shuffled per round, for ``--rounds`` rounds. A round's ratio of two
builds' rates compares batches run within the same second on the same
core; the figure to read is the median of those ratios over every round,
each process of one build against each of the other's. Rates are units
per second, so a ratio above 1 means the first-named build is faster.

Why this way (docs/engine-notes.md, tenth pass): on this machine kind the
same Python loop runs in 27 or 46 ms from one second to the next, and a
core can stay slow for seconds while the other is fast. Whole suites run
one after the other (this script's first form) put a byte-identical copy
of a build at 0.55-1.85 of the original in one run. So:
- a round's batches all run on one core (the rounds alternate the cores),
  except a benchmark that keeps more than one core busy, which runs on all;
- each process runs from its own fresh copy of its build's files: which
  physical pages the page cache gave a build's files moved its speed by up
  to 9% on some benchmarks, the same way run after run;
- ``--procs`` processes a build (default 5) draw that luck, and the heap's
  layout, several times, and a block of a drawn size is held during each
  batch so that the blocks the calls allocate fall elsewhere each round;
- each process draws its own heap layout at start (``--seed``): blocks of
  drawn sizes held for life, ahead of everything it allocates. Address-space
  randomisation moves the stack and the heap's start by whole pages from one
  process to the next, but not where the heap's blocks fall within a page,
  so without this a build's heap layout is one fixed draw shared by its
  processes, and an object made at a test's set-up keeps that build's luck
  through the whole run.

The abi3 acceptance (issue 27): the abi3 build of this tree against its
version-specific build, and that version-specific build against the one of
a baseline revision, in one command that builds the wheels itself (cached
under build/compare-builds/, keyed by the sources' contents) and runs every
benchmark file of bench/ in this interpreter, each build's wheel unpacked
in its own directory:

    python bench/compare_builds.py --abi3 --control --baseline c622f27
    python bench/compare_builds.py --abi3 --quick bench_capulana.py -k weaving   # while developing

``--control`` adds a build that is a byte-identical copy of the
version-specific one, run as if it were another build. Its ratio to the
version-specific build is what the harness reports when nothing differs,
benchmark by benchmark: its failures are the threshold's false alarms on
this machine, and its spread is the floor under any abi3 figure (the noise
gauge covers only the few benchmarks that run no build code).

``--timer cpu`` times with ``time.process_time`` instead of the wall clock:
the CPU seconds of the whole process (every thread's), so a benchmark whose
threads wait for a busy core is not charged for the wait.

Each line then says PASS or FAIL against ``--threshold`` (0.97) for the
median ratio abi3 / version-specific (and new / baseline), and
``--per-round`` prints each round's ratios, process p against process p
(by round, then process).

Two installed builds (two Python environments, each with its own copy of
the bench files; no fresh copies, so ``--procs`` only redraws the heap):

    python bench/compare_builds.py --old-python /tmp/venv-base/bin/python \\
        --old-bench /tmp/base-src/bench bench_capivarias.py bench_capulana.py bench_search.py

Each benchmark must set ``extra_info["units"]`` and ``extra_info["key"]``
(the suites in bench/ do) before it calls the fixture.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import math
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import NamedTuple, NoReturn, Optional

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CACHE = ROOT / "build" / "compare-builds"
# Each bench process runs from its own copy of its build. A byte-identical
# copy of a build ran up to 9% slower or faster than the original on some
# benchmarks, the same way run after run, until its files were written
# again: the speed followed which physical pages the page cache gave the
# files (the cache sets the extension's code and data fall in), not the
# bytes. So every process runs from files written for it, and several
# processes a build draw that luck several times (Worker).

#: bench files with nothing to compare between builds, and why
SKIP = {
    "bench_server.py": "a script (load on tabuleiro serve), not a pytest-benchmark suite",
    "bench_wasm.py": "a script (the WebAssembly engine against the native one), not a pytest-benchmark suite",
    "bench_vs_openspiel_ismcts.py": "a strength match against OpenSpiel's ISMCTS (needs open_spiel), not a speed "
                                    "benchmark: it has no pytest-benchmark test",
}
#: benchmarks that run no code of the build (pure-Python reference rules): their ratio is the machine's noise
BUILD_FREE = ("_reference_",)

# Every build's directory name has one length ("abi3-", "vers-" and "copy-"
# before a tree hash of fixed length), so that no build's path or argv is
# longer than another's: their lengths move a process's memory layout, a
# known source of steady few-per-cent biases (Mytkowicz et al., "Producing
# wrong data without doing anything obviously wrong!", 2009).

#: a worker: pytest over the bench files with the build in `target` (an unpacked wheel) ahead of any
#: installed tabuleiro, its benchmarks run by _lockstep.py when the coordinator says
BOOT = """
import os, random, sys, time
# this process's own draw of the heap's layout (Worker): a block and some
# small objects of drawn sizes, held for life, ahead of everything the
# process allocates
_layout = random.Random(os.environ["TAB_BENCH_LAYOUT"] + ":heap")
_held = [bytearray(_layout.randrange(0, 1 << 16))] + [bytes(_layout.randrange(1, 513))
                                                     for _ in range(_layout.randrange(0, 512))]
if {target!r}:
    # ahead of an editable install's finder, and of any installed tabuleiro
    sys.meta_path[:] = [f for f in sys.meta_path if "ScikitBuild" not in type(f).__name__]
    sys.path.insert(0, {target!r})
sys.path.insert(0, {here!r})
import pytest
import tabuleiro._core as c
assert not {target!r} or c.__file__.startswith({target!r}), c.__file__
import _lockstep
chan = _lockstep.Channel({rfd:>4}, {wfd:>4})
rc = pytest.main({args!r}, plugins=[_lockstep.LockstepPlugin(chan, time.{timer})])
chan.send({{"end": int(rc)}})
"""


class Build(NamedTuple):
    name: str
    python: str
    bench: Path
    target: Optional[Path] = None    # an unpacked wheel to put first on sys.path


def all_files(bench: Path) -> list[str]:
    return sorted(p.name for p in bench.glob("bench_*.py") if p.name not in SKIP)


class Worker:
    """One build's pytest process, driven over two pipes (bench/_lockstep.py)."""

    def __init__(self, b: Build, files: list[str], select: Optional[str], timer: str, log: Path,
                 layout: str) -> None:
        self.build = b
        self.live: Optional[Path] = None
        if b.target is not None:
            # a fresh copy of the unpacked build for each process, in the
            # run's temporary directory: new files, so new page-cache pages
            # (the note on copies above)
            self.live = log.with_suffix(".build")
            shutil.copytree(b.target, self.live / b.target.name, symlinks=True)
            b = b._replace(target=self.live / b.target.name)
        to_w, self._w = os.pipe()          # coordinator -> worker
        self._r, from_w = os.pipe()        # worker -> coordinator
        args = [*[str(b.bench / f) for f in files], "-q", "-p", "no:benchmark", "-p", "no:cacheprovider",
                *(["-k", select] if select else [])]
        code = BOOT.format(target=str(b.target or ""), here=str(HERE), rfd=to_w, wfd=from_w, args=args,
                           timer={"wall": "perf_counter", "cpu": "process_time"}[timer])
        self.log = log.with_suffix(".log")
        # The process's heap layout, drawn by BOOT from `layout`: address-space
        # randomisation moves whole pages, so where the heap's blocks fall
        # within a page was one fixed draw per build, and an object placed
        # at set-up (a test's state, a game's tables) kept one build's luck
        # through every round of every process (issue 27's run G: abi3's
        # three processes all 4-6% slow on three benchmarks, the control's
        # not, and 0.98-1.00 in a run of that file alone). Drawn per
        # process, that luck is spread over the processes and every build
        # draws from one distribution: the randomised set-up of Mytkowicz et
        # al. (2009).
        env = {**os.environ, "TAB_BENCH_LAYOUT": layout}
        with open(log.with_suffix(".log"), "w") as out:
            self.proc = subprocess.Popen([b.python, "-c", code], cwd=b.bench.parent, stdout=out, env=env,
                                         stderr=subprocess.STDOUT, pass_fds=(to_w, from_w))
        os.close(to_w)
        os.close(from_w)
        self.w = os.fdopen(self._w, "w", buffering=1)
        self.r = os.fdopen(self._r, "r", buffering=1)

    def send(self, msg: dict) -> None:
        try:
            self.w.write(json.dumps(msg) + "\n")
            self.w.flush()
        except BrokenPipeError:
            self._died()

    def recv(self) -> dict:
        line = self.r.readline()
        if not line:
            self._died()
        return json.loads(line)

    def _died(self) -> NoReturn:
        self.proc.wait()
        sys.exit(f"{self.build.name}: the bench process ended unexpectedly (exit {self.proc.returncode}):\n"
                 + self.log.read_text()[-3000:])

    def ask(self, msg: dict) -> dict:
        """The worker's answer to a command: exits with the worker's traceback when its call raised."""
        self.send(msg)
        got = self.recv()
        if "error" in got:
            sys.exit(f"{self.build.name}: the benchmarked call raised:\n{got['error']}")
        if "t" not in got:
            sys.exit(f"{self.build.name}: expected a timing, got {got!r}:\n" + self.log.read_text()[-3000:])
        return got

    def close(self) -> None:
        """Close the pipes (a process still waiting on them ends), stop the process, drop its copy."""
        for f in (self.w, self.r):
            try:
                f.close()
            except OSError:
                pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if self.live is not None:
            shutil.rmtree(self.live, ignore_errors=True)


def run_lockstep(builds: list[Build], files: list[str], select: Optional[str], timer: str, rounds: int,
                 batch: float, procs: int, budget: float, tmp: Path,
                 seed: int = 0) -> dict[str, dict[str, list[float]]]:
    """{build name: {benchmark key: [its rate in each round and process]}}: `procs` processes a build, every
    process's batch of a benchmark back to back in each round; the lists of every build in one order (by
    round, then process), so that cross_ratios pairs batches of the same round."""
    workers: list[Worker] = []
    try:
        for p in range(procs):
            for i, b in enumerate(builds):
                workers.append(Worker(b, files, select, timer, tmp / f"w{len(builds) * p + i:02d}",
                                      layout=f"{seed}-{p}-{i}"))
        return _drive(workers, builds, rounds, batch, budget)
    finally:
        for w in workers:
            w.close()


def _drive(workers: list[Worker], builds: list[Build], rounds: int, batch: float,
           budget: float) -> dict[str, dict[str, list[float]]]:
    rates: dict[str, dict[str, list[float]]] = {b.name: {} for b in builds}
    done = 0
    while True:
        msgs = [w.recv() for w in workers]
        if any("end" in m for m in msgs):
            bad = [(w.build.name, m.get("end")) for w, m in zip(workers, msgs) if m.get("end") not in (0, 5)]
            if not all("end" in m for m in msgs) or bad:
                sys.exit("a bench test failed, or the builds' runs ended differently: "
                         + ", ".join(f"{w.build.name}: {m}" for w, m in zip(workers, msgs))
                         + "".join(f"\n--- {w.build.name}\n" + w.log.read_text()[-2000:] for w in workers))
            return rates
        if len({m["ready"] for m in msgs}) != 1:
            sys.exit("the builds reached different benchmarks: " + ", ".join(m["ready"] for m in msgs))
        key = msgs[0]["key"]
        if len({m["key"] for m in msgs}) != 1:
            sys.exit(f"the builds name {msgs[0]['ready']} differently: " + ", ".join(m["key"] for m in msgs))
        units = [m["units"] for m in msgs]      # each build's own (two bench trees may differ)
        if None in units:
            for w in workers:
                w.ask({"cmd": "warm", "calls": 0})      # the test may use the result
                w.send({"cmd": "done"})
            print(f"  not compared: {key} sets no extra_info['units'] before its call", file=sys.stderr)
            continue
        warm = [w.ask({"cmd": "warm", "calls": 1}) for w in workers]
        n = max(1, math.ceil(batch / max(min(m["t"] for m in warm), 1e-9)))   # calls a batch: one for every build
        # A round's batches all run on one core (the rounds alternate the
        # cores): on this machine kind a core's speed changes for seconds at a
        # time (the host's other load), and two processes left to the
        # scheduler sit on different cores, which put steady gaps of up to
        # 1.5x between byte-identical builds. A benchmark that keeps more
        # than one core busy (a multi-threaded search) runs on every core.
        cores = sorted(os.sched_getaffinity(0))
        multi = max(m["threads"] for m in warm) > 1.3
        # a benchmark whose single call is long (a whole arena run) gets fewer
        # rounds, at least 5: about `budget` seconds a benchmark
        batch_s = n * max(m["t"] for m in warm)
        n_rounds = max(min(5, rounds), min(rounds, int(budget / (len(workers) * batch_s))))
        for r in range(n_rounds):
            order = list(range(len(workers)))
            random.Random(f"{key}-{r}").shuffle(order)    # seeded: no build always runs right after another
            cpu = None if multi else cores[r % len(cores)]
            pad = random.Random(f"pad-{key}-{r}").randrange(4096, 4096 * 9, 16)
            got = [0.0] * len(workers)
            for i in order:
                got[i] = units[i] * n / workers[i].ask({"cmd": "run", "n": n, "cpu": cpu, "pad": pad})["t"]
            for w, rate in zip(workers, got):
                rates[w.build.name].setdefault(key, []).append(rate)
        for w in workers:
            w.send({"cmd": "done"})
        done += 1
        print(f"  {done:3d} {key} ({n} call{'s' if n > 1 else ''} a batch, {n_rounds} rounds)", file=sys.stderr,
              flush=True)


def cross_ratios(a: list[float], o: list[float], procs: int) -> list[float]:
    """Every ratio a / o of two builds' rates within one round: each of a's processes against each of o's.

    The lists are by round, then process (run_lockstep). A process keeps its
    layout's luck for its whole life, so pairing a's process p with o's
    process p would be arbitrary; all procs x procs pairs of a round are not.

    >>> cross_ratios([2.0, 4.0, 3.0, 3.0], [1.0, 2.0, 1.0, 1.0], 2)
    [2.0, 1.0, 4.0, 2.0, 3.0, 3.0, 3.0, 3.0]
    """
    out = []
    for r in range(len(a) // procs):
        for x in a[r * procs:(r + 1) * procs]:
            out.extend(x / y for y in o[r * procs:(r + 1) * procs])
    return out


# --- building the wheels ------------------------------------------------------------------------

def _tree_hash(src: Path) -> str:
    h = hashlib.sha256()
    for top in ("src", "csrc", "python/tabuleiro", "CMakeLists.txt", "pyproject.toml"):
        p = src / top
        files = [p] if p.is_file() else sorted(q for q in p.rglob("*") if q.is_file() and "__pycache__" not in q.parts)
        for f in files:
            h.update(str(f.relative_to(src)).encode() + b"\0" + f.read_bytes())
    return h.hexdigest()[:16]


def build(src: Path, abi3: bool) -> Path:
    """The directory holding src's wheel (abi3 or version-specific) unpacked, built once per sources' contents."""
    kind = "abi3" if abi3 else "vers"
    target = CACHE / f"{kind}-{_tree_hash(src)}"     # one length for every build (the note above BOOT)
    if (target / "tabuleiro").is_dir():
        return target
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", tmp, str(src)]
        if not abi3:
            cmd[4:4] = ["-C", "wheel.py-api="]
        print(f"building the {kind} wheel of {src} ...", file=sys.stderr, flush=True)
        subprocess.run(cmd, check=True)
        (wheel,) = Path(tmp).glob("tabuleiro-*.whl")
        if abi3 != ("abi3" in wheel.name):
            sys.exit(f"expected {'an abi3' if abi3 else 'a version-specific'} wheel, got {wheel.name}")
        part = target.with_suffix(".part")
        shutil.rmtree(part, ignore_errors=True)
        with zipfile.ZipFile(wheel) as z:
            z.extractall(part)
        part.rename(target)
    return target


def baseline_tree(rev: str) -> Path:
    """The sources of git revision rev (git archive; no checkout, no stash)."""
    sha = subprocess.run(["git", "rev-parse", "--verify", f"{rev}^{{commit}}"], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout.strip()
    dest = CACHE / f"src-{sha[:12]}"
    if not dest.is_dir():
        part = dest.with_suffix(".part")
        shutil.rmtree(part, ignore_errors=True)
        part.mkdir(parents=True)
        archive = subprocess.run(["git", "archive", sha], cwd=ROOT, check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(part)], input=archive, check=True)
        part.rename(dest)
    return dest


def control_copy(target: Path) -> Path:
    """A byte-identical copy of an unpacked build in its own directory (``--control``)."""
    # as long as the original's name (the note above BOOT), and one per kind
    dest = target.with_name({"vers": "copy", "abi3": "cpy3"}[target.name[:4]] + target.name[4:])
    if not (dest / "tabuleiro").is_dir():
        part = dest.with_suffix(".part")
        shutil.rmtree(part, ignore_errors=True)
        shutil.copytree(target, part, symlinks=True)
        part.rename(dest)
    return dest


# --- the table ------------------------------------------------------------------------------------

def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--abi3", action="store_true",
                    help="abi3 against version-specific builds of this tree (wheels built and cached here)")
    ap.add_argument("--control", action="store_true",
                    help="with --abi3: also a byte-identical copy of the version-specific build (the harness's floor)")
    ap.add_argument("--baseline", metavar="REV",
                    help="with --abi3: also the version-specific build of git revision REV (e.g. main's commit)")
    ap.add_argument("--old-python")
    ap.add_argument("--old-bench", type=Path)
    ap.add_argument("--new-python", default=sys.executable)
    ap.add_argument("--new-bench", default=HERE, type=Path)
    ap.add_argument("--rounds", type=int, default=9, help="batches of each benchmark a build runs (default 9)")
    ap.add_argument("--batch", type=float, default=0.05,
                    help="seconds a batch lasts, about (default 0.05; a single call may last longer)")
    ap.add_argument("--budget", type=float, default=40.0,
                    help="seconds a benchmark, about: fewer rounds (at least 5) where a call is long (default 40)")
    # 5, not 3: a process's luck holds for a run of benchmarks, and with 3
    # processes two unlucky ones of a build put its median below (issue 27's
    # runs H-K, docs/engine-notes.md, eleventh pass)
    ap.add_argument("--procs", type=int, default=5,
                    help="processes a build, each on a fresh copy of an unpacked build (default 5)")
    ap.add_argument("--threshold", type=float, default=0.97)
    ap.add_argument("--seed", type=int,
                    help="seeds each process's drawn heap layout (default: a new seed, printed and kept in --json)")
    ap.add_argument("--summary", type=Path, metavar="JSON",
                    help="print the table of a run kept with --json (plain or gzipped) instead of running one")
    ap.add_argument("--quick", action="store_true", help="3 rounds of 0.01 s batches (development, not acceptance)")
    ap.add_argument("--json", type=Path, help="also write every batch's rate to this file (JSON lines)")
    ap.add_argument("--per-round", action="store_true", help="also print each round's ratios")
    ap.add_argument("-k", dest="select", help="pytest's -k expression, to run some benchmarks only")
    ap.add_argument("--timer", choices=("wall", "cpu"), default="wall",
                    help="wall: time.perf_counter; cpu: time.process_time")
    ap.add_argument("files", nargs="*", help="bench files (default: every bench_*.py of bench/ that has benchmarks)")
    args = ap.parse_args()
    if args.summary:
        raw = args.summary.read_bytes()
        head, *rows = [json.loads(line) for line in (gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw)
                       .decode().splitlines() if line.strip()]
        rates = {name: {r["key"]: r["rates"][name] for r in rows} for name in head["builds"]}
        report(head["builds"], [tuple(p) for p in head["pairs"]], head["procs"], rates, args.threshold,
               args.per_round)
        return
    files = args.files or all_files(HERE)
    if args.seed is None:       # a new draw each run: one run's luck is not the next one's
        args.seed = random.SystemRandom().randrange(1 << 31)
    print(f"layout seed {args.seed} (--seed {args.seed} draws the same layouts)", file=sys.stderr)
    if args.quick:
        args.rounds, args.batch = 3, 0.01
    if args.rounds < 1 or not 1 <= args.procs <= 16 or not (0 < args.batch <= 60):
        ap.error("--rounds must be at least 1, --procs in 1..16 and --batch in (0, 60] seconds")
    if args.abi3:
        vs_target = build(ROOT, False)
        builds = [Build("abi3", sys.executable, HERE, build(ROOT, True)),
                  Build("vs", sys.executable, HERE, vs_target)]
        if args.baseline:
            base = baseline_tree(args.baseline)
            builds.append(Build(f"vs@{args.baseline}", sys.executable, HERE, build(base, False)))
        pairs = [("abi3", "vs")] + ([("vs", builds[2].name)] if args.baseline else [])
        if args.control:
            builds.append(Build("vs-copy", sys.executable, HERE, control_copy(vs_target)))
            pairs.append(("vs-copy", "vs"))
    else:
        if not (args.old_python and args.old_bench):
            ap.error("give --abi3, or --old-python and --old-bench")
        builds = [Build("new", args.new_python, args.new_bench.resolve()),
                  Build("old", args.old_python, args.old_bench.resolve())]
        pairs = [("new", "old")]
    for f in sorted(SKIP):
        if not args.files:
            print(f"skipped {f}: {SKIP[f]}", file=sys.stderr)
    with tempfile.TemporaryDirectory() as tmp:
        rates = run_lockstep(builds, files, args.select, args.timer, args.rounds, args.batch, args.procs,
                             args.budget, Path(tmp), args.seed)
    names = [b.name for b in builds]
    if args.json:       # JSON lines: the run, then one line a benchmark (every build's rates)
        keys = sorted(k for k in rates[names[0]] if all(k in rates[n] for n in names))
        args.json.write_text("".join(json.dumps(x) + "\n" for x in [
            {"command": " ".join(sys.argv), "procs": args.procs, "seed": args.seed, "builds": names,
             "pairs": pairs},
            *({"key": k, "rates": {n: rates[n][k] for n in names}} for k in keys)]))
    report(names, pairs, args.procs, rates, args.threshold, args.per_round)


def report(names: list[str], pairs: list[tuple[str, str]], procs: int, rates: dict[str, dict[str, list[float]]],
           threshold: float, per_round: bool) -> None:
    """The table: each benchmark's fastest batch rates, its ratios and PASS or FAIL; exits 1 when one fails.
    rates is run_lockstep's: {build: {benchmark: [a rate a batch, by round, then process]}}."""
    best = {name: {k: max(v) for k, v in per.items()} for name, per in rates.items()}
    # each round's ratio (the builds' batches of a round run back to back,
    # within a fraction of a second), then the median over rounds: the
    # figure least moved by the machine's slow spells
    compared = sorted(k for k in best[names[0]] if all(k in best[n] for n in names))
    if not compared:
        sys.exit("no benchmark was measured by every build: check the files and the -k expression")
    failed = []
    control_failed = []     # the same bits against themselves: the threshold's false alarms
    control: list[float] = []
    noise: list[float] = []     # the ratios of benchmarks that run no build code
    cols = "".join(f" {f'{n} fastest':>15}" for n in best)
    ratio_cols = "".join(f" {f'{a}/{o} fastest':>16} {f'{a}/{o} median':>16}" for a, o in pairs)
    print(f"{'benchmark':<44}{cols}{ratio_cols}")
    for key in compared:
        line = f"{key:<44}" + "".join(f" {best[n][key]:>15,.0f}" for n in names)
        free = any(s in key for s in BUILD_FREE)
        for a, o in pairs:
            paired = statistics.median(cross_ratios(rates[a][key], rates[o][key], procs))
            verdict = "PASS" if paired >= threshold else "FAIL"
            if a == "vs-copy":
                control.append(paired)
                if verdict == "FAIL" and not free:
                    control_failed.append(f"{key} ({paired:.3f})")
            elif verdict == "FAIL" and not free:
                failed.append(f"{key} ({a}/{o} {paired:.3f})")
            if free and a != "vs-copy":
                noise.append(paired)
            line += f" {best[a][key] / best[o][key]:>16.3f} {paired:>11.3f} {verdict}"
            if per_round:
                line += " [" + " ".join(f"{y / x:.3f}" for x, y in zip(rates[o][key], rates[a][key])) + "]"
        print(line + ("  (runs no build code: noise)" if free else ""))
    if noise:
        print(f"noise gauge: {len(noise)} ratios of benchmarks that run no build code, "
              f"{min(noise):.3f}-{max(noise):.3f}")
    if control:
        print(f"control (the version-specific build against a copy of itself): {len(control)} ratios, "
              f"{min(control):.3f}-{max(control):.3f}, median {statistics.median(control):.3f}; "
              f"{len(control_failed)} below {threshold}" + (": " + ", ".join(control_failed) if control_failed else ""))
    print(f"{'PASS' if not failed else 'FAIL'}: every median round ratio of a benchmark that runs the build "
          f">= {threshold}" + ("" if not failed else "; below: " + ", ".join(failed)))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
