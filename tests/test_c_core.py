"""The C core's own tests (csrc/tests/*.c through ctest), built with
AddressSanitizer and UndefinedBehaviorSanitizer. Each driver plays thousands
of random games and checks every state; any sanitizer report fails it.
test_csv feeds the CSV reader (csrc/csv.c) malformed texts. The quick tests
at the end feed the same kinds of malformed data files to the binding."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tabuleiro import _core

ROOT = Path(__file__).resolve().parents[1]


def configure(tmp_path_factory: pytest.TempPathFactory, name: str, option: str, target: str = "") -> Path:
    cmake = shutil.which("cmake")
    assert cmake, "cmake is needed to build the C core's tests (pip install '.[test]' installs it)"
    build = tmp_path_factory.mktemp(name)
    args = [cmake, "-S", str(ROOT), "-B", str(build), "-DTABULEIRO_C_TESTS=ON", f"-D{option}=ON",
            "-DCMAKE_BUILD_TYPE=Debug"]
    if shutil.which("ninja"):
        args += ["-G", "Ninja"]
    subprocess.run(args, check=True, capture_output=True, text=True)
    cmd = [cmake, "--build", str(build), "-j", "2"] + (["--target", target] if target else [])
    subprocess.run(cmd, check=True, capture_output=True, text=True)
    return build


@pytest.fixture(scope="module")
def asan_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return configure(tmp_path_factory, "asan", "TABULEIRO_SANITIZE")


@pytest.mark.slow
def test_search_threads_clean_under_thread_sanitizer(tmp_path_factory: pytest.TempPathFactory) -> None:
    """threads=2 searches run without data races (ThreadSanitizer)."""
    build = configure(tmp_path_factory, "tsan", "TABULEIRO_SANITIZE_THREAD", "test_search")
    res = subprocess.run([str(build / "test_search"), str(ROOT / "python/tabuleiro/data"), "6"],
                         capture_output=True, text=True, env=dict(os.environ, TSAN_OPTIONS="halt_on_error=1"))
    out = res.stdout + res.stderr
    assert res.returncode == 0, out
    assert "ThreadSanitizer" not in out and ": 1 passed" in out, out


def ctest_names(build: Path) -> list[str]:
    out = subprocess.run(["ctest", "--test-dir", str(build), "-N"], check=True, capture_output=True, text=True).stdout
    return [line.split(":", 1)[1].strip() for line in out.splitlines() if line.strip().startswith("Test")
            and ":" in line]


@pytest.mark.slow
def test_c_drivers_are_registered(asan_build: Path) -> None:
    assert "capivarias_random_games" in ctest_names(asan_build)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["capivarias_random_games", "capulana_random_games", "toy_random_games",
                                  "search_threads", "csv_reader"])
def test_c_driver_clean_under_sanitizers(asan_build: Path, name: str) -> None:
    if name not in ctest_names(asan_build):
        pytest.fail(f"C test {name} is not registered in CMakeLists.txt")
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=1:abort_on_error=0", UBSAN_OPTIONS="print_stacktrace=1")
    res = subprocess.run(["ctest", "--test-dir", str(asan_build), "-R", f"^{name}$", "--output-on-failure"],
                         capture_output=True, text=True, env=env)
    out = res.stdout + res.stderr
    assert res.returncode == 0, out
    assert "runtime error" not in out and "AddressSanitizer" not in out, out


# --- malformed data files through the binding (csrc/csv.c behind each game's loader) ---------

def shipped(game: str) -> list[str]:
    """The game's shipped data texts, as tabuleiro reads them."""
    files = _core.game_spec(game)[0]
    return [(ROOT / "python/tabuleiro/data" / f).read_text("utf-8") for f in files]


def params(game: str) -> list[int]:
    return [default for _, _, _, default in _core.game_spec(game)[1]]


def with_text(game: str, i: int, old: str, new: str) -> list[str]:
    texts = shipped(game)
    assert old in texts[i], old
    texts[i] = texts[i].replace(old, new, 1)
    return texts


