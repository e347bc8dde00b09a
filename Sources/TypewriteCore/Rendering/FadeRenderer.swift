/// The animated writer: input bytes in, frames of terminal output out.
///
/// It tokenizes the input once (`TokenStream`), paces grapheme clusters with a `PacingEngine`,
/// writes each newly revealed cluster and repaints those still fading. Its parts, each with one job:
///
/// - `LiveRegion`: the cells still fading, all on the cursor's row, and how a repaint reaches them;
/// - `PenBook` and `FadeColors`: the SGR states drawn with, and the colour ramp of the fade;
/// - `FramePolicy`: how a frame's bytes are put together (synchronized updates, byte limits);
/// - `WriteAhead`: what is written at once, settled, to keep the lag and memory bounded;
/// - `MarkdownPainter`: the looks of markdown roles, and repainting restyled clusters in place;
/// - `TerminalModel`: where the cursor is and what the terminal does with each token.
///
/// Its safety rules keep the settled screen equal to what `cat` leaves
/// (`docs/terminals.md#the-fades-safety-rules`): fading cells are only on the cursor's row; every fading cell is settled before the
/// cursor would reach the last column, before any control or non-SGR escape sequence, and before a
/// cluster of uncertain width. When the column is not known exactly (after such a barrier),
/// nothing fades until the next CR or LF.
///
/// Time is passed in by the caller (seconds on a monotonic clock); output is appended to a buffer
/// the caller writes with one `write(2)` per frame.
package struct FadeRenderer: Sendable {
    package internal(set) var configuration: FadeConfiguration
    package internal(set) var pacing: PacingEngine
    var stream: TokenStream
    var colors: FadeColors
    var pens = PenBook()
    var live = LiveRegion()
    var row = RowRecord()
    var framing: FramePolicy
    var ahead: WriteAhead
    var markdown: MarkdownPainter
    /// What the terminal does with what is written: cursor, pending wrap, modes, the input's pen
    /// and how certain each is.
    var model: TerminalModel
    /// `model.penReplacements` when `pens.terminal` last followed it.
    var seenPenReplacements = 0
    /// Clusters written so far.
    var revealed = 0
    var inputEnded = false
    /// Whether restyled cells may be repainted by moving the cursor (not after a signal, when
    /// the tty may have echoed `^C`).
    var restylesMayMove = true
    /// Where the cursor rested, and the terminal's pen, when the last output began: for erasing an
    /// echo the tty wrote before that output reached the terminal.
    var restBefore = Rest()

    /// Where the cells still fading were before a resize whose effect on them is not certain;
    /// nil when no cursor report is awaited.
    var relocation: Relocation?

    /// Where the cursor was before a resize (`anchor`, its column; `lineOffset`, its place in its
    /// logical line in cells, when known) and the new width (`columns`).
    struct Relocation {
        var anchor: Int
        var lineOffset: Int?
        var columns: Int
        /// The width after the first resize since the report was last asked, where frames read
        /// late were read (`columns` after one resize).
        var firstColumns: Int
        /// Whether the cells are where they were in a terminal that does its job: the row never
        /// wrapped and the cursor is left of both margins. Without a report they are taken to be
        /// there; a report can still show the cursor a cell short (kitty).
        var keptWithoutReport: Bool
        /// The last frames written before the resize (oldest first), which the terminal may have
        /// read after it.
        var inFlight: [Frame]
        /// The ends of the lines before, while frames that drew on them may be unread (oldest first).
        var lineEnds: [LineEnd]
        /// The narrowest width since the first resize: a terminal that keeps its rows cut them there.
        var narrowest: Int

        /// After the first resize: `columns` is also the first and the narrowest width.
        init(anchor: Int, lineOffset: Int?, columns: Int, keptWithoutReport: Bool, inFlight: [Frame], lineEnds: [LineEnd]) {
            self.anchor = anchor
            self.lineOffset = lineOffset
            self.columns = columns
            self.firstColumns = columns
            self.keptWithoutReport = keptWithoutReport
            self.inFlight = inFlight
            self.lineEnds = lineEnds
            self.narrowest = columns
        }
    }

    /// A frame's motion along its logical line, from `lineOffsetBefore`: runs of going back
    /// `backspaces` cells (BS) and then drawing `written` cells, on one line (`runs(of:)` splits a
    /// frame at its line feeds).
    struct Frame {
        /// Going back `backspaces` cells, then drawing `written` cells.
        struct Run { var backspaces: Int; var written: Int }

        var lineOffsetBefore: Int
        var runs: [Run]

        /// The cells it moved the cursor along its line.
        var advance: Int { runs.reduce(0) { $0 + $1.written - $1.backspaces } }
    }

    /// The last frames written, oldest first, while `Frame` describes each (at most `framesKept`).
    var recentFrames: [Frame] = []

    /// The end of a line before the cursor's, while frames that drew on it may still be unread
    /// (kitty, `mendLineEnd`): its last row's record, its length in cells (`lineOffset`), and the
    /// frames that drew on it, the last of them up to its line feed; each whole line that frame
    /// wrote after it (`linesAfter`); `framesSince`, the frames written after that one.
    struct LineEnd {
        var record: RowRecord
        var lineOffset: Int
        var frames: [Frame]
        var linesAfter: [WholeLine] = []
        var framesSince = 0
    }
    /// The lines ended in the last frames (oldest first), each right above the next.
    var lineEnds: [LineEnd] = []
    /// When the current frame is made, and when the last frame was written (`frame(at:)`'s time):
    /// frames written longer ago than `framesUnreadFor` before a resize have been read.
    var frameTime: Seconds?
    var framesWrittenAt: Seconds?
    static let framesUnreadFor: Seconds = 0.25
    /// The row record and line offset as a line feed (or the CR before it) was written in the
    /// frame being made.
    var lineFeedRecord: (record: RowRecord, lineOffset: Int)?

    struct Rest {
        var column: Int?
        var pendingWrap = false
        var bounds: ClosedRange<Int>?
        var columns: Int?
        var pen = GraphicRendition()
        var penIsUnknown = false
    }

    /// Whether the input left an OSC 8 hyperlink open.
    package var hyperlinkOpen: Bool { model.hyperlinkOpen }

    /// Whether the cursor is known to be after some text on its row: its column (or every column
    /// it may be in) is past the first, and it is not in pending wrap.
    package var cursorIsMidLine: Bool {
        guard let bounds = model.columnBounds, bounds.lowerBound > 0 else { return false }
        return model.column == nil || model.column != model.columns
    }

    /// Widest terminal typewrite models, in cells; a wider (or absurd) width counts as unknown.
    static let maximumColumns = 10_000

    /// Longest the last screenful takes to type in after the rows above it were written at once,
    /// in seconds: long enough to be seen fading (30 frames), short enough that a flood ends soon
    /// after its input does, however often it is read.
    package static let lastScreenfulDuration: Seconds = 0.5

    /// One frame period at 60 frames per second, in seconds.
    package static let frameAllowance: Seconds = 1.0 / 60

    package init(configuration: FadeConfiguration) {
        self.configuration = configuration
        // Bursts end one frame early, so that the frame showing the last of them settled still
        // comes within the maximum lag of its arrival.
        let lag = configuration.maximumLag.isFinite
            ? max(PacingEngine.minimumBurstDuration, configuration.maximumLag - Self.frameAllowance)
            : configuration.maximumLag
        pacing = PacingEngine(charactersPerSecond: configuration.charactersPerSecond,
                              fadeWidth: configuration.fadeWidth, maximumLag: lag)
        stream = TokenStream(rules: configuration.cellRules)
        colors = FadeColors(configuration)
        model = TerminalModel(columns: Self.valid(configuration.columns), newlineReturnsCarriage: configuration.newlineReturnsCarriage)
        let budget = configuration.memoryBudget
        ahead = WriteAhead(maximumLag: configuration.maximumLag, frameAllowance: Self.frameAllowance,
                           memoryLimit: budget.settleAbove,
                           rows: Self.valid(configuration.rows))
        framing = FramePolicy(byteLimit: budget.frameBytes)
        markdown = MarkdownPainter(colors: configuration.markdownUsesColor && configuration.colorDepth != .none,
                                   openTextLimit: budget.openMarkdownText, links: configuration.hyperlinks,
                                   linkIDPrefix: configuration.hyperlinkIDPrefix)
        if configuration.highlightsMarkdown { startMarkdown() }
    }

    static func valid(_ size: Int?) -> Int? { size.flatMap { $0 > 0 && $0 <= maximumColumns ? $0 : nil } }

    // MARK: Markdown

    /// Highlights the text from here on as markdown (CommonMark 0.31.2 + GFM, `MarkdownHighlighter`):
    /// every character keeps its cell, and default-coloured text takes the look of its role
    /// (`MarkdownAppearance`), fading toward it. Restyles repaint cells still on the screen.
    package mutating func startMarkdown() {
        markdown.start(at: stream.tokenizedEnd, model: &model)
    }

    /// The text from here on is a markdown document of its own (a model's reasoning before its
    /// answer): what the one before left open ends here.
    package mutating func startMarkdownDocument() {
        markdown.startDocument(stream)
    }

    /// The text from here on continues `context` instead of what was received before it (a
    /// snapshot rewrote its tail): the highlighter starts again, reading `context` first. The
    /// next `skipping` bytes received (the moves back to the change) are not fed to it.
    package mutating func restartMarkdownDocument(after context: some Collection<UInt8>, skipping: Int = 0) {
        markdown.restartDocument(after: context, skipping: skipping, stream)
    }

    /// Whether markdown highlighting is on.
    package var highlightsMarkdown: Bool { markdown.isOn }

    /// For the benchmark: clusters written, clusters repainted in a new look, and restyled bytes
    /// that could not be repainted (scrolled off, or where their place was not certain); nil
    /// when markdown highlighting is off.
    package var markdownStatistics: (characters: Int, restyledCells: Int, restyledOffScreen: Int)? {
        guard markdown.isOn else { return nil }
        let s = markdown.statistics
        return (pacing.received, s.restyledCells, s.restyledOffScreen)
    }

    // MARK: Input side

    /// Takes bytes as read (any split) that arrived at `time`.
    package mutating func receive(_ bytes: some Collection<UInt8>, at time: Seconds) {
        let tokensBefore = stream.storedTokenBytes
        let clusters = stream.append(bytes)
        markdown.feed(stream)
        pacing.receive(clusters, at: time)
        ahead.noteArrival(clusters: pacing.received, added: clusters, at: time)
        if bytes.count >= 4096 {
            bytesOfMemoryPerInputByte = Double(1 + markdown.bytesPerHeldByte)
                + Double(2 * max(0, stream.storedTokenBytes - tokensBefore)) / Double(bytes.count)
        }
    }

    /// End of input at `time`: anything held back (an incomplete sequence) passes through verbatim.
    package mutating func endInput(at time: Seconds) {
        let clusters = stream.finish()
        markdown.feed(stream)
        markdown.finish()
        pacing.receive(clusters, at: time)
        ahead.noteArrival(clusters: pacing.received, added: clusters, at: time)
        inputEnded = true
    }

    /// Memory held for input not yet written, in bytes: the input bytes and the tokens that
    /// describe them, counted twice for the slack of a growing array (a flood of short lines
    /// costs more in tokens than in bytes), and with markdown on the looks and links kept for
    /// those bytes. Reading pauses on it, and the flood rule writes the oldest at once past it.
    package var pendingBytes: Int {
        pendingInputBytes * (1 + markdown.bytesPerHeldByte) + 2 * stream.storedTokenBytes
    }

    /// Input bytes received and not yet written.
    package var pendingInputBytes: Int { stream.pendingBytes }

    /// Memory one input byte cost in the last burst, in bytes (1 for long lines of text, up to
    /// about 40 for a flood of 3-byte lines): the reader sizes its next burst with it.
    package internal(set) var bytesOfMemoryPerInputByte = 1.0

    /// Whether frames are still needed: clusters waiting or cells fading.
    package var isAnimating: Bool { !stream.isEmpty || live.isFading || markdown.hasRestyles }

    /// Whether input has ended and everything has been written and settled.
    package var isFinished: Bool { inputEnded && !isAnimating }

    // MARK: Frames

    /// Writes what changed by `time` into `out`: newly revealed clusters and repainted fading cells.
    ///
    /// With a finite maximum lag, text is also written at once, settled, where animating it would
    /// show nothing or break the bound (`WriteAhead`). The front carries on from there, reaching the
    /// rest no later than it would have; after rows written ahead, the last screenful takes
    /// `lastScreenfulDuration` at most.
    package mutating func frame(at time: Seconds, into out: inout [UInt8]) {
        frame(at: time, relievingMemory: false, into: &out)
    }

    /// Writes a frame now that takes the oldest text past the memory limit at once, settled, even
    /// with an infinite maximum lag: for a writer that cannot be made to wait (a library host's
    /// synchronous writes). At most one frame's worth of bytes.
    package mutating func relieveMemory(at time: Seconds, into out: inout [UInt8]) {
        frame(at: time, relievingMemory: true, into: &out)
    }

    mutating func frame(at time: Seconds, relievingMemory: Bool, into out: inout [UInt8]) {
        // Waiting for the cursor's place after a resize: nothing is written until it is known.
        guard relocation == nil else { return }
        frameTime = time
        var settledUpTo = 0
        if ahead.lagIsBounded || relievingMemory {
            let due = max(ahead.dueClusters(at: time), ahead.clustersOverMemoryLimit(stream, pending: pendingBytes, written: revealed))
            let unseen = ahead.lagIsBounded ? ahead.clustersScrolledOff(stream, columns: model.columns, received: pacing.received) : 0
            settledUpTo = max(due, unseen)
            if Double(settledUpTo) > pacing.front(at: time) {
                pacing.skip(to: Double(settledUpTo), at: time, within: unseen >= due ? Self.lastScreenfulDuration : .infinity)
            }
        }
        render(front: pacing.front(at: time), finishing: false, settledUpTo: settledUpTo, into: &out)
    }

    /// Writes everything received so far at once, settled, and restores the input's own SGR state,
    /// without moving away from where the text ends: for a library host that settles before it
    /// moves the cursor itself. Later text is paced from here.
    package mutating func settleNow(into out: inout [UInt8]) {
        render(front: .infinity, finishing: true, settledUpTo: 0, into: &out)
        pacing.settleNow()
    }

    /// Writes everything received so far at once, settled, for a signal that ends typewrite
    /// (SIGINT, SIGTERM, SIGQUIT), and leaves the input's own SGR state.
    ///
    /// Where the tty echoed the signal's key at the cursor (`echo.landed`), that echo stands
    /// where the text ended when the key was pressed; the rest would go on after it, so the
    /// anchor is found again first (`LiveRegion.reanchor`): the echo is erased, the text follows
    /// on, and the echo is written after it, where `cat` would have shown it.
    /// - Parameter echo: what the tty echoed, or would have where its echo was off; nil for none.
    package mutating func interrupt(echo: KeyEcho?, into out: inout [UInt8]) {
        giveUpRelocation(into: &out)
        framing.begin(at: out.count)
        var moves = LiveRegion.Moves.relative
        if let echo, echo.landed, !reanchor(afterEcho: echo, into: &out) {
            // The cursor is after the echo and its place is not certain: the fading cells are reached
            // by column where the echo stayed on their row, else left as drawn.
            if let c = model.column, let width = model.columns, !model.pendingWrap, c + echo.width < width {
                moves = .absolute
            } else {
                live.removeAll()
            }
        }
        restylesMayMove = false
        render(front: .infinity, finishing: true, settledUpTo: 0, moves: moves, into: &out)
        restylesMayMove = true
        pacing.settleNow()
        if let echo {
            out.append(contentsOf: echo.bytes)
            model.drawText(count: echo.width)
        }
    }

    /// Settles the cells still fading for SIGTSTP and resets the terminal's SGR state, keeping the
    /// text not yet shown for after the job continues (`resumed`). Where the tty echoed the key
    /// (`^Z`) at the cursor, the row is mended as for `interrupt`, and the echo is written where
    /// the text ends, as with `cat`.
    package mutating func suspend(echo: KeyEcho?, into out: inout [UInt8]) {
        giveUpRelocation(into: &out)
        framing.begin(at: out.count)
        var moves = LiveRegion.Moves.relative
        if let echo, echo.landed, !reanchor(afterEcho: echo, into: &out) {
            if let c = model.column, let width = model.columns, !model.pendingWrap, c + echo.width < width { moves = .absolute }
        }
        settleLive(moves: moves, into: &out)
        restorePen(into: &out)
        if let echo { out.append(contentsOf: echo.bytes) }
        framing.end(into: &out)
        resetPen(into: &out)
        // The shell writes meanwhile: where the cursor will be is not known.
        model.cursorMovedElsewhere()
        row.sync(model)
        markdown.forgetPainted()
    }

    /// The job continues after `suspend`: the cursor is wherever the shell left it, so the text
    /// goes on there, settled, until a line feed or a carriage return makes the column certain.
    package mutating func resumed(into out: inout [UInt8]) { forgetCursor(into: &out) }
}
