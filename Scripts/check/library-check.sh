#!/usr/bin/env bash
# The library as a dependency, the way a new user meets it, with the README's lines as written:
#   Scripts/check/library-check.sh [COMMIT]    (default: HEAD)
# Clones the repository at COMMIT into a temporary folder as the branch `main` (no tags: a fresh
# clone has none), makes two fresh packages whose Package.swift carries the README's dependency
# line from "Use it from Swift" unchanged except for the clone's file:// URL in place of
# file:///path/to/typewrite, each with one of the README's two programs copied unchanged as its
# main.swift, builds them, and checks:
#   1. deltas: byte-exact through a pipe (5 MB of random bytes, and `abc`); in a pty the fade
#      settles to cat's screen (ptyscreen.py frames) and every prefix is shown within the lag bound
#      (ptyscreen.py lag --prefix);
#   2. snapshots 0.4 s apart in a pty settle to cat of the last snapshot when they grow, when the
#      end of the row is replaced, and when a row above the cursor is replaced; through a pipe,
#      growing snapshots give exactly the last one;
#   3. the library's contracts (Scripts/check/library-contract/main.swift, in a third fresh package on the
#      same dependency line): cancel() ends stream(_:) within 1 s for an endless source (a chunk every
#      10 ms) and a silent one (one chunk, then nothing); stream(_:) with maximumLag = .infinity from a
#      source that always has 64 KiB ready holds at most 64 MiB after 5 s; 200 MiB through write(_:)
#      with default settings on a terminal output peaks at most 64 MiB and settles within 60 s;
#   4. FadeRenderer, Session, SessionOutput, Tokenizer, TokenQueue and ByteStore are not visible to
#      a client (Scripts/check/library-contract/hidden.swift.txt does not compile, naming each).
# Needs git, swift, and python3 with pyte and wcwidth (pip install pyte wcwidth). Takes a few
# minutes (two release builds). Exits 1 when a check fails, 2 when something it needs is missing.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$(dirname "$here")")
python3 -c 'import pyte, wcwidth' 2>/dev/null ||
    { echo "library-check.sh: python3 needs pyte and wcwidth (pip install pyte wcwidth)" >&2; exit 2; }
commit=${1:-HEAD}
root=$(mktemp -d /tmp/typewrite-library-check.XXXXXX)
git clone -q "$repo" "$root/typewrite" &&
    git -C "$root/typewrite" checkout -q -B main "$(git -C "$repo" rev-parse "$commit")" ||
    { echo "library-check.sh: could not clone $repo at $commit" >&2; exit 2; }
python3 - "$root" "$root/typewrite/README.md" <<'PY' || exit 1
import json, os, re, sys
root, readme = sys.argv[1:]
text = open(readme).read()
section = text[text.index("## Use it from Swift"):]
section = section[:section.index("\n## ", 5)]
placeholder = "file:///path/to/typewrite"
deps = re.findall(r"^\s*(\.package\(url: \"" + re.escape(placeholder) + r"\".*\)),?\s*$", section, re.M)
if len(deps) != 1:
    sys.exit("library-check.sh: the README's \"Use it from Swift\" should have one .package(url: \"%s\", …) line" % placeholder)
dependency = deps[0].replace(placeholder, "file://" + root + "/typewrite")
products = re.findall(r"\.product\(name: \"TypewriteCore\", package: \"([^\"]+)\"\)", section)
if products != ["typewrite"]:
    sys.exit("library-check.sh: the README should name the product as .product(name: \"TypewriteCore\", package: \"typewrite\")")
programs = [b for b in re.findall(r"```swift\n(.*?)```", section, re.S) if "Typewriter(" in b]
if len(programs) < 2:
    sys.exit("library-check.sh: the README should have two programs that make a Typewriter")
