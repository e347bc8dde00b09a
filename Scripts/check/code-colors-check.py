#!/usr/bin/env python3
"""code-colors-check: syntax colours inside fenced code blocks, judged against Pygments.

  Scripts/check/code-colors-check.py [--short] [--split held|tune|unseen|all] [--mode 24bit|256|both]
                               [--direct] [--jobs 2] [--seed 7] [--verbose] [BIN]

Runs BIN (default .build/release/typewrite) as `BIN --markdown=always` with stdout on an 80x24
pseudo-terminal (Scripts/lib/terminal.py), streams each input into it in random pieces (1 to 120 bytes,
0 to 40 ms apart), reads the settled screen, scrollback included, with pyte, and compares the style
of every non-blank character inside a tagged fence with the role Pygments gives it, the block lexed
as a whole. The inputs (Tests/code/README.md):

  answers   real model answers with code (Tests/code/answers-held.jsonl, -tune.jsonl)
  files     real code files, one per fence (Tests/code/files/, listed in Tests/code/files.json),
            and documentation pages whose fences are judged by their own tags (tag `markdown`)

Pygments' tokens map to roles so (Pygments token classes, pygments.org/docs/tokens):
  Keyword.* (types, declarations, namespaces), Operator.Word, Comment.Preproc  -> keyword
  Keyword.Constant                                                             -> builtin
  String.*, Comment.PreprocFile                                                -> string
  Comment.* (doc comments, and String.Doc that opens with /** /*! /// //!)     -> comment
  Number.* (and a CSS unit right after its number: `5px`)                     -> number
  Name.Function (.Magic), Name.Class, Name.Decorator                           -> definition
  Name.Builtin (.Pseudo), Name.Constant, Name.Exception, and `self`, `this`    -> builtin
  markup tags (and their brackets) and attributes, JSON/YAML keys, CSS
  selectors, diff lines (all of a diff), a console's prompt and output        -> not judged
  everything else (names, operators, punctuation, Text, Error)                 -> plain
Each distinct cell style (colour and attributes) is then mapped to the role most of its characters
have (the best mapping), once over all inputs of a colour mode, and a character agrees when its
style's role is its own. Reported per colour mode (24-bit: TERM=xterm-256color COLORTERM=truecolor;
256 colours: no COLORTERM), for answers and files, per language:

  agreement     judged characters whose style's role is Pygments' role
  five_roles    the same over characters Pygments calls keyword, string, comment, number or plain
  distinct      keyword, string, comment and number each in a style other than plain's
  palette       settled code cells only in palette colours (SGR 30-37, 90-97) or the default
  styles        distinct styles of tagged code cells (at most 8)
  untagged      cells of untagged and unknown-language fences all in one style, the base code style
  chunking      with --chunkings N: N answers settle to the same screen whole, in random pieces
                and byte by byte
  pause         `def greet(name):` sent, then 1.5 s without the newline: `def` is in the keyword
                style during the pause
  restyles      cells repainted in a new style per 1,000 characters (typewrite's own count,
                TYPEWRITE_MARKDOWN_STATS), per 1,000 characters of tagged code; informational
                (--pace S streams word-sized pieces S seconds apart instead, slower than typing)

Thresholds (exit 0 when all pass): agreement >= 0.95 on answers and >= 0.90 on files, five_roles
>= 0.97 and >= 0.95, >= 0.85 for every language, distinct, palette, styles <= 8, untagged 1.0,
chunking and pause.  --short judges a few inputs per language (CI); --split chooses the held-out
inputs (default), those used to tune the tables, the unseen code files (no answers; files
from projects no other set uses, for measuring what tuning never saw), or all of them; --answers FILE judges other answers
(repeatable; no code files then).  --direct skips the terminal: it builds
Scripts/check/markdown-spans with the highlighter's sources and judges the roles it reports (fast, for
tuning; no colour modes, palette or pause checks).  --verbose lists the commonest disagreements.
Needs python3 with pyte, wcwidth and pygments (pip install pyte wcwidth pygments).
"""
import argparse, collections, json, os, random, re, subprocess, sys, tempfile, threading, time, unicodedata
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "Scripts", "lib"))

