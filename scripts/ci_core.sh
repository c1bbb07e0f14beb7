#!/usr/bin/env bash
# The C core alone, warnings as errors: CMake's tabuleiro_core target with
# -Wall -Wextra -Wvla -Werror (TABULEIRO_WERROR=ON), C11, at -O3 (Release)
# and -O2 -g (RelWithDebInfo), where GCC's flow warnings differ, with GCC and
# with Clang.
#
#   bash scripts/ci_core.sh [COMPILER...]     # default: gcc clang
#
# A compiler that is not installed is reported and skipped, unless it was
# named on the command line (GitHub's wheels.yml runs `ci_core.sh clang`).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
WORK=$(mktemp -d "${TMPDIR:-/tmp}/tabuleiro-core.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
if [ $# -gt 0 ]; then compilers=("$@"); required=1; else compilers=(gcc clang); required=0; fi
gen=(); command -v ninja > /dev/null && gen=(-G Ninja)
built=0
for cc in "${compilers[@]}"; do
    if ! command -v "$cc" > /dev/null; then
        if [ "$required" = 1 ]; then echo "$cc: not found"; exit 1; fi
        echo "$cc: not installed here, skipped (Debian: apt-get install $cc)"
        continue
    fi
    for type in Release RelWithDebInfo; do
        b="$WORK/$cc-$type"
        start=$(date +%s)
        CC=$cc cmake -S "$ROOT" -B "$b" "${gen[@]}" -DCMAKE_BUILD_TYPE=$type -DTABULEIRO_WERROR=ON > "$b.log" 2>&1 \
            || { cat "$b.log"; echo "$cc $type: configure failed"; exit 1; }
        cmake --build "$b" --target tabuleiro_core -j 2 >> "$b.log" 2>&1 \
            || { cat "$b.log"; echo "$cc $type: the C core does not build warning-free"; exit 1; }
        echo "$("$cc" --version | head -1) $type: tabuleiro_core builds with -Wall -Wextra -Wvla -Werror ($(( $(date +%s) - start )) s)"
        built=$((built + 1))
    done
done
[ "$built" -gt 0 ] || { echo "no C compiler found"; exit 1; }
