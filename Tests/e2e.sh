#!/usr/bin/env bash
# End-to-end checks of the built typewrite binary: pipes, command lines, file
# errors here; pty, signal, timing, descriptor-flag and memory checks in Tests/e2e/checks.py.
#
#   Tests/e2e.sh path/to/typewrite [NAME-SUBSTRING...]
#
# Prints `ok - name` or `not ok - name: detail` per check (`# SKIP reason` when a check cannot run
# here), then `N passed, M failed`; exits 1 if any failed. Needs bash, python3 (stdlib), cmp, head,
# and for the unreadable-file case as root, setpriv (util-linux). TYPEWRITE_E2E_VERBOSE=1 prints
# each check's duration. Runs in about a minute; inputs are full size (100 MiB floods, 1 GiB passthrough).
set -uo pipefail
exec < /dev/null  # CI runs with no standard input; every check sets up its own

if [ $# -lt 1 ]; then
  echo "usage: $0 path/to/typewrite [NAME-SUBSTRING...]" >&2
  exit 2
fi
TW=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
shift
FILTERS=("$@")
HERE=$(cd "$(dirname "$0")" && pwd)
if [ ! -x "$TW" ]; then echo "not ok - binary: $TW is not executable"; echo "0 passed, 1 failed"; exit 1; fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/typewrite-e2e.XXXXXX")
chmod 755 "$WORK"
trap 'rm -rf "$WORK"' EXIT
# Plain-mode checks must not depend on the caller's environment.
unset REDUCED_MOTION NO_COLOR COLUMNS
export TERM=xterm-256color COLORTERM=truecolor

passed=0 failed=0 skipped=0
selected() {
  [ ${#FILTERS[@]} -eq 0 ] && return 0
  local f
  for f in "${FILTERS[@]}"; do [[ "$1" == *"$f"* ]] && return 0; done
  return 1
}
ok() { echo "ok - $1"; passed=$((passed + 1)); }
notok() { echo "not ok - $1: $2"; failed=$((failed + 1)); }
skip() { echo "ok - $1 # SKIP $2"; skipped=$((skipped + 1)); }

# ---------------------------------------------------------------------------------------------
# inputs
python3 - "$WORK" <<'EOF'
import os, random, sys
d = sys.argv[1]
rnd = random.Random(4)
words = "the tide pool holds anemones barnacles and snails while the sun warms the rock".split()
lines = []
for i in range(400):
    lines.append(" ".join(rnd.choice(words) for _ in range(rnd.randint(3, 14))))
prose = ("\n".join(lines) + "\nnaïve café — “quotes” ½ 日本語 🙂\n").encode()
files = {
    "prose.txt": prose,
    "invalid-utf8.bin": b"ok \xff\xfe bad \xc3( \xe2\x82 cut \xf0\x9f\x98 \x80\x9f raw\n\xed\xa0\x80 surrogate \xc0\xaf overlong\n",
    "nul.bin": b"a\x00b\x00\x00c\n\x00" * 100,
    "empty.txt": b"",
    "no-newline.txt": b"the last line has no newline",
    "random.bin": os.urandom(5 * 1000 * 1000),
    "a.txt": b"first file\n",
    "b.txt": b"third file, no newline",
    "c.txt": b"second: standard input\n",
    "lines.txt": b"".join(b"line %06d of a long file\n" % i for i in range(400000)),
}
for name, data in files.items():
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)
EOF
chmod 644 "$WORK"/*

# ---------------------------------------------------------------------------------------------
# not a tty: bytes out = bytes in
check_pipe() {  # name, file, args...
  local name=$1 file=$2; shift 2
  selected "$name" || return 0
  local rc
  "$TW" "$@" < "$file" > "$WORK/out" 2> "$WORK/err"; rc=$?
  if [ $rc -ne 0 ]; then notok "$name" "exit $rc, stderr: $(head -c 200 "$WORK/err")"
  elif [ -s "$WORK/err" ]; then notok "$name" "stderr: $(head -c 200 "$WORK/err")"
  elif ! cmp -s "$WORK/out" "$file"; then notok "$name" "$(cmp "$WORK/out" "$file" 2>&1 | head -1)"
  else ok "$name"; fi
}
for f in prose.txt invalid-utf8.bin nul.bin empty.txt no-newline.txt random.bin; do
  check_pipe "pipe byte-exact: $f" "$WORK/$f"
done
# --animate=always with --color=never promises no escapes from typewrite: still byte-exact.
for f in prose.txt invalid-utf8.bin nul.bin no-newline.txt random.bin; do
  check_pipe "animated --color=never to a pipe byte-exact: $f" "$WORK/$f" \
    --animate=always --color=never --cps 100000000 --max-lag 0.15
done
# --animate=never and --reduce-motion are plain mode too.
check_pipe "--animate=never byte-exact: prose.txt" "$WORK/prose.txt" --animate=never
check_pipe "--reduce-motion --animate=always is plain: prose.txt" "$WORK/prose.txt" --reduce-motion --animate=always

check_files_in_order() {  # name, args...
  local name=$1; shift
  selected "$name" || return 0
  local rc
  (cd "$WORK" && "$TW" "$@" a.txt - b.txt < c.txt > out 2> err); rc=$?
  cat "$WORK/a.txt" "$WORK/c.txt" "$WORK/b.txt" > "$WORK/want"
  if [ $rc -ne 0 ]; then notok "$name" "exit $rc, stderr: $(head -c 200 "$WORK/err")"
  elif ! cmp -s "$WORK/out" "$WORK/want"; then notok "$name" "output is not a, stdin, b in order: $(head -c 120 "$WORK/out" | od -c | head -3)"
  else ok "$name"; fi
}
check_files_in_order "files and - in order: typewrite a - b < c"
check_files_in_order "files and - in order, animated --color=never" --animate=always --color=never

# ---------------------------------------------------------------------------------------------
# broken pipe, as cat: 141 under pipefail, nothing on stderr
name="broken pipe: typewrite < big | head -n 3 gives 141, empty stderr"
if selected "$name"; then
  "$TW" < "$WORK/lines.txt" 2> "$WORK/err" | head -n 3 > "$WORK/out"
  st=("${PIPESTATUS[@]}")
  if [ "${st[0]}" -ne 141 ]; then notok "$name" "typewrite exit ${st[0]} (head ${st[1]})"
  elif [ -s "$WORK/err" ]; then notok "$name" "stderr: $(head -c 200 "$WORK/err")"
  elif [ "$(cat "$WORK/out")" != "$(head -n 3 "$WORK/lines.txt")" ]; then notok "$name" "head saw other lines"
  else ok "$name"; fi
fi
name="broken pipe, --animate=always: 141, empty stderr"
if selected "$name"; then
  start=$(date +%s%N)
  "$TW" --animate=always < "$WORK/lines.txt" 2> "$WORK/err" | head -n 3 > /dev/null
  st=("${PIPESTATUS[@]}")
  ms=$(( ($(date +%s%N) - start) / 1000000 ))
  if [ "${st[0]}" -ne 141 ]; then notok "$name" "typewrite exit ${st[0]}"
  elif [ -s "$WORK/err" ]; then notok "$name" "stderr: $(head -c 200 "$WORK/err")"
  elif [ "$ms" -gt 2500 ]; then notok "$name" "pipeline took $ms ms"
  else ok "$name"; fi
fi

# ---------------------------------------------------------------------------------------------
# bad command lines: exit 2, nothing on stdout, one or two lines on stderr, the first `typewrite: `
while IFS= read -r line; do
  [ -z "$line" ] && continue
  read -r -a args <<< "$line"
  name="usage error: typewrite $line"
  selected "$name" || continue
  "$TW" "${args[@]}" < /dev/null > "$WORK/out" 2> "$WORK/err"; rc=$?
  n=$(wc -l < "$WORK/err")
  if [ $rc -ne 2 ]; then notok "$name" "exit $rc, expected 2"
  elif [ -s "$WORK/out" ]; then notok "$name" "wrote to stdout: $(head -c 100 "$WORK/out")"
  elif [ "$n" -lt 1 ] || [ "$n" -gt 2 ] || [ -n "$(tail -c 1 "$WORK/err")" ]; then notok "$name" "$n stderr lines: $(head -c 300 "$WORK/err")"
  elif [[ "$(head -n 1 "$WORK/err")" != "typewrite: "* ]]; then notok "$name" "first stderr line: $(head -n 1 "$WORK/err")"
  else ok "$name"; fi
done <<'EOF'
--bogus
-x
--cps
-c
--max-lag
--cps 0
--cps -1
-c -1
--cps nan
--cps inf
--cps abc
--cps 1e309
--cps=
--fade -1
--fade nan
--fade 1e309
--color=purple
--color purple
--animate=sometimes
--max-lag 0.1
--max-lag nan
--max-lag -inf
--reduce-motion=yes
EOF

# ---------------------------------------------------------------------------------------------
# file errors, like cat: a message naming the file, the other files still printed, exit 1
check_file_error() {  # name, runner-prefix (may be empty), bad-path, args...
  local name=$1 prefix=$2 bad=$3; shift 3
  selected "$name" || return 0
  local rc
  (cd "$WORK" && $prefix "$TW" "$@" a.txt "$bad" b.txt < /dev/null > out 2> err); rc=$?
  cat "$WORK/a.txt" "$WORK/b.txt" > "$WORK/want"
  local n; n=$(wc -l < "$WORK/err")
  if [ $rc -ne 1 ]; then notok "$name" "exit $rc, expected 1; stderr: $(head -c 200 "$WORK/err")"
  elif ! cmp -s "$WORK/out" "$WORK/want"; then notok "$name" "the other files were not printed in order"
  elif [ "$n" -ne 1 ] || ! grep -q "^typewrite: .*$(basename "$bad")" "$WORK/err"; then notok "$name" "stderr: $(head -c 300 "$WORK/err")"
  else ok "$name"; fi
}
mkdir -p "$WORK/adir"
check_file_error "file error: missing file" "" missing.txt
check_file_error "file error: a directory" "" adir
check_file_error "file error: missing file, animated --color=never" "" missing.txt --animate=always --color=never
check_file_error "file error: a directory, animated --color=never" "" adir --animate=always --color=never
# Standard input closed (`<&-`): an error like cat's, exit 1, no hang.
check_stdin_closed() {  # name, args...
  local name=$1; shift
  selected "$name" || return 0
  local rc
  timeout 5 "$TW" "$@" <&- > "$WORK/out" 2> "$WORK/err"; rc=$?
  if [ $rc -eq 124 ]; then notok "$name" "still running after 5 s (killed)"
  elif [ $rc -ne 1 ]; then notok "$name" "exit $rc, expected 1; stderr: $(head -c 200 "$WORK/err")"
  elif ! grep -q "^typewrite: " "$WORK/err"; then notok "$name" "no message on stderr"
  else ok "$name"; fi
}
check_stdin_closed "stdin closed: error, exit 1, no hang"
check_stdin_closed "stdin closed, animated: error, exit 1, no hang" --animate=always --color=never
# An unreadable file: chmod 000 does not stop root, so as root the check runs typewrite as the
# user nobody (setpriv), on a copy of the binary in the world-readable work directory.
printf 'secret\n' > "$WORK/unreadable.txt"
chmod 000 "$WORK/unreadable.txt"
name="file error: unreadable file"
if selected "$name"; then
  if [ "$(id -u)" -ne 0 ]; then
    check_file_error "$name" "" unreadable.txt
  elif command -v setpriv > /dev/null && id nobody > /dev/null 2>&1; then
    cp "$TW" "$WORK/typewrite-copy" && chmod 755 "$WORK/typewrite-copy"
    if setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups test -r "$WORK/a.txt" 2> /dev/null &&
       ! setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups test -r "$WORK/unreadable.txt" 2> /dev/null; then
      save=$TW; TW=$WORK/typewrite-copy
      check_file_error "$name (as nobody via setpriv)" "setpriv --reuid=nobody --regid=$(id -g nobody) --clear-groups" unreadable.txt
      TW=$save
    else
      skip "$name" "running as root and user nobody cannot be used to test an unreadable file here"
    fi
  else
    skip "$name" "running as root (chmod 000 does not stop root) and setpriv or user nobody is missing"
  fi
fi

# ---------------------------------------------------------------------------------------------
# make install / uninstall into a prefix that does not exist yet
name="make install PREFIX=new: stripped binary, man page, completions; uninstall leaves nothing"
if selected "$name"; then
  if ! command -v make > /dev/null || ! command -v strip > /dev/null; then
    skip "$name" "make or strip is missing"
  else
    prefix=$WORK/prefix/usr
    if ! make -s -C "$HERE/.." install PREFIX="$prefix" RELEASE_BIN="$TW" > "$WORK/make.log" 2>&1; then
      notok "$name" "make install failed: $(tail -c 300 "$WORK/make.log")"
    else
      missing=""
      for f in bin/typewrite share/man/man1/typewrite.1 share/bash-completion/completions/typewrite \
               share/zsh/site-functions/_typewrite share/fish/vendor_completions.d/typewrite.fish; do
        [ -s "$prefix/$f" ] || missing="$missing $f"
      done
      # Sections of the installed ELF binary that stripping removes (debugging information, symbols).
      unstripped=$(python3 - "$prefix/bin/typewrite" <<'EOF'
import struct, sys
data = open(sys.argv[1], "rb").read()
if data[:4] != b"\x7fELF" or data[4] != 2:
    sys.exit(0)  # not a 64-bit ELF file (macOS): nothing to say
shoff, = struct.unpack_from("<Q", data, 0x28)
shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
header = lambda i: struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize)
names = data[header(shstrndx)[4]:]
found = [names[header(i)[0]:names.index(b"\0", header(i)[0])].decode() for i in range(shnum)]
print(" ".join(s for s in found if s.startswith(".debug") or s == ".symtab"))
EOF
)
      version=$("$prefix/bin/typewrite" --version 2>&1)
      make -s -C "$HERE/.." uninstall PREFIX="$prefix" RELEASE_BIN="$TW" >> "$WORK/make.log" 2>&1
      if [ -n "$missing" ]; then notok "$name" "not installed:$missing"
      elif [ -n "$unstripped" ]; then notok "$name" "installed binary not stripped: $unstripped"
      elif [ "$version" != "$("$TW" --version)" ]; then notok "$name" "installed binary says '$version'"
      elif [ -e "$WORK/prefix" ]; then notok "$name" "left after uninstall: $(find "$WORK/prefix" | tr '\n' ' ')"
      else ok "$name"; fi
    fi
  fi
fi

# ---------------------------------------------------------------------------------------------
# pty, signals, timing, flags, memory
while IFS= read -r line; do
  case "$line" in
    "ok - "*"# SKIP"*) echo "$line"; skipped=$((skipped + 1)) ;;
    "ok - "*) echo "$line"; passed=$((passed + 1)) ;;
    "not ok - "*) echo "$line"; failed=$((failed + 1)) ;;
    *) echo "$line" ;;
  esac
done < <(python3 "$HERE/e2e/checks.py" "$TW" "${FILTERS[@]}" 2>&1; echo "# checks.py exit $?"
         if [ ${#FILTERS[@]} -eq 0 ]; then python3 "$HERE/e2e/collapse_test.py" "$TW" 2>&1; echo "# collapse_test.py exit $?"; fi)

[ $skipped -gt 0 ] && echo "# $skipped skipped (not counted)"
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