try:
    import pyte
    from wcwidth import wcwidth
    from pygments.lexers import get_lexer_by_name
    from pygments import token as T
except ImportError as e:  # pragma: no cover
    sys.exit("code-colors-check: %s (pip install pyte wcwidth pygments)" % e)

import terminal  # noqa: E402
from feeder import random_pieces  # noqa: E402

# The fence tags typewrite knows (CodeLanguage.named), and the Pygments lexer each is judged with.
KNOWN = {
    "python": "python", "py": "python", "python3": "python", "py3": "python", "pyi": "python",
    "sage": "python", "bazel": "python", "starlark": "python",
    "bash": "bash", "sh": "bash", "ksh": "bash", "zsh": "bash", "shell": "bash", "openrc": "bash",
    "console": "console", "shell-session": "console",
    "javascript": "javascript", "js": "javascript", "jsx": "jsx", "react": "jsx",
    "typescript": "typescript", "ts": "typescript", "tsx": "tsx",
    "json": "json", "json-object": "json", "c": "c", "cpp": "cpp", "c++": "cpp", "java": "java",
    "go": "go", "golang": "go", "rust": "rust", "rs": "rust", "sql": "sql", "yaml": "yaml", "yml": "yaml",
    "html": "html", "xml": "xml", "css": "css", "diff": "diff", "udiff": "diff", "swift": "swift",
    "ruby": "ruby", "rb": "ruby", "duby": "ruby", "php": "php", "php3": "php", "php4": "php", "php5": "php",
    "kotlin": "kotlin", "docker": "dockerfile", "dockerfile": "dockerfile", "toml": "toml",
}
# The language each lexer reports under.
LANGUAGE = {"jsx": "javascript", "tsx": "typescript"}
ROLES = ("plain", "keyword", "string", "comment", "number", "definition", "builtin")
FIVE = {"plain", "keyword", "string", "comment", "number"}
DEFAULT = ("default", "default", False, False, False, False, False)
PALETTE = {"black", "red", "green", "brown", "blue", "magenta", "cyan", "white", "default"} | {
    "bright" + c for c in ("black", "red", "green", "brown", "blue", "magenta", "cyan", "white")}


# -- the oracle ----------------------------------------------------------------------------------

def role_of(tt, value, lexer):
    """The role of a Pygments token, or None when it is not judged."""
    v = value.strip()
    if lexer == "diff":
        return None
    if v in ("self", "this", "$this") and (tt in T.Keyword or tt in T.Name.Builtin):
        return "builtin"
    if tt in T.Generic:
        return None
    if lexer in ("html", "xml") or tt in T.Name.Tag:
        if tt in T.Name.Tag or tt in T.Name.Attribute:
            return None
        if tt in T.Punctuation and v in ("<", "</", ">", "/>", "/", "<?", "?>"):
            return None
    if lexer == "css" and (tt in T.Name.Class or tt in T.Name.Namespace or tt in T.Name.Decorator
                           or tt in T.Name.Attribute or tt in T.Name.Tag):
        return None
    if tt in T.Comment.PreprocFile:
        return "string"
    if tt in T.Comment.Preproc:
        return "keyword"
    if tt in T.Comment:
        return "comment"
    if tt in T.String.Doc and v.startswith(("/**", "/*!", "///", "//!")):
        return "comment"
    if tt in T.String:
        return "string"
    if tt in T.Number:
        return "number"
    if tt in T.Keyword.Constant:
        return "builtin"
    if tt in T.Keyword or tt in T.Operator.Word:
        return "keyword"
    if tt in T.Name.Function or tt in T.Name.Class or tt in T.Name.Decorator:
        return "definition"
    if tt in T.Name.Builtin or tt in T.Name.Constant or tt in T.Name.Exception:
        return "builtin"
    return "plain"


