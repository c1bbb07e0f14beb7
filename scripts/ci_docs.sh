#!/usr/bin/env bash
# The API reference (docs/api/, Sphinx autodoc + napoleon), warnings as
# errors, from the docstrings of an installed tabuleiro in a fresh virtual
# environment, then the docstring gaps (--strict: a public name without a docstring and an example fails the build).
#
#   bash scripts/ci_docs.sh [WHEEL]
#
# WHEEL: a built wheel to document (.ci/run passes the one scripts/ci_wheel.sh
# checked); without it the checkout is built and installed. Writes the HTML to
# build/docs/html (open build/docs/html/index.html). PYTHON picks the
# interpreter (default: python).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PY=${PYTHON:-python}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/tabuleiro-docs.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

"$PY" -m venv "$WORK/venv"
VPY="$WORK/venv/bin/python"
[ -x "$VPY" ] || VPY="$WORK/venv/Scripts/python.exe"
# the docs extra of pyproject.toml, without building the package for it
"$PY" - "$ROOT/pyproject.toml" > "$WORK/docs-requirements.txt" <<'PYEOF'
import sys, tomllib
with open(sys.argv[1], "rb") as f:
    print("\n".join(tomllib.load(f)["project"]["optional-dependencies"]["docs"]))
PYEOF
pipq() {   # quiet; the log only if it fails
    "$VPY" -m pip install --quiet --disable-pip-version-check "$@" > "$WORK/pip.log" 2>&1 || { cat "$WORK/pip.log"; return 1; }
}
pipq -r "$WORK/docs-requirements.txt"
pipq "${1:-$ROOT}"

rm -rf build/docs/html
# from an empty directory, so that the checkout is not what autodoc imports
mkdir "$WORK/run" && cd "$WORK/run"
"$VPY" -c 'import tabuleiro, sys; print("documenting", tabuleiro.__version__, "from", tabuleiro.__file__)'
"$VPY" -m sphinx -W --keep-going -q -b html "$ROOT/docs/api" "$ROOT/build/docs/html"
echo "API reference: $ROOT/build/docs/html/index.html"
"$VPY" "$ROOT/scripts/docstring_gaps.py" --strict
