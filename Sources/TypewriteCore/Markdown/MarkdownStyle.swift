// The vocabulary of the markdown highlighter: what role a source byte plays, per CommonMark 0.31.2
// and the GitHub Flavored Markdown extensions (tables, strikethrough, autolinks, task lists).
// Only the standard library is used, so this folder compiles on its own (see Scripts/).

/// Inline constructs that cover a byte; several can hold at once (`***x***` is strong and emphasis).
///
/// Delimiters belong to the span they delimit (the `**` of `**x**` is `.strong` and carries the
/// marker `.emphasisDelimiter`), as in CommonMark's source positions.
public struct MarkdownInline: OptionSet, Hashable, Sendable {
    /// The flags as bits.
    public let rawValue: UInt8
    /// The set whose bits are `rawValue` (bit 0 strong … bit 5 autolink).
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// `**x**` or `__x__` (CommonMark 0.31.2, 6.2).
    public static let strong = MarkdownInline(rawValue: 1 << 0)
    /// `*x*` or `_x_` (CommonMark 0.31.2, 6.2).
    public static let emphasis = MarkdownInline(rawValue: 1 << 1)
    /// `~x~` or `~~x~~` (GFM strikethrough, with cmark-gfm's rule: runs of one or two, equal lengths).
    public static let strikethrough = MarkdownInline(rawValue: 1 << 2)
    /// A code span, backticks included (CommonMark 0.31.2, 6.1).
    public static let code = MarkdownInline(rawValue: 1 << 3)
    /// The text of a link or image, between its brackets (CommonMark 0.31.2, 6.3 and 6.4).
    public static let link = MarkdownInline(rawValue: 1 << 4)
    /// The address of an autolink, `<https://x>` or a bare GFM `www.x.com`, `https://x`, `a@b.com`.
    public static let autolink = MarkdownInline(rawValue: 1 << 5)
}

/// The syntax character a byte is, if it is one: each kind of marker gets a style of its own kind.
public enum MarkdownMarker: UInt8, Hashable, Sendable, CaseIterable {
    /// Not a marker: text of whatever construct covers it.
    case none
    /// An ATX heading's `#` run (opening or closing), or a setext heading's `===` / `---` underline.
    case headingMarker
    /// The `*`, `_` or `~` characters that open or close strong, emphasis or strikethrough.
    case emphasisDelimiter
    /// The backticks that open or close a code span.
    case codeDelimiter
    /// The `[`, `![`, `](`, `)`, `][label]` of a link or image, the `<` `>` of an autolink.
    case linkDelimiter
    /// An inline link's destination and title, a reference link's label, a definition's destination.
    case linkDestination
    /// The opening or closing line of a fenced code block, info string included.
    case codeFence
    /// A list item's `-`, `+`, `*`, `1.` or `1)`.
    case listMarker
    /// A GFM task list item's box, `[ ]`, `[x]` or `[X]`.
    case taskBox
    /// A block quote's `>`, on every line that carries one.
    case quoteMarker
    /// A `|` that separates the cells of a GFM table row.
    case tablePipe
    /// The whole delimiter row of a GFM table (`|---|:--:|`).
    case tableDelimiterRow
    /// A thematic break line (`---`, `***`, `___`).
    case thematicBreak
}

/// The markdown role of one source byte: its block, the inline spans over it, its marker kind,
/// and inside a fenced code block of a known language its code role.
///
/// A plain value (five bytes), so a renderer can keep one per character; `plain` is text outside
/// every construct (paragraph, list item, quote and table cell text, escapes, raw HTML).
public struct MarkdownStyle: Hashable, Sendable, CustomStringConvertible {
    /// The heading level, 1...6, or 0 outside headings (ATX and setext alike, markers included).
    public var headingLevel: UInt8
    /// True for the content lines of a fenced or indented code block (never for its fence lines).
    public var isCodeBlock: Bool
    /// The inline spans that cover the byte.
    public var inline: MarkdownInline
    /// The syntax character the byte is, or `.none`.
    public var marker: MarkdownMarker
    /// For the content of a fenced code block whose info string names a known language
    /// (`CodeLanguage.named`), the byte's role in that language's syntax; `.plain` elsewhere
    /// (untagged and unknown-language fences and indented code are all `.plain`).
    public var codeRole: CodeRole

