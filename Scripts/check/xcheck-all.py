#!/usr/bin/env python3
"""Real emulators in the loop: typewrite against cat, screenshot by screenshot, in xterm, urxvt, st,
kitty, alacritty and GNU screen under Xvfb. The terminal work (starting each emulator on a private
Xvfb, screenshots, the pixel comparison) is done by xcheck.py, the maintainers' screenshot harness,
which is not part of this repository: give its path with --xcheck PATH or XCHECK=PATH; without it
the script stops with one line saying so. It needs, on Debian: xvfb xterm stterm rxvt-unicode
x11-apps x11-utils xdotool imagemagick fonts-dejavu-core kitty alacritty libgl1-mesa-dri screen.

  Scripts/check/xcheck-all.py [--xcheck PATH] [--bin .build/release/typewrite] [--out DIR] [--jobs 2] [--speed 4]
                        [--traces DIR] [--only SUBSTRING] [--terms xterm,urxvt,...]
                        [--corpus DIR] [--corpus-terms xterm,kitty] [--no-traces]
                        [--markdown DIR] [--markdown-terms xterm,kitty,alacritty,urxvt]
                        [--rechunk 40:0.05,7:0.02,3:0.01,1:0.002] [--resume] [--table]

The matrix: every trace in Tests/traces at 80 columns in every emulator, xterm also at 40;
dark theme (#e5e5e5 on black) everywhere and light (black on white) everywhere but st, whose colours
are compiled in. Plain traces are compared with `cat` of the same trace; the wire-format traces
(SSE, NDJSON) run `typewrite --format sse|ndjson` and are compared with `cat` of wire-answer.txt,
written once the whole stream has been read. --corpus DIR adds the fidelity corpus as dumped by
`TYPEWRITE_FIDELITY_DUMP=DIR swift test --filter corpusSize` (corpus-NN-wW.bin, each at its width,
fed with `< FILE`), in --corpus-terms, dark theme. --markdown DIR adds real answers as dumped by
`TYPEWRITE_MARKDOWN_DUMP=DIR swift test --filter realAnswers` (md-NNN.trace, played, and md-NNN.ref,
the answer with each run in its final style): `typewrite --markdown=always` is compared with cat of
the reference, in --markdown-terms, dark and light.

Every run whose screenshot differs from cat's is classified by re-running the reference through
Scripts/check/rechunk.py (the same bytes written in N-byte pieces DELAY seconds apart, for each
--rechunk N:DELAY in turn until one matches):
  identical  the two screenshots (and, in screen, the hardcopy text) are equal;
  artefact   a rechunked cat paints exactly typewrite's picture; or it differs from cat in every cell
             where typewrite does, by as many pixels and as much; or typewrite's differences are all
             edge-only cells (differing pixels on the cell's outer ring) of a kind (pixel count,
             largest channel delta) the rechunked cat also shows against cat, in other cells: the
             picture depends on write boundaries, not on content;
  content    typewrite differs where no rechunked cat does: a real difference to fix.
Prints one line per run as it finishes and a table at the end; OUT/results.jsonl holds every
result (cells with pixel counts and channel deltas), OUT/<run>/ the cat, typewrite and diff PNGs.
--resume keeps the identical and artefact results already in OUT and runs the rest again;
--table prints the table of OUT/results.jsonl again.
Exit status 1 when any run is a content difference or the harness failed. Slow (about 10 s a
run, 2 at a time): not part of .ci/run.
"""
import argparse, concurrent.futures, glob, json, os, shlex, shutil, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
RECHUNK = os.path.join(HERE, "rechunk.py")
TRACES = os.path.join(os.path.dirname(os.path.dirname(HERE)), "Tests", "traces")
PLAY = os.path.join(TRACES, "play.py")
TERMS = ["xterm", "urxvt", "st", "kitty", "alacritty", "screen"]
WIRE = {"openai-sse": "sse", "anthropic-sse": "sse", "openai-responses-sse": "sse", "gemini-sse": "sse",
        "ollama-ndjson": "ndjson"}


