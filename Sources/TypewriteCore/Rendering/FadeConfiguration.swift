/// Settings of the animated writer, decided once at start.
public struct FadeConfiguration: Sendable {
    /// Typing speed in grapheme clusters per second (finite, > 0). Default 80 (`docs/design.md#pacing`).
    public var charactersPerSecond: Double = 80
    /// Soft-edge width in grapheme clusters (≥ 0; 0 = hard front). Default 10 (`docs/design.md#the-soft-edge`).
    public var fadeWidth: Double = 10
    /// Longest time a burst is spread over, in seconds (≥ 0.15, or `.infinity`).
    public var maximumLag: Seconds = PacingEngine.defaultMaximumLag
    /// How the fade is drawn.
    public var colorDepth: ColorDepth = .trueColor
    /// The terminal's background, where the fade starts (assumed dark: black).
    public var background = RGB(0, 0, 0)
    /// The colour text in the default foreground fades toward before it settles with SGR 39.
    public var foreground = RGB(208, 208, 208)
    /// Steps of the fade between invisible and settled.
    public var levels = 12
    /// Whether East Asian ambiguous-width characters are two cells wide (UAX #11).
    public var ambiguousIsWide = false
    /// Whether they are of uncertain width (a CJK locale, where terminals disagree): written
    /// settled, without a fade, and the column is unknown after them.
    public var ambiguousIsUncertain = false
    /// Whether the tty turns LF into CR LF (termios OPOST and ONLCR), so LF returns to column 0.
    public var newlineReturnsCarriage = true
    /// Terminal width in cells; nil when unknown (nothing fades then).
    public var columns: Int?
    /// Terminal height in rows; nil when unknown. When known (and `maximumLag` is finite), text that
    /// will have scrolled off the top before the front reaches it is written at once, settled:
    /// only the last screenful animates.
    public var rows: Int?
    /// The memory budget the renderer's caps derive from: above `settleAbove` held (see
    /// `FadeRenderer.pendingBytes`) the oldest text is written at once, settled, until half of it
    /// is left (ignored when `maximumLag` is infinite: a strict typewriter waits instead); a frame
    /// writes at most `frameBytes`; the markdown layer holds at most `openMarkdownText`.
    package var memoryBudget = MemoryBudget.standard
    /// Whether the text is markdown to highlight from its first byte (`MarkdownAppearance`); a
    /// renderer can also start later, with `startMarkdown()`.
    public var highlightsMarkdown = false
    /// Whether markdown styles may use colours (false under `NO_COLOR`: attributes only).
    public var markdownUsesColor = true
    /// Palette entries as the terminal reported them (OSC 4), which colours fade toward; entries
    /// not reported fade toward xterm's defaults.
    public var palette: [UInt8: RGB] = [:]

    public init() {}
}
