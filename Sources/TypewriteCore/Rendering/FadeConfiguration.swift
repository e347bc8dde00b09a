/// Settings of the animated writer, decided once at start.
package struct FadeConfiguration: Sendable {
    /// Typing speed in grapheme clusters per second (finite, > 0). Default 80 (`docs/design.md#pacing`).
    package var charactersPerSecond: Double = 80
    /// Soft-edge width in grapheme clusters (≥ 0; 0 = hard front). Default 10 (`docs/design.md#the-soft-edge`).
    package var fadeWidth: Double = 10
    /// Longest time a burst is spread over, in seconds (≥ 0.15, or `.infinity`).
    package var maximumLag: Seconds = PacingEngine.defaultMaximumLag
    /// How the fade is drawn.
    package var colorDepth: ColorDepth = .trueColor
    /// The terminal's background, where the fade starts (assumed dark: black).
    package var background = RGB(0, 0, 0)
    /// The colour text in the default foreground fades toward before it settles with SGR 39.
    package var foreground = RGB(208, 208, 208)
    /// Steps of the fade between invisible and settled.
    package var levels = 12
    /// Whether East Asian ambiguous-width characters are two cells wide (UAX #11).
    package var ambiguousIsWide = false
    /// Whether they are of uncertain width (a CJK locale, where terminals disagree): written
    /// settled, without a fade, and the column is unknown after them.
    package var ambiguousIsUncertain = false
    /// Whether the tty turns LF into CR LF (termios OPOST and ONLCR), so LF returns to column 0.
    package var newlineReturnsCarriage = true
    /// How the terminal reflows its rows, when known (`TerminalCapabilities.reflow`).
    package var reflow: TerminalReflow?
    /// Terminal width in cells; nil when unknown (nothing fades then).
    package var columns: Int?
    /// Terminal height in rows; nil when unknown. When known (and `maximumLag` is finite), text that
    /// will have scrolled off the top before the front reaches it is written at once, settled:
    /// only the last screenful animates.
    package var rows: Int?
    /// The memory budget the renderer's caps derive from: above `settleAbove` held (see
    /// `FadeRenderer.pendingBytes`) the oldest text is written at once, settled, until half of it
    /// is left (ignored when `maximumLag` is infinite: a strict typewriter waits instead); a frame
    /// writes at most `frameBytes`; the markdown layer holds at most `openMarkdownText`.
    package var memoryBudget = MemoryBudget.standard
    /// Whether the text is markdown to highlight from its first byte (`MarkdownAppearance`); a
    /// renderer can also start later, with `startMarkdown()`.
    package var highlightsMarkdown = false
    /// Whether markdown styles may use colours (false under `NO_COLOR`: attributes only).
    package var markdownUsesColor = true
    /// Whether highlighted links are drawn as OSC 8 hyperlinks (only safe destinations,
    /// `MarkdownLink.destination`; never inside a hyperlink of the input's own).
    package var hyperlinks = false
    /// What starts each hyperlink's `id=`, so that the ids of two programs on one screen differ
    /// (the process id); the link's number follows it.
    package var hyperlinkIDPrefix = "tw"
    /// Palette entries as the terminal reported them (OSC 4), which colours fade toward; entries
    /// not reported fade toward xterm's defaults.
    package var palette: [UInt8: RGB] = [:]

    package init() {}

    /// How wide each cluster is and whether terminals agree on it, for every stage that reads
    /// this text (the renderer and the collapsed view).
    var cellRules: CellRules {
        CellRules(ambiguousIsWide: ambiguousIsWide, ambiguousIsUncertain: ambiguousIsUncertain)
    }
}
