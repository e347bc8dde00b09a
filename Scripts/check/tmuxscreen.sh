#!/usr/bin/env bash
# Scripts/check/tmuxscreen.sh INPUT COLS ROWS -- CMD [ARG...]
# Runs `CMD < INPUT` and `cat < INPUT`, each in its own tmux pane of COLS x ROWS on a private tmux
# server, waits for both to finish, and compares everything tmux holds for the panes (scrollback
# and screen, with colours and attributes: `capture-pane -p -e -S - -E -`). tmux is the other half
# of the terminals at the margin (docs/terminals.md#pending-wrap), so this complements the pyte
# model of Scripts/check/ptyscreen.py. With FEED set, the input comes from that command line instead of
# INPUT (FEED="python3 Tests/traces/play.py --speed 4 Tests/traces/llm-fast.trace" keeps a trace's
# timing). Prints "identical (N lines; rc S)" and exits 0, or prints the start of a unified diff,
# keeps both captures in a folder it names, and exits 1. Needs tmux (Debian package `tmux`);
# exits 2 with one line when it is missing.
set -u
[ $# -ge 5 ] && [ "$4" = -- ] || { echo "usage: tmuxscreen.sh INPUT COLS ROWS -- CMD [ARG...]" >&2; exit 2; }
command -v tmux >/dev/null || { echo "tmuxscreen.sh: tmux not found (Debian: apt-get install tmux)" >&2; exit 2; }
input=$1 cols=$2 rows=$3
shift 4
work=$(mktemp -d "${TMPDIR:-/tmp}/tmuxscreen.XXXXXX")
server=tmuxscreen-$$
printf 'set -g history-limit 500000\nset -g default-terminal xterm-256color\n' > "$work/tmux.conf"
tm() { tmux -L "$server" -f "$work/tmux.conf" "$@"; }
socket=${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$server
trap 'tm kill-server 2>/dev/null; rm -rf "$socket" "$work"; exit 130' INT TERM
feed=${FEED:-cat $(printf '%q' "$input")}
command_line=$(printf '%q ' "$@")

# One pane: the pipeline, then its status in NAME.rc; the pane stays open (sleep) to be captured.
pane() { # NAME COMMAND-LINE
    local script="$work/$1.sh"
    printf '%s | %s\necho $? > %q\nexec sleep 3600\n' "$feed" "$2" "$work/$1.rc" > "$script"
    tm new-session -d -s "$1" -x "$cols" -y "$rows" \
        "env TERM=\${TERM:-xterm-256color} COLORTERM=truecolor bash $(printf '%q' "$script")"
}
capture() { # NAME: wait for its status, then capture scrollback and screen, trailing blanks trimmed
    local i
    for ((i = 0; i < 1200; i++)); do [ -s "$work/$1.rc" ] && break; sleep 0.1; done
    sleep 0.2
    tm capture-pane -t "$1" -p -e -S - -E - | sed -e 's/[[:space:]]*$//' \
        | awk '{ lines[NR] = $0 } END { n = NR; while (n > 0 && lines[n] == "") n--; for (i = 1; i <= n; i++) print lines[i] }' \
        > "$work/$1.txt"
}
pane got "$command_line"
pane want cat
capture got
capture want
tm kill-server 2>/dev/null
rm -f "$socket"
if cmp -s "$work/got.txt" "$work/want.txt"; then
    echo "identical ($(wc -l < "$work/want.txt") lines; rc $(cat "$work/got.rc"))"
    rm -rf "$work"
    exit 0
fi
diff -u "$work/want.txt" "$work/got.txt" | head -40 | cat -v
echo "kept in $work (want.txt: cat, got.txt: the command)"
exit 1
