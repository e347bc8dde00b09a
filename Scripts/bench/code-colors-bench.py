#!/usr/bin/env python3
"""code-colors-bench: what syntax colours in fenced code cost, against the same bytes untagged.

  Scripts/bench/code-colors-bench.py [--runs 3] [--mib 10] [--quick] [--instructions] [BIN]

For each input it runs `BIN --animate=always --cps 1e9 --markdown=always < f > /dev/null`
(COLUMNS=80, TERM=xterm-256color, COLORTERM=truecolor) on the input fenced as its language and
on the same bytes in an untagged fence, interleaved, and reports the best CPU time (user +
system, from wait4) of --runs runs of each, their ratio, and the peak RSS:

  python          MIB MiB of real Python (Tests/code's Python files and the Python fences of its
                  answers, repeated): at most 1.3x untagged
  one-line        one line of MIB MiB of Python (a list of calls, strings and numbers): at most 2x
  open-string     a triple-quoted Python string that never closes, MIB MiB of lines: at most 2x
  nested-comment  Rust block comments opened 100,000 deep, then MIB MiB of code inside: at most 2x
  template        JavaScript template literals nested `${` 100,000 deep, then MIB MiB: at most 2x

--instructions also counts the instructions of each run with valgrind (callgrind) on a 1 MiB
slice, a measure a busy machine does not disturb. --quick: 2 MiB inputs, one run.
Prints one JSON object; exit 0 when every ratio meets its target.
"""
import argparse, glob, json, os, re, resource, shutil, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FENCE = re.compile(r"^ {0,3}```(\w*)[^\n]*\n(.*?)^ {0,3}```[ \t]*$", re.M | re.S)


def python_corpus():
    parts = [open(p, encoding="utf-8").read() for p in sorted(glob.glob(os.path.join(ROOT, "Tests/code/files/python/*")))]
    for name in ("answers-tune.jsonl", "answers-held.jsonl"):
        for line in open(os.path.join(ROOT, "Tests/code", name), encoding="utf-8"):
            if line.strip():
                for m in FENCE.finditer(json.loads(line)["text"]):
                    if m.group(1).lower() in ("python", "py"):
                        parts.append(m.group(2))
    return "".join(p if p.endswith("\n") else p + "\n" for p in parts)


def inputs(size):
    body = python_corpus()
    py = (body * (size // len(body) + 1))[:size]
    py = py[:py.rfind("\n") + 1]
    unit = "foo(bar, 'baz', 42), x.y[3] + 1.5e3, \"qux\" "
    line = "x = [" + unit * (size // len(unit)) + "]\n"
    prose = "it was the best of times, it was the worst of times, 'quoted' and \"double\"\n"
    open_string = 's = """\n' + prose * (size // len(prose))
    nested = "/*" * 100000 + "\n" + "fn main() { let x = 1; }\n" * (size // 26)
    template = "const s = `" + "${`" * 100000 + "\n" + "let x = 1; // y\n" * (size // 16)
    return [("python", "python", py, 1.3), ("one-line", "python", line, 2.0), ("open-string", "python", open_string, 2.0),
            ("nested-comment", "rust", nested, 2.0), ("template", "javascript", template, 2.0)]


def run(binary, path, tmp):
    """CPU seconds (user + system, wait4), peak RSS in KiB (GNU time's %M: the child's own, which
    wait4's maxrss is not, as it counts this process's image before exec), exit status."""
    env = dict(os.environ, COLUMNS="80", TERM="xterm-256color", COLORTERM="truecolor")
    for k in ("NO_COLOR", "REDUCED_MOTION"):
        env.pop(k, None)
    argv = [binary, "--animate=always", "--cps", "1e9", "--markdown=always"]
    rss_path = os.path.join(tmp, "rss")
    if os.access("/usr/bin/time", os.X_OK):
        argv = ["/usr/bin/time", "-o", rss_path, "-f", "%M"] + argv
    with open(path, "rb") as f, open(os.devnull, "wb") as null:
        p = subprocess.Popen(argv, stdin=f, stdout=null, env=env)
        _, status, ru = os.wait4(p.pid, 0)
    rss = None
    try:
        rss = int(open(rss_path).read().split()[-1])
        os.unlink(rss_path)
    except (OSError, ValueError, IndexError):
        pass
    return ru.ru_utime + ru.ru_stime, rss, os.waitstatus_to_exitcode(status)


def instructions(binary, path, tmp):
    out = os.path.join(tmp, "cg.out")
    env = dict(os.environ, COLUMNS="80", TERM="xterm-256color", COLORTERM="truecolor")
    with open(path, "rb") as f:
        r = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out, binary, "--animate=always",
                            "--cps", "1e9", "--markdown=always"], stdin=f, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, env=env, text=True)
    m = re.search(r"refs:\s+([\d,]+)", r.stderr)
    return int(m.group(1).replace(",", "")) if m else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("binary", nargs="?", default=os.path.join(ROOT, ".build", "release", "typewrite"))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--mib", type=int, default=10)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--instructions", action="store_true")
    a = ap.parse_args()
    if a.quick:
        a.runs, a.mib = 1, 2
    if not os.access(a.binary, os.X_OK):
        sys.exit("code-colors-bench: no executable at %s (swift build -c release?)" % a.binary)
    out, ok = {"mib": a.mib, "runs": a.runs, "load": os.getloadavg()[0]}, True
    with tempfile.TemporaryDirectory() as tmp:
        for name, tag, text, target in inputs(a.mib << 20):
            paths = {}
            for kind, info in (("tagged", tag), ("untagged", "")):
                paths[kind] = os.path.join(tmp, "%s-%s.md" % (name, kind))
                with open(paths[kind], "w", encoding="utf-8") as f:
                    f.write("```%s\n%s```\n" % (info, text if text.endswith("\n") else text + "\n"))
            best = {"tagged": (1e9, 0), "untagged": (1e9, 0)}
            status = []
            for _ in range(a.runs):
                for kind in ("tagged", "untagged"):
                    cpu, rss, rc = run(a.binary, paths[kind], tmp)
                    status.append(rc)
                    best[kind] = (min(best[kind][0], cpu), max(best[kind][1], rss or 0))
            ratio = best["tagged"][0] / max(best["untagged"][0], 1e-6)
            row = {"tagged_cpu_s": round(best["tagged"][0], 3), "untagged_cpu_s": round(best["untagged"][0], 3),
                   "ratio": round(ratio, 3), "target": target, "tagged_peak_rss_mib": round(best["tagged"][1] / 1024, 1),
                   "untagged_peak_rss_mib": round(best["untagged"][1] / 1024, 1), "exit_ok": all(s == 0 for s in status)}
            if a.instructions and shutil.which("valgrind"):
                counts = {}
                for kind in ("tagged", "untagged"):
                    data = open(paths[kind], "rb").read()[:1 << 20]
                    cut = data.rfind(b"\n", 16)
                    data = (data[:cut + 1] if cut > 0 else data + b"\n") + b"```\n"
                    slice_path = paths[kind] + ".1m"
                    open(slice_path, "wb").write(data)
                    counts[kind] = instructions(a.binary, slice_path, tmp)
                if counts["tagged"] and counts["untagged"]:
                    row["instructions_1mib"] = counts
                    row["instruction_ratio"] = round(counts["tagged"] / counts["untagged"], 3)
            row["pass"] = ratio <= target and row["exit_ok"]
            ok = ok and row["pass"]
            out[name] = row
            print(name, json.dumps(row), file=sys.stderr, flush=True)
    out["pass"] = ok
    print(json.dumps(out, indent=1))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
