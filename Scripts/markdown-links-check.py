#!/usr/bin/env python3
"""markdown-links-check: the markdown highlighter's links against cmark-gfm's, on real answers.

  Scripts/markdown-links-check.py [--answers FILE.jsonl ...] [--seeds 3] [--verbose]

Builds Scripts/markdown-spans (with the highlighter's sources, which need only the standard
library) into a temporary directory and asks it for each answer's settled links (`--links`), fed
whole and in random pieces of 1 to 40 bytes (one run per seed). Compares them with the `<a href>`
elements cmark-gfm writes for the answer with the GFM extensions (autolink, table,
strikethrough, tasklist) and raw HTML kept (`cmarkgfm`, `pip install cmarkgfm`, the Python
binding of cmark-gfm): the same destinations in the same order, links with no text left out (the
highlighter reports none: nothing would show). Prints, per file and in all: the links by kind,
how many are safe (reported with a destination), the answers whose links agree with cmark-gfm's
(destinations, and texts once markup and blanks are left out),
and whether every splitting settled to the same links as the whole answer. Exits 1 when a
splitting settles differently. Default answers: Tests/markdown/answers*.jsonl.
"""
import argparse, collections, glob, html, json, os, re, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HREF = re.compile(r'<a href="([^"]*)"[^>]*>(.*?)</a>', re.S)


def build(tmp):
    exe = os.path.join(tmp, "markdown-spans")
    srcs = []
    for folder in ("Markdown", "Code"):  # the highlighter and the code scanner it runs in fences
        srcdir = os.path.join(ROOT, "Sources", "TypewriteCore", folder)
        srcs += sorted(os.path.join(srcdir, f) for f in os.listdir(srcdir) if f.endswith(".swift"))
    subprocess.run(["swiftc", "-O", *srcs, os.path.join(ROOT, "Scripts", "markdown-spans", "main.swift"),
                    "-o", exe], check=True)
    return exe


def links(exe, paths, seed=None):
    cmd = [exe, "--links"] + (["--pieces", str(seed)] if seed is not None else []) + paths
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return [json.loads(line)["links"] for line in out.splitlines()]


def cmark_links(text):
    """(href, text) of each <a> cmark-gfm writes, in order; links with no text left out."""
    import cmarkgfm
    from cmarkgfm.cmark import Options
    out = cmarkgfm.github_flavored_markdown_to_html(text, options=Options.CMARK_OPT_UNSAFE)
    return [(html.unescape(m.group(1)), html.unescape(re.sub(r"<[^>]*>", "", m.group(2))))
            for m in HREF.finditer(out) if m.group(2) != ""]


def bare(s):
    """A link's text without markup and blanks, to compare source text with rendered text."""
    return re.sub(r"[\s*_`\\]", "", s)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--answers", nargs="*")
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--spans", help="a markdown-spans already built (else built here)")
    args = ap.parse_args()
    try:
        import cmarkgfm  # noqa: F401
    except ImportError:
        print("markdown-links-check: needs cmarkgfm (pip install cmarkgfm)")
        return 0
    files = args.answers or sorted(glob.glob(os.path.join(ROOT, "Tests", "markdown", "answers*.jsonl")))
    stable = True
    with tempfile.TemporaryDirectory() as tmp:
        exe = args.spans or build(tmp)
        grand = collections.Counter()
        for f in files:
            texts = [json.loads(l)["text"] for l in open(f, encoding="utf-8") if l.strip()]
            paths = []
            for k, t in enumerate(texts):
                p = os.path.join(tmp, "%d.md" % k)
                with open(p, "w", encoding="utf-8") as out:
                    out.write(t)
                paths.append(p)
            whole = links(exe, paths)
            for seed in range(1, args.seeds + 1):
                if links(exe, paths, seed) != whole:
                    stable = False
                    print("%s: pieces (seed %d) settle to other links than the whole answers" % (f, seed))
            kinds = collections.Counter()
            counts = collections.Counter()
            for k, (t, ours) in enumerate(zip(texts, whole)):
                data = t.encode("utf-8")
                expected = [(href, bare(txt)) for href, txt in cmark_links(t)]
                got = [(link[2], bare("".join(data[a:b].decode("utf-8", "replace") for a, b in link[0]))) for link in ours]
                for link in ours:
                    kinds[link[1]] += 1
                    counts["links"] += 1
                    counts["safe"] += link[3] is not None
                counts["answers"] += 1
                counts["with links"] += bool(expected or got)
                if expected or got:
                    counts["agree"] += expected == got
                    if expected != got and args.verbose:
                        print("  %s #%d: cmark-gfm %s, highlighter %s" % (os.path.basename(f), k, expected, got))
            grand.update(counts)
            grand.update({"kind " + k: v for k, v in kinds.items()})
            print("%s: %d answers, %d with links, %d of them agree with cmark-gfm; %d links (%d safe): %s" % (
                os.path.basename(f), counts["answers"], counts["with links"], counts["agree"], counts["links"],
                counts["safe"], ", ".join("%s %d" % kv for kv in sorted(kinds.items()))))
        print("all: %d answers, %d with links, %d agree; %d links (%d safe): %s" % (
            grand["answers"], grand["with links"], grand["agree"], grand["links"], grand["safe"],
            ", ".join("%s %d" % (k[5:], v) for k, v in sorted(grand.items()) if k.startswith("kind "))))
        print("every splitting settled to the same links: %s" % ("yes" if stable else "NO"))
    return 0 if stable else 1


if __name__ == "__main__":
    sys.exit(main())
