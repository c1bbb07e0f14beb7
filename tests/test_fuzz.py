"""The libFuzzer harnesses of the C core (csrc/fuzz/, scripts/fuzz.sh).

With clang and its libFuzzer runtime on the machine, every harness is built
with ASan and UBSan and fuzzed for a short while from the seed corpus
(tests/fuzz_corpus/<game>/, crash-* regression inputs included): any crash,
sanitizer report or invariant failure fails the test. Without them the
script must say so and succeed, and the test checks exactly that: it never
passes silently and is never skipped.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "fuzz.sh"
SKIP_LINE = "fuzzing skipped: clang with libFuzzer not found"
HARNESSES = ("capivarias", "capulana", "toy")


def clang_with_libfuzzer(cc: str) -> bool:
    """The script's own probe: cc is clang and links a fuzzer with the sanitizers."""
    if not shutil.which(cc):
        return False
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "probe.c"
        src.write_text("int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { return 0; }\n")
        res = subprocess.run([cc, "-fsanitize=fuzzer,address,undefined", str(src), "-o", str(Path(tmp) / "probe")],
                             capture_output=True, text=True)
        if res.returncode != 0:
            return False
        ver = subprocess.run([cc, "--version"], capture_output=True, text=True).stdout
        return "clang" in ver.lower()


def run_script(*args: str, env: dict[str, str] | None = None, timeout: float = 1800) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(SCRIPT), *args], capture_output=True, text=True, cwd=ROOT,
                          env=dict(os.environ, **(env or {})), timeout=timeout)


def test_seed_corpus_is_small_and_covers_every_game() -> None:
    total = 0
    for game in HARNESSES:
        files = [p for p in (ROOT / "tests" / "fuzz_corpus" / game).iterdir() if p.is_file()]
        assert len(files) >= 20, f"{game}: {len(files)} seed inputs"
        total += sum(p.stat().st_size for p in files)
    assert total < 1_000_000


def test_fuzz_sh_without_clang_prints_the_skip_line_and_exits_0(tmp_path: Path) -> None:
    """The skip path, whatever this machine has: CC names no compiler."""
    res = run_script("5", env={"CC": str(tmp_path / "no-such-clang")}, timeout=120)
    assert res.returncode == 0, res.stdout + res.stderr
    assert SKIP_LINE in res.stdout.splitlines(), res.stdout + res.stderr


@pytest.mark.slow
def test_fuzz_sh_runs_every_harness_clean_or_without_clang_prints_the_skip_line() -> None:
    """`scripts/fuzz.sh 10`: with clang, each harness runs 10 s with no crash,
    sanitizer report or invariant failure; without, the skip line and exit 0."""
    cc = os.environ.get("CC", "clang")
    res = run_script("10")   # a regression check in CI; campaigns run scripts/fuzz.sh longer
    out = res.stdout + res.stderr
    if not clang_with_libfuzzer(cc):
        assert res.returncode == 0, out
        assert SKIP_LINE in res.stdout.splitlines(), out
        return
    assert res.returncode == 0, out
    assert SKIP_LINE not in out, out
    for game in HARNESSES:
        m = re.search(rf"^fuzz_{game}: ok: (\d+) executions .* cov: (\d+) ft: (\d+)$", res.stdout, re.M)
        assert m, f"no result line for fuzz_{game}:\n{out}"
        assert int(m.group(1)) > 0 and int(m.group(2)) > 0, out
    assert "fuzzing passed" in res.stdout, out
