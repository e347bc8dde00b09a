#!/usr/bin/env bash
# The library as a dependency, measured the way a new user meets it:
#   Scripts/library-check.sh [COMMIT]    (default: HEAD)
# Clones the repository at COMMIT into a temporary folder, tags it with the version `typewrite
# --version` prints, makes two fresh packages that depend on that clone by file:// URL and version
# (`.package(url:from:)`), each with one of the README's two "Use it from Swift" programs copied
# unchanged as its main.swift, builds them, and checks:
#   1. deltas: byte-exact through a pipe (5 MB of random bytes, and `abc`); in a pty the fade
#      settles to cat's screen (termcheck.py frames) and every prefix is shown within the lag bound
#      (termcheck.py lag --prefix);
#   2. snapshots 0.4 s apart in a pty settle to cat of the last snapshot when they grow, when the
#      end of the row is replaced, and when a row above the cursor is replaced; through a pipe,
#      growing snapshots give exactly the last one.
# Needs python3 with pyte (termcheck.py). Takes a few minutes (two release builds).
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tools=${TYPEWRITE_SHARED:-$(cd "$repo/.." && pwd)/shared}/tools
[ -d "$tools" ] || tools=/work/shared/tools
commit=${1:-HEAD}
root=$(mktemp -d /tmp/typewrite-library-check.XXXXXX)
git clone -q "$repo" "$root/typewrite" && git -C "$root/typewrite" checkout -q "$(git -C "$repo" rev-parse "$commit")"
version=$(sed -n 's/.*static let version = "\([0-9.]*\)".*/\1/p' "$root/typewrite/Sources/TypewriteCore/Terminal/TerminalCapabilities.swift")
git -C "$root/typewrite" tag "$version"
python3 - "$root" "$version" "$repo/README.md" <<'PY'
import json, os, re, sys
root, version, readme = sys.argv[1:]
text = open(readme).read()
section = text[text.index("## Use it from Swift"):]
section = section[:section.index("\n## ", 5)]
programs = [b for b in re.findall(r"```swift\n(.*?)```", section, re.S) if "Typewriter(" in b]
assert len(programs) == 2, "the README should have two programs"
for name, source in zip(["deltas", "snapshots"], programs):
    os.makedirs(f"{root}/{name}/Sources/{name}")
    open(f"{root}/{name}/Sources/{name}/main.swift", "w").write(source)
    open(f"{root}/{name}/Package.swift", "w").write(
        "// swift-tools-version:6.0\nimport PackageDescription\n\nlet package = Package(\n"
        f'    name: "{name}",\n'
        f'    dependencies: [.package(url: "file://{root}/typewrite", from: "{version}")],\n'
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
for p in deltas snapshots; do
    (cd "$root/$p" && swift build -c release 2>&1 | tail -1) || { echo "library-check: $p does not build" >&2; exit 1; }
done
D=$root/deltas/.build/release/deltas S=$root/snapshots/.build/release/snapshots
failed=0
report() { if [ "$1" = 0 ]; then echo "ok   - $2"; else echo "FAIL - $2"; failed=1; fi; }
# last JSON line of FILE satisfies the Python expression on `d`
holds() { python3 -c "import json,sys; d=json.loads(open(sys.argv[1]).read().strip().splitlines()[-1]); sys.exit(0 if ($2) else 1)" "$1"; }
traces=$tools/../traces
head -c 5000000 /dev/urandom > "$root/random.bin"
"$D" < "$root/random.bin" | cmp -s - "$root/random.bin"; report $? "deltas: 5 MB of random bytes through a pipe, byte-exact"
[ "$(printf abc | "$D")" = abc ]; report $? "deltas: abc through a pipe"
python3 "$tools/termcheck.py" frames --trace "$traces/llm-fast.trace" -- "$D" > "$root/frames.json" 2>/dev/null
holds "$root/frames.json" 'd["screen_identical"] and d["intermediate_colors"] >= 8'; report $? "deltas: the fade in a pty settles to cat's screen"
python3 "$tools/termcheck.py" lag --prefix --trace "$traces/llm-fast.trace" -- "$D" > "$root/lag.json" 2>/dev/null
holds "$root/lag.json" 'd["prefix_checks"] > 0 and d["prefix_late_count"] == 0'; report $? "deltas: every prefix shown within the lag bound"
for c in grow rowend above; do
    python3 "$tools/termcheck.py" compare --trace "$root/$c.trace" --ref-bin "$root/$c.ref" -- "$S" > "$root/$c.json" 2>/dev/null
    holds "$root/$c.json" 'd["screen_identical"]'; report $? "snapshots ($c) 0.4 s apart in a pty settle to cat of the last one"
done
"$S" < "$root/grow.lines" | cmp -s - "$root/grow.ref"; report $? "snapshots (grow) through a pipe: exactly the last one"
echo "work files in $root"
exit $failed
