#!/usr/bin/env python3
"""Cross-check typewrite against other terminal models (pyte via Scripts/check/ptyscreen.py, tmux via
Scripts/check/tmuxscreen.sh).

Used by Scripts/check/fidelity.sh; runs its jobs in parallel and prints one summary line per kind.

  fidelity-crosscheck.py --bin .build/release/typewrite --out DIR \
      [--streams DIR_WITH_manifest.tsv] [--corpus DIR] [--traces DIR] [--widths 80,79,40] \
      [--pyte-traces] [--tmux-traces] [--trace-speed 1] [--tmux-speed 4] [--jobs 2]

Every failing job leaves its command and output in DIR/fail/<job>.txt. Exit status 1 when any
job failed.
"""
import argparse, concurrent.futures, glob, json, os, shlex, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
PTYSCREEN = os.path.join(HERE, "ptyscreen.py")
TMUXSCREEN = os.path.join(HERE, "tmuxscreen.sh")
PLAY = os.path.join(os.path.dirname(os.path.dirname(HERE)), "Tests", "traces", "play.py")


def depth_args(depth):
    """ptyscreen terminal settings that make typewrite pick this colour depth (docs/colour.md#colour-depth)."""
    return {
        "trueColor": [],
        "palette256": ["--colorterm", ""],
        "basic16": ["--term", "xterm", "--colorterm", ""],
        "none": ["--term", "dumb", "--colorterm", ""],
    }[depth]


def jobs_for(a):
    jobs = []
    binary = os.path.abspath(a.bin)
    if a.streams:
        manifest = os.path.join(a.streams, "manifest.tsv")
        for line in open(manifest):
            if line.startswith("#") or not line.strip():
                continue
            f, width, cps, fade, depth, chunk, delay = line.rstrip("\n").split("\t")
            cmd = [sys.executable, PTYSCREEN, "compare", "--bin", os.path.join(a.streams, f), "--chunk", chunk,
                   "--delay-ms", delay, "--cols", width, "--rows", "24"] + depth_args(depth) + \
                  ["--", binary, "--cps", cps, "--fade", fade]
            jobs.append(("pyte-stream", f"{f}-w{width}", cmd, {}))
    if a.corpus:
        for path in sorted(glob.glob(os.path.join(a.corpus, "corpus-*.bin"))):
            width = path.rsplit("-w", 1)[1].split(".")[0]
            cmd = [sys.executable, PTYSCREEN, "compare", "--bin", path, "--chunk", "16", "--delay-ms", "20",
                   "--cols", width, "--rows", "24", "--", binary]
            jobs.append(("pyte-corpus", os.path.basename(path), cmd, {"_limit": path + ".limit", "_name": path + ".name"}))
    if a.traces:
        traces = sorted(glob.glob(os.path.join(a.traces, "*.trace")))
        for t in traces:
            name = os.path.basename(t)[:-len(".trace")]
            for w in a.widths.split(","):
                if a.pyte_traces:
                    cmd = [sys.executable, PTYSCREEN, "compare", "--trace", t, "--speed", str(a.trace_speed),
                           "--cols", w, "--rows", "24", "--", binary]
                    jobs.append(("pyte-trace", f"{name}-w{w}", cmd, {}))
                if a.tmux_traces:
                    cmd = ["bash", TMUXSCREEN, t, w, "24", "--", binary]
                    env = {"FEED": f"python3 {shlex.quote(PLAY)} --speed {a.tmux_speed} {shlex.quote(t)}"}
                    jobs.append(("tmux-trace", f"{name}-w{w}", cmd, env))
    return jobs


