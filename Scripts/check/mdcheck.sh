#!/usr/bin/env bash
# Markdown highlighting, judged in one command: Scripts/check/mdcheck.sh [--limit=N] [--verbose] [--seed=N] [BIN]
# BIN (default .build/release/typewrite, which must exist: build it with `swift build -c release`)
# runs as `BIN --markdown=always` on an 80x24 pty under mdcheck.py: the 120 real answers of
# Tests/markdown/answers.jsonl, each streamed in two random splittings, then CommonMark 0.31.2's
# spec examples (Tests/markdown/commonmark-spec-0.31.2.json) one by one, each settled screen
# compared with cat's and with the CommonMark + GFM oracle (mdoracle.py). Prints mdcheck.py's JSON
# on stdout and exits with its status: 0 when every figure meets its threshold, 1 when one misses.
# The options are mdcheck.py's (--limit judges the first N answers only; --verbose adds each role's
# style and the failing spec examples). Needs python3 with pyte, wcwidth and marko==2.2.4.
# Takes about 5.5 minutes on 2 cores (the 442 spec examples alone about 2).
# mdcheck.py and its oracle are not part of this repository: they are the maintainers' markdown
# judge (mdcheck.py, with mdoracle.py and termcheck.py in the same folder). Point TOOLS at that
# folder; without it the script stops with one line saying so. Environment: TOOLS (required);
# PYTHON (default python3); JOBS, answers judged at once (default 2).
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
opts=() bin=
for a in "$@"; do
    case $a in
        -h|--help) sed -n '2,15s/^# \{0,1\}//p' "$0"; exit 0 ;;
        --limit=*|--seed=*) opts+=("${a%%=*}" "${a#*=}") ;;
        --verbose) opts+=("$a") ;;
        -*) echo "mdcheck.sh: unknown option $a" >&2; exit 2 ;;
        *) [ -z "$bin" ] || { echo "mdcheck.sh: one BIN only" >&2; exit 2; }; bin=$a ;;
    esac
done
bin=${bin:-$repo/.build/release/typewrite}
case $bin in */*) ;; *) bin=$(command -v "$bin" || echo "$bin") ;; esac
[ -x "$bin" ] || { echo "mdcheck.sh: no executable at $bin (swift build -c release?)" >&2; exit 2; }
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")

tools=${TOOLS:-}
[ -n "$tools" ] && [ -f "$tools/mdcheck.py" ] || {
    echo "mdcheck.sh: needs the maintainers' markdown judge, not part of this repository: set TOOLS to the folder of mdcheck.py (with mdoracle.py and termcheck.py)" >&2
    exit 2
}
python=${PYTHON:-python3}
"$python" -c 'import pyte, wcwidth, marko' 2>/dev/null ||
    { echo "mdcheck.sh: $python needs pyte, wcwidth and marko==2.2.4 (pip install pyte wcwidth marko==2.2.4)" >&2; exit 2; }

cd "$repo"
status=0
"$python" "$tools/mdcheck.py" --answers Tests/markdown/answers.jsonl \
    --spec Tests/markdown/commonmark-spec-0.31.2.json --jobs "${JOBS:-2}" ${opts[@]+"${opts[@]}"} \
    -- "$bin" --markdown=always || status=$?
exit $status
