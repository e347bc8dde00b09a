#!/usr/bin/env python3
"""markdown-links-check: the markdown highlighter's links against cmark-gfm's.

  Scripts/check/markdown-links-check.py [--answers FILE.jsonl ...] [--seeds 3] [--verbose]
  Scripts/check/markdown-links-check.py --document FILE.md [--seeds 3] [--write-expected FILE.json]

Builds Scripts/check/markdown-spans (with the highlighter's sources, which need only the standard
library) into a temporary directory (or takes one built already, --spans EXE) and asks it for each
answer's settled links (`--links`), fed whole and in random pieces of 1 to 40 bytes (one run per
seed). Compares them with the `<a href>` elements cmark-gfm writes for the answer with the GFM
extensions (autolink, table, strikethrough, tasklist), raw HTML left out (it is no link of the
markdown's: `cmarkgfm`, `pip install cmarkgfm`, the Python binding of cmark-gfm): the same
destinations in the same order, links with no text left out (the highlighter reports none: nothing
would show). cmark-gfm writes an empty `href` for a `javascript:`, `vbscript:`, `file:` or `data:`
destination; so does this comparison for the highlighter's (which never reports them).

With --answers (default: Tests/markdown/answers*.jsonl) it prints, per file and in all: the links
by kind, how many are safe (reported with a destination), the answers whose links agree with
cmark-gfm's (destinations, and texts once markup and blanks are left out), and whether every
splitting settled to the same links as the whole answer; exits 1 when a splitting settles
differently.

With --document it judges one document (Tests/markdown/links-document.md gathers every link case
of the tests): whole and in each splitting, the destinations must be cmark-gfm's, in order; it
prints each difference and exits 1 on any. --write-expected also writes cmark-gfm's destinations
as JSON, the oracle the Swift test MarkdownLinkDocumentTests reads without Python.
"""
import argparse, collections, glob, html, json, os, re, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "Scripts", "lib"))
from markdown_spans import build  # noqa: E402

HREF = re.compile(r'<a href="([^"]*)"[^>]*>(.*?)</a>', re.S)


def links(exe, paths, seed=None):
    cmd = [exe, "--links"] + (["--pieces", str(seed)] if seed is not None else []) + paths
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return [json.loads(line)["links"] for line in out.splitlines()]


def cmark_links(text):
    """(href, text) of each <a> cmark-gfm writes, in order; links with no text left out. Raw HTML
    is left out (the default, safe options), so every <a> is a link of the markdown's."""
    import cmarkgfm
    out = cmarkgfm.github_flavored_markdown_to_html(text)
    return [(html.unescape(m.group(1)), html.unescape(re.sub(r"<[^>]*>", "", m.group(2))))
            for m in HREF.finditer(out) if m.group(2) != ""]


DANGEROUS = re.compile(r"(?i)(javascript|vbscript|file):|data:(?!image/(png|gif|jpeg|webp))")


def as_cmark_writes(href):
    """The href cmark-gfm's safe mode writes for a destination: empty for dangerous schemes."""
    return "" if href is None or DANGEROUS.match(href) else href


def check_document(exe, path, seeds, expected_out):
    import cmarkgfm
    text = open(path, encoding="utf-8").read()
    data = text.encode("utf-8")
    expected = [href for href, _ in cmark_links(text)]
    if expected_out:
        from importlib.metadata import version
        with open(expected_out, "w", encoding="utf-8") as f:
            json.dump({"document": os.path.relpath(path, ROOT),
                       "oracle": "cmarkgfm %s (cmark-gfm %s), GFM extensions, raw HTML left out" % (
                           version("cmarkgfm"), cmarkgfm.cmark.CMARK_VERSION),
                       "hrefs": expected}, f, indent=0, ensure_ascii=True)
            f.write("\n")
    ok = True
    for seed in [None] + list(range(1, seeds + 1)):
        ours = links(exe, [path], seed)[0]
        got = [as_cmark_writes(link[2]) for link in ours]
        label = "whole" if seed is None else "pieces (seed %d)" % seed
        if got == expected:
            print("%s, %s: %d links, the destinations cmark-gfm gives" % (os.path.basename(path), label, len(got)))
            continue
        ok = False
        print("%s, %s: %d links, cmark-gfm %d; differences:" % (os.path.basename(path), label, len(got), len(expected)))
        import difflib
        texts = {as_cmark_writes(link[2]): data[link[0][0][0]:link[0][-1][1]].decode("utf-8", "replace") for link in ours}
        for line in difflib.unified_diff(expected, got, "cmark-gfm", "highlighter", lineterm="", n=0):
            print("  " + line[:200] + ("" if line[1:] not in texts else "   (text %r)" % texts[line[1:]][:60]))
    return ok


def bare(s):
    """A link's text without markup and blanks, to compare source text with rendered text."""
    return re.sub(r"[\s*_`\\]", "", s)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--answers", nargs="*")
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--spans", help="a markdown-spans already built (else built here)")
    ap.add_argument("--document", help="one markdown document whose links must be cmark-gfm's")
    ap.add_argument("--write-expected", help="with --document: write cmark-gfm's destinations here (JSON)")
    args = ap.parse_args()
    try:
        import cmarkgfm  # noqa: F401
    except ImportError:
        print("markdown-links-check: needs cmarkgfm (pip install cmarkgfm)")
        return 1 if args.document else 0  # CI installs it for the document check
    if args.document:
        with tempfile.TemporaryDirectory() as tmp:
            return 0 if check_document(args.spans or build(tmp), args.document, args.seeds, args.write_expected) else 1
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
                got = [(as_cmark_writes(link[2]), bare("".join(data[a:b].decode("utf-8", "replace") for a, b in link[0]))) for link in ours]
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