def tmux_zwj_only(output):
    """Whether tmuxscreen's two captures differ only inside emoji ZWJ sequences. tmux 3.3 keeps a ZWJ
    and joins the next emoji into the same cell only when that emoji arrives in the same read, and a
    joined cell holds at most 21 bytes (👨‍👩‍👧‍👦 loses its last emoji), so cat's screen depends on where
    the producer's writes split the sequence (measured: printf '👩\\u200d'; sleep; printf '💻' shows
    👩💻 without the joiner). typewrite writes such a cluster whole. Equal once emoji, ZWJ and
    variation selectors (and line breaks) are removed = this limit."""
    import re
    m = re.search(r"kept in (\S+)", output)
    if not m:
        return False
    try:
        got, want = (open(os.path.join(m.group(1), n), "rb").read().decode("utf-8", "replace") for n in ("got.txt", "want.txt"))
    except OSError:
        return False
    def strip(t):  # also whitespace: the joined cells are narrower, so a narrow pane wraps elsewhere
        return "".join(c for c in t if ord(c) < 0x1F000 and not c.isspace()
                       and c not in "\u200d\ufe0f\ufe0e\u2764\u2640\u2642\u2744\u2620")
    return got != want and strip(got) == strip(want)


def run(job, out):
    kind, name, cmd, extra_env = job
    limit_file, name_file = extra_env.pop("_limit", None), extra_env.pop("_name", None)
    if name_file and os.path.exists(name_file):
        name = f"{name} ({open(name_file).read()})"
    env = dict(os.environ, **extra_env)
    start = time.monotonic()
    for attempt in range(2):
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=900)
            ok, output = p.returncode == 0, p.stdout + p.stderr
        except subprocess.TimeoutExpired as e:
            ok, output = False, f"timeout after 900 s\n{e.stdout or ''}{e.stderr or ''}"
        # A tmux server that died under the check (seen once in ~150 runs) says nothing about typewrite.
        if ok or "server exited unexpectedly" not in output:
            break
        output = f"(retried: the tmux server exited during the first attempt)\n{output}"
    if ok and kind.startswith("pyte"):
        try:
            ok = json.loads(output.strip().splitlines()[-1]).get("screen_identical", False)
        except (ValueError, IndexError):
            ok = False
    if not ok and kind == "tmux-trace" and tmux_zwj_only(output):
        return kind, f"{name}: tmux drops a ZWJ whose next character arrives in a later read (cat's writes split there; typewrite writes the cluster whole)", None, time.monotonic() - start
    if not ok and limit_file and os.path.exists(limit_file):
        return kind, f"{name}: {open(limit_file).read()}", None, time.monotonic() - start
    if not ok:
        os.makedirs(os.path.join(out, "fail"), exist_ok=True)
        with open(os.path.join(out, "fail", f"{kind}-{name.split(' ')[0]}.txt"), "w") as f:
            env_text = " ".join(f"{k}={shlex.quote(v)}" for k, v in extra_env.items())
            f.write(f"{env_text} {' '.join(shlex.quote(c) for c in cmd)}\n\n{output}")
    return kind, name, ok, time.monotonic() - start


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--streams")
    ap.add_argument("--corpus")
    ap.add_argument("--traces")
    ap.add_argument("--widths", default="80,79,40")
    ap.add_argument("--pyte-traces", action="store_true")
    ap.add_argument("--tmux-traces", action="store_true")
    ap.add_argument("--trace-speed", type=float, default=1.0)
    ap.add_argument("--tmux-speed", type=float, default=4.0)
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    jobs = jobs_for(a)
    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        for kind, name, ok, seconds in pool.map(lambda j: run(j, a.out), jobs):
            results.setdefault(kind, []).append((name, ok))
            if ok is None:
                print(f"  KNOWN-LIMIT {kind} {name}", flush=True)
            elif not ok:
                print(f"  FAIL {kind} {name} ({seconds:.1f} s): see {a.out}/fail/{kind}-{name.split(' ')[0]}.txt", flush=True)
    failed = 0
    for kind, rs in sorted(results.items()):
        bad = [n for n, ok in rs if ok is False]
        known = [n for n, ok in rs if ok is None]
        failed += len(bad)
        print(f"CROSSCHECK {kind}: runs {len(rs)} failures {len(bad)}" + (f" known-emulator-limits {len(known)}" if known else "")
              + (f" ({', '.join(b.split(' ')[0] for b in bad[:12])}{' …' if len(bad) > 12 else ''})" if bad else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