def oracle(tag, code):
    """Per character of `code`: its role (None: not judged, or blank). Two readings differ from
    the lexers' defaults, as editors and other highlighters read them: a PHP block that does not
    start with markup is code from its first line (PhpLexer's startinline), and a CSS unit right
    after its number (`5px`, `140%`, Keyword.Type after Number) is part of the number. CSS inside
    html's <style> is judged as in a css fence (its selectors are not)."""
    name = KNOWN[tag]
    options = dict(stripnl=False, ensurenl=False, stripall=False)
    if name == "php" and not code.lstrip().startswith("<"):
        options["startinline"] = True
    lexer = get_lexer_by_name(name, **options)
    roles, text, before = [], [], None
    # html: inside <style> the tokens are CSS's, judged as in a css fence (selectors not judged).
    style, opening = False, False
    for tt, value in lexer.get_tokens(code):
        if name == "html" and tt in T.Name.Tag:
            opening = value.lower() == "style" and before is not None and before in T.Punctuation and not style
            if value.lower() == "style" and style:
                style = False
        elif opening and tt in T.Punctuation and value.strip() == ">":
            style, opening = True, False
            r = role_of(tt, value, name)
            before = tt
            text.append(value)
            roles.extend(None if ch.isspace() else r for ch in value)
            continue
        markup = tt in T.Punctuation and value.strip() in ("<", "</", "/", ">")
        r = role_of(tt, value, "css" if style and not markup else name)
        if tt in T.Keyword.Type and before is not None and before in T.Number and name in ("css", "html"):
            r = "number"
        before = tt
        text.append(value)
        roles.extend(None if ch.isspace() else r for ch in value)
    if "".join(text) != code:
        return None
    return roles


# -- fences in markdown --------------------------------------------------------------------------

OPEN = re.compile(r"^((?:[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+)?[ \t]*)(`{3,}|~{3,})(.*)$")


def fences(text):
    """The fenced code blocks of a markdown text: (tag, code, offsets) with the character offset
    in `text` of each character of `code` (content lines, their fence indentation removed)."""
    out, pos, cur = [], 0, None
    for line in text.split("\n"):
        if cur is None:
            m = OPEN.match(line)
            if m and not (m.group(2)[0] == "`" and "`" in m.group(3)):
                info = m.group(3).strip().split()
                cur = {"indent": len(m.group(1).expandtabs(4)), "fence": m.group(2),
                       "tag": info[0].lower() if info else "", "code": [], "offsets": []}
        else:
            m = re.match(r"^[ \t]*(`{3,}|~{3,})[ \t]*$", line)
            if m and m.group(1)[0] == cur["fence"][0] and len(m.group(1)) >= len(cur["fence"]):
                out.append((cur["tag"], "".join(cur["code"]), cur["offsets"]))
                cur = None
            else:
                k = 0
                while k < len(line) and k < cur["indent"] and line[k] == " ":
                    k += 1
                cur["code"].append(line[k:] + "\n")
                cur["offsets"].extend(range(pos + k, pos + len(line) + 1))
        pos += len(line) + 1
    if cur is not None:
        out.append((cur["tag"], "".join(cur["code"]), cur["offsets"]))
    return out


def fenced(tag, code):
    """A code file as a markdown fence (longer than any backtick run at a line's start)."""
    longest = max([len(m.group(0)) for m in re.finditer(r"(?m)^ {0,3}`{3,}", code)] + [2])
    f = "`" * (longest + 1)
    return "%s%s\n%s%s%s\n" % (f, tag, code, "" if code.endswith("\n") else "\n", f)


# -- the screen ----------------------------------------------------------------------------------

# pyte's screen with the repairs of docs/terminals.md (terminal.model): a zero-width character
# that is not a combining mark (U+2061, a variation selector, ZWJ) joins the cell before it instead
# of ending the draw, and a wide character that reaches the last column wraps first.
Screen = terminal.model()[1]


def cat_cells(text):
    """Where cat leaves each character of `text` on an 80x24 terminal: {offset: (line, column)},
    lines counted from the top of the scrollback."""
    scr = Screen(80, 24, history=10 ** 7, ratio=0.5)
    st = pyte.Stream(scr)
    cells, last = {}, None
    for off, ch in enumerate(text):
        if ch == "\n":
            st.feed("\r\n")
            continue
        if ch == "\t" or unicodedata.category(ch) == "Cc":
            st.feed(ch)
            continue
        w = wcwidth(ch)
        st.feed(ch)
        if w is not None and w > 0:
            last = (len(scr.history.top) + scr.cursor.y, max(scr.cursor.x - w, 0))
        if last is not None:
            cells[off] = last
    return cells