# ---------------------------------------------------------------- one run (a child process per run:
# xcheck keeps the theme in module globals, so runs in parallel must not share an interpreter)
def one(spec):
    sys.path.insert(0, os.path.dirname(os.environ["XCHECK"]))
    import xcheck
    xcheck.PLAY = PLAY  # traces are played by this repository's player
    if spec["theme"] == "light":
        xcheck.FG, xcheck.BG = "#000000", "#ffffff"
    a = argparse.Namespace(term=spec["term"], cols=spec["cols"], rows=24, trace=spec.get("trace"),
                           bin=spec.get("bin"), speed=spec["speed"], settle=1.0, font_px=16, timeout=900)
    out = spec["out"]
    os.makedirs(out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="xcheck-all-")
    res = dict(name=spec["name"], input=spec["input"], term=spec["term"], cols=spec["cols"], theme=spec["theme"])
    try:
        ref = run(xcheck, a, "cat", spec["ref"], work)
        got = run(xcheck, a, "typewrite", spec["cmd"], work)
        res["rc"] = got["rc"]
        diff = compare(xcheck, a, ref, got)
        res.update(diff)
        xcheck.write_png(os.path.join(out, "cat.png"), ref["img"])
        xcheck.write_png(os.path.join(out, "typewrite.png"), got["img"])
        if ref["text"] is not None:
            for k, r in (("cat", ref), ("typewrite", got)):
                open(os.path.join(out, f"{k}-hardcopy.txt"), "wb").write(r["text"])
        if diff["identical"]:
            res["verdict"] = "identical"
            return res
        if diff["n_cells"]:
            hi = xcheck.diff_image(ref["img"], got["img"], diff["_mask"], diff["_cells"], got["cell"], got["origin"])
            xcheck.write_png(os.path.join(out, "diff.png"), xcheck.stack([ref["img"], got["img"], hi]))
            xcheck.write_png(os.path.join(out, "zoom.png"), xcheck.zoom_image(
                [ref["img"], got["img"], hi], diff["_cells"], got["cell"], got["origin"], a.cols, a.rows))
        mine = {c: (px, delta) for c, (px, delta, _) in diff["_cells"]}
        res["rechunk"] = []
        res["verdict"] = "content"
        for n, delay in spec["rechunk"]:
            rc = run(xcheck, a, f"rechunk-{n}", spec["rechunk_ref"].format(n=n, delay=delay), work)
            vs_cat = compare(xcheck, a, ref, rc)
            vs_tw = compare(xcheck, a, rc, got)
            theirs = {c: (px, delta) for c, (px, delta, _) in vs_cat["_cells"]}
            same_text = vs_tw["text_identical"] is not False
            # the same cells, each with the same number of differing pixels and the same largest delta
            covers = bool(mine) and all(theirs.get(c) == v for c, v in mine.items()) and same_text
            # or the same kind: every differing cell of typewrite's is an edge-only one with the pixel
            # count and largest delta of an edge-only cell where the rechunked cat differs from cat
            kinds = {(px, delta) for c, (px, delta, edge) in vs_cat["_cells"] if edge}
            same_kind = bool(mine) and diff["edge_only"] and all(v in kinds for v in mine.values()) and same_text
            entry = {"chunk": n, "delay": delay, "cells_vs_cat": len(theirs), "equals_typewrite": vs_tw["identical"],
                     "covers": covers, "same_kind": same_kind}
            res["rechunk"].append(entry)
            xcheck.write_png(os.path.join(out, f"rechunk-{n}.png"), rc["img"])
            if entry["equals_typewrite"] or entry["covers"] or entry["same_kind"]:
                res["verdict"] = "artefact"
                break
        return res
    except Exception as e:          # the harness, not typewrite: report and go on
        res["verdict"] = "harness"
        res["error"] = f"{type(e).__name__}: {e}"
        return res
    finally:
        subprocess.run(["rm", "-rf", work])
        for k in [k for k in res if k.startswith("_")]:
            del res[k]


def run(xcheck, a, name, cmd, work):
    for attempt in range(2):    # a terminal that fails to start once (Xvfb race, GL) is retried once
        try:
            return xcheck.run_once(a, f"{name}-{attempt}", cmd, work)
        except xcheck.Harness:
            if attempt:
                raise


def compare(xcheck, a, ref, got):
    n, cells, mask = xcheck.compare_imgs(ref["img"], got["img"], got["cell"], got["origin"], a.cols, a.rows)
    text = None if ref["text"] is None else ref["text"] == got["text"]
    return {"identical": n == 0 and text is not False, "diff_pixels": n, "n_cells": len(cells),
            "cells": [list(c) for c, _ in cells],
            "cell_detail": [[r, c, p, m, e] for (r, c), (p, m, e) in cells[:40]],
            "edge_only": all(e for _, (p, m, e) in cells), "max_delta": max((m for _, (p, m, e) in cells), default=0),
            "text_identical": text, "_cells": cells, "_mask": mask}


