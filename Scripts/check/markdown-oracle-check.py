#!/usr/bin/env python3
"""markdown-oracle-check: the markdown highlighter's settled styles against an oracle, per role.

  Scripts/check/markdown-oracle-check.py [--answers FILE.jsonl] [--oracle DIR] [--seeds 3] [--verbose]
  Scripts/check/markdown-oracle-check.py --bench [--answers FILE.jsonl]

Builds Scripts/check/markdown-spans (with the highlighter's and the code scanner's sources, which need
only the standard library) into a temporary directory, feeds it each answer (JSON lines with "text") whole and in
random pieces of 1 to 40 bytes, and compares every non-blank source byte's roles with those of
mdoracle.py (CommonMark 0.31.2 + GFM spans in source bytes; needs `pip install marko==2.2.4`),
found in --oracle DIR or $MDORACLE_DIR. The oracle is the maintainers' tool and not part of this
repository; without it the comparison stops with one line saying so (--bench needs no oracle). Prints, per role, recall (bytes the oracle gives that role
that the highlighter gives it too) and precision, the bytes whose whole role set agrees, whether
every splitting settled to the same styles as the whole answer, and restyled bytes per 1,000
characters when streamed in pieces.

--bench prints the highlighter's cost per byte on the answers (fed in pieces of 1 to 40 bytes, and
in 64 KiB reads) and its time on each pathological input of Scripts/lib/markdown_pathological.py
(cmark's list, 30,000 repetitions, fed in pieces of 1 to 40 bytes and in 64 KiB reads) and at twice the repetitions
(linear time: seconds in proportion to bytes).
"""
import argparse, collections, json, os, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "Scripts", "lib"))
from markdown_pathological import pathological_markdown  # noqa: E402
from markdown_spans import build  # noqa: E402
MARKERS = {"delimiter", "heading-marker", "list-marker", "quote-marker", "code-fence", "table-pipe",
           "thematic-break", "link-dest"}
# MarkdownMarker case -> mdoracle class
MARKER_CLASS = {"headingMarker": "heading-marker", "emphasisDelimiter": "delimiter",
                "codeDelimiter": "delimiter", "linkDelimiter": "delimiter",
                "linkDestination": "link-dest", "codeFence": "code-fence", "listMarker": "list-marker",
                "taskBox": "list-marker", "quoteMarker": "quote-marker", "tablePipe": "table-pipe",
                "tableDelimiterRow": "table-pipe", "thematicBreak": "thematic-break"}


def oracle_roles(mdoracle, data):
    roles = collections.defaultdict(set)
    for s in mdoracle.spans(data):
        start, end, cls = s[0], s[1], s[2]
        extra = s[3] if len(s) > 3 else {}
        if cls == "heading":
            r = "h%d" % extra.get("level", 1)
        elif cls == "code":
            r = "code-block"
        elif cls == "code-span":
            r = "code"
        elif cls == "link-text":
            r = "link"
        elif cls in MARKERS:
            r = "marker:" + cls
        else:
            r = cls
        for b in range(start, end):
            roles[b].add(r)
    for rs in roles.values():
        # a full reference's label is both a delimiter and a destination to the oracle; the
        # highlighter gives a byte one marker kind, and gives the label the destination's
        if "marker:delimiter" in rs and "marker:link-dest" in rs:
            rs.discard("marker:delimiter")
    return roles


def style_roles(style):
    out = set()
    for part in style.split("+"):
        if part == "plain":
            continue
        if part in ("autolink", "link"):
            out.add("link")
        elif part.startswith("marker:"):
            out.add("marker:" + MARKER_CLASS[part[7:]])
        else:
            out.add(part)
    return out


def our_roles(result):
    roles = {}
    for a, b, style in result["runs"]:
        r = style_roles(style)
        for i in range(a, b):
            roles[i] = r
    return roles


