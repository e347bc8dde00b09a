#!/usr/bin/env bash
# Terminal fidelity, the long run:
#   Scripts/check/fidelity.sh [--quick] [--skip-tests] [--skip-crosscheck]
#
# 1. The fidelity corpus and the randomized streams in an optimized build:
#    TYPEWRITE_FIDELITY_STREAMS (default 10000) streams, TYPEWRITE_FIDELITY_FUZZ (default 100000)
#    fuzz inputs, seed offset TYPEWRITE_FIDELITY_SEED (default 0), both margin conventions.
#    Uses `swift test -c release --filter Fidelity`; when that cannot link (Package.swift links the
#    release build with -static-stdlib, which the test bundle cannot), it falls back to the debug
#    configuration compiled with -O in .build/fidelity-opt.
# 2. Real emulators against the release binary .build/release/typewrite:
#    - pyte (Scripts/check/ptyscreen.py compare): PYTE_STREAMS (default 300) generated streams,
#      VT/FF included, CAN/SUB/C1 left out (pyte drops text after them), `--bin FILE --chunk N --delay-ms D` at each stream's width, speed, fade and
#      colour depth; every corpus case at its widths; every trace in Tests/traces at 80, 79 and 40
#      columns (`--trace`, real timing; TRACE_SPEED to compress).
#    - tmux (Scripts/check/tmuxscreen.sh): every trace at 80, 79 and 40 columns, fed by
#      `Tests/traces/play.py --speed 4`.
#    Needs pyte and wcwidth (pip install pyte wcwidth) and tmux (Debian package tmux); both are
#    installed here when missing, and the cross-checks stop with one line saying which is missing
#    when that fails.
# Prints a summary with counts; exit status 1 when anything failed. Work files go to
# ${FIDELITY_OUT:-/tmp/typewrite-fidelity}; failing cross-checks leave their output in fail/.
#
# --quick: 1000 streams, 10000 fuzz inputs, 40 pyte streams, traces at 80 columns only.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$(dirname "$here")")
out=${FIDELITY_OUT:-/tmp/typewrite-fidelity}
jobs=${JOBS:-2}
streams=${TYPEWRITE_FIDELITY_STREAMS:-10000}
fuzz=${TYPEWRITE_FIDELITY_FUZZ:-100000}
pyte_streams=${PYTE_STREAMS:-300}
widths=80,79,40
run_tests=1 run_cross=1
for a in "$@"; do
    case $a in
        --quick) streams=${TYPEWRITE_FIDELITY_STREAMS:-1000}; fuzz=${TYPEWRITE_FIDELITY_FUZZ:-10000}; pyte_streams=${PYTE_STREAMS:-40}; widths=80 ;;
        --skip-tests) run_tests=0 ;;
        --skip-crosscheck) run_cross=0 ;;
        -h|--help) sed -n '2,25s/^# \{0,1\}//p' "$0"; exit 0 ;;
        *) echo "fidelity.sh: unknown option $a" >&2; exit 2 ;;
    esac
done
rm -rf "$out"; mkdir -p "$out"
cd "$repo" || exit 2
summary=()
status=0
note() { echo "fidelity.sh: $*" >&2; }

# Runs `swift test` with the given environment and filter, optimized; output in $1.
optimized_test() {
    local log=$1; shift
    if [ -z "${fidelity_fallback:-}" ]; then
        swift test -c release "$@" >"$log" 2>&1
        local rc=$?
        if [ $rc -eq 0 ] || grep -q "Test run with" "$log"; then return $rc; fi
        if grep -q "FIDELITY-\|Test run started" "$log"; then return $rc; fi
        note "swift test -c release did not build (see $log); using -O in .build/fidelity-opt instead"
        fidelity_fallback=1
        cp "$log" "$log.release-failure"
    fi
    swift test --scratch-path .build/fidelity-opt -Xswiftc -O "$@" >"$log" 2>&1
}

sum_field() { # log, tag, field-name: sums "field N" over the tag's lines
    grep "^$2 " "$1" | sed -E "s/.* $3 ([0-9]+).*/\1/" | awk '{s+=$1} END {print s+0}'
}

