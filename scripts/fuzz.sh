#!/usr/bin/env bash
# scripts/fuzz.sh [SECONDS] - build the libFuzzer harnesses (csrc/fuzz/, one
# per game) with clang, AddressSanitizer and UndefinedBehaviorSanitizer, and
# run each for SECONDS (default 60) on a scratch copy of its seed corpus
# (tests/fuzz_corpus/<game>/; nothing is written back into the repo). Prints
# each harness's executions, exec/s and coverage; exits non-zero if any
# harness crashed, reported a sanitizer error or an invariant failure (the
# report and the crashing input's path are printed). Without clang and its
# libFuzzer runtime it prints "fuzzing skipped: clang with libFuzzer not
# found" and exits 0.
#
# Environment: CC (default clang), TABULEIRO_FUZZ_BUILD (build directory,
# default build/fuzz), FUZZ_HARNESSES (default: every csrc/fuzz/fuzz_<game>.c),
# FUZZ_ARGS (extra libFuzzer flags, e.g. "-jobs=2 -workers=2").
set -u -o pipefail

secs=${1:-60}
case "$secs" in
    '' | *[!0-9]* | 0) echo "usage: $0 [SECONDS]  (a positive whole number of seconds, not '$secs')" >&2; exit 2 ;;
esac

root=$(cd "$(dirname "$0")/.." && pwd)
cc=${CC:-clang}
build=${TABULEIRO_FUZZ_BUILD:-$root/build/fuzz}
default_harnesses=$(cd "$root/csrc/fuzz" && for f in fuzz_*.c; do f=${f#fuzz_}; printf '%s ' "${f%.c}"; done)
harnesses=${FUZZ_HARNESSES:-$default_harnesses}

skip() {
    echo "fuzzing skipped: clang with libFuzzer not found"
    exit 0
}

# clang, and a libFuzzer runtime it can link with the sanitizers
command -v "$cc" >/dev/null 2>&1 || skip
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' \
    > "$probe/probe.c"
"$cc" -fsanitize=fuzzer,address,undefined "$probe/probe.c" -o "$probe/probe" >/dev/null 2>&1 || skip
"$cc" --version 2>/dev/null | head -n 1 | grep -qi clang || skip

command -v cmake >/dev/null 2>&1 || { echo "fuzz.sh: cmake is needed to build the harnesses" >&2; exit 2; }
gen=()
command -v ninja >/dev/null 2>&1 && gen=(-G Ninja)
if [ -f "$build/CMakeCache.txt" ] && ! grep -q "^CMAKE_GENERATOR:INTERNAL=${gen[1]:-Unix Makefiles}\$" "$build/CMakeCache.txt"; then
    rm -rf "$build"    # configured with another generator before
fi
echo "building the harnesses in $build ($("$cc" --version | head -n 1))"
if ! cmake -S "$root" -B "$build" "${gen[@]}" -DTABULEIRO_FUZZ=ON -DCMAKE_C_COMPILER="$cc" \
        -DCMAKE_BUILD_TYPE=RelWithDebInfo > "$probe/configure.log" 2>&1; then
    cat "$probe/configure.log" >&2
    echo "fuzz.sh: configuring the harnesses failed" >&2
    exit 2
fi
targets=()
for g in $harnesses; do targets+=("fuzz_$g"); done
if ! cmake --build "$build" -j 2 --target "${targets[@]}" > "$probe/build.log" 2>&1; then
    cat "$probe/build.log" >&2
    echo "fuzz.sh: building the harnesses failed" >&2
    exit 2
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/tabuleiro-fuzz.XXXXXX")
failed=0
for g in $harnesses; do
    mkdir -p "$work/corpus/$g" "$work/artifacts"
    cp "$root/tests/fuzz_corpus/$g/"* "$work/corpus/$g/" 2>/dev/null
    log="$work/$g.log"
    # shellcheck disable=SC2086
    "$build/fuzz_$g" "$work/corpus/$g" -max_total_time="$secs" -timeout=20 -print_final_stats=1 \
        -artifact_prefix="$work/artifacts/$g-" ${FUZZ_ARGS:-} > "$log" 2>&1
    rc=$?
    execs=$(grep -h '^stat::number_of_executed_units:' "$log" | awk '{s += $2} END {print s + 0}')
    rate=$(grep -h '^stat::average_exec_per_sec:' "$log" | awk '{s += $2} END {print s + 0}')
    covline=$(grep -h -E '^#[0-9]+.* cov: [0-9]+ ft: [0-9]+' "$log" | tail -n 1)
    cov=$(echo "$covline" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
    ft=$(echo "$covline" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
    if [ "$rc" -eq 0 ] && ! grep -q -E 'ERROR: (AddressSanitizer|UndefinedBehaviorSanitizer|libFuzzer)|runtime error:|FUZZ INVARIANT FAILED' "$log"; then
        echo "fuzz_$g: ok: ${execs} executions in ${secs} s (${rate} exec/s), cov: ${cov:-?} ft: ${ft:-?}"
    else
        failed=1
        echo "fuzz_$g: FAILED (exit $rc) after ${execs} executions, cov: ${cov:-?} ft: ${ft:-?}"
        grep -n -E -A 30 'FUZZ INVARIANT FAILED|ERROR: |runtime error:' "$log" | head -n 60
        ls "$work/artifacts/$g-"* 2>/dev/null | sed 's/^/  crashing input: /'
        echo "  full log: $log"
    fi
done
if [ "$failed" -ne 0 ]; then
    echo "fuzzing FAILED (logs and inputs kept in $work)"
    exit 1
fi
rm -rf "$work"
echo "fuzzing passed: no crash, sanitizer report or invariant failure"
