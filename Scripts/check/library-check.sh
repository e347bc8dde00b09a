#!/usr/bin/env bash
# The library as a dependency, the way a new user meets it, with the README's lines as written:
#   Scripts/check/library-check.sh [--readme] [COMMIT]    (default: HEAD)
# Clones the repository at COMMIT into a temporary folder as the branch `main` (no tags: a fresh
# clone has none) and makes one fresh package there with `swift package init --type executable`
# (Swift 6 language mode, as it writes it). Its Package.swift carries the README's dependency line
# unchanged except for the clone's file:// URL in place of file:///path/to/typewrite, and one
# executable target for every ```swift block of the README that is a program (every block but the
# dependency line), copied unchanged as its main.swift. It builds the package once and runs every
# program:
#   - one that makes a Typewriter and writes deltas: `abc` and 1 MB of random bytes through a pipe,
#     byte-exact;
#   - one that shows snapshots: growing snapshots through a pipe give exactly the last one;
#   - one that hands Control-C to cancel(forKey:): in a pty that echoes control characters, while
#     the text streams in, the key (a real SIGINT from the tty): exit status 130, no crash, the
#     screen holds the text received, settled, then `^C`, in the default colours;
#   - any other: runs with empty standard input, exits 0 without a crash.
# --readme stops there (a debug build; .ci/run runs this, about two minutes). Without it the build
# is a release one and the library's behaviour and contracts are measured as well:
#   1. deltas: in a pty the fade settles to cat's screen (ptyscreen.py frames) and every prefix is
#      shown within the lag bound (ptyscreen.py lag --prefix); 5 MB of random bytes byte-exact;
#   2. snapshots 0.4 s apart in a pty settle to cat of the last snapshot when they grow, when the
#      end of the row is replaced, and when a row above the cursor is replaced;
#   3. the library's contracts (Scripts/check/library-contract/main.swift, one more target of the same
#      package): cancel() ends stream(_:) within 1 s for an endless source (a chunk every 10 ms) and
#      a silent one (one chunk, then nothing); stream(_:) with maximumLag = .infinity from a source
#      that always has 64 KiB ready holds at most 64 MiB after 5 s; 200 MiB through write(_:) with
#      default settings on a terminal output peaks at most 64 MiB and settles within 60 s;
#   4. FadeRenderer, Session, SessionOutput, Tokenizer, TokenQueue and ByteStore are not visible to
#      a client (Scripts/check/library-contract/hidden.swift.txt does not compile, naming each).
# Needs git, swift and python3; without --readme also pyte and wcwidth (pip install pyte wcwidth).
# Exits 1 when a check fails, 2 when something it needs is missing.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$(dirname "$here")")
readme_only=0
if [ "${1:-}" = --readme ]; then readme_only=1; shift; fi
if [ $readme_only = 0 ]; then
    python3 -c 'import pyte, wcwidth' 2>/dev/null ||
        { echo "library-check.sh: python3 needs pyte and wcwidth (pip install pyte wcwidth)" >&2; exit 2; }
fi
commit=${1:-HEAD}
root=$(mktemp -d /tmp/typewrite-library-check.XXXXXX)
git clone -q "$repo" "$root/typewrite" &&
    git -C "$root/typewrite" checkout -q -B main "$(git -C "$repo" rev-parse "$commit")" ||
    { echo "library-check.sh: could not clone $repo at $commit" >&2; exit 2; }
mkdir "$root/readme" && (cd "$root/readme" && swift package init --type executable --name readme > init.log 2>&1) ||
    { echo "library-check.sh: swift package init failed (log: $root/readme/init.log)" >&2; exit 2; }
