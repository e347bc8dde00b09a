#!/usr/bin/env python3
"""typewrite benchmark: every case side by side with cat and pv, in one run, from this repository alone.

    Scripts/bench/bench.sh [--quick] [path/to/typewrite]        # the entry point (installs pv, strace, pyte)
    python3 Scripts/bench/bench.py --binary PATH [--quick] [--only 1,2,3,4,5,7,8,9,13,14,15] [--floods seq,ab] [--scripts emoji,latin] [--trace-names a,b]

Cases (numbered as in the performance table, docs/benchmarks.md; targets in the table):
  1  passthrough throughput, stdout not a tty: 1 GiB of text to /dev/null and through `| cat`, best
     of 9 interleaved runs (cat, pv -q in the same rounds), output checked once with cmp
  2  startup: typewrite started with "hi\n" waiting in its stdin pipe and stdout a pipe, from spawn to
     exit, against cat the same way; median of 200 interleaved runs
  3  idle: on a pty, typewrite animates 200 characters, settles, then the input stalls for 2 s:
     system calls inside that window, counted from `strace -f -ttt` run from the start (0 wanted)
  4  lag: every trace in Tests/traces replayed with its timing into typewrite on an 80x24 pty
     (24-bit colour, defaults; wire traces as --format raw). Both typewrite's output and cat's input
     are fed to a terminal model (pyte) chunk by chunk; for every state cat's screen gives a cell
     (scrollback included), lag = when typewrite first shows that state (or a later one of that cell
     whose input had arrived) − when its input arrived. Worst over all cells and traces.
  5  animated CPU on a pty: llm-slow-local.trace at defaults (CPU / wall); a 10 MiB single burst
     (one write into the pipe): wall from the first byte written to exit, and CPU
  6  output bytes per printable character on llm-fast.trace, 24-bit (COLORTERM=truecolor) and 256
     colours (COLORTERM unset, TERM=xterm-256color)
  7  peak RSS (GNU time): 1 GiB plain, and its growth over a 1 KiB input; 100 MiB animated
     (--animate=always --cps 1e8 to /dev/null, COLUMNS=80), also as a single line without newline
  8  frame regularity: a frame is a read of the pty master (pieces < 2 ms apart joined); gaps are
     counted only after frames that left a cell still fading on the cursor's row (otherwise
     typewrite was idle, waiting for input). p99 on llm-slow-local and on a steady generated stream
     (3 characters every 40 ms)
  9  against pv -qL at the same rate on the same 20 KB text, both to a pty (informational)
  13 floods on an 80x24 pty through Scripts/check/ptyscreen.py record, best of two against cat the same
     way: seq 1 1000000, 32 MiB of "ab\n", 100 MiB of 72-character lines, a 50,000-line mix (text, tabs,
     SGR colours, € and 日) and 200,000 CR progress rewrites each exit within 2.0 s of cat's exit (seq and
     "ab\n", floods of tiny lines: within 1.0 s) with a
     peak RSS (GNU time) of at most 64 MiB; output bytes of seq 1 1000000 at most 1.1x cat's; seq 1 200000
     and the mix settle to cat's screen and scrollback (ptyscreen compare) with at least 8 fade colours
     (ptyscreen frames); fade_coverage on llm-fast.trace at least 0.9; seq 1 100 at --cps 100 --max-lag
     inf takes at least 1.7 s
  15 every script: 50 MiB (--quick: 10 MiB) of generated lines of each of ASCII prose, Japanese, Chinese,
     Korean, emoji (ZWJ sequences, flags, skin tones), accented Latin precomposed and decomposed,
     Devanagari (conjuncts), Arabic and Thai on an 80x24 pty (ptyscreen.py record), best of two against
     cat the same way: exit within 2.0 s of cat's, CPU per MiB at most 2x ASCII prose's, peak RSS at most
     64 MiB, and the settled screen of the first MiB equal to cat's (ptyscreen compare)
  14 markdown (also --only markdown): the pathological inputs of cmark's test suite, rebuilt here at its
     sizes (Scripts/lib/markdown_pathological.py), each
     `--markdown=always --animate=always --cps 1e9 < f > /dev/null` against the same with
     --markdown=never (COLUMNS=80, 24-bit colour): CPU (user + system, wait4) at most 2x plain + 1 s, best
     of 2; the highlighter's CPU per million characters (markdown minus plain) on Tests/markdown's
     answers concatenated, repeated 20 times; each answer streamed in random pieces (1-120 bytes, 0-40
     ms apart) into an 80x24 pty with --markdown=always and TYPEWRITE_MARKDOWN_STATS set: restyled
     cells per 1,000 characters, and restyles of cells already off the screen (0 wanted); one 10 MB line
     of prose with --markdown=always on an 80x24 pty: exit status 0, peak RSS at most 64 MiB (worst of 2)

Only the standard library plus pyte and wcwidth (for the terminal model of cases 4, 8 and 13), and pv,
strace and GNU time as commands (bench.sh installs them). Everything else it reads is in this
repository: the traces in Tests/traces, Scripts/check/ptyscreen.py, the answers in Tests/markdown.
Benchmarks, not unit tests: the machine is noisy, so read the ratios; the header shows the load.
"""
import argparse, collections, concurrent.futures, json, math, os, random, shutil, signal, statistics
import subprocess, sys, threading, time, unicodedata

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from markdown_pathological import pathological_markdown  # noqa: E402
from feeder import random_pieces  # noqa: E402
from terminal import model, run_pty, spawn  # noqa: E402

FRAME = 1 / 60
TRACES_TEXT = ["llm-fast", "llm-slow-local", "llm-bursty-network", "llm-code", "llm-multilingual",
               "build-log", "progress-cr"]
TRACES_WIRE = ["openai-sse", "anthropic-sse", "ollama-ndjson", "openai-responses-sse", "gemini-sse"]
TERM_ENV_DROP = ("NO_COLOR", "COLORTERM", "TERM", "FORCE_COLOR", "CLICOLOR_FORCE", "REDUCED_MOTION",
                 "COLUMNS", "LINES", "COLORFGBG")


