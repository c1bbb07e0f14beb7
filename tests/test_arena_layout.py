"""The layout of the tabuleiro.arena package (issue 27): the public names of
the one-module arena are all still there, every module stays small, the
modules import one way only, and what worker processes import by qualified
name resolves.
"""

from __future__ import annotations

import ast
import importlib
import pickle
import pkgutil
import subprocess
import sys
import types
from pathlib import Path

import tabuleiro
from tabuleiro import arena
from tabuleiro.arena import backends, specs, worker

#: The modules of the package, bottom first: each may import only modules
#: before it (the package's __init__ re-exports them all).
LAYERS = ["scheduling", "stats", "clock", "engines", "specs", "records", "worker", "backends", "report", "summary",
          "runner", "cli", "tune"]
MAX_LINES = 800

#: ``tabuleiro.arena.__all__`` when the arena was one module.
OLD_ALL = ["AgentEntry", "SPRT", "Summary", "parse_agent", "schedule", "deal_seed", "read_results", "read_scan",
           "scan_results", "check_record", "run_header", "ResultsFile", "ResultsFileError", "ResultsScan",
           "summarize", "summarize_file", "skipped_warning", "format_summary", "plot", "check_plot_path", "run",
           "elo_from_score", "tables", "rotations", "PENTA_SCORES"]
#: Names added since (issue 24: external engines and clocks).
NEW_ALL = ["Engine", "Forfeit", "TERMINATIONS", "TimeControl", "Clock", "parse_tc", "format_terminations"]
#: Its other public names (not imports): still attributes of tabuleiro.arena.
OLD_PUBLIC_EXTRA = ["Act", "GameSpec", "HEADER_FIELDS", "HEADER_MARK", "MAX_LINE_BYTES", "RECORD_VERSION", "Start",
                    "is_header"]

PACKAGE_DIR = Path(arena.__file__).parent


def test_every_module_of_the_package_has_a_layer() -> None:
    found = sorted(m.name for m in pkgutil.iter_modules(arena.__path__))
    assert found == sorted(LAYERS)


def test_the_public_names_of_the_one_module_arena_are_all_importable() -> None:
    assert arena.__all__ == OLD_ALL + NEW_ALL
    public = sorted(n for n, v in vars(arena).items()
                    if not n.startswith("_") and not isinstance(v, types.ModuleType) and n != "annotations")
    assert public == sorted(OLD_ALL + NEW_ALL + OLD_PUBLIC_EXTRA)
    # each name is the object its module defines, not a copy
    for name in OLD_ALL + OLD_PUBLIC_EXTRA:
        homes = [importlib.import_module(f"tabuleiro.arena.{m}") for m in LAYERS]
        assert any(getattr(h, name, None) is getattr(arena, name) for h in homes), name


def test_no_module_is_over_800_lines() -> None:
    sizes = {p.name: len(p.read_text(encoding="utf-8").splitlines()) for p in PACKAGE_DIR.glob("*.py")}
    assert sizes and max(sizes.values()) <= MAX_LINES, sizes


def _relative_imports(path: Path) -> set[str]:
    """The package modules a module imports (at any depth, lazily or not)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                out.add(node.module.split(".")[0])
            else:
                out.update(a.name for a in node.names)
    return out


def test_modules_import_only_the_modules_below_them() -> None:
    for i, name in enumerate(LAYERS):
        above = set(_relative_imports(PACKAGE_DIR / f"{name}.py")) - set(LAYERS[:i])
        assert not above, f"arena.{name} imports {sorted(above)}, which are not below it in {LAYERS}"


def test_worker_entry_points_resolve_by_qualified_name() -> None:
    """What the spawn pool and Ray send to a worker pickles by reference to
    the module that defines it, and a fresh interpreter can load it."""
    for obj in (backends._init_worker, backends._pool_play, backends._RayWorker, worker._Config, specs.AgentEntry):
        assert pickle.loads(pickle.dumps(obj)) is obj
    cfg = worker._Config("capivarias", tabuleiro.load_game("capivarias").params,
                         (arena.parse_agent("greedy"), arena.parse_agent("tests.test_arena:SeededPick")), 1)
    plan = arena.schedule(2, 2, 1, seed=1)
    here = backends._RayWorker(cfg).play(plan)
    payload = pickle.dumps((backends._init_worker, backends._pool_play, cfg, plan))
    code = ("import pickle, sys\n"
            "init, play, cfg, plan = pickle.loads(sys.stdin.buffer.read())\n"
            "init(cfg)\n"
            "sys.stdout.buffer.write(pickle.dumps(play(plan)))\n")
    root = Path(__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, "-c", code], input=payload, capture_output=True, cwd=root, timeout=120)
    assert out.returncode == 0, out.stderr.decode()
    there = pickle.loads(out.stdout)
    strip = [{k: v for k, v in r.items() if k != "us"} for r in here]
    assert [{k: v for k, v in r.items() if k != "us"} for r in there] == strip and len(strip) == 2
