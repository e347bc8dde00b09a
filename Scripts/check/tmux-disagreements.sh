#!/usr/bin/env bash
# Scripts/check/tmux-disagreements.sh [BINARY]: the inputs where terminals disagree (a ZWJ before a
# control or an escape sequence, a cluster continued in a later read, malformed colours, C0 inside
# sequences, DEL), each unsplit and split into reads 20 ms apart (at the commas), through BINARY
# (default .build/release/typewrite) and cat in tmux, compared by Scripts/check/tmuxscreen.sh (needs tmux).
# Prints one line per input; exit 0 when all are identical. MORE=1 also runs more members of each class.
set -u
cd "$(dirname "$0")/../.."
bin=$(realpath -m "${1:-.build/release/typewrite}")
check=Scripts/check/tmuxscreen.sh
command -v tmux >/dev/null || { echo "tmux-disagreements.sh: tmux not found (Debian: apt-get install tmux)" >&2; exit 2; }
[ -x "$bin" ] || { echo "tmux-disagreements.sh: no executable at $bin (swift build -c release)" >&2; exit 2; }
feed=$(mktemp)
cat >"$feed" <<'PY'
import os, sys, time
for i, h in enumerate(sys.argv[1].split(',')):
    if i: time.sleep(0.02)
    os.write(1, bytes.fromhex(h))
PY
h() { printf "$1" | od -An -tx1 -v | tr -d ' \n'; }
failed=0
run() { # name hex-with-commas [cols]
  local r; r=$(FEED="python3 $feed $2" "$check" /dev/null "${3:-80}" 24 -- "$bin" 2>&1 | head -1)
  echo "$1: $r"; case $r in identical*) ;; *) failed=1 ;; esac
}
P=$(h 'words fade in ')
Z=f09f91a8e2808d W=f09f91a9
for mid in 8d 1b5b33316d 07 1b5b4b 0d 1b5d303b741b5c 1b5b3f32356c 1b2842; do
  run "ZWJ, $mid, emoji" "${P}${Z}${mid}${W}0a"
  run "ZWJ, $mid | emoji" "${P}${Z}${mid},${W}0a"
  run "ZWJ | $mid, emoji" "${P}${Z},${mid}${W}0a"
