/// What a `Session` writes the text through on a terminal: the fade renderer, or the collapsed view
/// built on it. Bytes and time go in; terminal bytes come out. A writer does no I/O.
///
/// Time is seconds on the caller's monotonic clock, never decreasing.
protocol TerminalWriter: Sendable {
    /// Whether frames are still needed.
    var isAnimating: Bool { get }
    /// Whether input has ended and everything is written and settled.
    var isFinished: Bool { get }
    /// Memory held for input not yet written, in bytes.
    var pendingBytes: Int { get }
    /// Input bytes received and not yet written.
    var pendingInputBytes: Int { get }
    /// Memory one input byte cost in the last burst, in bytes.
    var bytesOfMemoryPerInputByte: Double { get }
    /// Whether the input left an OSC 8 hyperlink open.
    var hyperlinkOpen: Bool { get }
    /// Whether the cursor is known to be after some text on its row (neither at the row's start
    /// nor in pending wrap, where the next character starts a row anyway).
    var cursorIsMidLine: Bool { get }
    /// Whether markdown highlighting is on.
    var highlightsMarkdown: Bool { get }
    /// For the benchmark: clusters written, cells restyled, restyles not repainted.
    var markdownStatistics: (characters: Int, restyledCells: Int, restyledOffScreen: Int)? { get }

    mutating func receive(_ bytes: some Collection<UInt8>, at time: Seconds)
    mutating func endInput(at time: Seconds)
    /// Writes the frame due at `time`.
    mutating func frame(at time: Seconds, into out: inout [UInt8])
    /// Writes the oldest text at once, settled, down to the flood limit (`FadeRenderer.relieveMemory`).
    mutating func relieveMemory(at time: Seconds, into out: inout [UInt8])
    /// Everything received, settled, for a signal that ends the run (`FadeRenderer.interrupt`).
    mutating func interrupt(echo: KeyEcho?, into out: inout [UInt8])
    /// The bytes that erase a key's echo the tty wrote before the writer's last output reached the
    /// terminal (`FadeRenderer.eraseEcho`); nil when its place is not certain.
    func eraseEcho(_ echo: KeyEcho) -> [UInt8]?
    /// Whether a cursor report right after a key's signal is where the writer's output left the
    /// cursor (`FadeRenderer.outputReached`); false when that cannot be told.
    func outputReached(column: Int, echo: KeyEcho?, held: Bool) -> Bool
    /// Ends after a key's signal that discarded output the terminal had not read: nothing more of
    /// the text (`FadeRenderer.abandon`).
    mutating func abandon(echo: KeyEcho?, cursorColumn: Int?, into out: inout [UInt8])
    /// Settles and resets the pen before the job stops (`FadeRenderer.suspend`).
    mutating func suspend(echo: KeyEcho?, into out: inout [UInt8])
    /// The job continues: the cursor is wherever the shell left it.
    mutating func resumed(into out: inout [UInt8])
    /// Everything received, settled, without ending the input or moving away.
    mutating func settleNow(into out: inout [UInt8])
    /// The terminal's size changed (nil: unknown), at `time` (seconds; nil: not known).
    mutating func resize(columns: Int?, rows: Int?, at time: Seconds?, into out: inout [UInt8])
    /// Whether the writer waits for the cursor's column (a cursor position report) before it
    /// writes more: after a resize that may have moved the cells still fading.
    var wantsCursorReport: Bool { get }
    /// Where the cursor is (0-based column) as the terminal reported it; nil when it cannot be
    /// asked or did not answer.
    mutating func cursorReport(column: Int?, into out: inout [UInt8])
    /// The terminal's own colours, as it reported them.
    mutating func useTerminalColors(_ colors: TerminalColors)
    /// Something else moved the cursor: the column is unknown.
    mutating func forgetCursor(into out: inout [UInt8])

    mutating func startMarkdown()
    mutating func startMarkdownDocument()
    mutating func restartMarkdownDocument(after context: some Collection<UInt8>, skipping: Int)

    // The `--collapse` prompt; a writer without one never asks for keys.

    /// Whether the writer is ready to ask for keys (the text is shown, waiting for a key).
    var wantsKeyboard: Bool { get }
    /// Whether keys are being read.
    var awaitsKeys: Bool { get }
    /// Starts the prompt: with `keyboard` keys will come; without, the view expands by itself.
    mutating func beginPrompt(keyboard: Bool, screenRows: Int?, at time: Seconds, into out: inout [UInt8])
    /// Keys read from the terminal (one read's bytes).
    mutating func keys(_ bytes: some Collection<UInt8>, at time: Seconds, into out: inout [UInt8])
}

extension TerminalWriter {
    func outputReached(column: Int, echo: KeyEcho?, held: Bool) -> Bool { false }
    var wantsCursorReport: Bool { false }
    mutating func cursorReport(column: Int?, into out: inout [UInt8]) {}
    var wantsKeyboard: Bool { false }
    var awaitsKeys: Bool { false }
    mutating func beginPrompt(keyboard: Bool, screenRows: Int?, at time: Seconds, into out: inout [UInt8]) {}
    mutating func keys(_ bytes: some Collection<UInt8>, at time: Seconds, into out: inout [UInt8]) {}
}

extension FadeRenderer: TerminalWriter {}