def screen_lines(output):
    scr = Screen(80, 24, history=10 ** 7, ratio=0.5)
    pyte.ByteStream(scr).feed(output)
    return list(scr.history.top) + [scr.buffer[y] for y in range(scr.lines)]


def style_of(cell):
    return (cell.fg, cell.bg, cell.bold, cell.italics, cell.underscore, cell.reverse, cell.strikethrough)


def env_for(mode):
    env = dict(os.environ, TERM="xterm-256color")
    for k in ("NO_COLOR", "COLORFGBG", "REDUCED_MOTION", "COLORTERM"):
        env.pop(k, None)
    if mode == "24bit":
        env["COLORTERM"] = "truecolor"
    return env


def run_pty(binary, data, mode, schedule, timeout=120, stats=None):
    """(everything BIN wrote to its 80x24 pty, its exit status) for `data` fed on `schedule`."""
    env = env_for(mode)
    if stats:
        env["TYPEWRITE_MARKDOWN_STATS"] = stats
    res = terminal.run_pty([binary, "--markdown=always"], env, schedule=schedule, timeout=timeout, controlling=True)
    return b"".join(b for _, b in res["rec"]), res["rc"]


PACE = None  # --pace: seconds between word-sized pieces instead of random pieces


def word_schedule(data, pace):
    """Pieces like a model's tokens (a word with the blank before it, or a run of punctuation),
    `pace` seconds apart: a stream slower than typewrite types, so guesses reach the screen."""
    pieces = re.findall(rb"\s*[A-Za-z0-9_]+|\s*[^A-Za-z0-9_\s]+|\s+", data)
    return [(pace * (k + 1), p) for k, p in enumerate(pieces)]


def random_schedule(data, seed):
    if PACE:
        return word_schedule(data, PACE)
    return random_pieces(random.Random(seed), data)


def settled_styles(binary, text, mode, seed):
    """The style of each character of `text` as typewrite leaves it, by character offset."""
    data = text.encode("utf-8")
    fd, stats_path = tempfile.mkstemp(suffix=".json")
    os.close(fd)
    output, status = run_pty(binary, data, mode, random_schedule(data, seed), stats=stats_path)
    try:
        stats = json.load(open(stats_path))
    except (OSError, ValueError):
        stats = None
    os.unlink(stats_path)
    lines = screen_lines(output)
    styles, chars_ok = {}, True
    for off, (y, x) in cat_cells(text).items():
        line = lines[y] if y < len(lines) else None
        cell = line[x] if line is not None else None
        joined = wcwidth(text[off]) == 0  # a zero-width character shares the cell before it
        if cell is None or (text[off] not in cell.data if joined else cell.data[:1] != text[off]):
            chars_ok = False
        styles[off] = style_of(cell) if cell is not None else DEFAULT
    return styles, status, chars_ok, stats


# -- direct: the highlighter's own roles ---------------------------------------------------------

def build_spans(tmp):
    exe = os.path.join(tmp, "markdown-spans")
    srcs = []
    for folder in ("Markdown", "Code"):
        d = os.path.join(ROOT, "Sources", "TypewriteCore", folder)
        srcs += sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".swift"))
    subprocess.run(["swiftc", "-O", *srcs, os.path.join(ROOT, "Scripts", "check", "markdown-spans", "main.swift"), "-o", exe],
                   check=True)
    return exe


def direct_styles(exe, text, seed):
    data = text.encode("utf-8")
    with tempfile.NamedTemporaryFile(suffix=".md", delete=False) as f:
        f.write(data)
        path = f.name
    try:
        out = subprocess.run([exe, "--pieces", str(seed), "--max-piece", "24", path], check=True,
                             capture_output=True).stdout
        words = subprocess.run([exe, "--words", path], check=True, capture_output=True).stdout
    finally:
        os.unlink(path)
    res = json.loads(out)
    by_byte = [None] * len(data)
    for a, b, style in res["runs"]:
        for k in range(a, b):
            by_byte[k] = style
    styles, byte = {}, 0
    for off, ch in enumerate(text):
        styles[off] = by_byte[byte] if byte < len(by_byte) else None
        byte += len(ch.encode("utf-8"))
    return styles, res["restyled"], json.loads(words)["restyled"]


# -- judging -------------------------------------------------------------------------------------