def run_spans(exe, paths, seed=None):
    cmd = [exe] + (["--pieces", str(seed)] if seed is not None else []) + paths
    out = subprocess.run(cmd, check=True, capture_output=True).stdout.decode()
    return [json.loads(l) for l in out.splitlines() if l.strip()]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--answers", default=os.path.join(ROOT, "Tests", "markdown", "answers.jsonl"))
    ap.add_argument("--oracle", default=os.environ.get("MDORACLE_DIR"), help="directory of mdoracle.py")
    ap.add_argument("--seeds", type=int, default=3, help="random splittings per answer")
    ap.add_argument("--bench", action="store_true")
    ap.add_argument("--spec", help="CommonMark spec.json: also compare its examples of the inline, heading, "
                    "code, quote and list sections (none with raw HTML, entities or tabs), one by one")
    ap.add_argument("--gfm-spec", help="the GFM spec.txt: also compare its extension examples (tables, "
                    "strikethrough, autolinks, task lists; none with raw HTML or tabs)")
    ap.add_argument("--verbose", action="store_true")
    a = ap.parse_args()
    if not a.bench and not (a.oracle and os.path.isfile(os.path.join(a.oracle, "mdoracle.py"))):
        ap.error("--oracle DIR (or MDORACLE_DIR) is needed: the folder of mdoracle.py, the maintainers' "
                 "CommonMark + GFM oracle, which is not part of this repository (it needs pip install marko==2.2.4)")
    answers = [json.loads(l) for l in open(a.answers, encoding="utf-8") if l.strip()]
    with tempfile.TemporaryDirectory() as tmp:
        exe = build(tmp)
        paths = []
        for k, ans in enumerate(answers):
            p = os.path.join(tmp, "a%04d.md" % k)
            with open(p, "wb") as f:
                f.write(ans["text"].encode("utf-8"))
            paths.append(p)
        if a.bench:
            corpus = os.path.join(tmp, "corpus.md")
            with open(corpus, "wb") as f:
                for ans in answers:
                    f.write(ans["text"].encode("utf-8") + b"\n\n")
            res = run_spans_bench(exe, [corpus], repeat=20)
            out = {"corpus_bytes": res[0]["bytes"], "corpus_ns_per_byte": round(res[0]["ns_per_byte"], 1)}
            out["corpus_ns_per_byte_word_pieces"] = round(json.loads(subprocess.run(
                [exe, "--bench", "20", "--words", corpus], check=True, capture_output=True).stdout)["ns_per_byte"], 1)
            out["corpus_ns_per_byte_whole_reads"] = round(run_spans_bench(exe, [corpus], repeat=20, piece=1 << 16)[0]["ns_per_byte"], 1)
            # cmark's pathological inputs at their size (30,000 repetitions) and at twice it
            # (2,000 nesting levels for the lists, so four times the bytes): linear time shows
            # as seconds growing with bytes.
            sizes = {}
            for factor in (1, 2):
                d = pathological_markdown(os.path.join(tmp, "patho%d" % factor), factor)
                files = sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".md"))
                sizes[factor] = {os.path.basename(r["file"])[:-3]: r for r in run_spans_bench(exe, files, repeat=1)}
                if factor == 1:
                    reads = {os.path.basename(r["file"])[:-3]: r
                             for r in run_spans_bench(exe, files, repeat=1, piece=1 << 16)}
            out["pathological"] = {k: {"bytes": r["bytes"], "seconds": round(r["seconds"], 3),
                                       "ns_per_byte": round(r["ns_per_byte"], 1),
                                       "seconds_in_64KiB_reads": round(reads[k]["seconds"], 3),
                                       "bytes_at_2n": sizes[2][k]["bytes"],
                                       "seconds_at_2n": round(sizes[2][k]["seconds"], 3)}
                                   for k, r in sorted(sizes[1].items())}
            print(json.dumps(out, indent=1))
            return 0
        sys.path.insert(0, a.oracle)
        import mdoracle
        whole = run_spans(exe, paths)
        pieces = [run_spans(exe, paths, seed) for seed in range(1, a.seeds + 1)]
        recall = collections.defaultdict(lambda: [0, 0])
        precision = collections.defaultdict(lambda: [0, 0])
        exact = [0, 0]
        same_split = 0
        restyled = chars = 0
        worst = []
        for k, ans in enumerate(answers):
            data = ans["text"].encode("utf-8")
            want = oracle_roles(mdoracle, data)
            got = our_roles(whole[k])
            split_same = all(p[k]["runs"] == whole[k]["runs"] for p in pieces)
            same_split += split_same
            restyled += sum(p[k]["restyled"] for p in pieces)
            chars += len(ans["text"]) * len(pieces)
            bad = 0
            for i, byte in enumerate(data):
                if byte in b" \t\r\n":
                    continue
                w = want.get(i, set())
                g = got.get(i, set())
                exact[1] += 1
                exact[0] += w == g
                bad += w != g
                for r in w or {"plain"}:
                    recall[r][1] += 1
                    recall[r][0] += (r in g) if r != "plain" else not g
                for r in g or {"plain"}:
                    precision[r][1] += 1
                    precision[r][0] += (r in w) if r != "plain" else not w
            worst.append((bad, k))
        out = {"answers": len(answers), "bytes_compared": exact[1],
               "exact_role_set": round(exact[0] / max(1, exact[1]), 5),
               "same_styles_for_every_splitting": "%d/%d" % (same_split, len(answers)),
               "restyled_bytes_per_1000_characters": round(1000 * restyled / max(1, chars), 2),
               "roles": {r: {"bytes": recall[r][1], "recall": round(recall[r][0] / recall[r][1], 4),
                             "precision": round(precision[r][0] / precision[r][1], 4) if precision[r][1] else None}
                         for r in sorted(recall, key=lambda r: -recall[r][1])}}
        if a.spec:
            examples = [e for e in json.load(open(a.spec, encoding="utf-8")) if e["section"] in SPEC_SECTIONS
                        and "<" not in e["markdown"] and "&" not in e["markdown"] and "\t" not in e["markdown"]]
            out["spec"] = check_spec(exe, mdoracle, examples, tmp, a.verbose)
        if a.gfm_spec:
            examples = [e for e in mdoracle._gfm_examples(a.gfm_spec) if e["extension"] in
                        ("table", "strikethrough", "autolink", "tasklist") and "<" not in e["markdown"]
                        and "\t" not in e["markdown"]]
            out["gfm_spec"] = check_spec(exe, mdoracle, examples, tmp, a.verbose)
        if a.verbose:
            out["worst_answers"] = [(answers[k].get("source", k), b) for b, k in sorted(worst, reverse=True)[:8] if b]
        print(json.dumps(out, indent=1))
    return 0