done
run "cluster continued: in ශ්‍ර | ී lanka" "696e20e0b781e0b78ae2808de0b6bb,e0b793206c616e6b61,0a"
run "cluster after ZWJ, SGR with controls and LF (10 columns)" "$(h 'xx\xf0\x9f\x91\xa8\xe2\x80\x8d\x1b[31\x15\x00m\n\xf0\x9f\x95\xa8xdaily swings of any habitat on Earth\n')" 10
for f in '38:2::2002:::' '38:2::1::3' '38:2::1:2:3::' '38:2::1:2:3:' '38:5:' '38;5;' '38;2;1;;3' '38;2;1;2' '38;2;300;0;1;31' '38::2:1:2:3' '4:7'; do
  run "colour $f" "${P}$(h "\x1b[31m\x1b[${f}mc words after it\n")"
  run "colour $f, split" "${P}$(h "\x1b[31m"),$(h "\x1b[${f}m"),$(h "c words after it\n")"
done
PP=$(printf 'P%.0s' $(seq 85) | od -An -tx1 -v | tr -d ' \n')
run "ESC[?7 NUL l" "1b5b3f37006c0d${PP}0a"
run "ESC[?7 NUL | l" "1b5b3f3700,6c0d${PP},0a"
run "ESC NUL [?7l" "1b005b3f376c1b5b38304765640a"
run "ESC NUL | [?7l" "1b00,5b3f376c,1b5b38304765640a"
run "CR inside CSI" "${P}$(h 'ab\x1b[3\rD| more words\n')"
run "BS inside CSI, split" "${P}$(h 'abcdef\x1b[\x08'),$(h '2D| more words\n')"
run "DEL" "${P}$(h 'more\x7f words after DEL and more text\r\nnext line\n')"
# A byte of 0x80 or more inside ESC or CSI: tmux ignores it, xterm ends the sequence there.
for s in '\x1b[31\xcbm' '\x1b\xcb[31m' '\x1b[2;5\xc3\x88' '\x1b[3\xe4\xb8\xad1m' '\x1b[\xc2\xa0;5H' '\x1b(\xcbB' '\x1b[$\x80\xff1m'; do
  run "high byte: $s" "${P}$(h "${s}X words after it and more words\r\nnext line\n")"
  run "high byte: $s, split" "${P}$(h "${s:0:4}"),$(h "${s:4}X words after it"),$(h " and more words\r\nnext line\n")"
done
run "high byte in ?7l" "${P}$(h '\x1b[?7\xcbl')${PP}$(h '\r\nnext\r\n')"
run "high byte in ?7l, split" "${P}$(h '\x1b[?7'),$(h '\xcbl')${PP},$(h '\r\nnext\r\n')"
# IL/DL: xterm returns to column 1 inside the scroll region only; tmux never moves the cursor.
run "IL inside the scroll region" "${P}$(h '\x1b[5;9r\x1b[6Habcdefghijklmnopqrst\x1b[Lfades in after the insert line and wraps at the margin\r\n')" 40
run "IL above the scroll region (fuzz finding)" "0075,1b5b330a,7264,1b5b4c49" 2
run "DL above the scroll region" "${P}$(h 'u\n\x1b[3rabcdefgh\x1b[Mwords fade in after DL and wrap at the margin\r\n')" 20
if [ -n "${MORE:-}" ]; then
  # More members of the same classes (MORE=1): other non-text tokens after a ZWJ, other C0 controls
  # inside CSI, after ESC and inside OSC and DCS strings, other malformed colon and semicolon colours.
  for mid in 00 7f 09 08 0a 0e0f 1b37 1b50711b5c 1b5f781b5c 1b4f41 1b5b3f323032366c c285 ff 80 1b5d383b3b687474703a2f2f781b5c 1b5b3331cb6d; do
    run "ZWJ, $mid, emoji" "${P}${Z}${mid}${W}0a"
    run "ZWJ, $mid | emoji" "${P}${Z}${mid},${W}0a"
    run "ZWJ | $mid, emoji" "${P}${Z},${mid}${W}0a"
  done
  for c in 00 01 05 07 08 09 0a 0b 0c 0d 0e 0f 11 1c 1f; do
    x="\\x$c"
    run "C0 $c inside sequences" "${P}$(h "ab\x1b[3${x}D| \x1b[?7${x}l")${PP}$(h "\r\n\x1b${x}[?7h\x1b[3${x}1mred\x1b[0m\x1b]0;t${x}itle\x07\x1bPq${x}x\x1b\\ words fade in\r\n")"
    run "C0 $c inside sequences, split" "${P}$(h "ab\x1b[3${x}"),$(h "D| \x1b[?7${x}"),$(h "l")${PP},$(h "\r\n\x1b${x}"),$(h "[?7h\x1b[3${x}1mred\x1b[0m\x1b]0;t${x}"),$(h "itle\x07\x1bPq${x}x\x1b\\ words fade in\r\n")"
  done
  for f in '38:2:1:2:3' '38:2::1:2:3:4:5' '38:2:::::' '38:5::1' '38::5:1' '48:2::2002:::' '58:2::2002:::' '38:3:1:2:3' '38:4:1:2:3:4' \
           '38:2::1:2:3;1' '38:2;1;2;3' '38;2:1:2:3' '38;5:1' '38:5;1' '1:3' '4:' '38:2:0:1:2:3' ':38:5:1' '38:5:1:' '0:1' '39:1' '38:1' \
           '38;5;256' '38;5;-1' '38;2;1;2;3;4' '38:5:1;1' '38;;5;1' '38:2::1:2' '38;2::1:2:3'; do
    run "colour $f" "${P}$(h "\x1b[31m\x1b[${f}mc words after it\n")"
    run "colour $f, split" "${P}$(h "\x1b[31m"),$(h "\x1b[${f}m"),$(h "c words after it\n")"
  done
fi
rm -f "$feed"
exit $failed