def load_inputs(split, short, answer_files=None):
    answers, files = [], []
    names = {"held": ["answers-held.jsonl"], "tune": ["answers-tune.jsonl"], "unseen": [],
             "all": ["answers-held.jsonl", "answers-tune.jsonl"]}[split]
    paths = answer_files or [os.path.join(ROOT, "Tests", "code", n) for n in names]
    for path in paths:
        name = os.path.basename(path)
        for k, line in enumerate(open(path, encoding="utf-8")):
            if line.strip():
                o = json.loads(line)
                answers.append({"id": "%s:%d" % (name, k + 1), "text": o["text"]})
    for f in json.load(open(os.path.join(ROOT, "Tests", "code", "files.json"), encoding="utf-8")):
        if answer_files or (split != "all" and f["split"] != split):
            continue
        code = open(os.path.join(ROOT, "Tests", "code", "files", f["file"]), encoding="utf-8").read()
        # A markdown page (a project's documentation) is judged as it stands, fence by fence.
        text = code if f["tag"] == "markdown" else fenced(f["tag"], code)
        files.append({"id": f["file"], "text": text, "tag": f["tag"]})
    if short:
        answers = [a for k, a in enumerate(answers) if k % 8 == 0]
        seen = collections.Counter()
        keep = []
        for f in files:
            if seen[f["tag"]] < 1:
                keep.append(f)
                seen[f["tag"]] += 1
        files = keep
    return answers, files


def judge_input(item, styles):
    """Judged characters of one input: [(language, role, style)], and untagged cells' styles."""
    judged, untagged, tagged_styles, skipped = [], [], collections.Counter(), 0
    for tag, code, offsets in fences(item["text"]):
        if tag not in KNOWN:
            for ch, off in zip(code, offsets):
                if not ch.isspace() and styles.get(off) is not None:
                    untagged.append(styles[off])
            continue
        roles = oracle(tag, code)
        if roles is None:
            skipped += 1
            continue
        language = LANGUAGE.get(KNOWN[tag], KNOWN[tag])
        for ch, off, role in zip(code, offsets, roles):
            if ch.isspace() or off not in styles or styles[off] is None:
                continue
            tagged_styles[styles[off]] += 1
            if role is not None:
                judged.append((language, role, styles[off]))
    return judged, untagged, tagged_styles, skipped


def score(results):
    """results: {group: [judged lists]} -> the report and the style -> role mapping."""
    votes = collections.defaultdict(collections.Counter)
    for group in results.values():
        for judged in group:
            for _, role, style in judged:
                votes[style][role] += 1
    mapping = {style: c.most_common(1)[0][0] for style, c in votes.items()}
    report = {}
    for name, group in results.items():
        ok = n = ok5 = n5 = 0
        per = collections.defaultdict(lambda: [0, 0])
        for judged in group:
            for language, role, style in judged:
                good = mapping[style] == role
                n += 1
                ok += good
                per[language][0] += good
                per[language][1] += 1
                if role in FIVE:
                    n5 += 1
                    ok5 += good
        report[name] = {"agreement": round(ok / max(1, n), 4), "five_roles": round(ok5 / max(1, n5), 4),
                        "characters": n,
                        "languages": {k: round(v[0] / v[1], 4) for k, v in sorted(per.items())},
                        "language_characters": {k: v[1] for k, v in sorted(per.items())}}
    # The style each role's characters mostly have.
    dominant = {}
    by_role = collections.defaultdict(collections.Counter)
    for style, c in votes.items():
        for role, k in c.items():
            by_role[role][style] += k
    for role, c in by_role.items():
        dominant[role] = c.most_common(1)[0][0]
    return report, mapping, dominant, votes