# The package's manifest and sources; prints "KIND TARGET" for each README program.
python3 - "$root" "$root/typewrite/README.md" "$readme_only" > "$root/programs" <<'PY' || exit 1
import json, os, re, shutil, sys
root, readme, readme_only = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
text = open(readme).read()
blocks = re.findall(r"^```swift\n(.*?)^```", text, re.S | re.M)
placeholder = "file:///path/to/typewrite"
manifests = [b for b in blocks if ".package(url:" in b]
deps = [d for b in manifests for d in re.findall(r"^\s*(\.package\(url: \"" + re.escape(placeholder) + r"\".*\)),?\s*$", b, re.M)]
if len(manifests) != 1 or len(deps) != 1:
    sys.exit("library-check.sh: the README should have one ```swift block with one .package(url: \"%s\", …) line" % placeholder)
dependency = deps[0].replace(placeholder, "file://" + root + "/typewrite")
products = re.findall(r"\.product\(name: \"TypewriteCore\", package: \"([^\"]+)\"\)", manifests[0])
if products != ["typewrite"]:
    sys.exit("library-check.sh: the README should name the product as .product(name: \"TypewriteCore\", package: \"typewrite\")")
product = '.product(name: "TypewriteCore", package: "typewrite")'
print("# dependency: " + deps[0], file=sys.stderr)

def kind(source):
    if "cancel(forKey:" in source: return "interrupt"
    if "show(snapshot:" in source: return "snapshots"
    if "Typewriter(" in source and "write(" in source: return "deltas"
    return "other"

programs = [(kind(b), b) for b in blocks if b not in manifests]
if [k for k, _ in programs].count("deltas") < 1 or "snapshots" not in [k for k, _ in programs]:
    sys.exit("library-check.sh: the README should have a program that writes deltas and one that shows snapshots")
package = os.path.join(root, "readme")
shutil.rmtree(os.path.join(package, "Sources"))
shutil.rmtree(os.path.join(package, "Tests"), ignore_errors=True)
targets = []
for n, (k, source) in enumerate(programs, 1):
    name = "%s%d" % (k, n)
    os.makedirs(os.path.join(package, "Sources", name))
    open(os.path.join(package, "Sources", name, "main.swift"), "w").write(source)
    targets.append(name)
    print(k, name)
if not readme_only:
    os.makedirs(os.path.join(package, "Sources", "contract"))
    shutil.copy(os.path.join(root, "typewrite", "Scripts", "check", "library-contract", "main.swift"),
                os.path.join(package, "Sources", "contract", "main.swift"))
    targets.append("contract")
# The manifest swift package init wrote, with the dependency and the targets put in.
manifest = open(os.path.join(package, "Package.swift")).read()
version = re.match(r"// swift-tools-version:\s*(\d+)", manifest)
if not version or int(version.group(1)) < 6:
    sys.exit("library-check.sh: swift package init wrote tools version %r, not 6 or later (Swift 6 language mode)" % manifest[:40])
modes = re.search(r"^\s*(swiftLanguageModes: \[[^\]]*\])", manifest, re.M)
head = manifest[:manifest.index("let package = Package(")]
body = ['let package = Package(', '    name: "readme",', '    dependencies: [', '        ' + dependency + ',', '    ],',
        '    targets: [']
body += ['        .executableTarget(name: "%s", dependencies: [%s]),' % (t, product) for t in targets]
body += ['    ]' + (',' if modes else '')]
if modes: body.append('    ' + modes.group(1))
body.append(')')
open(os.path.join(package, "Package.swift"), "w").write(head + "\n".join(body) + "\n")
# Inputs for the snapshot programs (JSON lines) and their timed traces for the pty.
cases = {
    "grow": ["Tide", "Tide pools", "Tide pools hold water", "Tide pools hold water at low tide.",
             "Tide pools hold water at low tide.\n"],
    "rowend": ["The answer is", "The answer is forty", "The answer is forty-one", "The answer is 42",
               "The answer is 42.\n"],
    "above": ["Line one\nLine two is here\nLine three", "Line one\nLine two is here\nLine three and more",
              "Line one\nLine 2 changed\nLine three and more", "Line one\nLine 2 changed\nLine three and more, done.\n"],
}
for name, snapshots in cases.items():
    lines = "".join(json.dumps(s) + "\n" for s in snapshots)
    open(f"{root}/{name}.lines", "w").write(lines)
    open(f"{root}/{name}.ref", "w").write(snapshots[-1])
    with open(f"{root}/{name}.trace", "w") as f:
        for line in lines.splitlines(keepends=True):
            f.write(json.dumps({"delay_ms": 400, "hex": line.encode().hex()}) + "\n")