SPEC_SECTIONS = {"Emphasis and strong emphasis", "Code spans", "Links", "ATX headings", "Setext headings",
                 "Fenced code blocks", "Block quotes", "Backslash escapes", "Thematic breaks", "Lists",
                 "List items", "Paragraphs", "Images"}


def check_spec(exe, mdoracle, examples, tmp, verbose):
    """Examples whose every non-blank byte has the oracle's role set, each streamed in pieces."""
    paths = []
    for e in examples:
        p = os.path.join(tmp, "spec-%d.md" % e["example"])
        with open(p, "wb") as f:
            f.write(e["markdown"].encode("utf-8"))
        paths.append(p)
    results = run_spans(exe, paths, seed=99)
    good, failed = 0, []
    for e, r in zip(examples, results):
        data = e["markdown"].encode("utf-8")
        want = oracle_roles(mdoracle, data)
        got = our_roles(r)
        bad = [i for i, b in enumerate(data) if b not in b" \t\r\n" and want.get(i, set()) != got.get(i, set())]
        if bad:
            failed.append(e["example"])
        else:
            good += 1
    out = {"passed": "%d/%d" % (good, len(examples)), "share": round(good / max(1, len(examples)), 4)}
    if verbose:
        out["failed"] = failed
    return out


def run_spans_bench(exe, paths, repeat, piece=40):
    out = subprocess.run([exe, "--bench", str(repeat), "--max-piece", str(piece)] + paths, check=True,
                         capture_output=True).stdout.decode()
    return [json.loads(l) for l in out.splitlines() if l.strip()]


if __name__ == "__main__":
    sys.exit(main())