    /// Creates a style; every part defaults to "outside any construct".
    public init(headingLevel: UInt8 = 0, isCodeBlock: Bool = false, inline: MarkdownInline = [],
                marker: MarkdownMarker = .none, codeRole: CodeRole = .plain) {
        self.headingLevel = headingLevel
        self.isCodeBlock = isCodeBlock
        self.inline = inline
        self.marker = marker
        self.codeRole = codeRole
    }

    /// Text outside every construct: the terminal's default style.
    public static let plain = MarkdownStyle()

    // Compared field by field on raw values: a renderer compares one per character.
    /// Equal when every part is.
    public static func == (a: MarkdownStyle, b: MarkdownStyle) -> Bool {
        a.headingLevel == b.headingLevel && a.isCodeBlock == b.isCodeBlock
            && a.inline.rawValue == b.inline.rawValue && a.marker.rawValue == b.marker.rawValue
            && a.codeRole.rawValue == b.codeRole.rawValue
    }

    /// Hashes the four parts as one word.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(bits)
    }

    /// The style as one integer: equal styles have equal bits and different styles different
    /// bits (bits 0–7 the heading level, 8 code block, 16–23 inline spans, 24–31 marker, 32–39
    /// code role), for a host that keeps a table of looks without hashing a style per run.
    public var bits: UInt64 {
        UInt64(headingLevel) | UInt64(isCodeBlock ? 1 : 0) << 8 | UInt64(inline.rawValue) << 16
            | UInt64(marker.rawValue) << 24 | UInt64(codeRole.rawValue) << 32
    }

    /// True when the byte is outside every construct.
    public var isPlain: Bool { self == .plain }

    /// The roles joined by `+`, as in `h2+strong+marker:emphasisDelimiter` or
    /// `code-block:keyword`; `plain` for none.
    public var description: String {
        var parts: [String] = []
        if headingLevel > 0 { parts.append("h\(headingLevel)") }
        if isCodeBlock { parts.append(codeRole == .plain ? "code-block" : "code-block:\(codeRole)") }
        let names: [(MarkdownInline, String)] = [(.strong, "strong"), (.emphasis, "emphasis"),
            (.strikethrough, "strike"), (.code, "code"), (.link, "link"), (.autolink, "autolink")]
        for (flag, name) in names where inline.contains(flag) { parts.append(name) }
        if marker != .none { parts.append("marker:\(marker)") }
        return parts.isEmpty ? "plain" : parts.joined(separator: "+")
    }
}

/// One style over a range of source bytes.
public struct MarkdownStyleRun: Hashable, Sendable {
    /// Absolute byte offsets into the whole answer fed so far (0 is its first byte); non-empty.
    public var range: Range<Int>
    /// The style of every byte in `range`.
    public var style: MarkdownStyle
    /// For code block content and fence lines, the first word of the fence's info string
    /// (`"swift"` for ```` ```swift ````), `""` for none or an indented block; nil elsewhere.
    public var codeLanguage: String?

    /// A run of `style` over `range`.
    public init(range: Range<Int>, style: MarkdownStyle, codeLanguage: String? = nil) {
        self.range = range
        self.style = style
        self.codeLanguage = codeLanguage
    }
}

/// What one `feed` or `finish` decided.
public struct MarkdownUpdate: Hashable, Sendable {
    /// Styles of the bytes just fed, in order, tiling them exactly (empty when nothing was fed).
    /// A best guess for text whose role later text decides, following how often each guess holds
    /// in model answers: a `**` or backtick opener is styled at once, `*` too, `_`, `~` and `[`
    /// only once proven.
    public var runs: [MarkdownStyleRun]
    /// New styles for bytes fed earlier whose style changed, because later text proved a guess
    /// wrong (a setext underline, a table delimiter row, a closer that never came); in order,
    /// non-overlapping, each range's bytes all changed. Empty most of the time.
    public var restyles: [MarkdownStyleRun]
    /// Links first found, changed (text bytes, destination) or found to be no link, by this
    /// update: see `MarkdownLink`. Empty most of the time.
    public var links: [MarkdownLink]

    /// An update; empty by default.
    public init(runs: [MarkdownStyleRun] = [], restyles: [MarkdownStyleRun] = [], links: [MarkdownLink] = []) {
        self.runs = runs
        self.restyles = restyles
        self.links = links
    }
}

