"""Benchmark figures of two (or three) builds, measured in one run.

Runs the same pytest-benchmark suites against each build, one bench file at
a time with the builds back to back (in an order shuffled per round and
file), for several rounds, so that a shared machine's load falls on all
alike, and prints each benchmark's rate (units per second of the fastest
round seen across all rounds) and the ratios. The figure to read is the
median over rounds of each round's ratio of fastest rates: a run's fastest
round is its least disturbed one, and a pair's runs are seconds apart.
Rates are units per second, so a ratio above 1 means the first-named build
is faster.

The abi3 acceptance (issue 27): the abi3 build of this tree against its
version-specific build, and that version-specific build against the one of
a baseline revision, in one command that builds the wheels itself (cached
under build/compare-builds/, keyed by the sources' contents) and runs every
benchmark file of bench/ in this interpreter, each build's wheel unpacked
in its own directory:

    python bench/compare_builds.py --abi3 --baseline 0d5d6ae --rounds 5
    python bench/compare_builds.py --abi3 --quick bench_capulana.py -k weaving   # while developing
    python bench/compare_builds.py --abi3 --control --rounds 5                  # and the harness's floor

``--control`` adds a third build: a byte-identical copy of the
version-specific one, unpacked in its own directory and run as if it were
another build. Its ratio to the version-specific build is what the harness
reports when nothing differs, benchmark by benchmark: its failures are the
threshold's false alarms on this machine, and its spread is the floor under
any abi3 figure (the noise gauge covers only the few benchmarks that run no
build code).

``--timer cpu`` times with ``time.process_time`` instead of the wall clock:
the CPU seconds of the whole process (every thread's), so a benchmark whose
threads wait for a busy core is not charged for the wait. Use it to tell a
build's cost from the scheduler's noise in the multi-threaded searches.

Each line then says PASS or FAIL against ``--threshold`` (0.97) for the
median round ratio abi3 / version-specific (and new / baseline).

Two installed builds (two Python environments, each with its own copy of
the bench files), as before:

    python bench/compare_builds.py --old-python /tmp/venv-base/bin/python \\
        --old-bench /tmp/base-src/bench --rounds 3 bench_capivarias.py bench_capulana.py bench_search.py

Each benchmark must set ``extra_info["units"]`` and ``extra_info["key"]``
(the suites in bench/ do).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import NamedTuple, Optional

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CACHE = ROOT / "build" / "compare-builds"

#: bench files with nothing to compare between builds, and why
SKIP = {
    "bench_vs_openspiel_ismcts.py": "a strength match against OpenSpiel's ISMCTS (needs open_spiel), not a speed "
                                    "benchmark: it has no pytest-benchmark test",
}
#: benchmarks that run no code of the build (pure-Python reference rules): their ratio is the machine's noise
BUILD_FREE = ("_reference_",)

# Every build's directory name has one length ("abi3-", "vers-" and "copy-"
# before a tree hash of fixed length), and each run's JSON name too, so that
# no build's path or argv is longer than another's: their lengths move a
# process's memory layout, a known source of steady few-per-cent biases
# (Mytkowicz et al., "Producing wrong data without doing anything obviously
# wrong!", 2009). It did not remove the bias seen here: in the short
# Python-level determinize calls a byte-identical copy of a build still runs
# 5-11% faster or slower than the original for a whole run, the sign
# changing from run to run (docs/engine-notes.md, ninth pass).

#: run pytest in a child with the build in `target` (an unpacked wheel) ahead of any installed tabuleiro
BOOT = """
import sys
sys.meta_path[:] = [f for f in sys.meta_path if "ScikitBuild" not in type(f).__name__]   # an editable install's finder
sys.path.insert(0, {target!r})
import pytest
import tabuleiro._core as c
assert c.__file__.startswith({target!r}), c.__file__
sys.exit(pytest.main({args!r}))
"""


class Build(NamedTuple):
    name: str
    python: str
    bench: Path
    target: Optional[Path] = None    # an unpacked wheel to put first on sys.path


def all_files(bench: Path) -> list[str]:
    return sorted(p.name for p in bench.glob("bench_*.py") if p.name not in SKIP)


def run_suite(b: Build, files: list[str], out: Path, extra: list[str]) -> dict[str, tuple[float, float]]:
    """{key: (fastest-round rate, mean-round rate)} of one pytest-benchmark run."""
    args = [*[str(b.bench / f) for f in files], "--benchmark-only", "-q", "-p", "no:cacheprovider",
            f"--benchmark-json={out}", *extra]
    if b.target is None:
        cmd = [b.python, "-m", "pytest", *args]
    else:
        cmd = [b.python, "-c", BOOT.format(target=str(b.target), args=args)]
    res = subprocess.run(cmd, cwd=b.bench.parent, capture_output=True, text=True)
    if res.returncode == 5:         # -k selected nothing in this file
        return {}
    if res.returncode != 0:
        sys.exit(f"{b.name}: pytest failed:\n{res.stdout[-3000:]}\n{res.stderr[-3000:]}")
    rates = {}
    for bm in json.loads(out.read_text())["benchmarks"]:
        info = bm.get("extra_info", {})
        if "units" in info:
            key = info.get("key", bm["name"])
            rates[key] = (info["units"] / bm["stats"]["min"], info["units"] / bm["stats"]["mean"])
    return rates


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
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--threshold", type=float, default=0.97)
    ap.add_argument("--quick", action="store_true", help="short pytest-benchmark rounds (development, not acceptance)")
    ap.add_argument("-k", dest="select", help="pytest's -k expression, to run some benchmarks only")
    ap.add_argument("--timer", choices=("wall", "cpu"), default="wall",
                    help="wall: time.perf_counter (pytest-benchmark's default); cpu: time.process_time")
    ap.add_argument("files", nargs="*", help="bench files (default: every bench_*.py of bench/ that has benchmarks)")
    args = ap.parse_args()
    files = args.files or all_files(HERE)
    extra = ["--benchmark-max-time=0.1", "--benchmark-min-rounds=2"] if args.quick else []
    if args.select:
        extra += ["-k", args.select]
    if args.timer == "cpu":
        extra.append("--benchmark-timer=time.process_time")
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
    best: dict[str, dict[str, float]] = {b.name: {} for b in builds}
    fastest: dict[str, dict[str, list[float]]] = {b.name: {} for b in builds}
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.rounds):
            for i, f in enumerate(files):
                # one file at a time, the builds back to back in an order
                # shuffled per round and file (seeded): a pair's runs are
                # seconds apart, not the minutes a whole suite takes, so the
                # machine's slow spells fall on both alike, and no build
                # always runs right after the same other build (under the
                # cyclic rotation this replaced, the version-specific build
                # always followed abi3)
                order = list(builds)
                random.Random(f"{r}-{i}").shuffle(order)
                for b in order:
                    # the JSON's name is of one length for every build (it is in argv)
                    rates = run_suite(b, [f], Path(tmp) / f"b{builds.index(b):02d}-{r:04d}-{i:03d}.json", extra)
                    for key, (fast, _mean) in rates.items():
                        best[b.name][key] = max(best[b.name].get(key, 0.0), fast)
                        fastest[b.name].setdefault(key, []).append(fast)
            print(f"round {r + 1}/{args.rounds}: {len(files)} files x {len(builds)} builds", file=sys.stderr,
                  flush=True)
    # each round's ratio of fastest rates (interference only ever slows a
    # run, so a run's fastest round is its least disturbed), then the median
    # over rounds: the figure least moved by the machine's slow spells
    compared = sorted(k for k in best[builds[0].name] if all(k in best[bd.name] for bd in builds))
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
        line = f"{key:<44}" + "".join(f" {best[bd.name][key]:>15,.0f}" for bd in builds)
        free = any(s in key for s in BUILD_FREE)
        for a, o in pairs:
            paired = statistics.median(y / x for x, y in zip(fastest[o][key], fastest[a][key]))
            verdict = "PASS" if paired >= args.threshold else "FAIL"
            if a == "vs-copy":
                control.append(paired)
                if verdict == "FAIL" and not free:
                    control_failed.append(f"{key} ({paired:.3f})")
            elif verdict == "FAIL" and not free:
                failed.append(f"{key} ({a}/{o} {paired:.3f})")
            if free and a != "vs-copy":
                noise.append(paired)
            line += f" {best[a][key] / best[o][key]:>16.3f} {paired:>11.3f} {verdict}"
        print(line + ("  (runs no build code: noise)" if free else ""))
    if noise:
        print(f"noise gauge: {len(noise)} ratios of benchmarks that run no build code, "
              f"{min(noise):.3f}-{max(noise):.3f}")
    if control:
        print(f"control (the version-specific build against a copy of itself): {len(control)} ratios, "
              f"{min(control):.3f}-{max(control):.3f}, median {statistics.median(control):.3f}; "
              f"{len(control_failed)} below {args.threshold}" + (": " + ", ".join(control_failed) if control_failed else ""))
    print(f"{'PASS' if not failed else 'FAIL'}: every median round ratio of a benchmark that runs the build "
          f">= {args.threshold}" + ("" if not failed else "; below: " + ", ".join(failed)))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
