#!/usr/bin/env bash
# typewrite benchmark (case 13: floods; 14: markdown; 15: every script): Scripts/bench/bench.sh [--quick] [--only=1,2,…] [--floods=seq,ab] [--scripts=emoji,latin] [--trace-names=a,b] [path/to/typewrite]
# Without a path it builds `swift build -c release` and measures .build/release/typewrite.
# Runs from this repository alone: the traces are in Tests/traces, the pty and screen tool is
# Scripts/check/ptyscreen.py. Installs pv, strace and GNU time (Debian) and pyte + wcwidth (pip) when missing.
# Prints a markdown table (case | typewrite | cat | pv | ratio | target | result) on stdout, progress
# on stderr; exits 1 when a target is missed. Work files (1 GiB of text, …) go to /tmp/typewrite-bench.
# Full run: about 12 minutes on 2 cores (case 14 alone, --only=markdown: about 1 minute; case 15, --only=15: about
# 6 minutes, and 500 MiB of generated text in the work directory); --quick: about 3 minutes. Timing cases are noisy on a busy machine.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
args=() binary=
for a in "$@"; do
    case $a in
        --quick) args+=(--quick) ;;
        --only=*|--trace-names=*|--floods=*|--scripts=*) args+=("$a") ;;
        -h|--help) sed -n '2,10s/^# \{0,1\}//p' "$0"; exit 0 ;;
        -*) echo "bench.sh: unknown option $a" >&2; exit 2 ;;
        *) binary=$a ;;
    esac
done

missing=()
command -v pv >/dev/null || missing+=(pv)
command -v strace >/dev/null || missing+=(strace)
[ -x /usr/bin/time ] || missing+=(time)
if ((${#missing[@]})); then
    sudo=; [ "$(id -u)" = 0 ] || sudo=sudo
    echo "bench.sh: installing ${missing[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    # apt-get update only when the package lists do not know the packages yet
    $sudo apt-get install -y -q "${missing[@]}" >&2 ||
        { $sudo apt-get update -q >&2 && $sudo apt-get install -y -q "${missing[@]}" >&2; } ||
        { echo "bench.sh: could not install ${missing[*]} (Debian packages pv, strace, time)" >&2; exit 2; }
fi
command -v python3 >/dev/null || { echo "bench.sh: python3 is needed (Debian: apt-get install python3)" >&2; exit 2; }
python3 -c 'import pyte, wcwidth' 2>/dev/null || python3 -m pip install -q pyte wcwidth >&2 ||
    { echo "bench.sh: python3 needs pyte and wcwidth (pip install pyte wcwidth)" >&2; exit 2; }

if [ -z "$binary" ]; then
    (cd "$repo" && swift build -c release >&2)
    binary=$repo/.build/release/typewrite
fi
exec python3 "$repo/Scripts/bench/bench.py" "${args[@]}" --binary "$binary"