/// How markdown roles look on a terminal: SGR attributes and the terminal's own palette entries,
/// so that dark and light themes both keep their look (the palette is the theme's).
///
/// Text outside every construct keeps the default style. Each construct has one style wherever it
/// occurs; each kind of marker one style of its own kind, dimmed, in the colour of what it marks:
///
/// | role | SGR | | role | SGR |
/// |---|---|---|---|---|
/// | heading 1 | bold, underline, bright magenta | | strong | bold |
/// | heading 2–6 | bold, bright magenta | | emphasis | italic |
/// | code span | cyan (never bold) | | strikethrough | crossed out |
/// | code block content | green | | link text, autolink | underline |
/// | list marker, task box | yellow | | `#`, fences, backticks | dim, in their construct's colour |
/// | link destination | dim, underline | | other markers | dim |
///
/// Inside a fenced code block of a known language each `CodeRole` has a colour of its own, seven
/// looks in all with the block's green: a colour, never dim alone nor bold, and the entries that
/// keep at least 3:1 against both black and white in xterm's and kitty's default palettes for all
/// but numbers (cyan, like the block's green about 2:1 on white), so each reads on a dark and on a
/// light theme; a builtin or constant (`None`, `true`) is a brighter keyword:
///
/// | code role | SGR | | code role | SGR |
/// |---|---|---|---|---|
/// | plain, console output, diff insertion | green (32) | | number | cyan (36) |
/// | keyword, markup tag, diff header | magenta (35) | | definition, attribute, key | bright blue (94) |
/// | string, diff deletion | red (31) | | builtin, constant | bright magenta (95) |
/// | comment, prompt, diff context | bright black (90) | | | |
///
/// Headings take a bright colour (90–97), which terminals that brighten bold text (xterm's
/// `boldColors`) leave as it is, so the colour a fade ends on is the colour the cell settles in.
/// Without colours (`NO_COLOR`, no-color.org) code spans and code block content are in reverse
/// video (every code role alike), headings bold and underlined, list markers bold.
public enum MarkdownAppearance {
    /// The palette entries the styles use: the terminal is asked for their values (OSC 4), so a
    /// fade ends exactly on them.
    public static let paletteIndices: [UInt8] = [1, 2, 3, 5, 6, 8, 12, 13]

    /// The SGR colour (30–37, 90–97) of a code role inside a fenced code block.
    public static func color(of role: CodeRole) -> Int {
        switch role {
        case .plain, .output, .inserted: 32
        case .keyword, .tag, .heading: 35
        case .string, .deleted: 31
        case .comment, .prompt, .unchanged: 90
        case .number: 36
        case .definition, .attribute, .key: 94
        case .builtin: 95
        }
    }

    /// The SGR parameters (ECMA-48 §8.3.117) that show `style`, applied on top of the input's own
    /// default-coloured state; "" for plain text.
    /// - Parameter colors: false under `NO_COLOR` (no-color.org): attributes only.
    public static func parameters(for style: MarkdownStyle, colors: Bool = true) -> String {
        var attributes: [String] = []
        var color: Int?
        let heading = style.headingLevel > 0
        let code = style.isCodeBlock || style.inline.contains(.code)
        if style.isCodeBlock {
            color = Self.color(of: style.codeRole)
        } else if style.marker == .codeFence {
            color = 32
        } else if style.inline.contains(.code) {
            color = 36
        } else if heading {
            color = 95
        }
        switch style.marker {
        case .none:
            // Code is never bold: a bold basic colour is drawn bright by some terminals.
            if (heading || style.inline.contains(.strong)) && !code { attributes.append("1") }
            if style.inline.contains(.emphasis) { attributes.append("3") }
            if (style.headingLevel == 1 || (heading && !colors) || style.inline.contains(.link) || style.inline.contains(.autolink))
                && !(code && !colors) {
                attributes.append("4")
            }
            if style.inline.contains(.strikethrough) { attributes.append("9") }
            if code && !colors { attributes.append("7") }
        case .listMarker, .taskBox:
            if color == nil { color = 33 }
            if !colors { attributes.append("1") }
        case .linkDestination:
            attributes = ["2", "4"]
        default:
            attributes = ["2"]
        }
        if colors, let color { attributes.append(String(color)) }
        return attributes.joined(separator: ";")
    }
}