if [ $run_tests = 1 ]; then
    note "1/2 corpus, $streams random streams and $fuzz fuzz inputs (optimized build) …"
    start=$SECONDS
    TYPEWRITE_FIDELITY_STREAMS=$streams TYPEWRITE_FIDELITY_FUZZ=$fuzz TYPEWRITE_FIDELITY_SHRINK_ALL=1 \
        optimized_test "$out/tests.log" --filter Fidelity
    rc=$?
    s_run=$(sum_field "$out/tests.log" FIDELITY-RANDOM streams); s_fail=$(sum_field "$out/tests.log" FIDELITY-RANDOM failures)
    f_run=$(sum_field "$out/tests.log" FIDELITY-FUZZ inputs); f_fail=$(sum_field "$out/tests.log" FIDELITY-FUZZ failures)
    corpus_fail=$(grep -E "^✘ Test \"the settled screen equals cat's" "$out/tests.log" | grep -c "argument c")
    corpus_cases=$(grep -cE "^[◇] Test case passing 1 argument c → " "$out/tests.log")
    grep "FIDELITY-REPRO" "$out/tests.log" | sed -E 's/^FIDELITY-REPRO (stream|fuzz) seed [0-9]+ //' | sort | uniq -c | sort -rn >"$out/repros.txt"
    summary+=("random streams: $s_run run, $s_fail failed (both margin conventions; shrunk reproductions in $out/repros.txt)")
    summary+=("fuzz inputs:    $f_run run, $f_fail failed")
    if [ -s "$out/repros.txt" ]; then
        summary+=("failures by cause (Scripts/check/fidelity-classify.py):")
        while IFS= read -r line; do summary+=("  $line"); done < <(python3 "$here/fidelity-classify.py" "$out/repros.txt")
    fi
    summary+=("corpus:         $corpus_cases cases, issues recorded for $(grep -E "^✘ Test \"the settled screen" "$out/tests.log" | grep "argument c" | sed -E 's/.*argument c → (.*) at Fidelity.*/\1/' | sort -u | wc -l) (log $out/tests.log)")
    [ "$corpus_cases" -gt 0 ] || summary+=("  (no corpus or random results: the build failed, see $out/tests.log)")
    [ $rc -eq 0 ] || status=1
    note "   took $((SECONDS - start)) s"
fi

if [ $run_cross = 1 ]; then
    note "2/2 real emulators: building the release binary …"
    if ! swift build -c release --product typewrite >"$out/build.log" 2>&1; then
        summary+=("cross-check:    release build failed (log $out/build.log)"); status=1
    else
        python3 -c 'import pyte, wcwidth' 2>/dev/null || python3 -m pip install -q pyte wcwidth >&2 ||
            { note "the cross-checks need pyte and wcwidth (pip install pyte wcwidth)"; exit 2; }
        command -v tmux >/dev/null || { sudo=; [ "$(id -u)" = 0 ] || sudo=sudo; $sudo apt-get install -y -q tmux >&2; } ||
            { note "the cross-checks need tmux (Debian: apt-get install tmux)"; exit 2; }
        note "   dumping $pyte_streams generated streams and the corpus for pyte …"
        TYPEWRITE_FIDELITY_DUMP="$out/streams" TYPEWRITE_FIDELITY_DUMP_COUNT=$pyte_streams TYPEWRITE_FIDELITY_PYTE=1 \
            optimized_test "$out/dump-streams.log" --filter dumpStreams
        TYPEWRITE_FIDELITY_DUMP="$out/corpus" optimized_test "$out/dump-corpus.log" --filter corpusSize
        note "   pyte: streams and corpus (jobs $jobs) …"
        python3 "$here/fidelity-crosscheck.py" --bin .build/release/typewrite --out "$out" --jobs "$jobs" \
            --streams "$out/streams" --corpus "$out/corpus" >"$out/pyte-streams.txt" || status=1
        note "   pyte and tmux: traces at $widths (jobs $jobs) …"
        python3 "$here/fidelity-crosscheck.py" --bin .build/release/typewrite --out "$out" --jobs "$jobs" \
            --traces "$repo/Tests/traces" --widths "$widths" --pyte-traces --tmux-traces \
            --trace-speed "${TRACE_SPEED:-1}" --tmux-speed 4 >"$out/traces.txt" || status=1
        while read -r line; do summary+=("$line"); done < <(grep -h "^CROSSCHECK" "$out/pyte-streams.txt" "$out/traces.txt")
        while read -r line; do summary+=("$line"); done < <(grep -h "FAIL" "$out/pyte-streams.txt" "$out/traces.txt" | head -40)
    fi
fi

echo
echo "typewrite fidelity summary ($(date -u +%Y-%m-%dT%H:%MZ), work files in $out)"
for line in "${summary[@]}"; do echo "  $line"; done
exit $status
