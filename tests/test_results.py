"""The kept results (results/) and the docs that cite them.

Results live only under ``results/``, compressed (``gzip -9n``), each with
its row in results/README.md; nothing under ``bench/`` or ``python/`` is a
result, an experiment patch, or over 200 KB; every ``results/`` path a doc
names exists and no doc names the old ``bench/results/`` or a patch; and
the published tables of docs/strength.md and docs/levels.md are exactly what
the kept games give (through the bench scripts that print them), so a table
cannot drift from its games.

An unpacked sdist has no results/ (pyproject.toml leaves it out) and no
.git: there these tests are skipped, with that reason. In a checkout
(``.git`` present) a missing results/ fails them.
"""

from __future__ import annotations

import gzip
import json
import re
import shutil
from pathlib import Path
from types import ModuleType
from typing import Iterator

import pytest

from tabuleiro import arena

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "results"
INDEX = RESULTS / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md", INDEX]
#: The layout's size limit for any file under bench/ and python/.

pytestmark = pytest.mark.skipif(not RESULTS.is_dir() and not (ROOT / ".git").exists(),
                                reason="an unpacked sdist: results/ is left out of it (pyproject.toml)")


@pytest.fixture
def bench(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """bench/ on sys.path, as when its scripts run (``python bench/x.py``)."""
    monkeypatch.syspath_prepend(str(ROOT / "bench"))
    yield


def _import(name: str) -> ModuleType:
    import importlib
    return importlib.import_module(name)


def _kept_files() -> list[Path]:
    return sorted(p for p in RESULTS.rglob("*") if p.is_file() and p != INDEX)


def _index_names() -> list[str]:
    """The file column of every row of the index table."""
    return re.findall(r"^\| `([^`]+)` \|", INDEX.read_text("utf-8"), flags=re.M)


def test_results_folder_holds_kept_files() -> None:
    files = _kept_files()
    assert len([p for p in files if p.name.endswith(".jsonl.gz")]) >= 40
    for p in files:
        assert p.name.endswith((".jsonl.gz", ".png")), f"{p.relative_to(ROOT)}: results/ keeps .jsonl.gz and .png only"


def test_every_kept_file_has_one_index_row_and_every_row_a_file() -> None:
    names = _index_names()
    assert len(names) == len(set(names)), "a file has two rows in results/README.md"
    kept = {p.relative_to(RESULTS).as_posix() for p in _kept_files()}
    assert sorted(kept - set(names)) == [], "kept files without a row in results/README.md"
    assert sorted(set(names) - kept) == [], "rows of results/README.md naming no file"


def test_every_index_row_says_what_it_feeds_and_its_command() -> None:
    rows = re.findall(r"^\| `([^`]+)` \|(.*)\|$", INDEX.read_text("utf-8"), flags=re.M)
    assert rows
    for name, rest in rows:
        holds, feeds, command = (c.strip() for c in rest.split(" | "))
        assert holds, name
        assert re.search(r"\]\(\.\./docs/[\w-]+\.md\)", feeds), f"{name}: no doc it feeds"
        assert "`" in command or "command" in command, f"{name}: no command"


@pytest.mark.parametrize("path", [p for p in _kept_files() if p.name.endswith(".gz")] if RESULTS.is_dir() else [],
                         ids=lambda p: p.relative_to(RESULTS).as_posix())
def test_kept_file_is_deterministic_gzip_of_json_lines(path: Path) -> None:
    head = path.read_bytes()[:10]
    # RFC 1952: magic, deflate, no FNAME/FCOMMENT (flags 0), MTIME 0 -- what gzip -9n writes
    assert head[:3] == b"\x1f\x8b\x08", "not a gzip file"
    assert head[3] == 0, "gzip header carries a name or comment: compress with gzip -9n"
    assert head[4:8] == b"\0\0\0\0", "gzip header carries a time stamp: compress with gzip -9n"
    with gzip.open(path, "rb") as f:
        lines = [line for line in f if line.strip()]
    assert lines
    for line in lines:
        assert isinstance(json.loads(line), dict)


def test_docs_cite_existing_results_only() -> None:
    problems = []
    for doc in DOCS:
        text = doc.read_text("utf-8")
        for old in re.findall(r"bench/results\b|(?<!:)bench/[\w./-]+\.patch", text):
            problems.append(f"{doc.name}: names {old}, which is gone (results/, docs/rl.md#experiments-not-kept)")
        for m in re.finditer(r"(?<![\w/.])(?:\.\./)?results/([\w.*<>/-]+)", text):
            rel = m.group(1).rstrip(".")
            if "<" in rel or rel in ("", "README.md"):
                continue
            pattern = rel if rel.endswith((".gz", ".png", "/", "*")) else rel + "*"
            if not list(RESULTS.glob(pattern.rstrip("/") or "*")):
                problems.append(f"{doc.name}: results/{rel} matches no kept file")
        for link in re.findall(r"\]\((\.\./results/[^)]+)\)", text):
            if not (doc.parent / link).resolve().exists():
                problems.append(f"{doc.name}: broken link {link}")
    assert problems == []


def test_gz_summary_equals_the_arenas_summary_of_the_plain_file(bench: None, tmp_path: Path) -> None:
    result_files = _import("result_files")
    gz = RESULTS / "levels" / "capivarias" / "L5-L4.jsonl.gz"
    plain = tmp_path / "L5-L4.jsonl"
    with gzip.open(gz, "rb") as src, plain.open("wb") as dst:
        shutil.copyfileobj(src, dst)
    assert result_files.read_results(gz) == arena.read_results(plain)
    assert result_files.summarize_file(gz) == arena.summarize_file(plain)
    assert result_files.existing(plain.with_suffix(".jsonl")) == plain
    assert result_files.existing(tmp_path / "none.jsonl") is None


def test_scripts_refuse_to_append_to_a_compressed_file(bench: None) -> None:
    result_files = _import("result_files")
    with pytest.raises(ValueError, match="compressed"):
        result_files.refuse_compressed_out("results/x.jsonl.gz")
    result_files.refuse_compressed_out("runs/x.jsonl")


def _doc_section(text: str, start: str, end: str) -> str:
    i = text.index(start) + len(start)
    return text[i:text.index(end, i)].strip()


def test_strength_tables_are_what_the_kept_games_give(bench: None) -> None:
    strength_tables = _import("strength_tables")
    doc = (ROOT / "docs" / "strength.md").read_text("utf-8")
    for name in strength_tables.FILES:
        table = strength_tables.table(RESULTS / (name + ".gz"))
        assert table.startswith("### ")
        assert table in doc, f"docs/strength.md's table differs from bench/strength_tables.py of {name}.gz"


def test_levels_tables_are_what_the_kept_games_give(bench: None) -> None:
    calibrate_levels = _import("calibrate_levels")
    doc = (ROOT / "docs" / "levels.md").read_text("utf-8")
    for name in calibrate_levels.TABLES:
        table = calibrate_levels.table(name)
        assert "so far" not in table                      # a kept match is a whole one
        if name in calibrate_levels.GAMES:                 # the ladders' own tables: every match played
            assert "not measured" not in table
        assert table == _doc_section(doc, f"<!-- table {name} -->", f"<!-- end table {name} -->")


def test_multiplayer_level_rows_score_the_two_levels_win_shares(bench: None, tmp_path: Path) -> None:
    """With more than two players a level table's score is level n's share
    of the two levels' wins per seat (a tie at the top split), and a match
    short of the table's deals is marked as such."""
    from tabuleiro import arena

    calibrate_levels = _import("calibrate_levels")
    out = calibrate_levels.path_of(tmp_path, "capulana", 3, 2, 3)
    out.parent.mkdir(parents=True)
    arena.run("capulana", ["level:3", "level:2"], deals=4, seed=9, params={"players": 3}, out=out, jobs=1)
    recs = list(arena.read_results(out))
    wins = {"level:3": 0.0, "level:2": 0.0}
    seats = {"level:3": 0, "level:2": 0}
    for r in recs:
        top = max(r["returns"])
        winners = [p for p, x in enumerate(r["returns"]) if x == top]
        for p, lab in enumerate(r["seats"]):
            seats[lab] += 1
            wins[lab] += 1.0 / len(winners) if p in winners else 0.0
    hi, lo = wins["level:3"] / seats["level:3"], wins["level:2"] / seats["level:2"]
    row = calibrate_levels.row(tmp_path, "capulana", 3, 2, 3)
    assert row is not None and row["games"] == len(recs) == 12 and row["seatings"] == 3
    assert row["score"] == pytest.approx(hi / (hi + lo))
    assert row["share_hi"] == pytest.approx(hi) and row["share_lo"] == pytest.approx(lo)
    assert row["ok"] == (row["score"] > 0.5)
    table = calibrate_levels.table("capulana-3p", tmp_path)
    assert "| 3 | ismcts 8 | 2 (greedy) | 12 |" in table and "so far (12 of 150 games)" in table
    assert table.count("not measured") == 15


def test_level_row_played_past_the_tables_deals_counts_its_own(
        bench: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A match played on past its table's deals (``--deals``) is full only
    with every seating of its own deals, and says how far it is while not."""
    from tabuleiro import arena

    calibrate_levels = _import("calibrate_levels")
    game, params, _ = calibrate_levels.TABLES["capulana-3p"]
    monkeypatch.setitem(calibrate_levels.TABLES, "capulana-3p", (game, params, 1))   # a table of one deal
    out = calibrate_levels.path_of(tmp_path, "capulana", 3, 2, 3)
    out.parent.mkdir(parents=True)
    arena.run("capulana", ["level:3", "level:2"], deals=2, seed=9, params={"players": 3}, out=out, jobs=1)
    lines = out.read_text("utf-8").splitlines()
    assert len(lines) == 1 + 6
    out.write_text("\n".join(lines[:-1]) + "\n", "utf-8")       # the second deal's last game not played
    table = calibrate_levels.table("capulana-3p", tmp_path)
    assert "| 3 | ismcts 8 | 2 (greedy) | 5 |" in table and "so far (5 of 6 games)" in table
    out.write_text("\n".join(lines) + "\n", "utf-8")
    table = calibrate_levels.table("capulana-3p", tmp_path)
    assert "| 3 | ismcts 8 | 2 (greedy) | 6 |" in table and "so far" not in table