PY
config=release
[ $readme_only = 1 ] && config=debug
(cd "$root/readme" && swift build -c $config > build.log 2>&1) ||
    { tail -20 "$root/readme/build.log" >&2; echo "FAIL - the README's programs do not build with its dependency line (log: $root/readme/build.log)"; exit 1; }
bin=$root/readme/.build/$config
echo "ok   - the README's $(wc -l < "$root/programs") programs build ($config) in a fresh package with its dependency line"

failed=0
report() { if [ "$1" = 0 ]; then echo "ok   - $2"; else echo "FAIL - $2"; failed=1; fi; }
head -c 1000000 /dev/urandom > "$root/random.bin"
while read -r kind name; do
    P=$bin/$name
    case $kind in
    deltas)
        [ "$(printf abc | "$P")" = abc ]; report $? "$name: abc through a pipe"
        "$P" < "$root/random.bin" | cmp -s - "$root/random.bin"; report $? "$name: 1 MB of random bytes through a pipe, byte-exact"
        ;;
    snapshots)
        "$P" < "$root/grow.lines" | cmp -s - "$root/grow.ref"; report $? "$name: growing snapshots through a pipe give exactly the last one"
        ;;
    interrupt)
        out=$(python3 - "$P" "$root/typewrite/Tests/e2e" <<'PY'
# Control-C in a pty while text streams in: the tty's ISIG sends SIGINT, its ECHOCTL echoes ^C.
import os, sys, time
program, e2e = sys.argv[1:]
sys.path.insert(0, e2e)
from ptyrun import Run, Screen, plain_text_of
# 20 lines over 1 s, then the key 0.25 s later: all of them read, the last ones still fading.
lines = [b"line %03d: tide pools hold small worlds of anemones and barnacles\n" % i for i in range(20)]
env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "REDUCED_MOTION")}
env.update(TERM="xterm-256color", COLORTERM="truecolor")
r = Run([program], stdout="pty", env=env, echo=True).start()
r.feed_schedule([(0.05 * i, l) for i, l in enumerate(lines)], eof=False)
r.pump(1.2)
received = r.fed
if received != len(b"".join(lines)) or r.exited():
    print("the program did not take the text in time (%d bytes fed; status %s)" % (received, r.status))
    sys.exit(1)
os.write(r.master, b"\x03")
r.pump_until(r.exited, 5)
r.wait(5)
r.close()
problems = []
if r.status != 130:
    problems.append("status %s, want exit(130)" % r.status)
crash = bytes(r.stderr) + bytes(r.output)
for sign in (b"crashed", b"Illegal instruction", b"Fatal error", b"_dispatch_assert_queue_fail"):
    if sign in crash:
        problems.append("crashed: %r" % crash[max(0, crash.index(sign) - 40):][:200])
        break
s = Screen()
s.feed(r.output)
shown = s.text().rstrip(b"\n")
sent = plain_text_of(b"".join(lines))
if not shown.endswith(b"^C"):
    problems.append("the screen does not end in the ^C echo: ...%r" % shown[-60:])
elif shown[:-2] != sent:
    problems.append("the screen is not the text received (%d bytes), settled, then ^C: ...%r" % (received, shown[-80:]))
if (s.fg, s.bg, s.intensity) != (None, None, 0):
    problems.append("left in colours %r (the input has none)" % ((s.fg, s.bg, s.intensity),))