LONG = "x" * 128
MALFORMED = [   # (game, file index, replace, with, the message's file and line, its problem)
    ("capivarias", 0, "C2,herd,capicria,2,1,0", "C2,herd,capicria,2", "capivarias_cards.csv line 3:",
     "4 fields, but the header has 6"),
    ("capivarias", 0, "C2,herd,capicria,2,1,0", "C2,herd,capicria,two,1,0", "capivarias_cards.csv line 3:",
     "number 'two' is not an integer"),
    ("capivarias", 0, "C2,herd,capicria,2,1,0", "C2,herd,capicria,2,300,0", "capivarias_cards.csv line 3:",
     "river_modifier '300' is not in [-128, 127]"),
    ("capivarias", 0, "C2,herd,capicria,2,1,0", "C2,herd,capicria,2,1\r0", "capivarias_cards.csv line 3:",
     "a carriage return inside a line"),
    ("capivarias", 0, "C2,herd,capicria,2,1,0", f"C2,herd,{LONG},2,1,0", "capivarias_cards.csv line 3:",
     "a field is longer than 127 bytes"),
    ("capivarias", 0, "C2,herd,capicria,2,1,0", "\"C2\",herd,capicria,2,1,0", "capivarias_cards.csv line 3:",
     "quoted fields are not supported"),
    ("capivarias", 0, "name,kind", "nome,kind", "capivarias_cards.csv line 1:", "the header has no column 'name'"),
    ("capulana", 0, "F01,fabric,black,5,", "F01,fabric,black,500,", "capulana_fabric_cards.csv line 2:",
     "value '500' is not in [0, 255]"),
    ("capulana", 0, "F02,fabric,black,5,GC GC RC --", "F02,fabric,black,5,GC GC RC --,", "capulana_fabric_cards.csv line 3:",
     "6 fields, but the header has 5"),
    ("capulana", 0, "F01,fabric,black,5,-- YD YT GT", "F01,fabric,black,5,-- YD YX GT", "capulana_fabric_cards.csv line 2:",
     "'YX' is not a strip"),
    ("capulana", 1, "OBJ10,4,perfect-match,3 or more", "OBJ10,4,perfect-match,\"3 or more",
     "capulana_objectives.csv line 11:", "a quoted field is not closed"),
    ("capulana", 1, "OBJ1,3,", "OBJ1,three,", "capulana_objectives.csv line 2:", "points 'three' is not an integer"),
]


@pytest.mark.parametrize("game,i,old,new,where,problem", MALFORMED,
                         ids=[f"{m[0]}-{m[5].split()[0]}-{k}" for k, m in enumerate(MALFORMED)])
def test_malformed_data_file_gives_a_clear_value_error(game: str, i: int, old: str, new: str, where: str,
                                                       problem: str) -> None:
    """A malformed shipped CSV text is refused with a ValueError naming the file, the line and the problem."""
    with pytest.raises(ValueError) as err:
        _core.CoreGame(game, with_text(game, i, old, new), params(game))
    assert where in str(err.value) and problem in str(err.value), str(err.value)


@pytest.mark.parametrize("game", ["capivarias", "capulana"])
def test_data_files_read_alike_with_crlf_a_bom_and_blank_lines(game: str) -> None:
    """Line ends, a byte-order mark and blank lines do not change the game the data make."""
    plain = _core.CoreGame(game, shipped(game), params(game)).info
    texts = ["\ufeff" + t.replace("\n", "\r\n\r\n") for t in shipped(game)]
    assert _core.CoreGame(game, texts, params(game)).info == plain


@pytest.mark.parametrize("game", ["capivarias", "capulana"])
def test_a_nul_byte_in_a_data_file_is_refused_not_read_as_its_end(game: str) -> None:
    """C reads each text up to its first NUL: the binding must refuse one, or a
    table cut short at a record's end would load as a smaller game."""
    texts = shipped(game)
    cut = texts[0].index("\n", len(texts[0]) // 2) + 1           # a record's end, past the header
    texts[0] = texts[0][:cut] + "\0" + texts[0][cut:]
    line = texts[0].count("\n", 0, cut) + 1
    with pytest.raises(ValueError, match=rf"{_core.game_spec(game)[0][0]} line {line}: a NUL byte"):
        _core.CoreGame(game, texts, params(game))
