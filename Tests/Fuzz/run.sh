#!/usr/bin/env bash
# Tests/Fuzz/run.sh SECONDS [TARGET...]: builds the fuzz targets with libFuzzer and AddressSanitizer
# (-sanitize=fuzzer,address, from the toolchain) and runs each for SECONDS, two side by side (or
# FUZZ_JOBS at once). Prints executions and coverage per target; any finding (a failed property, a
# crash, a memory error, a timeout) is kept as a file under Tests/Fuzz/findings/ and named in the
# output. Exit status 0 only when every target ran and nothing was found.
#
# Targets are the directories Sources/fuzz-NAME (default: all). Each starts from the committed
# seeds in corpus/NAME plus what earlier runs added in .work/NAME (not committed). To reproduce a
# finding: .build/release/fuzz-NAME findings/FILE (it runs that one input and reports the property).
set -uo pipefail
cd "$(dirname "$0")"
seconds=${1:?usage: run.sh SECONDS [TARGET...]}
shift
if [ $# -gt 0 ]; then targets=("$@"); else targets=($(ls -d Sources/fuzz-* | sed 's|Sources/fuzz-||')); fi
jobs=${FUZZ_JOBS:-2}

# The main package links Swift statically in release builds on Linux (-static-stdlib on its
# targets), so these executables must be linked the same way.
static=()
[ "$(uname)" = Linux ] && static=(--static-swift-stdlib)
echo "building ${targets[*]} (release, -sanitize=fuzzer,address)"
start=$(date +%s)
if ! swift build -c release "${static[@]}" -Xswiftc -enable-testing -Xswiftc -sanitize=fuzzer,address >.build-fuzz.log 2>&1; then
  tail -n 30 .build-fuzz.log; echo "fuzz build failed" >&2; exit 2
fi
echo "built in $(( $(date +%s) - start )) s"
bin=$(swift build -c release "${static[@]}" -Xswiftc -enable-testing -Xswiftc -sanitize=fuzzer,address --show-bin-path)

mkdir -p findings logs
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1}
declare -A maxlen=([renderer]=1500 [tokenizer]=4096 [snapshots]=1000)
run_one() {
  local t=$1
  mkdir -p ".work/$t" "corpus/$t"
  # FUZZ_RUNS=N: a fixed number of inputs from a fixed seed (FUZZ_SEED, default 1) instead of a
  # time budget, so a run from a fresh clone is the same on every machine (CI uses it; SECONDS
  # still caps it).
  local fixed=()
  [ -n "${FUZZ_RUNS:-}" ] && fixed=(-runs="$FUZZ_RUNS" -seed="${FUZZ_SEED:-1}")
  "$bin/fuzz-$t" ".work/$t" "corpus/$t" "${fixed[@]}" -max_total_time="$seconds" -max_len="${maxlen[$t]:-4096}" -timeout=20 \
    -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="findings/$t-" >"logs/$t.log" 2>&1
  echo $? >"logs/$t.rc"
}
before=$(ls findings | wc -l)
running=0
for t in "${targets[@]}"; do
  [ -x "$bin/fuzz-$t" ] || { echo "no fuzz-$t in $bin" >&2; exit 2; }
  rm -f "logs/$t.rc"
  run_one "$t" &
  running=$((running + 1))
  if [ $running -ge "$jobs" ]; then wait -n; running=$((running - 1)); fi
done
wait

status=0
printf '%-12s %12s %10s %10s %8s  %s\n' target executions "exec/s" coverage features result
for t in "${targets[@]}"; do
  log=logs/$t.log
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$')
  speed=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$')
  [ -n "$speed" ] || speed=$(grep -o 'exec/s: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*$')
  [ -n "$execs" ] || execs=$(grep -o '^#[0-9]*' "$log" | tail -1 | tr -d '#')
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*$')
  ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*$')
  rc=$(cat "logs/$t.rc" 2>/dev/null || echo 1)
  found=$(grep -oE "findings/$t-(crash|leak|timeout|oom|slow-unit)-[0-9a-f]+" "$log" | sort -u | tr '\n' ' ')
  result=ok
  if [ "$rc" != 0 ] || [ -n "$found" ]; then
    result="FOUND (exit $rc) ${found:-see Tests/Fuzz/$log}"; status=1
  fi
  printf '%-12s %12s %10s %10s %8s  %s\n' "$t" "${execs:-?}" "${speed:-?}" "${cov:-?}" "${ft:-?}" "$result"
  if [ "$result" != ok ]; then grep -A6 'FUZZ PROPERTY FAILED\|ERROR: AddressSanitizer\|ERROR: libFuzzer' "$log" | head -12 | sed 's/^/    /'; fi
done
after=$(ls findings | wc -l)
[ "$after" -gt "$before" ] && status=1
exit $status