def disagreements(results, mapping, top=25):
    c = collections.Counter()
    for group in results.values():
        for judged in group:
            for language, role, style in judged:
                if mapping[style] != role:
                    c[(language, role, mapping[style])] += 1
    return [[lang, want, got, n] for (lang, want, got), n in c.most_common(top)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("binary", nargs="?", default=os.path.join(ROOT, ".build", "release", "typewrite"))
    ap.add_argument("--short", action="store_true")
    ap.add_argument("--split", choices=("held", "tune", "unseen", "all"), default="held")
    ap.add_argument("--mode", choices=("24bit", "256", "both"), default="both")
    ap.add_argument("--direct", action="store_true")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--chunkings", type=int, default=4)
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--only", help="judge only inputs whose id contains this")
    ap.add_argument("--pace", type=float, help="stream word-sized pieces this many seconds apart (restyles)")
    ap.add_argument("--answers", action="append", metavar="FILE.jsonl",
                    help="judge these answers (JSON lines with text) instead of the split's answers and files")
    a = ap.parse_args()

    global PACE
    PACE = a.pace
    answers, files = load_inputs(a.split, a.short, a.answers)
    if a.only:
        answers = [x for x in answers if a.only in x["id"]]
        files = [x for x in files if a.only in x["id"]]
    inputs = [("answers", x) for x in answers] + [("files", x) for x in files]
    out = {"split": a.split, "answers": len(answers), "files": len(files)}
    passed = True

    if a.direct:
        with tempfile.TemporaryDirectory() as tmp:
            exe = build_spans(tmp)
            with ThreadPoolExecutor(a.jobs) as ex:
                got = list(ex.map(lambda p: direct_styles(exe, p[1][1]["text"], a.seed * 1000 + p[0]), enumerate(inputs)))
        results = collections.defaultdict(list)
        restyled = restyled_words = code_chars = 0
        untagged = collections.Counter()
        for (group, item), (styles, rs, rw) in zip(inputs, got):
            judged, unt, _, _ = judge_input(item, styles)
            results[group].append(judged)
            untagged.update(unt)
            restyled += rs
            restyled_words += rw
            code_chars += sum(len(c) for _, c, _ in fences(item["text"]))
        report, mapping, dominant, votes = score(results)
        out.update(report)
        out["untagged_styles"] = dict(untagged)
        out["restyled_bytes_per_1000_code_chars"] = {"pieces": round(1000 * restyled / max(1, code_chars), 2),
                                                      "words": round(1000 * restyled_words / max(1, code_chars), 2)}
        if a.verbose:
            out["disagreements"] = disagreements(results, mapping)
        print(json.dumps(out, indent=1))
        return 0

    if not os.access(a.binary, os.X_OK):
        sys.exit("code-colors-check: no executable at %s (swift build -c release?)" % a.binary)
    modes = ("24bit", "256") if a.mode == "both" else (a.mode,)
    for mode in modes:
        lock = threading.Lock()
        done = [0]

        def one(p):
            k, (group, item) = p
            styles, status, chars_ok, stats = settled_styles(a.binary, item["text"], mode, a.seed * 1000 + k)
            with lock:
                done[0] += 1
            return styles, status, chars_ok, stats

        with ThreadPoolExecutor(a.jobs) as ex:
            got = list(ex.map(one, enumerate(inputs)))
        results = collections.defaultdict(list)
        untagged, tagged = collections.Counter(), collections.Counter()
        bad_exit, bad_chars = [], []
        restyles = collections.defaultdict(lambda: [0, 0, 0, 0])  # group: cells, off screen, characters, code characters
        for (group, item), (styles, status, chars_ok, stats) in zip(inputs, got):
            if stats:
                r = restyles[group]
                r[0] += stats["restyledCells"]
                r[1] += stats["restyledOffScreen"]
                r[2] += stats["characters"]
                r[3] += sum(len(code) for tag, code, _ in fences(item["text"]) if tag in KNOWN)
            judged, unt, tag_styles, _ = judge_input(item, styles)
            results[group].append(judged)
            untagged.update(unt)
            tagged.update(tag_styles)
            if status != 0:
                bad_exit.append(item["id"])
            if not chars_ok:
                bad_chars.append(item["id"])
        report, mapping, dominant, votes = score(results)
        plain = dominant.get("plain")
        distinct = {r: dominant.get(r) is not None and dominant.get(r) != plain for r in ("keyword", "string", "comment", "number")}
        off_palette = sorted({s[0] for s in tagged if s[0] not in PALETTE} | {s[1] for s in tagged if s[1] not in PALETTE})
        base = dominant.get("plain")
        untagged_share = (untagged.most_common(1)[0][1] / sum(untagged.values())) if untagged else 1.0
        untagged_base = not untagged or untagged.most_common(1)[0][0] == base
        m = {"report": report, "distinct": distinct, "palette": not off_palette, "off_palette": off_palette[:8],
             "styles": len(tagged), "untagged_one_style": round(untagged_share, 4), "untagged_is_base": untagged_base,
             "exit_ok": not bad_exit, "chars_ok": not bad_chars,
             "role_styles": {r: list(dominant[r]) for r in ROLES if r in dominant},
             "restyles": {g: {"restyled_cells": v[0], "off_screen": v[1], "characters": v[2], "tagged_code_characters": v[3],
                              "per_1000_characters": round(1000 * v[0] / max(1, v[2]), 2),
                              "per_1000_code_characters": round(1000 * v[0] / max(1, v[3]), 2)} for g, v in restyles.items()}}
        if bad_exit or bad_chars:
            m["bad"] = {"exit": bad_exit[:5], "chars": bad_chars[:5]}
        if a.verbose:
            m["disagreements"] = disagreements(results, mapping)
        ok = (report.get("answers", {}).get("agreement", 1) >= 0.95 and report.get("files", {}).get("agreement", 1) >= 0.90
              and report.get("answers", {}).get("five_roles", 1) >= 0.97 and report.get("files", {}).get("five_roles", 1) >= 0.95
              and all(v >= 0.85 for g in report.values() for v in g["languages"].values())
              and all(distinct.values()) and not off_palette and len(tagged) <= 8
              and untagged_share == 1.0 and untagged_base and not bad_exit and not bad_chars)
        m["pass"] = ok
        passed = passed and ok
        out[mode] = m

    if a.chunkings:
        out["chunking"] = chunking_check(a.binary, answers[:a.chunkings] if a.short else answers[:a.chunkings], a.seed)
        passed = passed and out["chunking"]["same"] == out["chunking"]["inputs"]
    out["pause"] = pause_check(a.binary, out.get("24bit", out.get("256", {})).get("role_styles", {}))
    passed = passed and out["pause"]["pass"]
    out["pass"] = passed
    print(json.dumps(out, indent=1))
    return 0 if passed else 1


def settled_screen(output):
    """Scrollback then screen, each row of (character,) + style_of(cell) without its trailing
    default blanks (terminal.rows_of)."""
    scr = Screen(80, 24, history=10 ** 7, ratio=0.5)
    pyte.ByteStream(scr).feed(output)
    return terminal.rows_of(scr)


def chunking_check(binary, answers, seed):
    """Each answer whole, in random pieces and byte by byte (1 ms apart): the same settled screen."""
    same, differ = 0, []
    for k, item in enumerate(answers):
        data = item["text"].encode("utf-8")
        screens = []
        for schedule in ([(0, data)], random_schedule(data, seed + k),
                         [(0.001 * i, data[i:i + 1]) for i in range(len(data))]):
            output, _ = run_pty(binary, data, "24bit", schedule)
            screens.append(settled_screen(output))
        if screens[0] == screens[1] == screens[2]:
            same += 1
        else:
            differ.append(item["id"])
    return {"inputs": len(answers), "same": same, "differ": differ}


def pause_check(binary, role_styles):
    """`def greet(name):` then a 1.5 s pause before the newline: `def` keyword-styled meanwhile."""
    res = terminal.run_pty([binary, "--markdown=always"], env_for("24bit"), timeout=30, controlling=True,
                           schedule=[(0, b"```python\n"), (0.2, b"def greet(name):"), (1.7, b"\n    pass\n```\n")])
    during = b"".join(b for t, b in res["rec"] if t <= 1.4)
    lines = screen_lines(during)
    row = next((l for l in lines if "".join(lines and [l[x].data for x in range(80)]).startswith("def greet")), None)
    if row is None:
        return {"pass": False, "why": "the line was not on the screen during the pause"}
    got = style_of(row[0])
    want = tuple(role_styles.get("keyword", ())) or None
    plain = tuple(role_styles.get("plain", ())) or None
    ok = got == want and got != plain and style_of(row[1]) == got and style_of(row[2]) == got
    return {"pass": ok, "def_style": list(got), "keyword_style": list(want) if want else None}


if __name__ == "__main__":
    sys.exit(main())