programs = programs[:2]
print("dependency: " + deps[0])
here = os.path.dirname(readme) + "/Scripts/check/library-contract"
programs.append(open(here + "/main.swift").read())
for name, source in zip(["deltas", "snapshots", "contract"], programs):
    os.makedirs(f"{root}/{name}/Sources/{name}")
    open(f"{root}/{name}/Sources/{name}/main.swift", "w").write(source)
    open(f"{root}/{name}/Package.swift", "w").write(
        "// swift-tools-version:6.0\nimport PackageDescription\n\nlet package = Package(\n"
        f'    name: "{name}",\n'
        f'    dependencies: [{dependency}],\n'
        f'    targets: [.executableTarget(name: "{name}", dependencies: [.product(name: "TypewriteCore", package: "typewrite")])]\n)\n')
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
for p in deltas snapshots contract; do
    (cd "$root/$p" && swift build -c release > build.log 2>&1) ||
        { tail -20 "$root/$p/build.log" >&2; echo "FAIL - $p does not build with the README's dependency line (log: $root/$p/build.log)"; exit 1; }
    echo "ok   - $p builds with the README's dependency line"
done
D=$root/deltas/.build/release/deltas S=$root/snapshots/.build/release/snapshots
failed=0
report() { if [ "$1" = 0 ]; then echo "ok   - $2"; else echo "FAIL - $2"; failed=1; fi; }
# last JSON line of FILE satisfies the Python expression on `d`
holds() { python3 -c "import json,sys; d=json.loads(open(sys.argv[1]).read().strip().splitlines()[-1]); sys.exit(0 if ($2) else 1)" "$1"; }
screen=$here/ptyscreen.py
trace=$repo/Tests/traces/llm-fast.trace
head -c 5000000 /dev/urandom > "$root/random.bin"
"$D" < "$root/random.bin" | cmp -s - "$root/random.bin"; report $? "deltas: 5 MB of random bytes through a pipe, byte-exact"
[ "$(printf abc | "$D")" = abc ]; report $? "deltas: abc through a pipe"
python3 "$screen" frames --trace "$trace" -- "$D" > "$root/frames.json" 2>/dev/null
holds "$root/frames.json" 'd["screen_identical"] and d["intermediate_colors"] >= 8'; report $? "deltas: the fade in a pty settles to cat's screen"
python3 "$screen" lag --prefix --trace "$trace" -- "$D" > "$root/lag.json" 2>/dev/null
holds "$root/lag.json" 'd["prefix_checks"] > 0 and d["prefix_late_count"] == 0'; report $? "deltas: every prefix shown within the lag bound"
for c in grow rowend above; do
    python3 "$screen" compare --trace "$root/$c.trace" --ref-bin "$root/$c.ref" -- "$S" > "$root/$c.json" 2>/dev/null
    holds "$root/$c.json" 'd["screen_identical"]'; report $? "snapshots ($c) 0.4 s apart in a pty settle to cat of the last one"
done
"$S" < "$root/grow.lines" | cmp -s - "$root/grow.ref"; report $? "snapshots (grow) through a pipe: exactly the last one"
C=$root/contract/.build/release/contract
"$C" cancel-endless > "$root/c1.json"; holds "$root/c1.json" 'd["returned_after_s"] < 1'
report $? "contract: cancel() ends stream(_:) within 1 s for an endless source ($(cat "$root/c1.json"))"
"$C" cancel-silent > "$root/c2.json"; holds "$root/c2.json" 'd["returned_after_s"] < 1'
report $? "contract: cancel() ends stream(_:) within 1 s for a silent source ($(cat "$root/c2.json"))"
"$C" strict-stream > "$root/c3.json"; holds "$root/c3.json" 'd["peak_rss_mib"] <= 64'
report $? "contract: strict pacing from a source always ready holds at most 64 MiB after 5 s ($(cat "$root/c3.json"))"
"$C" write-flood > "$root/c4.json"; holds "$root/c4.json" 'd["peak_rss_mib"] <= 64 and d["settled_after_s"] <= 60'
report $? "contract: 200 MiB through write(_:) peaks at most 64 MiB and settles within 60 s ($(cat "$root/c4.json"))"
cp "$repo/Scripts/check/library-contract/hidden.swift.txt" "$root/contract/Sources/contract/hidden.swift"
(cd "$root/contract" && swift build -c release > hidden.log 2>&1)
missing=0
for t in FadeRenderer Session SessionOutput Tokenizer TokenQueue ByteStore; do
    grep -q "cannot find '$t' in scope" "$root/contract/hidden.log" || missing=1
done
report $missing "contract: FadeRenderer, Session, SessionOutput, Tokenizer, TokenQueue, ByteStore are not visible to a client"
echo "work files in $root"
exit $failed
