"""The C core's own tests (csrc/tests/*.c through ctest), built with
AddressSanitizer and UndefinedBehaviorSanitizer. Each driver plays thousands
of random games and checks every state; any sanitizer report fails it."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

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
                                  "search_threads"])
def test_c_driver_clean_under_sanitizers(asan_build: Path, name: str) -> None:
    if name not in ctest_names(asan_build):
        pytest.fail(f"C test {name} is not registered in CMakeLists.txt")
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=1:abort_on_error=0", UBSAN_OPTIONS="print_stacktrace=1")
    res = subprocess.run(["ctest", "--test-dir", str(asan_build), "-R", f"^{name}$", "--output-on-failure"],
                         capture_output=True, text=True, env=env)
    out = res.stdout + res.stderr
    assert res.returncode == 0, out
    assert "runtime error" not in out and "AddressSanitizer" not in out, out