def log(*a):
    print(*a, file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------
# Inputs

WORDS = ("the of and to in a is that for it as was with be by on not this are or from at which but have "
         "an they you were there one all we their can has more when will would if so no out up what about "
         "into than them some only other time could these two may first then do any like now over such our "
         "even most made after also did many before must through back years where much your way well down "
         "should because each just those people how too little state good very make world still own see "
         "work long get here between both life being under never day same another know while last might "
         "great old year off come since against go came right used take three tide pool water shore rock "
         "shell anemone barnacle mussel snail crab kelp salt sun wave current sand stone pebble").split()
EXTRA = ["café", "naïve", "—", "it’s", "“quoted”", "Zürich", "résumé", "…", "façade", "coöperate"]


def prose(rng, nbytes):
    """Paragraphs of 150-700 characters as single lines (LLM style), blank line between; a little
    non-ASCII (ambiguous-width punctuation, accents), now and then a short list or code line."""
    out, size = [], 0
    while size < nbytes:
        target = rng.randint(150, 700)
        words, n, cap = [], 0, True
        while n < target:
            w = rng.choice(EXTRA) if rng.random() < 0.01 else rng.choice(WORDS)
            if cap:
                w = w[:1].upper() + w[1:]
                cap = False
            if rng.random() < 0.08:
                w += "," if rng.random() < 0.6 else "."
                cap = w.endswith(".")
            words.append(w)
            n += len(w) + 1
        para = " ".join(words).rstrip(",") + ".\n\n"
        if rng.random() < 0.15:
            para += "".join(f"- {rng.choice(WORDS)} {rng.choice(WORDS)}\n" for _ in range(rng.randint(2, 5))) + "\n"
        b = para.encode()
        out.append(b)
        size += len(b)
    return b"".join(out)[:nbytes]


def ensure_file(path, nbytes, one_line=False):
    """Writes `nbytes` of prose to `path` once (reused while its size matches)."""
    if os.path.exists(path) and os.path.getsize(path) == nbytes:
        return path
    log(f"  generating {path} ({nbytes / 2**20:.0f} MiB)")
    block = prose(random.Random("typewrite-bench/v1"), min(nbytes, 4 << 20))
    if one_line:
        block = block.replace(b"\n", b" ")
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        left = nbytes
        while left > 0:
            f.write(block[:left])
            left -= min(left, len(block))
    os.replace(tmp, path)
    return path


def load_trace(path, max_seconds=None):
    """[(time since start in s, bytes)] from a .trace (JSON lines of delay_ms, hex)."""
    out, t = [], 0.0
    for line in open(path):
        line = line.strip()
        if not line:
            continue
        o = json.loads(line)
        t += o.get("delay_ms", 0) / 1000
        if max_seconds is not None and t > max_seconds:
            break
        out.append((t, bytes.fromhex(o["hex"])))
    return out


def printable_count(data):
    """Printable characters: code points that take a cell (not controls, not escape sequences,
    not combining marks or joiners)."""
    s = data.decode("utf-8", "replace")
    n, i = 0, 0
    while i < len(s):
        c = s[i]
        if c == "\x1b":  # skip CSI / OSC / two-byte escapes
            j = i + 1
            if j < len(s) and s[j] == "[":
                j += 1
                while j < len(s) and not ("\x40" <= s[j] <= "\x7e"):
                    j += 1
            elif j < len(s) and s[j] == "]":
                while j < len(s) and s[j] not in "\x07\x1b":
                    j += 1
            i = j + 1
            continue
        cat = unicodedata.category(c)
        if not cat.startswith("C") and not cat.startswith("M") and c not in "\u200d\ufe0e\ufe0f":
            n += 1
        i += 1
    return n


# ---------------------------------------------------------------------------------------------
# Processes

# spawn and run_pty: Scripts/lib/terminal.py.

GNU_TIME = "/usr/bin/time"  # GNU time (Debian package "time"; bench.sh installs it)


def with_peak_rss(argv, path):
    """argv run under GNU time, which writes the peak RSS (KiB) to `path`. Needed because a child
    spawned straight from Python inherits Python's own high-water mark at exec (the kernel carries
    ru_maxrss across execve), so wait4's ru_maxrss would read ~30 MiB for cat as well."""
    return [GNU_TIME, "-f", "%M", "-o", path] + argv


def read_peak_rss(path):
    try:
        return int(open(path).read().split()[-1])
    except (OSError, ValueError, IndexError):
        return None


def peak_rss(argv, src_path, env=None, work="/tmp"):
    """(peak RSS KiB, wall, rusage, status) of `argv < src_path > /dev/null`."""
    path = os.path.join(work, "rss.txt")
    wall, ru, rc = run_to(with_peak_rss(argv, path), src_path, env=env)
    return read_peak_rss(path), wall, ru, rc


def run_to(argv, src_path, dest="null", consumer=None, env=None):
    """Runs `argv < src_path > dest` (dest 'null' or a path), or `argv < src | consumer > /dev/null`.
    Returns (wall seconds, rusage of argv's process, exit status)."""
    src = os.open(src_path, os.O_RDONLY)
    out = os.open(os.devnull if dest == "null" else dest, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        t0 = time.perf_counter()
        if consumer is None:
            pid = spawn(argv, src, out, env=env)
            _, status, ru = os.wait4(pid, 0)
            wall = time.perf_counter() - t0
            return wall, ru, os.waitstatus_to_exitcode(status)
        r, w = os.pipe()
        pid = spawn(argv, src, w, env=env)
        cpid = spawn(consumer, r, out)
        os.close(r)
        os.close(w)
        _, status, ru = os.wait4(pid, 0)
        os.wait4(cpid, 0)
        wall = time.perf_counter() - t0
        return wall, ru, os.waitstatus_to_exitcode(status)
    finally:
        os.close(src)
        os.close(out)


def run_small(argv, data, env=None):
    """`printf data | argv`, output captured. Returns (wall, output bytes, rusage)."""
    r, w = os.pipe()
    os.write(w, data)
    os.close(w)
    orr, ow = os.pipe()
    t0 = time.perf_counter()
    pid = spawn(argv, r, ow, env=env)
    os.close(r)
    os.close(ow)
    chunks = []
    while True:
        b = os.read(orr, 65536)
        if not b:
            break
        chunks.append(b)
    _, status, ru = os.wait4(pid, 0)
    wall = time.perf_counter() - t0
    os.close(orr)
    return wall, b"".join(chunks), ru


def pty_env(colorterm="truecolor", term="xterm-256color", extra=None):
    env = {k: v for k, v in os.environ.items() if k not in TERM_ENV_DROP}
    env["TERM"] = term
    if colorterm:
        env["COLORTERM"] = colorterm
    env.update(extra or {})
    return env


# ---------------------------------------------------------------------------------------------
# Terminal model for case 4 (pyte with the corrections of docs/terminals.md: terminal.model)

def cell_history(chunks, cols, rows):
    """Feeds [(t, bytes)] to a terminal model; returns {(absolute row, column): [(t, Char)]}, every
    change of every cell (scrollback rows included), sampled after each chunk."""
    pyte, Screen, Norm = model()
    scr = Screen(cols, rows, history=10 ** 8, ratio=0.5)
    stream = pyte.ByteStream(scr)
    norm = Norm()
    blank = scr.default_char
    last, hist = {}, collections.defaultdict(list)
    seen_history = 0

    def check(r, line, t):
        for x in range(cols):
            c = line[x]
            key = (r, x)
            if c != last.get(key, blank):
                last[key] = c
                hist[key].append((t, c))

    for t, b in chunks + [(None, None)]:
        scr.dirty.clear()
        if b is None:
            stream.feed(norm.flush())
            t = chunks[-1][0] if chunks else 0
        else:
            stream.feed(norm.feed(b))
        top = scr.history.top
        base = len(top)
        if base != seen_history:
            for r in range(seen_history, base):
                check(r, top[r], t)
            ys = range(rows)
        else:
            ys = sorted(scr.dirty)
        for y in ys:
            check(base + y, scr.buffer[y], t)
        seen_history = base
    return hist


def analyse_lag(name, inputs, rec, cols=80, rows=24):
    """Per cell of cat's screen (scrollback included), every state the input gave it: when was that
    state (or a later one whose input had already arrived) shown by typewrite? Lag = shown - arrival.
    Returns the worst lag, percentiles and the number of states never shown."""
    ref = cell_history([(t, b.replace(b"\n", b"\r\n")) for t, b in inputs], cols, rows)
    got = cell_history(rec, cols, rows)
    lags, never = [], []
    worst = (0.0, None)
    for key, R in ref.items():
        G = got.get(key, [])
        gi = 0
        for i, (a, v) in enumerate(R):
            while gi < len(G) and G[gi][0] < a:
                gi += 1
            found = None
            if gi > 0 and G[gi - 1][1] == v:
                found = a  # already showing it
            else:
                for j in range(gi, len(G)):
                    tg, vg = G[j]
                    if vg == v:
                        found = tg
                        break
                    k = i + 1
                    while k < len(R) and R[k][0] <= tg:
                        if R[k][1] == vg:
                            found = tg
                            break
                        k += 1
                    if found is not None:
                        break
            if found is None:
                never.append((key, a, v.data))
                continue
            lag = found - a
            lags.append(lag)
            if lag > worst[0]:
                worst = (lag, (key, round(a, 3), v.data))
    lags.sort()

    def pct(p):
        return lags[min(len(lags) - 1, int(p * len(lags)))] if lags else None

    return {"trace": name, "states": len(lags) + len(never), "worst_s": worst[0], "worst_at": worst[1],
            "p50_s": pct(0.5), "p99_s": pct(0.99), "never_shown": len(never), "never_examples": never[:5]}


# ---------------------------------------------------------------------------------------------
# Frames

def frames_of(rec, merge=0.002):
    """Times of frames: reads of the pty master, pieces closer than `merge` joined (one write of a
    large frame can come out of the pty in several reads)."""
    out = []
    for t, b in rec:
        if out and t - out[-1][1] < merge:
            out[-1][1] = t
        else:
            out.append([t, t])
    return [s for s, _ in out]


def percentile(xs, p):
    xs = sorted(xs)
    if not xs:
        return None
    k = (len(xs) - 1) * p
    f = math.floor(k)
    c = min(f + 1, len(xs) - 1)
    return xs[f] + (xs[c] - xs[f]) * (k - f)


def frames_with_state(rec, cols=80, rows=24, merge=0.002):
    """[(time, still_fading)] per frame: whether, after the frame, the cursor's row still shows a
    cell in a colour other than the default foreground (for default-coloured input such as the LLM
    prose traces, that is a cell still fading: typewrite has something left to animate)."""
    pyte, Screen, Norm = model()
    scr = Screen(cols, rows, history=10 ** 6, ratio=0.5)
    stream = pyte.ByteStream(scr)
    norm = Norm()
    groups = []
    for t, b in rec:
        if groups and t - groups[-1][1] < merge:
            groups[-1][1] = t
            groups[-1][2].append(b)
        else:
            groups.append([t, t, [b]])
    out = []
    for t, _, parts in groups:
        for b in parts:
            stream.feed(norm.feed(b))
        line = scr.buffer[scr.cursor.y]
        fading = any(line[x].fg != "default" and line[x].data.strip() for x in range(cols))
        out.append((t, fading))
    return out


def gaps_while_animating(states):
    """Gaps between consecutive frames, counting only those that start from a frame after which
    something was still fading (typewrite was animating, a next frame was due); the gaps after a
    frame that left everything settled are idle time, not late frames."""
    gaps, idle = [], 0
    for (t0, fading), (t1, _) in zip(states, states[1:]):
        if fading:
            gaps.append(t1 - t0)
        else:
            idle += 1
    return gaps, idle


# ---------------------------------------------------------------------------------------------
# Results table

class Table:
    def __init__(self):
        self.rows = []

    def add(self, case, tw, cat="—", pv="—", ratio="—", target="—", ok=None, note=""):
        self.rows.append((case, tw, cat, pv, ratio, target, "info" if ok is None else ("PASS" if ok else "FAIL"), note))
        r = self.rows[-1]
        log(f"  => {r[0]}: typewrite {r[1]} | cat {r[2]} | pv {r[3]} | ratio {r[4]} | target {r[5]} | {r[6]}"
            + (f"  ({note})" if note else ""))

    def markdown(self):
        lines = ["| case | typewrite | cat | pv | ratio | target | result |", "|---|---|---|---|---|---|---|"]
        for r in self.rows:
            res = r[6] if not r[7] else f"{r[6]} ({r[7]})"
            lines.append("| " + " | ".join(list(r[:6]) + [res]) + " |")
        return "\n".join(lines)


def fmt(x, unit="", nd=2):
    if x is None:
        return "n/a"
    if isinstance(x, float) and (math.isinf(x) or math.isnan(x)):
        return str(x)
    return f"{x:.{nd}f}{unit}"


def mib(kib):
    return None if kib is None else kib / 1024


# ---------------------------------------------------------------------------------------------
# Cases

class Bench:
    def __init__(self, a):
        self.a = a
        self.tw = os.path.abspath(a.binary)
        self.quick = a.quick
        self.work = a.workdir
        os.makedirs(self.work, exist_ok=True)
        self.table = Table()
        self.results = {}
        self.pv = shutil.which("pv")
        self.strace = shutil.which("strace")
        self.cat = shutil.which("cat")

    # 1 + 7 (plain) ---------------------------------------------------------------------------
    def case_throughput(self):
        size = (256 if self.quick else 1024) << 20
        runs = 3 if self.quick else 9
        f = ensure_file(os.path.join(self.work, f"text-{size >> 20}m.txt"), size)
        small = ensure_file(os.path.join(self.work, "text-1k.txt"), 1024)
        label = f"{size >> 20} MiB" if size < 1 << 30 else f"{size >> 30} GiB"
        log(f"[1] passthrough throughput, {label}, best of {runs} interleaved runs")
        # cmp once, through a pipe
        p1 = subprocess.Popen([self.tw], stdin=open(f, "rb"), stdout=subprocess.PIPE)
        cmp = subprocess.run(["cmp", "-", f], stdin=p1.stdout, capture_output=True)
        p1.stdout.close()
        p1.wait()
        same = cmp.returncode == 0 and p1.returncode == 0
        log(f"  cmp typewrite output vs input: {'identical' if same else 'DIFFERENT ' + cmp.stdout.decode().strip()}")
        run_to(["cat"], f)  # warm the page cache
        progs = [("typewrite", [self.tw]), ("cat", ["cat"])] + ([("pv", [self.pv, "-q"])] if self.pv else [])
        best = {}
        cpu = collections.defaultdict(list)
        for i in range(runs):
            for mode in ("null", "pipe"):
                order = progs if i % 2 == 0 else progs[::-1]
                for name, argv in order:
                    wall, ru, rc = run_to(argv, f, consumer=["cat"] if mode == "pipe" else None)
                    if rc != 0:
                        log(f"  {name} {mode} exit status {rc}")
                    k = (name, mode)
                    best[k] = min(best.get(k, 1e9), wall)
                    cpu[k].append(ru.ru_utime + ru.ru_stime)
            log(f"  run {i + 1}/{runs}: " + ", ".join(f"{n}/{m} {size / best[(n, m)] / 2**30:.2f} GiB/s"
                                                      for (n, m) in best))
        thr = {k: size / v / 2 ** 30 for k, v in best.items()}
        for mode, desc in (("null", "> /dev/null"), ("pipe", "\\| cat > /dev/null")):
            t, c = thr[("typewrite", mode)], thr[("cat", mode)]
            p = thr.get(("pv", mode))
            ratio = t / c
            cpu_ratio = statistics.median(cpu[("cat", mode)]) / statistics.median(cpu[("typewrite", mode)])
            self.table.add(f"1. Throughput {label} `< f {desc}` (GiB/s, best of {runs})", fmt(t), fmt(c), fmt(p),
                           f"{ratio:.2f}×", "≥ 0.95× cat", ratio >= 0.95,
                           note=f"CPU time of the producer: cat/typewrite {cpu_ratio:.2f}×")
        self.table.add(f"1. Passthrough output identical (cmp, {label})", "identical" if same else "differs",
                       target="identical", ok=same)
        # 7: memory, plain (peak RSS through GNU time; see with_peak_rss)
        rss, small_rss = {}, {}
        for name, argv in progs:
            rss[name] = max(peak_rss(argv, f, work=self.work)[0] for _ in range(2 if self.quick else 3))
            small_rss[name] = max(peak_rss(argv, small, work=self.work)[0] for _ in range(3))
        grow = (rss["typewrite"] - small_rss["typewrite"]) / 1024
        self.results["rss_plain"] = {"big_kib": rss, "small_kib": small_rss}
        self.table.add(f"7. Peak RSS, {label} plain minus 1 KiB plain (MiB)", fmt(grow, nd=1),
                       fmt((rss["cat"] - small_rss["cat"]) / 1024, nd=1),
                       fmt((rss["pv"] - small_rss["pv"]) / 1024, nd=1) if self.pv else "—", "—", "≤ 4 MiB", grow <= 4,
                       note=f"typewrite {mib(small_rss['typewrite']):.1f} → {mib(rss['typewrite']):.1f} MiB")
        self.table.add(f"7. Peak RSS, {label} plain (MiB)", fmt(mib(rss["typewrite"]), nd=1), fmt(mib(rss["cat"]), nd=1),
                       fmt(mib(rss["pv"]), nd=1) if self.pv else "—", f"{rss['typewrite'] / rss['cat']:.1f}×",
                       "≤ 64 MiB", rss["typewrite"] <= 64 * 1024)

    # 2 ---------------------------------------------------------------------------------------
    def case_startup(self):
        n = 40 if self.quick else 200
        log(f"[2] startup: echo hi | X, {n} interleaved runs each")
        progs = [("typewrite", [self.tw]), ("cat", ["cat"])] + ([("pv", [self.pv, "-q"])] if self.pv else [])
        times = collections.defaultdict(list)
        bad = set()
        for _ in range(5):  # warm up
            for name, argv in progs:
                run_small(argv, b"hi\n")
        for i in range(n):
            for name, argv in (progs if i % 2 == 0 else progs[::-1]):
                wall, out, _ = run_small(argv, b"hi\n")
                if out != b"hi\n":
                    bad.add(name)
                times[name].append(wall)
        med = {k: statistics.median(v) * 1000 for k, v in times.items()}
        ratio = med["typewrite"] / med["cat"]
        self.table.add(f"2. Startup `echo hi \\| X` (median ms of {n})", fmt(med["typewrite"]), fmt(med["cat"]),
                       fmt(med.get("pv")), f"{ratio:.2f}×", "≤ 2.5× cat", ratio <= 2.5 and "typewrite" not in bad,
                       note="output differs: " + ", ".join(sorted(bad)) if bad else "")

    # 3 ---------------------------------------------------------------------------------------
    def idle_syscalls(self, argv):
        """Runs argv under `strace -f -ttt` on a pty, stdin a pipe: text, wait until settled, a 2 s
        stall (the window), more text, EOF. Returns (syscalls in the window, their names, CPU ticks)."""
        out = os.path.join(self.work, "idle.strace")
        text = prose(random.Random(7), 300).replace(b"\n", b" ") + b"\n"
        win = {}

        def feeder(write, ctx):
            time.sleep(0.3)
            t_feed = write(text[:200])
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline:
                now = time.monotonic() - ctx["t0"]
                last = ctx["last_out"]
                if now >= t_feed + 1.6 and last is not None and now - last >= 0.3:
                    break
                time.sleep(0.05)
            pid = self._traced_pid(out)
            ticks0 = self._ticks(pid)
            win["start"] = time.time()
            time.sleep(2.0)
            win["end"] = time.time()
            win["ticks"] = (self._ticks(pid) - ticks0) if ticks0 is not None else None
            write(text[200:])

        res = run_pty([self.strace, "-f", "-ttt", "-qq", "-o", out, *argv], pty_env(), feeder=feeder, timeout=20)
        calls = []
        for line in open(out, errors="replace"):
            parts = line.split(None, 2)
            if len(parts) < 3:
                continue
            try:
                ts = float(parts[1])
            except ValueError:
                continue
            rest = parts[2]
            if rest.startswith(("---", "+++", "<...")):
                continue
            if win["start"] <= ts < win["end"]:
                calls.append(rest.split("(", 1)[0])
        return len(calls), collections.Counter(calls), win.get("ticks"), res

    def _traced_pid(self, path):
        for _ in range(100):
            try:
                with open(path) as f:
                    first = f.readline().split()
                if first:
                    return int(first[0])
            except (OSError, ValueError):
                pass
            time.sleep(0.02)
        return None

    @staticmethod
    def _ticks(pid):
        try:
            f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
            return int(f[11]) + int(f[12])
        except (OSError, IndexError, TypeError):
            return None

    def case_idle(self):
        if not self.strace:
            self.table.add("3. Idle: syscalls in a 2 s input stall", "n/a", target="0", ok=False, note="strace missing")
            return
        log("[3] idle: strace -f during a 2 s input stall after the fade settled")
        n, names, ticks, res = self.idle_syscalls([self.tw])
        nc, _, _, _ = self.idle_syscalls(["cat"])
        note = ", ".join(f"{k}×{v}" for k, v in names.most_common(6)) if n else ""
        if ticks:
            note = (note + "; " if note else "") + f"{ticks * 10} ms CPU in the window"
        if res["rc"] != 0:
            note += f"; exit status {res['rc']}"
        self.table.add("3. Idle: system calls in a 2 s stall after settling", str(n), str(nc), target="0",
                       ok=n == 0, note=note)

    # 4, 5, 6, 8 on the traces -------------------------------------------------------------------
    def case_traces(self):
        tdir = self.a.traces
        names = (["llm-fast", "gemini-sse", "progress-cr"] if self.quick else TRACES_TEXT + TRACES_WIRE)
        if self.a.trace_names:
            names = self.a.trace_names.split(",")
        names = [n for n in names if os.path.exists(os.path.join(tdir, n + ".trace"))]
        log(f"[4] lag: {len(names)} traces replayed in real time into typewrite on an 80x24 pty "
            f"(24-bit colour, defaults)")
        pool = concurrent.futures.ProcessPoolExecutor(max_workers=1)
        futures, recs = {}, {}
        slow_cut = 12 if self.quick else None
        for name in names + (["llm-slow-local"] if self.quick else []):
            if name in recs:
                continue
            sched = load_trace(os.path.join(tdir, name + ".trace"), slow_cut if name == "llm-slow-local" else None)
            argv = [self.tw] + (["--format", "raw"] if name in TRACES_WIRE else [])
            dur = sched[-1][0] if sched else 0
            log(f"  {name}: {len(sched)} writes over {dur:.1f} s")
            res = run_pty(argv, pty_env(), schedule=sched, timeout=dur + 30)
            inputs = [(t, d) for (t, _), (_, d) in zip(res["fed"], sched)]
            res["inputs"] = inputs
            res["sched"] = sched
            recs[name] = res
            if res["rc"] != 0 or res["timeout"]:
                log(f"    exit status {res['rc']}{' (timeout)' if res['timeout'] else ''}")
            if name in names:
                futures[name] = pool.submit(analyse_lag, name, inputs, res["rec"])
        self.results["traces"] = {}
        worst = None
        rows = []
        for name in names:
            try:
                r = futures[name].result()
            except Exception as e:  # noqa: BLE001 — a broken recording is a failed case, not a crash
                r = {"trace": name, "worst_s": float("inf"), "error": repr(e), "never_shown": -1}
            res = recs[name]
            r["rc"] = res["rc"]
            r["tail_after_eof_s"] = (res["exit"] - res["eof"]) if res["exit"] and res["eof"] else None
            self.results["traces"][name] = r
            rows.append(r)
            log(f"    {name:22s} worst {fmt(r.get('worst_s'), ' s', 3)}  p99 {fmt(r.get('p99_s'), ' s', 3)}  "
                f"p50 {fmt(r.get('p50_s'), ' s', 3)}  cell states {r.get('states')}  never shown {r.get('never_shown')}"
                f"  exit {fmt(r['tail_after_eof_s'], ' s', 3)} after EOF, status {r['rc']}"
                + (f"  worst at {r['worst_at']}" if r.get("worst_at") else "")
                + (f"  never e.g. {r['never_examples'][:2]}" if r.get("never_shown") else ""))
            if worst is None or r["worst_s"] > worst["worst_s"]:
                worst = r
        pool.shutdown()
        limit = 1.5 + FRAME
        never = sum(max(0, r.get("never_shown", 0)) for r in rows)
        bad_rc = [r["trace"] for r in rows if r["rc"] != 0]
        ok = worst is not None and worst["worst_s"] <= limit and never == 0 and not bad_rc
        note = f"worst: {worst['trace']}" if worst else ""
        if never:
            note += f"; {never} cell states never shown as cat shows them (" + ", ".join(
                f"{r['trace']} {r['never_shown']}" for r in rows if r.get("never_shown")) + ")"
        if bad_rc:
            note += "; non-zero exit: " + ", ".join(bad_rc)
        self.table.add(f"4. Lag, worst over {len(rows)} traces (s)", fmt(worst["worst_s"] if worst else None, nd=3),
                       "0", target=f"≤ {limit:.3f}", ok=ok, note=note)
        over = [f"{r['trace']} {r['worst_s']:.2f}" for r in rows if r["worst_s"] > limit]
        if over:
            log("    over the limit: " + ", ".join(over))

        # 5: CPU on llm-slow-local
        s = recs.get("llm-slow-local")
        if s:
            wall = s["exit"]
            pct = 100 * s["cpu_s"] / wall
            self.table.add(f"5. CPU streaming llm-slow-local{' (first 12 s)' if self.quick else ''} (% of a core)",
                           fmt(pct, " %"), target="≤ 3 %", ok=pct <= 3,
                           note=f"{s['cpu_s']:.2f} s CPU over {wall:.1f} s")
            # 8 (secondary): frame gaps on llm-slow-local, idle gaps left out
            fr = frames_with_state(s["rec"])
            gaps, idle = gaps_while_animating(fr)
            p99 = percentile(gaps, 0.99)
            self.results["slow_gaps"] = {"p99": p99, "max": max(gaps) if gaps else None, "n": len(gaps), "idle": idle}
            self.table.add("8. Frame gap p99 while fading, llm-slow-local (ms)", fmt(p99 * 1000 if p99 else None, nd=1),
                           target=f"≤ {2000 * FRAME:.1f} ms", ok=p99 is not None and p99 <= 2 * FRAME,
                           note=f"{len(fr)} frames, {idle} gaps after a settled frame left out, "
                                f"{sum(g > 2 * FRAME for g in gaps)} gaps over 2 frames, max {fmt(max(gaps) * 1000, nd=1)} ms")

        # 6: bytes per printable character, llm-fast
        f = recs.get("llm-fast")
        if f:
            data = b"".join(d for _, d in f["sched"])
            chars = printable_count(data)
            cat_bytes = len(data) + data.count(b"\n")  # what cat's output is on a tty (ONLCR)
            b24 = f["nbytes"] / chars
            self.table.add("6. Output bytes per printable char, llm-fast, 24-bit", fmt(b24, nd=1), fmt(cat_bytes / chars),
                           ratio=f"{b24 / (cat_bytes / chars):.0f}×", target="≤ 150", ok=b24 <= 150)
            r256 = run_pty([self.tw], pty_env(colorterm=None), schedule=f["sched"], timeout=40, keep=False)
            b256 = r256["nbytes"] / chars
            self.table.add("6. Output bytes per printable char, llm-fast, 256 colours", fmt(b256, nd=1),
                           fmt(cat_bytes / chars), ratio=f"{b256 / (cat_bytes / chars):.0f}×", target="≤ 100", ok=b256 <= 100)

    # 5: 10 MiB burst ------------------------------------------------------------------------------
    def case_burst(self):
        size = 10 << 20
        runs = 1 if self.quick else 3
        f = ensure_file(os.path.join(self.work, "text-10m.txt"), size)
        data = open(f, "rb").read()
        log(f"[5] 10 MiB single burst to a pty, {runs} run(s)")

        def one(argv):
            def feeder(write, ctx):
                ctx["first_in"] = time.monotonic() - ctx["t0"]
                write(data)
                first_in.append(ctx["first_in"])
            first_in = []
            rss_path = os.path.join(self.work, "rss-burst.txt")
            res = run_pty(with_peak_rss(argv, rss_path), pty_env(), feeder=feeder, timeout=60, keep=False)
            res["max_rss_kib"] = read_peak_rss(rss_path)
            res["wall"] = res["exit"] - first_in[0] if res["exit"] is not None else float("inf")
            return res

        tw = [one([self.tw]) for _ in range(runs)]
        cat = one(["cat"])
        wall = statistics.median(r["wall"] for r in tw)
        cpu = statistics.median(r["cpu_s"] for r in tw)
        rss = max((r["max_rss_kib"] or 0) for r in tw)
        bad = [r["rc"] for r in tw if r["rc"] != 0]
        self.table.add(f"5. 10 MiB burst: wall, first byte in → exit (s, median of {runs})", fmt(wall), fmt(cat["wall"]),
                       ratio=f"{wall / cat['wall']:.1f}×", target="≤ 1.6 s", ok=wall <= 1.6 and not bad,
                       note=f"exit status {bad}" if bad else f"{tw[0]['nbytes'] / 2**20:.1f} MiB written")
        self.table.add("5. 10 MiB burst: CPU (s)", fmt(cpu), fmt(cat["cpu_s"]), ratio=f"{cpu / max(cat['cpu_s'], 1e-3):.0f}×",
                       target="≤ 1 s", ok=cpu <= 1, note=f"peak RSS {mib(rss):.1f} MiB")

    # 7: animated memory -----------------------------------------------------------------------------
    def case_memory_animated(self):
        size = (32 if self.quick else 100) << 20
        log(f"[7] animated {size >> 20} MiB to /dev/null (--animate=always --cps 1e8, COLUMNS=80)")
        env = dict(os.environ, COLUMNS="80", TERM="xterm-256color", COLORTERM="truecolor")
        for k in ("NO_COLOR", "REDUCED_MOTION"):
            env.pop(k, None)
        for one_line in (False, True):
            f = ensure_file(os.path.join(self.work, f"text-{size >> 20}m{'-oneline' if one_line else ''}.txt"), size, one_line)
            argv = [self.tw, "--animate=always", "--cps", "100000000"]
            res = {}

            def go():
                res["r"] = peak_rss(argv, f, env=env, work=self.work)
            th = threading.Thread(target=go, daemon=True)
            th.start()
            th.join(300)
            if th.is_alive():
                self.table.add(f"7. Peak RSS, {size >> 20} MiB animated{', one line' if one_line else ''} (MiB)", "timeout",
                               target="≤ 64 MiB", ok=False)
                continue
            rss, wall, ru, rc = res["r"]
            cat_rss = peak_rss(["cat"], f, work=self.work)[0]
            desc = "one line, no newline" if one_line else "lines"
            self.table.add(f"7. Peak RSS, {size >> 20} MiB animated, {desc} (MiB)", fmt(mib(rss), nd=1),
                           fmt(mib(cat_rss), nd=1), target="≤ 64 MiB", ok=rss is not None and rss <= 64 * 1024 and rc == 0,
                           note=f"{wall:.1f} s wall, {ru.ru_utime + ru.ru_stime:.1f} s CPU"
                                + (f", exit status {rc}" if rc else ""))

    # 8: steady stream ---------------------------------------------------------------------------------
    def case_frames(self):
        secs = 3 if self.quick else 8
        runs = 1 if self.quick else 3
        log(f"[8] frame regularity: steady stream, 3 characters every 40 ms for {secs} s, {runs} run(s)")
        text = prose(random.Random(8), int(secs / 0.04) * 3 + 10)
        sched = [(0.2 + i * 0.04, text[3 * i:3 * i + 3]) for i in range(int(secs / 0.04))]
        gaps, nframes, cpu, wall = [], 0, 0, 0
        for _ in range(runs):
            r = run_pty([self.tw], pty_env(), schedule=sched, timeout=secs + 20)
            fr = frames_with_state(r["rec"])
            nframes += len(fr)
            gaps += gaps_while_animating(fr)[0]
            cpu += r["cpu_s"]
            wall += r["exit"]
        p99 = percentile(gaps, 0.99)
        self.results["steady_gaps"] = {"p50": percentile(gaps, 0.5), "p99": p99, "max": max(gaps), "n": len(gaps)}
        self.table.add("8. Frame gap p99, steady stream (ms)", fmt(p99 * 1000, nd=1), target=f"≤ {2000 * FRAME:.1f} ms",
                       ok=p99 <= 2 * FRAME,
                       note=f"{nframes} frames, median {percentile(gaps, 0.5) * 1000:.1f} ms, "
                            f"{sum(g > 2 * FRAME for g in gaps)} gaps over 2 frames, max {max(gaps) * 1000:.1f} ms, "
                            f"CPU {100 * cpu / wall:.1f} %")

    # 9 -----------------------------------------------------------------------------------------------
    def case_pv(self):
        if not self.pv:
            self.table.add("9. Against pv -qL", "n/a", note="pv missing")
            return
        size = 2000 if self.quick else 20000
        rate = 400
        f = os.path.join(self.work, f"text-{size}.txt")
        with open(f, "wb") as fh:
            fh.write(prose(random.Random(9), size).decode("utf-8", "ignore").encode())
        log(f"[9] --cps {rate} --max-lag inf against pv -qL {rate}, {size} bytes to a pty "
            f"(both at once, {size / rate:.0f} s)")
        out = {}

        def go(name, argv):
            out[name] = run_pty(argv, pty_env(), stdin_path=f, timeout=size / rate * 3 + 30, keep=False)
        ths = [threading.Thread(target=go, args=("typewrite", [self.tw, "--cps", str(rate), "--max-lag", "inf"])),
               threading.Thread(target=go, args=("pv", [self.pv, "-qL", str(rate)]))]
        for t in ths:
            t.start()
        for t in ths:
            t.join()
        t, p = out["typewrite"], out["pv"]
        self.table.add(f"9. `--cps {rate} --max-lag inf` vs `pv -qL {rate}`, {size // 1000} KB: CPU (s)", fmt(t["cpu_s"], nd=3),
                       pv=fmt(p["cpu_s"], nd=3), ratio=f"{t['cpu_s'] / max(p['cpu_s'], 1e-3):.1f}×",
                       note=f"wall {t['exit']:.1f} s vs {p['exit']:.1f} s")
        self.table.add(f"9. same: bytes written to the pty", str(t["nbytes"]), pv=str(p["nbytes"]),
                       ratio=f"{t['nbytes'] / max(p['nbytes'], 1):.1f}×", note=f"{t['nbytes'] / size:.1f} bytes per input byte")

    # 13: floods ---------------------------------------------------------------------------------------
    def flood_inputs(self):
        """The flood inputs of case 13, written once to the work directory: name -> path."""
        d = os.path.join(self.work, "floods")
        os.makedirs(d, exist_ok=True)

        def make(name, gen):
            path = os.path.join(d, name)
            if not os.path.exists(path):
                log(f"  generating {path}")
                with open(path + ".tmp", "wb") as f:
                    gen(f)
                os.replace(path + ".tmp", path)
            return path

        def seq(n):
            def gen(f):
                for i in range(1, n + 1, 10000):
                    f.write("".join(f"{k}\n" for k in range(i, min(n, i + 9999) + 1)).encode())
            return gen

        def ab(f):
            f.write(b"ab\n" * ((32 << 20) // 3))

        def lines72(f):
            line = bytes(0x41 + i % 26 for i in range(72)) + b"\n"
            block = line * 10000
            left = (100 << 20) // len(line)
            while left > 0:
                f.write(block[:len(line) * min(left, 10000)])
                left -= 10000

        def mix(f):
            rng = random.Random("typewrite-bench/floods")
            pens = ["\x1b[31m", "\x1b[32m", "\x1b[1;34m", "\x1b[38;5;208m", "\x1b[38;2;10;200;90m", "\x1b[0m", "\x1b[m"]
            words = "the quick brown fox jumps over lazy dog tide pool € 日本 日 café".split()
            out = []
            for _ in range(50000):
                parts = []
                for _ in range(rng.randint(1, 10)):
                    r = rng.random()
                    if r < 0.15:
                        parts.append("\t")
                    elif r < 0.35:
                        parts.append(rng.choice(pens))
                    parts.append(rng.choice(words) + " ")
                out.append("".join(parts) + "\x1b[0m\n")
            f.write("".join(out).encode())

        def progress(f):
            f.write(b"".join(b"progress %6d/200000 [%-20s]\r" % (i, b"#" * (i * 20 // 200000)) for i in range(200000)) + b"\n")

        return {"seq 1 1000000": make("seq-1m", seq(1000000)), "32 MiB of ab\\n": make("ab-32m", ab),
                "100 MiB of 72-char lines": make("lines72-100m", lines72), "50,000-line mix": make("mix-50k", mix),
                "200,000 \\r rewrites": make("progress-200k", progress), "seq 1 200000": make("seq-200k", seq(200000))}

    def ptyscreen(self, mode, path, argv, *extra, timeout=180, source="--bin"):
        """Scripts/check/ptyscreen.py MODE on `path` (a file, or a trace with source="--trace"): its JSON summary."""
        tool = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "check", "ptyscreen.py")
        r = subprocess.run([sys.executable, tool, mode, *extra, source, path, "--timeout", str(timeout), "--", *argv],
                           capture_output=True, text=True)
        try:
            return json.loads(r.stdout.strip().splitlines()[-1])
        except (IndexError, ValueError):
            return {"error": (r.stderr or r.stdout)[-300:]}

    def case_floods(self):
        log("[13] floods on an 80x24 pty (ptyscreen.py record), exit against cat's, best of two each")
        inputs = self.flood_inputs()
        rss_path = os.path.join(self.work, "rss-flood.txt")
        seq_bytes = None
        names = ["seq 1 1000000", "32 MiB of ab\\n", "100 MiB of 72-char lines", "50,000-line mix", "200,000 \\r rewrites"]
        if self.a.floods:
            names = [n for n in names if any(w in n for w in self.a.floods.split(","))]
        for name in names:
            path = inputs[name]
            best, rss, nbytes = {}, 0, {}
            for _ in range(2):
                for prog, argv in (("cat", [self.cat]), ("typewrite", [self.tw])):
                    r = self.ptyscreen("record", path, with_peak_rss(argv, rss_path))
                    if r.get("rc") != 0:
                        log(f"  {name} {prog}: {r}")
                        best[prog] = float("inf")
                        continue
                    best[prog] = min(best.get(prog, float("inf")), r["exit_s"])
                    nbytes[prog] = r["output_bytes"]
                    if prog == "typewrite":
                        rss = max(rss, read_peak_rss(rss_path) or 0)
            after = best["typewrite"] - best["cat"]
            log(f"  {name}: typewrite exits {after:.2f} s after cat ({best['typewrite']:.2f} vs {best['cat']:.2f} s), "
                f"peak RSS {mib(rss):.1f} MiB")
            # Floods of tiny lines keep a margin: their per-line costs are paid once per run of lines.
            bound = 1.0 if name in ("seq 1 1000000", "32 MiB of ab\\n") else 2.0
            self.table.add(f"13. Flood `{name}`: exit after cat's exit (s, best of 2)", fmt(after), fmt(best["cat"]),
                           target=f"≤ {bound:.1f} s, RSS ≤ 64 MiB", ok=after <= bound and 0 < rss <= 64 * 1024,
                           note=f"exit {best['typewrite']:.2f} s; peak RSS {mib(rss):.1f} MiB")
            if name == "seq 1 1000000":
                seq_bytes = nbytes
        if seq_bytes and "typewrite" in seq_bytes:
            ratio = seq_bytes["typewrite"] / seq_bytes["cat"]
            self.table.add("13. Output bytes, `seq 1 1000000` on a pty", str(seq_bytes["typewrite"]), str(seq_bytes["cat"]),
                           ratio=f"{ratio:.3f}×", target="≤ 1.1× cat", ok=ratio <= 1.1)
        for name in ["seq 1 200000", "50,000-line mix"]:
            if self.a.floods:
                break
            r = self.ptyscreen("frames", inputs[name], [self.tw])
            ok = r.get("screen_identical") is True and (r.get("intermediate_colors") or 0) >= 8
            self.table.add(f"13. `{name}`: settled screen + scrollback = cat's; fade colours",
                           f"{'identical' if r.get('screen_identical') else 'differs'}, {r.get('intermediate_colors')} colours",
                           target="identical, ≥ 8", ok=ok,
                           note="" if ok else json.dumps({k: r.get(k) for k in ("first_diff_line", "got", "want", "error")})[:200])
        if self.a.floods:
            return
        cov = self.ptyscreen("frames", os.path.join(self.a.traces, "llm-fast.trace"), [self.tw], source="--trace").get("fade_coverage")
        self.table.add("13. fade_coverage, llm-fast.trace (ptyscreen frames)", fmt(cov, nd=3), target="≥ 0.9",
                       ok=cov is not None and cov >= 0.9)
        with open(os.path.join(self.work, "seq-100.txt"), "w") as f:
            f.write("".join(f"{i}\n" for i in range(1, 101)))
        r = self.ptyscreen("record", os.path.join(self.work, "seq-100.txt"), [self.tw, "--cps", "100", "--max-lag", "inf"])
        wall = r.get("exit_s")
        self.table.add("13. `seq 1 100 \\| typewrite --cps 100 --max-lag inf` (s)", fmt(wall), target="≥ 1.7 s",
                       ok=wall is not None and wall >= 1.7 and r.get("rc") == 0)

    # 14: markdown highlighting -------------------------------------------------------------------------
    def markdown_supported(self):
        """Whether the binary accepts --markdown (a usage error, status 2, when it does not)."""
        _, out, _ = run_small([self.tw, "--markdown=never", "--animate=never"], b"ok\n")
        return out == b"ok\n"

    def cpu_run(self, argv, src_path, env, timeout):
        """CPU seconds (user + system, from wait4) of `argv < src_path > /dev/null`, killed after
        `timeout` seconds of wall time (its process group). Returns (cpu, wall, exit status, killed)."""
        src = os.open(src_path, os.O_RDONLY)
        out = os.open(os.devnull, os.O_WRONLY)
        try:
            t0 = time.perf_counter()
            pid = spawn(argv, src, out, env=env, setsid=True)
            killed = False
            while True:
                got, status, ru = os.wait4(pid, os.WNOHANG)
                if got:
                    break
                if time.perf_counter() - t0 > timeout and not killed:
                    os.killpg(pid, signal.SIGKILL)
                    killed = True
                time.sleep(0.005)
            return ru.ru_utime + ru.ru_stime, time.perf_counter() - t0, os.waitstatus_to_exitcode(status), killed
        finally:
            os.close(src)
            os.close(out)

    def case_markdown(self):
        """Markdown highlighting: the CPU of cmark's pathological inputs with and without it, the
        highlighter's CPU per million characters on real answers, and the restyles of a streamed run."""
        log("[14] markdown: pathological inputs, cost per character, restyles")
        d = os.path.join(self.work, "markdown")
        os.makedirs(d, exist_ok=True)
        repo = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
        answers = [json.loads(l)["text"] for l in open(os.path.join(repo, "Tests", "markdown", "answers.jsonl"),
                                                      encoding="utf-8") if l.strip()]
        supported = self.markdown_supported()
        if not supported:
            log("  this binary does not accept --markdown")
            self.table.add("14. Markdown: `--markdown` accepted", "no", target="yes", ok=False,
                           note="usage error: the pathological and per-character rows need it")
        # Animated into /dev/null as fast as typewrite goes: every character goes through the
        # renderer (and the highlighter) once, the file arrives in the largest reads typewrite takes.
        env = dict(os.environ, COLUMNS="80", LINES="24", TERM="xterm-256color", COLORTERM="truecolor")
        for k in ("NO_COLOR", "REDUCED_MOTION", "FORCE_COLOR", "CLICOLOR_FORCE", "COLORFGBG", "TYPEWRITE_MARKDOWN_STATS"):
            env.pop(k, None)
        fast = ["--animate=always", "--cps", "1e9"]

        def argv(when):
            return [self.tw, f"--markdown={when}"] + fast

        if supported:
            patho = pathological_markdown(os.path.join(d, "patho"))
            runs = 1 if self.quick else 2
            for name in sorted(os.listdir(patho)):
                path = os.path.join(patho, name)
                plain = md = float("inf")
                bad, killed = [], False
                for i in range(runs):
                    cpu, _, rc, _ = self.cpu_run(argv("never"), path, env, 60)
                    plain = min(plain, cpu)
                    if rc:
                        bad.append(f"--markdown=never exit status {rc}")
                    budget = 2 * plain + 1
                    cpu, wall, rc, k = self.cpu_run(argv("always"), path, env, 2 * budget + 2)
                    md = min(md, cpu)
                    killed = killed or k
                    if k:
                        bad.append(f"killed after {wall:.1f} s wall")
                        break
                    if rc:
                        bad.append(f"exit status {rc}")
                budget = 2 * plain + 1
                ok = md <= budget and not bad
                stem = name.rsplit(".", 1)[0]
                self.table.add(f"14. Markdown CPU, pathological `{stem}` ({os.path.getsize(path) // 1000} KB; s, best of {runs})",
                               fmt(md, nd=3) if not killed else f"> {fmt(md, nd=3)}",
                               ratio=f"{md / max(plain, 1e-3):.1f}×", target="≤ 2 × plain + 1 s", ok=ok,
                               note=f"plain (--markdown=never) {plain:.3f} s" + ("; " + ", ".join(bad) if bad else ""))
            # the highlighter's cost per character: the answers concatenated, repeated to a few MB
            reps = 5 if self.quick else 20
            text = "\n\n".join(answers) + "\n\n"
            corpus = os.path.join(d, f"answers-x{reps}.md")
            with open(corpus, "w", encoding="utf-8") as fh:
                fh.write(text * reps)
            chars = len(text) * reps
            runs = 2 if self.quick else 3
            cpu = {"always": float("inf"), "never": float("inf")}
            rcs = set()
            for i in range(runs):
                for when in (("always", "never") if i % 2 == 0 else ("never", "always")):
                    c, _, rc, _ = self.cpu_run(argv(when), corpus, env, 120)
                    cpu[when] = min(cpu[when], c)
                    rcs.add(rc)
            per = (cpu["always"] - cpu["never"]) / (chars / 1e6)
            self.table.add(f"14. Markdown highlighter CPU per million characters (s, best of {runs})", fmt(per, nd=3),
                           note=f"{len(answers)} answers concatenated ×{reps}, {chars / 1e6:.2f} M code points, "
                                f"`--animate=always --cps 1e9` to /dev/null: --markdown=always {cpu['always']:.3f} s, "
                                f"never {cpu['never']:.3f} s" + ("" if rcs == {0} else f"; exit statuses {sorted(rcs)}"))
        self.markdown_restyles(answers, d, supported)

    def markdown_restyles(self, answers, d, supported=True):
        """Each answer streamed in random pieces (1-120 bytes, 0-40 ms apart, as mdcheck.py streams
        them) into an 80x24 pty with --markdown=always; typewrite writes its restyle counts to the
        file named by TYPEWRITE_MARKDOWN_STATS at exit."""
        count = 30 if self.quick else len(answers)
        log(f"  restyles: {count} answers streamed in random pieces into an 80x24 pty, 4 at a time")

        def one(i):
            if not supported:
                return 2, None
            rnd = random.Random(f"typewrite-bench/markdown/{i}")
            data = answers[i].encode("utf-8")
            sched = random_pieces(rnd, data, start=0.05)
            stats = os.path.join(d, f"stats-{i}.json")
            if os.path.exists(stats):
                os.remove(stats)
            r = run_pty([self.tw, "--markdown=always"], pty_env(extra={"TYPEWRITE_MARKDOWN_STATS": stats}),
                        schedule=sched, timeout=60, keep=False)
            try:
                with open(stats, encoding="utf-8") as fh:
                    s = json.load(fh)
                return r["rc"], (int(s["characters"]), int(s["restyledCells"]), int(s["restyledOffScreen"]))
            except (OSError, ValueError, KeyError, TypeError):
                return r["rc"], None

        with concurrent.futures.ThreadPoolExecutor(4) as ex:
            res = list(ex.map(one, range(count)))
        got = [s for _, s in res if s is not None]
        rcs = collections.Counter(rc for rc, _ in res)
        status = "" if set(rcs) == {0} else "; exit statuses " + ", ".join(f"{rc}: {n}" for rc, n in sorted(rcs.items(), key=str))
        label = f"{count} answers in random pieces, 80×24"
        if not got:
            self.table.add(f"14. Markdown restyled cells per 1,000 characters ({label})", "not reported by this binary",
                           note="no TYPEWRITE_MARKDOWN_STATS file" + status)
            self.table.add(f"14. Markdown restyles of cells already off the screen ({label})",
                           "not reported by this binary", target="0", note=status.lstrip("; "))
            return
        chars = sum(s[0] for s in got)
        cells = sum(s[1] for s in got)
        off = sum(s[2] for s in got)
        missing = f"; {count - len(got)} runs wrote no stats" if len(got) < count else ""
        self.table.add(f"14. Markdown restyled cells per 1,000 characters ({label})", fmt(1000 * cells / max(chars, 1), nd=2),
                       note=f"{cells} cells over {chars} characters; most in one answer "
                            f"{max(s[1] for s in got)}" + missing + status)
        self.table.add(f"14. Markdown restyles of cells already off the screen ({label})", str(off), target="0",
                       ok=off == 0 and not missing and set(rcs) == {0},
                       note=f"in {sum(1 for s in got if s[2])} answers" + missing + status)

    # 15: every script as a flood ---------------------------------------------------------------------
    SCRIPT_KINDS = ["ASCII prose", "Japanese", "Chinese", "Korean", "emoji (ZWJ, flags, skin tones)",
                    "accented Latin, precomposed", "accented Latin, decomposed", "Devanagari", "Arabic", "Thai"]

    @staticmethod
    def script_line(kind, rng):
        """One line (without its LF) of generated text in `kind` (SCRIPT_KINDS): words of the script's
        letters with its own combining marks, conjuncts or sequences, and ASCII spaces and punctuation."""
        def pick(ranges):
            a, b = rng.choice(ranges)
            return chr(rng.randint(a, b))

        def words(make, lo=4, hi=12, sep=" "):
            return sep.join(make() for _ in range(rng.randint(lo, hi)))

        if kind == "ASCII prose":
            return " ".join(rng.choice(WORDS) for _ in range(rng.randint(5, 14))) + "."
        if kind == "Japanese":
            kana = [(0x3041, 0x3093), (0x30A1, 0x30F3)]
            return "".join(pick(kana) if rng.random() < 0.55 else chr(0x4E00 + rng.randint(0, 3000))
                           for _ in range(rng.randint(12, 36))) + rng.choice("。、！？")
        if kind == "Chinese":
            return "".join(chr(0x4E00 + rng.randint(0, 6000)) if rng.random() < 0.92 else rng.choice("，。；：")
                           for _ in range(rng.randint(12, 36))) + "。"
        if kind == "Korean":
            return words(lambda: "".join(chr(0xAC00 + rng.randint(0, 11171)) for _ in range(rng.randint(1, 5))), 3, 9) + "."
        if kind == "emoji (ZWJ, flags, skin tones)":
            tones = [chr(c) for c in range(0x1F3FB, 0x1F400)]
            people = ["\U0001F468", "\U0001F469", "\U0001F9D1", "\U0001F467", "\U0001F466"]
            flags = ["JP", "FR", "US", "DE", "IN", "BR", "KR", "CN", "EG", "TH", "GB", "ES"]

            def one():
                r = rng.random()
                if r < 0.25:
                    return "\u200D".join(rng.choice(people) for _ in range(rng.randint(2, 4)))
                if r < 0.45:
                    return "".join(chr(0x1F1E6 + ord(c) - 65) for c in rng.choice(flags))
                if r < 0.65:
                    return rng.choice(["\U0001F44D", "\U0001F44B", "\U0001F64F", "\U0001F9D1"]) + rng.choice(tones)
                if r < 0.75:
                    return rng.choice(people) + rng.choice(tones) + "\u200D" + rng.choice(["\U0001F4BB", "\U0001F52C", "\U0001F680"])
                if r < 0.85:
                    return rng.choice(["\u2764\uFE0F", "\u2600\uFE0F", "#\uFE0F\u20E3", "\U0001F3F3\uFE0F\u200D\U0001F308"])
                return chr(rng.randint(0x1F600, 0x1F64F))
            return words(one, 3, 10)
        if kind == "accented Latin, precomposed":
            letters = "abcdefghijklmnoprstuvz" + "àáâãäåçèéêëìíîïñòóôõöùúûüýÿāăąćčďēęěğīıłńňőœřśşšťūůűźżž"
            return words(lambda: "".join(rng.choice(letters) for _ in range(rng.randint(2, 9))), 5, 12) + "."
        if kind == "accented Latin, decomposed":
            marks = ["\u0300", "\u0301", "\u0302", "\u0303", "\u0308", "\u030C", "\u0327", "\u0328"]
            return words(lambda: "".join(rng.choice("aeiouncszrl") + (rng.choice(marks) if rng.random() < 0.45 else "")
                                         for _ in range(rng.randint(2, 9))), 5, 12) + "."
        if kind == "Devanagari":
            consonants = [chr(c) for c in range(0x0915, 0x0939)]
            signs = [chr(c) for c in range(0x093E, 0x094C)] + ["\u0902", "\u0901"]

            def syllable():
                s = rng.choice(consonants)
                if rng.random() < 0.3:
                    s += "\u094D" + rng.choice(consonants)   # a conjunct (GB9c)
                if rng.random() < 0.6:
                    s += rng.choice(signs)
                return s
            return words(lambda: "".join(syllable() for _ in range(rng.randint(1, 4))), 4, 11) + "\u0964"
        if kind == "Arabic":
            letters = [chr(c) for c in range(0x0627, 0x063B)] + [chr(c) for c in range(0x0641, 0x064B)]
            harakat = ["\u064E", "\u064F", "\u0650", "\u0651", "\u0652"]
            return words(lambda: "".join(rng.choice(letters) + (rng.choice(harakat) if rng.random() < 0.3 else "")
                                         for _ in range(rng.randint(2, 7))), 4, 11) + "."
        if kind == "Thai":
            consonants = [chr(c) for c in range(0x0E01, 0x0E2F)]
            above = ["\u0E31", "\u0E34", "\u0E35", "\u0E36", "\u0E37", "\u0E48", "\u0E49", "\u0E4A", "\u0E4B"]
            return words(lambda: "".join(rng.choice(consonants) + (rng.choice(above) if rng.random() < 0.4 else "")
                                         + ("\u0E33" if rng.random() < 0.05 else "") for _ in range(rng.randint(2, 8))), 3, 9)
        raise ValueError(kind)

    def script_input(self, kind, nbytes):
        """`nbytes` of lines of `kind`, written once to the work directory (a 4 MiB block of generated
        lines, repeated; cut at a line end)."""
        d = os.path.join(self.work, "scripts")
        os.makedirs(d, exist_ok=True)
        slug = "".join(c if c.isalnum() else "-" for c in kind.lower())
        path = os.path.join(d, f"{slug}-{nbytes >> 20}m.txt")
        if os.path.exists(path) and os.path.getsize(path) == nbytes:
            return path
        log(f"  generating {path}")
        rng = random.Random(f"typewrite-bench/scripts/{kind}")
        lines, size = [], 0
        while size < min(nbytes, 4 << 20):
            b = (self.script_line(kind, rng) + "\n").encode()
            lines.append(b)
            size += len(b)
        block = b"".join(lines)
        with open(path + ".tmp", "wb") as f:
            left = nbytes
            while left > len(block):
                f.write(block)
                left -= len(block)
            cut = block[:left]
            cut = cut[:cut.rfind(b"\n") + 1] if b"\n" in cut else b""
            f.write(cut + b"." * (left - len(cut) - 1) + b"\n" if left > len(cut) else cut)
        os.replace(path + ".tmp", path)
        return path

    def case_scripts(self):
        """Floods of every script's lines in an 80x24 pty: exit after cat's, CPU per MiB against ASCII
        prose, peak RSS, and the settled screen of a 1 MiB sample against cat's."""
        size = (10 if self.quick else 50) << 20
        log(f"[15] every script: {size >> 20} MiB of lines each on an 80x24 pty, best of two against cat")
        rss_path = os.path.join(self.work, "rss-scripts.txt")
        ascii_cpu = None
        kinds = self.SCRIPT_KINDS
        if self.a.scripts:
            # ASCII prose always runs first: it is the CPU-per-MiB yardstick
            words = [w.strip().lower() for w in self.a.scripts.split(",") if w.strip()]
            kinds = [k for k in kinds if k == "ASCII prose" or any(w in k.lower() for w in words)]
        for kind in kinds:
            path = self.script_input(kind, size)
            best, cpu, rss = {}, float("inf"), 0
            for _ in range(2):
                for prog, argv in (("cat", [self.cat]), ("typewrite", [self.tw])):
                    r = self.ptyscreen("record", path, with_peak_rss(argv, rss_path))
                    if r.get("rc") != 0:
                        log(f"  {kind} {prog}: {r}")
                        best[prog] = float("inf")
                        continue
                    best[prog] = min(best.get(prog, float("inf")), r["exit_s"])
                    if prog == "typewrite":
                        cpu = min(cpu, r.get("cpu_s", float("inf")))
                        rss = max(rss, read_peak_rss(rss_path) or 0)
            per_mib = cpu / (size / 2**20)
            if kind == "ASCII prose":
                ascii_cpu = per_mib
            ratio = per_mib / ascii_cpu if ascii_cpu else float("nan")
            sample = path + ".sample"
            if not os.path.exists(sample):
                with open(path, "rb") as src:
                    head = src.read(1 << 20)
                with open(sample, "wb") as f:
                    f.write(head[:head.rfind(b"\n") + 1])
            same = self.ptyscreen("compare", sample, [self.tw]).get("screen_identical") is True
            after = best["typewrite"] - best["cat"]
            log(f"  {kind}: exit {after:.2f} s after cat, CPU {1000 * per_mib:.1f} ms/MiB ({ratio:.1f}x ASCII), "
                f"peak RSS {mib(rss):.1f} MiB, screen {'identical' if same else 'differs'}")
            ok = after <= 2.0 and 0 < rss <= 64 * 1024 and same and (kind == "ASCII prose" or ratio <= 2.0)
            self.table.add(f"15. {size >> 20} MiB of {kind} lines: exit after cat's exit (s, best of 2)", fmt(after),
                           fmt(best["cat"]), ratio=f"{ratio:.1f}× CPU/MiB",
                           target="≤ 2.0 s, ≤ 2× ASCII CPU/MiB, RSS ≤ 64 MiB, screen = cat's", ok=ok,
                           note=f"exit {best['typewrite']:.2f} s; CPU {1000 * per_mib:.1f} ms/MiB; peak RSS {mib(rss):.1f} MiB; "
                                f"1 MiB sample's settled screen {'identical to' if same else 'differs from'} cat's")

    def case_markdown_line(self):
        """One 10 MB line of prose with --markdown=always in an 80x24 pty: exit status and peak RSS."""
        path = ensure_file(os.path.join(self.work, "prose-10m-line.txt"), 10_000_000, one_line=True)
        rss_path = os.path.join(self.work, "rss-md-line.txt")
        worst, rcs, exits = 0, set(), []
        for _ in range(2):
            r = self.ptyscreen("record", path, with_peak_rss([self.tw, "--markdown=always"], rss_path))
            rcs.add(r.get("rc"))
            exits.append(r.get("exit_s") or float("nan"))
            worst = max(worst, read_peak_rss(rss_path) or 0)
        ok = rcs == {0} and 0 < worst <= 64 * 1024
        self.table.add("14. Markdown, one 10 MB line `--markdown=always` on an 80x24 pty: peak RSS (MiB, worst of 2)",
                       f"{mib(worst):.1f}", target="exit 0, ≤ 64 MiB", ok=ok,
                       note=f"exit statuses {sorted(rcs, key=str)}; exit {min(exits):.2f} s")

    def run(self):
        only = set(self.a.only.split(",")) if self.a.only else None
        if only and "markdown" in only:
            only.add("14")
        t0 = time.monotonic()
        ver = subprocess.run([self.tw, "--version"], capture_output=True, text=True).stdout.strip()
        load0 = os.getloadavg()[0]
        log(f"typewrite benchmark: {self.tw} ({ver}); {'quick' if self.quick else 'full'} run; "
            f"{os.cpu_count()} CPUs, load average {load0:.2f}; work files in {self.work}")
        if load0 > 0.5 * (os.cpu_count() or 1):
            log("  warning: the machine is busy; timings (startup, frames, lag) will be noisy")
        steps = [("1", self.case_throughput), ("2", self.case_startup), ("3", self.case_idle),
                 ("4", self.case_traces), ("5", self.case_burst), ("7", self.case_memory_animated),
                 ("8", self.case_frames), ("9", self.case_pv), ("13", self.case_floods),
                 ("14", self.case_markdown), ("14 md-line", self.case_markdown_line), ("15", self.case_scripts)]
        for key, fn in steps:
            if only and not only & set(key.split()):
                continue
            try:
                fn()
            except Exception as e:  # noqa: BLE001
                import traceback
                traceback.print_exc()
                self.table.add(f"{key}. (case crashed)", "error", ok=False, note=repr(e)[:200])
        took = time.monotonic() - t0
        print()
        print(f"typewrite benchmark ({'quick' if self.quick else 'full'} run, {took:.0f} s; {ver}; "
              f"{os.cpu_count()} CPUs, load average {load0:.2f} at start, {os.getloadavg()[0]:.2f} at end; "
              f"ratios measured in the same run)")
        print()
        print(self.table.markdown())
        traces = self.results.get("traces")
        if traces:
            print()
            print("Lag per trace (cell states: every state cat's screen gives a cell; lag = shown by typewrite − arrival):")
            print()
            print("| trace | worst (s) | p99 (s) | median (s) | cell states | never shown | exit after EOF (s) |")
            print("|---|---|---|---|---|---|---|")
            for name, r in traces.items():
                print(f"| {name} | {fmt(r.get('worst_s'), nd=3)} | {fmt(r.get('p99_s'), nd=3)} | {fmt(r.get('p50_s'), nd=3)} "
                      f"| {r.get('states')} | {r.get('never_shown')} | {fmt(r.get('tail_after_eof_s'), nd=3)} |")
        fails = [r[0] for r in self.table.rows if r[6] == "FAIL"]
        print()
        print(f"{len(fails)} target(s) failed" + (": " + "; ".join(fails) if fails else ""))
        with open(os.path.join(self.work, "results.json"), "w") as fh:
            json.dump({"rows": self.table.rows, "results": self.results}, fh, indent=1, default=str)
        return 1 if fails else 0


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description="typewrite benchmark")
    ap.add_argument("--binary", default=os.path.join(here, "..", "..", ".build", "release", "typewrite"))
    ap.add_argument("--quick", action="store_true", help="fewer runs, smaller inputs (about a minute)")
    ap.add_argument("--only", help="comma-separated case numbers to run: 1,2,3,4,5,7,8,9,13,14,15 (4 also gives 5-CPU, 6, 8; "
                    "markdown = 14; md-line: only case 14's 10 MB line)")
    ap.add_argument("--floods", help="case 13: only the floods whose names contain one of these comma-separated words "
                    "(seq, ab, 72-char, mix, rewrites), and none of its screen checks")
    ap.add_argument("--scripts", help="case 15: only the scripts whose names contain one of these comma-separated words "
                    "(japanese, chinese, korean, emoji, precomposed, decomposed, latin, devanagari, arabic, thai); "
                    "ASCII prose, the yardstick, always runs")
    ap.add_argument("--trace-names", help="comma-separated trace names for case 4 (default: all; --quick: three)")
    ap.add_argument("--traces", default=os.path.join(here, "..", "..", "Tests", "traces"), help="folder of .trace files")
    ap.add_argument("--workdir", default="/tmp/typewrite-bench")
    a = ap.parse_args()
    if not os.access(a.binary, os.X_OK):
        ap.error(f"no executable at {a.binary}")
    sys.exit(Bench(a).run())


if __name__ == "__main__":
    main()
