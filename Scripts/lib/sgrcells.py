"""sgrcells: a terminal's cells with their SGR styles, as the screen checks read them.

Shared by Scripts/lib/terminal.py and Scripts/check/tmux-check.py (tmux's capture-pane -e) and
Scripts/check/emulator-actions.py (xterm's and kitty's own screen dumps): a style is (attribute bits, fg, bg, underline colour, underline
style); a colour is None (default), ("16", n), ("256", n) or ("rgb", r, g, b), with palette entries
below 16 named as SGR 30-37/90-97 name them (ECMA-48 8.3.117, xterm ctlseqs for 38/48/58).
Standard library only."""

DEFAULT = (0, None, None, None, 0)   # attribute bits, fg, bg, underline colour, underline style
ATTR_BITS = {1: 1, 2: 2, 3: 4, 5: 8, 6: 8, 7: 16, 8: 32, 9: 64, 53: 128}
ATTR_OFF = {22: 1 | 2, 23: 4, 25: 8, 27: 16, 28: 32, 29: 64, 55: 128}
ATTR_NAMES = [(1, "bold"), (2, "dim"), (4, "italic"), (8, "blink"), (16, "reverse"), (32, "hidden"),
              (64, "strike"), (128, "overline")]


def palette(n):
    """Palette entry n: below 16 the same colour as SGR 30-37/90-97, and named so."""
    return ("16", n) if n < 16 else ("256", n)


def extended_colour(params, i, sub):
    """An extended colour at params[i]: 5;n or 2;r;g;b, or the colon forms in `sub` (38:5:n,
    38:2:r:g:b, 38:2::r:g:b with an empty colour space id). Returns (colour, next index)."""
    if sub is not None:
        if sub and sub[0] == "5" and len(sub) >= 2:
            return palette(int(sub[1] or 0)), i + 1
        if sub and sub[0] == "2":
            rgb = sub[1:]
            if len(rgb) >= 4:
                rgb = rgb[1:4]   # colour space id first
            rgb = [int(v or 0) for v in (rgb + ["0", "0", "0"])[:3]]
            return ("rgb",) + tuple(rgb), i + 1
        return None, i + 1
    if i + 2 < len(params) and params[i + 1] == "5":
        return palette(int(params[i + 2] or 0)), i + 3
    if i + 4 < len(params) and params[i + 1] == "2":
        return ("rgb", int(params[i + 2] or 0), int(params[i + 3] or 0), int(params[i + 4] or 0)), i + 5
    return None, len(params)


def apply_sgr(style, text):
    """The style after `CSI text m` (text: the parameters, ';' and ':' separated)."""
    bits, fg, bg, ulc, uls = style
    params = text.split(";") if text else [""]
    i = 0
    while i < len(params):
        p, sub = params[i], None
        if ":" in p:
            parts = p.split(":")
            p, sub = parts[0], parts[1:]
        try:
            n = int(p) if p else 0
        except ValueError:
            i += 1
            continue
        if n == 0:
            bits, fg, bg, ulc, uls = DEFAULT
        elif n == 4:
            uls = int(sub[0] or 0) if sub else 1
        elif n == 21:
            uls = 2
        elif n == 24:
            uls = 0
        elif n in ATTR_BITS:
            bits |= ATTR_BITS[n]
        elif n in ATTR_OFF:
            bits &= ~ATTR_OFF[n]
        elif 30 <= n <= 37:
            fg = ("16", n - 30)
        elif 90 <= n <= 97:
            fg = ("16", n - 90 + 8)
        elif 40 <= n <= 47:
            bg = ("16", n - 40)
        elif 100 <= n <= 107:
            bg = ("16", n - 100 + 8)
        elif n == 39:
            fg = None
        elif n == 49:
            bg = None
        elif n == 59:
            ulc = None
        elif n in (38, 48, 58):
            c, i = extended_colour(params, i, sub)
            if n == 38:
                fg = c
            elif n == 48:
                bg = c
            else:
                ulc = c
            continue
        i += 1
    return (bits, fg, bg, ulc, uls)


def invisible(style):
    """A blank in this style looks like an empty cell."""
    bits, fg, bg, ulc, uls = style
    return bg is None and not bits & (16 | 64 | 128) and not uls


def row_text(row):
    return "".join(ch for ch, _ in row)


def styles_of(rows):
    """Styles of the cells one can see (a blank counts only where it looks other than empty)."""
    seen = set()
    for row in rows:
        for ch, st in row:
            if ch != " " or not invisible(st):
                seen.add(st)
    return seen


def colour_name(v):
    if v is None:
        return "default"
    if v[0] == "rgb":
        return "#%02x%02x%02x" % v[1:]
    return "%s:%d" % v


def describe_style(st):
    bits, fg, bg, ulc, uls = st
    out = [name for bit, name in ATTR_NAMES if bits & bit]
    if fg is not None:
        out.append("fg " + colour_name(fg))
    if bg is not None:
        out.append("bg " + colour_name(bg))
    if uls:
        out.append("underline %d" % uls)
    if ulc is not None:
        out.append("ul " + colour_name(ulc))
    return ", ".join(out) or "default"


def first_difference(want, got, label_want="cat", label_got="typewrite"):
    """The first cell where two screens (rows of (character, style)) differ, described; None
    when they are the same."""
    for r in range(max(len(want), len(got))):
        x = want[r] if r < len(want) else []
        y = got[r] if r < len(got) else []
        if x != y:
            for c in range(max(len(x), len(y))):
                a = x[c] if c < len(x) else None
                b = y[c] if c < len(y) else None
                if a != b:
                    def cell(v):
                        return "none" if v is None else "%r (%s)" % (v[0], describe_style(v[1]))
                    return "row %d col %d: %s %s, %s %s" % (r, c, label_want, cell(a), label_got, cell(b))
    return None