# ---------------------------------------------------------------- the matrix
def specs(a):
    binary = os.path.abspath(a.bin)
    q = shlex.quote
    rechunk = [(int(n), float(d)) for n, d in (p.split(":") for p in a.rechunk.split(","))]
    configs = []
    for term in a.terms.split(","):
        for cols in ([80, 40] if term == "xterm" else [80]):
            for theme in (["dark"] if term == "st" else ["dark", "light"]):
                configs.append((term, cols, theme))
    out = []
    if not a.no_traces:
        answer = os.path.join(a.traces, "wire-answer.txt")
        for t in sorted(glob.glob(os.path.join(a.traces, "*.trace"))):
            name = os.path.basename(t)[:-len(".trace")]
            if a.only and a.only not in name:
                continue
            if name in WIRE:
                cmd = f"{q(binary)} --format {WIRE[name]} --markdown=never"
                ref = f"{{ cat >/dev/null; cat {q(answer)}; }}"
                rref = f"{{{{ cat >/dev/null; python3 {q(RECHUNK)} {{n}} {{delay}} <{q(answer)}; }}}}"
            else:
                cmd, ref, rref = q(binary), "cat", f"python3 {q(RECHUNK)} {{n}} {{delay}}"
            for term, cols, theme in configs:
                out.append(dict(name=f"{name}-{term}-{cols}-{theme}", input=name, trace=t, term=term, cols=cols,
                                theme=theme, cmd=cmd, ref=ref, rechunk_ref=rref))
    if a.corpus:
        for f in sorted(glob.glob(os.path.join(a.corpus, "corpus-*.bin"))):
            base = os.path.basename(f)[:-len(".bin")]
            if a.only and a.only not in base:
                continue
            cols = int(base.rsplit("-w", 1)[1])
            label = open(f + ".name").read().strip() if os.path.exists(f + ".name") else base
            for term in a.corpus_terms.split(","):
                out.append(dict(name=f"{base}-{term}-{cols}-dark", input=f"{base} ({label})", bin=f, term=term,
                                cols=cols, theme="dark", cmd=q(binary), ref="cat",
                                rechunk_ref=f"python3 {q(RECHUNK)} {{n}} {{delay}}"))
    if a.markdown:
        # Markdown: typewrite --markdown=always on the answer's trace against cat of its styled
        # reference (every run in its final look), so the settled screen must be that, pixel for pixel.
        for t in sorted(glob.glob(os.path.join(a.markdown, "md-*.trace"))):
            base = os.path.basename(t)[:-len(".trace")]
            if a.only and a.only not in base:
                continue
            ref_file = t[:-len(".trace")] + ".ref"
            for term in a.markdown_terms.split(","):
                for theme in (("dark", "light") if term != "st" else ("dark",)):
                    out.append(dict(name=f"{base}-{term}-80-{theme}", input=base, trace=t, term=term, cols=80, theme=theme,
                                    cmd=f"{q(binary)} --markdown=always", ref=f"{{ cat >/dev/null; cat {q(ref_file)}; }}",
                                    rechunk_ref=f"{{{{ cat >/dev/null; python3 {q(RECHUNK)} {{n}} {{delay}} <{q(ref_file)}; }}}}"))
    for s in out:
        s.update(speed=a.speed, rechunk=rechunk, out=os.path.join(a.out, s["name"]))
    return out