print("; ".join(problems) or "ok: exit 130, %d bytes received, settled, then ^C" % received)
sys.exit(1 if problems else 0)
PY
)
        report $? "$name: Control-C in a pty mid-stream ($out)"
        ;;
    *)
        "$P" < /dev/null > "$root/$name.out" 2> "$root/$name.err"; rc=$?
        [ $rc = 0 ] && ! grep -q "crashed\|Fatal error" "$root/$name.err"
        report $? "$name: runs and exits 0 (exit $rc; output: $(head -c 80 "$root/$name.out" | tr '\n' ' '))"
        ;;
    esac
done < "$root/programs"

if [ $readme_only = 1 ]; then
    if [ $failed = 0 ]; then rm -rf "$root"; else echo "work files in $root"; fi
    exit $failed
fi

D=$bin/$(awk '$1 == "deltas" { print $2; exit }' "$root/programs")
S=$bin/$(awk '$1 == "snapshots" { print $2; exit }' "$root/programs")
# last JSON line of FILE satisfies the Python expression on `d`
holds() { python3 -c "import json,sys; d=json.loads(open(sys.argv[1]).read().strip().splitlines()[-1]); sys.exit(0 if ($2) else 1)" "$1"; }
screen=$here/ptyscreen.py
trace=$repo/Tests/traces/llm-fast.trace
head -c 5000000 /dev/urandom > "$root/random5.bin"
"$D" < "$root/random5.bin" | cmp -s - "$root/random5.bin"; report $? "deltas: 5 MB of random bytes through a pipe, byte-exact"
python3 "$screen" frames --trace "$trace" -- "$D" > "$root/frames.json" 2>/dev/null
holds "$root/frames.json" 'd["screen_identical"] and d["intermediate_colors"] >= 8'; report $? "deltas: the fade in a pty settles to cat's screen"
python3 "$screen" lag --prefix --trace "$trace" -- "$D" > "$root/lag.json" 2>/dev/null
holds "$root/lag.json" 'd["prefix_checks"] > 0 and d["prefix_late_count"] == 0'; report $? "deltas: every prefix shown within the lag bound"
for c in grow rowend above; do
    python3 "$screen" compare --trace "$root/$c.trace" --ref-bin "$root/$c.ref" -- "$S" > "$root/$c.json" 2>/dev/null
    holds "$root/$c.json" 'd["screen_identical"]'; report $? "snapshots ($c) 0.4 s apart in a pty settle to cat of the last one"
done
C=$bin/contract
"$C" cancel-endless > "$root/c1.json"; holds "$root/c1.json" 'd["returned_after_s"] < 1'
report $? "contract: cancel() ends stream(_:) within 1 s for an endless source ($(cat "$root/c1.json"))"
"$C" cancel-silent > "$root/c2.json"; holds "$root/c2.json" 'd["returned_after_s"] < 1'
report $? "contract: cancel() ends stream(_:) within 1 s for a silent source ($(cat "$root/c2.json"))"
"$C" strict-stream > "$root/c3.json"; holds "$root/c3.json" 'd["peak_rss_mib"] <= 64'
report $? "contract: strict pacing from a source always ready holds at most 64 MiB after 5 s ($(cat "$root/c3.json"))"
"$C" write-flood > "$root/c4.json"; holds "$root/c4.json" 'd["peak_rss_mib"] <= 64 and d["settled_after_s"] <= 60'
report $? "contract: 200 MiB through write(_:) peaks at most 64 MiB and settles within 60 s ($(cat "$root/c4.json"))"
cp "$repo/Scripts/check/library-contract/hidden.swift.txt" "$root/readme/Sources/contract/hidden.swift"
(cd "$root/readme" && swift build -c release --product contract > hidden.log 2>&1)
missing=0
for t in FadeRenderer Session SessionOutput Tokenizer TokenQueue ByteStore; do
    grep -q "cannot find '$t' in scope" "$root/readme/hidden.log" || missing=1
done
report $missing "contract: FadeRenderer, Session, SessionOutput, Tokenizer, TokenQueue, ByteStore are not visible to a client"
echo "work files in $root"
exit $failed