def child(spec):
    p = subprocess.run([sys.executable, os.path.abspath(__file__), "--one", json.dumps(spec)],
                       capture_output=True, text=True)
    try:
        return json.loads(p.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return dict(name=spec["name"], input=spec["input"], term=spec["term"], cols=spec["cols"],
                    theme=spec["theme"], verdict="harness", error=(p.stderr or p.stdout)[-600:])


def describe(r):
    v = r["verdict"]
    if v == "identical":
        return v
    if v == "harness":
        return f"harness failure: {r.get('error', '')[:200]}"
    cells = ", ".join(f"r{c[0]}c{c[1]}({c[2]}px,Δ{c[3]}{',edge' if c[4] else ''})" for c in r["cell_detail"][:4])
    more = " …" if r["n_cells"] > 4 else ""
    text = "" if r.get("text_identical") is not False else ", hardcopy text differs"
    how = ""
    for e in r.get("rechunk", []):
        if e["equals_typewrite"] or e["covers"] or e.get("same_kind"):
            what = ("same picture" if e["equals_typewrite"] else "same cells differ" if e["covers"]
                    else "same 1-pixel edges elsewhere")
            how = f" (rechunk.py {e['chunk']} {e['delay']:g}: {what})"
    if not r["n_cells"]:
        return f"{v}: picture identical, hardcopy text differs{how}"
    return f"{v}: {r['n_cells']} cells {cells}{more}{text}{how}"


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--one":
        print(json.dumps(one(json.loads(sys.argv[2]))), flush=True)
        return 0
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default=os.path.join(os.path.dirname(os.path.dirname(here)), ".build", "release", "typewrite"))
    ap.add_argument("--out", default="/tmp/typewrite-xcheck")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--speed", type=float, default=4.0, help="trace time compression (play.py --speed)")
    ap.add_argument("--traces", default=TRACES)
    ap.add_argument("--xcheck", default=os.environ.get("XCHECK"), help="path of xcheck.py (default: $XCHECK)")
    ap.add_argument("--no-traces", action="store_true")
    ap.add_argument("--only", help="only inputs whose name contains this")
    ap.add_argument("--terms", default=",".join(TERMS))
    ap.add_argument("--corpus", help="folder of corpus-NN-wW.bin (TYPEWRITE_FIDELITY_DUMP)")
    ap.add_argument("--corpus-terms", default="xterm,kitty")
    ap.add_argument("--markdown", help="folder of md-NNN.trace + md-NNN.ref (TYPEWRITE_MARKDOWN_DUMP)")
    ap.add_argument("--markdown-terms", default="xterm,kitty,alacritty,urxvt")
    ap.add_argument("--rechunk", default="40:0.05,7:0.02,3:0.01,1:0.002", help="rechunk.py N:DELAY controls, tried in order")
    ap.add_argument("--table", action="store_true", help="print the table of OUT/results.jsonl; run nothing")
    ap.add_argument("--resume", action="store_true", help="keep the identical and artefact results already in OUT/results.jsonl; run the rest again")
    a = ap.parse_args()
    if not os.access(a.bin, os.X_OK):
        ap.error(f"no typewrite binary at {a.bin} (swift build -c release)")
    os.makedirs(a.out, exist_ok=True)
    todo, results, path = specs(a), [], os.path.join(a.out, "results.jsonl")
    if a.table:
        return summary([json.loads(l) for l in open(path)])
    if not (a.xcheck and os.path.isfile(a.xcheck)):
        print("xcheck-all.py: needs xcheck.py, the maintainers' screenshot harness for real emulators, which is not "
              "part of this repository: pass --xcheck PATH or set XCHECK=PATH", file=sys.stderr)
        return 2
    if not shutil.which("Xvfb"):
        print("xcheck-all.py: Xvfb not found; on Debian: apt-get install xvfb xterm stterm rxvt-unicode x11-apps "
              "x11-utils xdotool imagemagick fonts-dejavu-core kitty alacritty libgl1-mesa-dri screen", file=sys.stderr)
        return 2
    os.environ["XCHECK"] = os.path.abspath(a.xcheck)  # for the child process of each run
    if a.resume and os.path.exists(path):
        wanted = {s["name"] for s in todo}
        results = [r for r in map(json.loads, open(path)) if r["name"] in wanted and r["verdict"] in ("identical", "artefact")]
        done = {r["name"] for r in results}
        todo = [s for s in todo if s["name"] not in done]
        with open(path, "w") as log:
            log.writelines(json.dumps(r) + "\n" for r in results)
    print(f"xcheck-all: {len(todo)} runs, {a.jobs} at a time, results in {a.out}", file=sys.stderr, flush=True)
    start, total = time.monotonic(), len(results) + len(todo)
    with open(path, "a") as log, \
            concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        for r in pool.map(child, todo):
            results.append(r)
            log.write(json.dumps(r) + "\n")
            log.flush()
            print(f"[{len(results)}/{total} {time.monotonic() - start:.0f}s] {r['name']}: {describe(r)}", flush=True)
    return summary(results)


def summary(results):
    counts = {}
    for r in results:
        counts[r["verdict"]] = counts.get(r["verdict"], 0) + 1
    print("\n| input | emulator | cols | theme | result |\n|---|---|---|---|---|")
    for r in results:
        print(f"| {r['input']} | {r['term']} | {r['cols']} | {r['theme']} | {describe(r)} |")
    print("\nXCHECK " + " ".join(f"{k} {v}" for k, v in sorted(counts.items())) + f" of {len(results)}")
    return 1 if counts.get("content") or counts.get("harness") else 0


if __name__ == "__main__":
    sys.exit(main())
