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
    package private(set) var configuration: FadeConfiguration
    package private(set) var pacing: PacingEngine
    private var stream: TokenStream
    private var colors: FadeColors
    private var pens = PenBook()
    private var live = LiveRegion()
    private var row = RowRecord()
    private var framing: FramePolicy
    private var ahead: WriteAhead
    private var markdown: MarkdownPainter
    /// What the terminal does with what is written: cursor, pending wrap, modes, the input's pen
    /// and how certain each is.
    private var model: TerminalModel
    /// `model.penReplacements` when `pens.terminal` last followed it.
    private var seenPenReplacements = 0
    /// Clusters written so far.
    private var revealed = 0
    private var inputEnded = false
    /// Whether restyled cells may be repainted by moving the cursor (not after a signal, when
    /// the tty may have echoed `^C`).
    private var restylesMayMove = true
    /// Where the cursor rested, and the terminal's pen, when the last output began: for erasing an
    /// echo the tty wrote before that output reached the terminal.
    private var restBefore = Rest()

    private struct Rest {
        var column: Int?
        var pendingWrap = false
        var bounds: ClosedRange<Int>?
        var columns: Int?
        var pen = GraphicRendition()
        var penIsUnknown = false
    }

    /// Whether the input left an OSC 8 hyperlink open.
    package var hyperlinkOpen: Bool { model.hyperlinkOpen }

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

    private static func valid(_ size: Int?) -> Int? { size.flatMap { $0 > 0 && $0 <= maximumColumns ? $0 : nil } }

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
            bytesOfMemoryPerInputByte = 1 + Double(2 * max(0, stream.storedTokenBytes - tokensBefore)) / Double(bytes.count)
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
    /// costs more in tokens than in bytes). Reading pauses on it.
    package var pendingBytes: Int { pendingInputBytes + 2 * stream.storedTokenBytes }

    /// Input bytes received and not yet written.
    package var pendingInputBytes: Int { stream.pendingBytes }

    /// Memory one input byte cost in the last burst, in bytes (1 for long lines of text, up to
    /// about 40 for a flood of 3-byte lines): the reader sizes its next burst with it.
    package private(set) var bytesOfMemoryPerInputByte = 1.0

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

    private mutating func frame(at time: Seconds, relievingMemory: Bool, into out: inout [UInt8]) {
        // Waiting for the cursor's place after a resize: nothing is written until it is known.
        guard relocation == nil else { return }
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

    private mutating func noteRest() {
        restBefore = Rest(column: model.column, pendingWrap: model.pendingWrap, bounds: model.columnBounds, columns: model.columns,
                          pen: pens.terminal, penIsUnknown: model.penIsUnknown)
    }

    /// The bytes that erase `echo`, which the tty wrote where the cursor rested before the last
    /// output this renderer made (that output has not reached the terminal yet: a signal came
    /// first), and leave the cursor and the pen as that output expects them. Nil when the place
    /// is not certain (the cursor was in pending wrap, or its column unknown near the margin).
    public func eraseEcho(_ echo: KeyEcho) -> [UInt8]? {
        let rest = restBefore
        guard let columns = rest.columns, !rest.pendingWrap else { return nil }
        var out: [UInt8] = Array("\u{1B}[0m".utf8)  // erase in the default colours
        if let c = rest.column {
            if c + echo.width > columns {
                // The echo wrapped: erase its part on the row below, go back up.
                out += [0x0D, 0x1B, 0x5B, 0x4B]
                ControlSequence.append(&out, 1, final: ControlSequence.cuu)
            }
            ControlSequence.append(&out, c + 1, final: ControlSequence.cha, always: true)
            ControlSequence.append(&out, min(echo.width, columns - c), final: ControlSequence.ech)
        } else if let bounds = rest.bounds, bounds.upperBound + echo.width < columns {
            ControlSequence.append(&out, echo.width, final: ControlSequence.cub)
            ControlSequence.append(&out, echo.width, final: ControlSequence.ech)
        } else {
            return nil
        }
        if !rest.penIsUnknown {
            let params = rest.pen.render()
            if !params.isEmpty { out += Array("\u{1B}[0;\(params)m".utf8) }
        }
        return out
    }

    /// Finds the anchor again after the tty's `echo` (`LiveRegion.reanchor`).
    private mutating func reanchor(afterEcho echo: KeyEcho, into out: inout [UInt8]) -> Bool {
        row.sync(model)
        let found = live.reanchor(afterEcho: echo.width, model: model, row: row, pens: &pens, into: &out)
        if found { framing.movedCursor = true }
        return found
    }

    /// The terminal is now `newColumns` wide and `newRows` high (SIGWINCH; nil when unknown: then
    /// nothing is written ahead). Fading goes on where nothing can have moved in any terminal: the
    /// row never wrapped and the cursor is left of both margins. Elsewhere a terminal that reflows
    /// its rows (tmux, kitty, VTE) may have moved the cells still fading along the line, and one
    /// that does not (xterm) kept them where they were: the renderer waits, writing nothing, for
    /// the cursor's column (`cursorReport`), which tells the two apart
    /// (`docs/terminals.md#resize-and-reflow`).
    package mutating func resize(columns newColumns: Int?, rows newRows: Int?, into out: inout [UInt8]) {
        ahead.rows = Self.valid(newRows)
        let valid = Self.valid(newColumns)
        if relocation == nil, let c = model.column, let old = model.columns, let new = valid, !model.rowWrapped, !model.pendingWrap,
           c < old - 1, c < new - 1 {
            model.columns = new
            // Rows above may have been reflowed: only the cursor's row is still where it was.
            markdown.keepOnlyRow(model.row)
            return
        }
        markdown.forgetPainted()
        if let anchor = relocation?.anchor ?? model.column, let new = valid, live.isFading, !model.pendingWrap {
            // A second resize before the report: the cells are still where the first found them.
            relocation = (anchor, relocation?.lineOffset ?? model.lineOffset, new)
            return
        }
        relocation = nil
        loseLiveRegion(columns: valid, into: &out)
    }

    /// Where the cursor was (the anchor, and its place in its logical line when known) before a
    /// resize whose effect on the cells still fading is not certain, and the new width; nil when
    /// no report is awaited.
    private var relocation: (anchor: Int, lineOffset: Int?, columns: Int)?

    /// Whether the renderer waits for `cursorReport` before it writes more.
    package var wantsCursorReport: Bool { relocation != nil }

    /// The cursor's column (0-based) as the terminal reported it after a resize, or nil when it
    /// could not be asked. The cells still fading were right before the cursor; the column tells
    /// what the terminal did with them. A terminal that keeps rows in place (xterm) keeps the
    /// cursor's column (or the last one, when the new width cuts it off); one that reflows them
    /// puts the cursor at its place in the logical line modulo the new width, the cells just before
    /// it, the oldest maybe at the end of the row above. Where the column matches what one of them
    /// does, and not both differently, the cells are found again; elsewhere they are left as drawn
    /// and the text goes on settled until the column is certain again.
    public mutating func cursorReport(column reported: Int?, into out: inout [UInt8]) {
        guard let r = relocation else { return }
        relocation = nil
        // tmux reports a cursor in pending wrap one past the last column.
        guard let now = reported, now <= r.columns, !live.cells.isEmpty else {
            loseLiveRegion(columns: r.columns, into: &out)
            return
        }
        // Where each kind of terminal would have put the cursor: one that keeps rows keeps its
        // column (or the last one, when the new width cuts it off); one that reflows puts it at
        // its place in the logical line modulo the width (at a row boundary: pending wrap after
        // the last column of the row above).
        let kept = min(r.anchor, r.columns - 1)
        let clamped = r.anchor >= r.columns
        let reflowed = r.lineOffset.map { $0 % r.columns }
        let wrapsPending = r.lineOffset.map { $0 > 0 && $0 % r.columns == 0 } ?? false
        if now == kept && !clamped {
            // In place (or reflowed with the same column, which leaves the same cells before it:
            // the row then holds the last `now` cells of the logical line, as it did).
            model.columns = r.columns
            model.cursorFound(column: now, lineOffset: reflowed == now ? r.lineOffset : nil)
            return
        }
        // Where a reflow would have put the cursor: at the logical line's place, or, where the row
        // record knows the whole line, where writing it again at the new width ends.
        let layout = placesAfterReflow(r, reported: now)
        let reflowFits = layout != nil || reflowed == now || (wrapsPending && now >= r.columns - 1)
        if now == kept && clamped && reflowFits {
            // Either kind of terminal would report this column, with the cells in different
            // places: writing them in either would garble the other. They are left as drawn.
        } else if now == kept && clamped {
            // Cut off (xterm): the cells left of the new margin are where they were.
            framing.begin(at: out.count)
            live.settle(moves: .absolute, colors: &colors, pens: &pens, cursor: now, penIsUnknown: model.penIsUnknown,
                        cutAt: r.columns, into: &out)
            ControlSequence.append(&out, now + 1, final: ControlSequence.cha, always: true)
            restorePen(into: &out)
            framing.movedCursor = true
            framing.end(into: &out)
        } else if now < r.columns - 1 || reflowFits || now == r.columns {
            // Moved with the cursor (a terminal that keeps rows would not have moved it): the
            // cells are the ones just before it. At the last column the cursor may be in pending
            // wrap, after it: only where the logical line (or a report past the column) says which.
            let cursor = layout?.cursor ?? (wrapsPending && now >= r.columns - 1 ? r.columns : now)
            framing.begin(at: out.count)
            if let places = layout?.places ?? live.placesAfterReflow(cursor: cursor, anchor: r.anchor, columns: r.columns),
               live.settle(at: places, cursor: cursor, columns: r.columns, colors: &colors, pens: &pens,
                           penIsUnknown: model.penIsUnknown, into: &out) {
                restorePen(into: &out)
                framing.movedCursor = true
                framing.end(into: &out)
                model.columns = r.columns
                if cursor < r.columns {
                    model.cursorFound(column: cursor, lineOffset: reflowed == now ? r.lineOffset : nil)
                    return
                }
            }
        }
        loseLiveRegion(columns: r.columns, into: &out)
    }

    /// Where the cells still fading are after a reflow, when the cursor's row was the whole of its
    /// logical line and the row record knows every cell of it (`RowRecord.reflowed`), and the
    /// cursor is where that layout puts it (`reported`; the last column's pending wrap reads as
    /// either). Nil otherwise: then only the cursor's column places them.
    private func placesAfterReflow(_ r: (anchor: Int, lineOffset: Int?, columns: Int), reported: Int)
        -> (places: [LiveRegion.Place], cursor: Int)? {
        guard r.lineOffset == r.anchor, let layout = row.reflowed(upTo: r.anchor, columns: r.columns) else { return nil }
        let cursor = layout.cursor
        guard reported == cursor.column || (cursor.column == r.columns && reported == r.columns - 1) else { return nil }
        var places: [LiveRegion.Place] = []
        for cell in live.cells {
            guard let place = layout.places[cell.column], cursor.row - place.row < (ahead.rows ?? 1) else { return nil }
            places.append(LiveRegion.Place(up: cursor.row - place.row, column: place.column))
        }
        return (places, cursor.column)
    }

    /// The cells still fading can no longer be found: they keep the colour they have, and the
    /// column is unknown until a CR or LF.
    private mutating func loseLiveRegion(columns: Int?, into out: inout [UInt8]) {
        live.removeAll()
        restorePen(into: &out)
        model.columns = columns
        forgetColumn()
    }

    /// Resets the terminal's SGR state (`CSI 0 m`) before typewrite stops (SIGTSTP); the input's
    /// state is restored before the next text.
    package mutating func resetPen(into out: inout [UInt8]) {
        pens.reset(terminalPenIsUnknown: model.penIsUnknown, into: &out)
    }

    /// The terminal's own colours, as it reported them (OSC 10/11, OSC 4): every fade runs from this
    /// background to this foreground from now on, those under way from the step they reached.
    package mutating func useTerminalColors(_ colors: TerminalColors) {
        self.colors.use(colors)
        live.retarget(self.colors)
        if let background = colors.background { configuration.background = background }
        if let foreground = colors.foreground { configuration.foreground = foreground }
        configuration.palette.merge(colors.palette) { _, reported in reported }
    }

    /// Something else moved the cursor (the job was stopped and continued): forget the column.
    package mutating func forgetCursor(into out: inout [UInt8]) {
        settleLive(into: &out)
        model.cursorMovedElsewhere()
        markdown.forgetPainted()
    }

    // MARK: The token loop

    /// Writes the clusters due at `front` (all with `finishing`), those before `settledUpTo` settled.
    private mutating func render(front: Double, finishing: Bool, settledUpTo: Int, moves: LiveRegion.Moves = .relative,
                                 into out: inout [UInt8]) {
        if out.isEmpty { noteRest() }
        framing.begin(at: out.count)
        if markdown.repaintRestyled(model: model, screenRows: ahead.rows, mayMove: restylesMayMove, live: &live, row: &row,
                                    pens: &pens, colors: colors, into: &out) {
            framing.movedCursor = true
        }
        if let end = model.column,
           live.step(front: front, pacing: pacing, moves: moves, colors: &colors, pens: &pens, cursor: end,
                     penIsUnknown: model.penIsUnknown, into: &out) {
            framing.movedCursor = true
        }
        let target = finishing ? pacing.received : max(settledUpTo, pacing.revealedCount(front: front))
        let settledEdge = finishing ? pacing.received : max(settledUpTo, pacing.settledCount(front: front))
        let tokensAtStart = stream.count
        // After a cluster that ends in ZWJ, terminals disagree on whether it joins the next cluster
        // across a control or an escape sequence (tmux joins within one write). So the tokens of the
        // same read that follow it are written as they came, in this write, with nothing inserted
        // and without waiting for the pacing, until a printable character settles it; a token of a
        // later read starts a new write, as with cat.
        var joinerBoundary: Int? = nil
        var joinerWriteStart = out.count
        loop: while let token = stream.first {
            var joining = false
            if let boundary = joinerBoundary {
                if token.start >= boundary {
                    if !finishing { break loop }
                    joinerBoundary = nil
                } else {
                    joining = true
                }
            }
            if !joining && !finishing && framing.isFull(at: out.count) { break }
            // A barrier waits while cells fade, until the text after it is due, so the end of a
            // line keeps fading while the producer pauses.
            let barrierWaits = !joining && !finishing && revealed >= target && live.isFading
            switch token {
            case .text(let s, let n):
                joinerBoundary = nil  // printable ASCII: the ZWJ joins nothing (tmux drops it)
                guard revealed < target else { break loop }
                if revealed + n <= settledEdge
                    && writeSettledLines(upTo: settledEdge, byteLimit: framing.byteLimit - (out.count - framing.start), into: &out) {
                    continue
                }
                let k = min(n, target - revealed)
                writeASCII(s, count: k, settledEdge: settledEdge, front: front, moves: moves, into: &out)
                if k < n { stream.replaceFirst(with: .text(start: s + k, count: n - k)); break loop }
                stream.removeFirst()
            case .cluster(let s, let n, let width, let certain):
                // A cluster that begins with ASCII settles the ZWJ (tmux draws it as usual).
                if joining && stream[s] < 0x80 { joining = false; joinerBoundary = nil }
                guard joining || revealed < target else { break loop }
                // Joined to the ZWJ (tmux: no cell of its own) or not (xterm): its width is uncertain.
                writeCluster(stream[s..<(s + n)], start: s, width: width, certain: certain && !joining, index: revealed,
                             opacity: joining || revealed < settledEdge ? 1 : pacing.opacity(ofClusterAt: revealed, front: front),
                             moves: moves, into: &out)
                revealed += 1
                stream.removeFirst()
                joinerBoundary = nil
                if stream.endsInJoiner(s, n) { joinerBoundary = stream.readEnd(atOrAfter: s + n); joinerWriteStart = out.count - n }
            case .extend(let s, let n, let width, let certain):
                // It arrived in a later read than the token before it: a write of its own, as with
                // cat (tmux joins a ZWJ only within one read).
                if !finishing && stream.count < tokensAtStart { break loop }
                extend(stream[s..<(s + n)], start: s, width: width, certain: certain, moves: moves, into: &out)
                stream.removeFirst()
                if stream.endsInJoiner(s, n) { joinerBoundary = stream.readEnd(atOrAfter: s + n); joinerWriteStart = out.count - n }
            case .control(_, let byte):
                if barrierWaits && byte != 0x07 && byte != 0x00 { break loop }
                control(byte, moves: moves, into: &out)
                stream.removeFirst()
            case .sequence(let s, let n, let kind):
                if barrierWaits && !kind.isSelectGraphicRendition { break loop }
                sequence(s..<(s + n), kind: kind, moves: moves, into: &out)
                stream.removeFirst()
            case .raw(let s, let n):
                if barrierWaits { break loop }
                settleLive(moves: moves, into: &out)
                restorePen(into: &out)
                // An incomplete UTF-8 sequence must be the last thing written, as with cat: close the
                // synchronized update before it, not after (and before the ZWJ whose joining stretch
                // it is part of, so that nothing comes between them).
                framing.closeSynchronizedUpdate(endingAt: joining ? joinerWriteStart : out.count, into: &out)
                out.append(contentsOf: stream[s..<(s + n)])
                model.apply(token, stream.store)
                markdown.forgetPainted()
                stream.removeFirst()
            }
        }
        if finishing { settleLive(moves: moves, into: &out) }
        // Restyles come only with input (receive, endInput), so the next frame repaints them.
        markdown.written(upTo: stream.takenEnd)
        restorePen(into: &out)
        framing.end(into: &out)
        stream.discardTaken()
    }

    // MARK: Writing cells

    private mutating func writeASCII(_ start: Int, count: Int, settledEdge: Int, front: Double, moves: LiveRegion.Moves,
                                     into out: inout [UInt8]) {
        var s = start
        var remaining = count
        // Clusters already past the soft edge are written in bulk, settled.
        let settled = min(remaining, max(0, settledEdge - revealed))
        if settled > 0 {
            if live.isFading { settleLive(moves: moves, into: &out) }
            live.removeAll()
            if !markdown.isOn {
                restorePen(into: &out)
                out.append(contentsOf: stream[s..<(s + settled)])
                advanceSettled(s, count: settled, penID: pens.inputID)
            } else {
                // Run by run of one look and link.
                var at = s
                while at < s + settled {
                    let drawing = markdown.drawing(at: at, pens: &pens, model: model)
                    let link = markdown.link(at: at)
                    var end = at + 1
                    while end < s + settled && markdown.look(at: end) == drawing.look && markdown.link(at: end) == link { end += 1 }
                    setPen(drawing.pen, link: drawing.link, into: &out)
                    out.append(contentsOf: stream[at..<end])
                    markdown.notePaintedText(stream, start: at, count: end - at, drawing: drawing, pens: pens, model: &model)
                    advanceSettled(at, count: end - at, penID: drawing.id, linked: drawing.link != nil)
                    markdown.forgetScrolledRows(model: model, screenRows: ahead.rows)
                    at = end
                }
            }
            s += settled
            remaining -= settled
            revealed += settled
        }
        for i in 0..<remaining {
            let opacity = revealed < settledEdge ? 1 : pacing.opacity(ofClusterAt: revealed, front: front)
            writeCluster(stream[(s + i)..<(s + i + 1)], start: s + i, width: 1, certain: true, index: revealed, opacity: opacity,
                         moves: moves, into: &out)
            revealed += 1
        }
    }

    /// Writes whole settled lines of printable ASCII at once (a flood of short lines, or rows that
    /// scroll off unseen), while nothing fades and the pen is the input's. Each LF ends at column 0
    /// (the tty's ONLCR), so no per-line bookkeeping is needed. Returns whether it wrote any.
    private mutating func writeSettledLines(upTo settledEdge: Int, byteLimit: Int, into out: inout [UInt8]) -> Bool {
        guard live.isEmpty, !markdown.isOn, model.columns != nil, configuration.newlineReturnsCarriage, !model.autowrapOff,
              !model.penIsUnknown, pens.terminal == model.pen,
              let lines = stream.removeLines(clusterLimit: settledEdge - revealed, byteLimit: max(byteLimit, 1)) else { return false }
        out.append(contentsOf: stream[lines.bytes])
        revealed += lines.clusters
        model.newRow(wrapped: false)
        row.sync(model)
        model.column = 0
        model.pendingWrap = false
        return true
    }

    /// Column bookkeeping for `count` settled one-cell clusters at `start` written in bulk.
    private mutating func advanceSettled(_ start: Int, count: Int, penID pen: Int, linked: Bool = false) {
        guard let width = model.columns, var c = model.column else {
            model.drawText(count: count)
            return
        }
        if model.pendingWrap { c = 0 }
        var first = 0
        if c + count > width {
            // Wrapped one or more times: only the last row's cells are still on the cursor's row.
            first = count - ((c + count - 1) % width + 1)
            c = 0
        }
        model.drawText(count: count)
        row.sync(model)
        row.recordText(stream.store, start: start + first, count: count - first, column: c, pen: pen)
        if linked || model.hyperlinkOpen || !model.allowsRepaint { row.markIncomplete() }
    }

    private mutating func writeCluster(_ bytes: ArraySlice<UInt8>, start: Int, width: Int, certain: Bool, index: Int,
                                       opacity: Double, moves: LiveRegion.Moves, into out: inout [UInt8]) {
        let drawing = markdown.drawing(at: start, pens: &pens, model: model)
        let pen = drawing.pen, drawnPenID = drawing.id, link = drawing.link
        guard let columns = model.columns, var c = model.column else {
            setPen(pen, link: link, into: &out)
            out.append(contentsOf: bytes)
            if certain { model.draw(width: width) } else { model.drawUncertain(width: width) }
            return
        }
        if !certain || width == 0 {
            settleLive(moves: moves, into: &out)
            setPen(pen, link: link, into: &out)
            out.append(contentsOf: bytes)
            if !certain { model.drawUncertain(width: width) } else { row.markIncomplete() }
            return
        }
        row.sync(model)
        var wrapped = false
        if model.pendingWrap || c + width > columns {
            // The terminal wraps before drawing: a new row starts with this cluster.
            wrapped = true
            settleLive(moves: moves, into: &out)
            model.newRow(wrapped: true)
            row.sync(model)
            model.pendingWrap = false
            c = 0
            model.column = 0
            markdown.forgetScrolledRows(model: model, screenRows: ahead.rows)
            if width > columns {
                setPen(pen, link: link, into: &out)
                out.append(contentsOf: bytes)
                forgetColumn()  // wider than the screen: where it ends is unknown
                return
            }
        }
        let key = RowRecord.key(bytes, pen: drawnPenID)
        if c + width >= columns {
            // Reaching the last column: nothing may fade while the cursor sits in pending wrap.
            settleLive(moves: moves, into: &out)
            setPen(pen, link: link, into: &out)
            out.append(contentsOf: bytes)
            record(key, bytes, pen: drawnPenID, at: c, width: width, linked: link != nil)
            markdown.notePainted(start: start, bytes: bytes, column: c, width: width, drawing: drawing, pens: pens, model: &model)
            model.draw(width: width)
            return
        }
        var code = ColorRamp.settled
        var level = colors.levels
        var from = colors.background, to = colors.foreground
        if colors.mayFade(pen) && model.allowsRepaint && !row.shows(key, at: c) && opacity < 1 {
            (from, to) = colors.endpoints(of: pen)
            level = colors.level(opacity: opacity, index: index)
            code = colors.code(level: level, from: from, to: to)
        }
        if code == ColorRamp.settled && live.isEmpty {
            setPen(pen, link: link, into: &out)
            out.append(contentsOf: bytes)
        } else {
            if wrapped && code != ColorRamp.settled {
                // A row that scrolls in takes the pen of the wrap in its blank cells (xterm draws
                // the cursor in their colour): wrap in the settled pen, then draw the fade over it.
                setPen(pen, link: link, into: &out)
                out.append(contentsOf: bytes)
                pens.closeLink(into: &out)
                ControlSequence.append(&out, width, final: ControlSequence.cub)
                framing.movedCursor = true
            }
            setPen(code == ColorRamp.settled ? pen : colors.fadePen(pen, code), link: link, into: &out)
            out.append(contentsOf: bytes)
            live.add(bytes, column: c, width: width, pen: pen, link: link, index: index, code: code, level: level, from: from, to: to,
                     start: start)
        }
        record(key, bytes, pen: drawnPenID, at: c, width: width, linked: link != nil)
        markdown.notePainted(start: start, bytes: bytes, column: c, width: width, drawing: drawing, pens: pens, model: &model)
        model.draw(width: width)
    }

    /// Scalars joining the cluster written last.
    private mutating func extend(_ bytes: ArraySlice<UInt8>, start: Int, width: Int, certain: Bool, moves: LiveRegion.Moves,
                                 into out: inout [UInt8]) {
        settleLive(moves: moves, into: &out)
        let drawing = markdown.drawing(at: start, pens: &pens, model: model)
        setPen(drawing.pen, link: drawing.link, into: &out)
        out.append(contentsOf: bytes)
        markdown.forgetLastPainted(endingAt: start)  // drawn again whole, it would lose what joined it
        model.extend(width: width, certain: certain)
    }

    private mutating func record(_ key: UInt64, _ cluster: ArraySlice<UInt8>, pen: Int, at column: Int, width: Int,
                                 linked: Bool) {
        guard let columns = model.columns else { return }
        row.sync(model)
        row.record(key, cluster, pen: pen, at: column, width: width, columns: columns)
        // A cell drawn in a hyperlink, or in a mode a redraw would not restore.
        if linked || model.hyperlinkOpen || !model.allowsRepaint { row.markIncomplete() }
    }

    private mutating func forgetColumn() {
        model.forgetColumn()
        row.sync(model)
    }

    /// Paints every fading cell in its final style and forgets them.
    private mutating func settleLive(moves: LiveRegion.Moves = .relative, into out: inout [UInt8]) {
        if live.settle(moves: moves, colors: &colors, pens: &pens, cursor: model.column, penIsUnknown: model.penIsUnknown, into: &out) {
            framing.movedCursor = true
        }
    }

    // MARK: Pens

    private mutating func setPen(_ pen: GraphicRendition, link: Hyperlink? = nil, into out: inout [UInt8]) {
        pens.set(pen, link: link, terminalPenIsUnknown: model.penIsUnknown, into: &out)
    }

    /// Leaves the terminal in exactly the input's SGR state.
    private mutating func restorePen(into out: inout [UInt8]) { setPen(model.pen, into: &out) }

    /// Follows a pen the terminal took by itself (DECRC, DECSTR, RIS).
    private mutating func syncTerminalPen() {
        guard model.penReplacements != seenPenReplacements else { return }
        seenPenReplacements = model.penReplacements
        pens.terminalTook(model.pen)
        pens.followInput(model.pen)
    }

    // MARK: Controls and sequences

    private mutating func control(_ byte: UInt8, moves: LiveRegion.Moves, into out: inout [UInt8]) {
        if byte == 0x00 || byte == 0x07 {
            out.append(byte)  // no cursor movement
            return
        }
        settleLive(moves: moves, into: &out)
        restorePen(into: &out)
        out.append(byte)
        model.control(byte)
        row.sync(model)
        if byte == 0x0D || byte == 0x08 { row.markMovedBack() }
        markdown.control(byte, model: model, screenRows: ahead.rows)
    }

    private mutating func sequence(_ range: Range<Int>, kind: SequenceKind, moves: LiveRegion.Moves, into out: inout [UInt8]) {
        let bytes = stream[range]
        if case .csi(0x6D, 0, false, true) = kind {
            // SGR with C0 controls inside: the terminal runs the controls and still sets the pen.
            settleLive(moves: moves, into: &out)
            restorePen(into: &out)
            framing.closeSynchronizedUpdate(into: &out)
            out.append(contentsOf: bytes)
            model.selectGraphicRendition(bytes, hasControls: true)
            markdown.forgetPainted()
            row.sync(model)
            pens.terminalTook(model.pen)
            pens.followInput(model.pen)
            return
        }
        if kind.isSelectGraphicRendition {
            let (next, outcome) = model.pen(afterSGR: bytes.dropFirst(2).dropLast())
            // A 24-bit pen when typewrite is not in 24-bit mode is written only as it came, in the
            // input's order: terminals that approximate 24-bit colours (urxvt) pick the colour
            // from what was sent before, so a pen re-sent in another order can settle differently.
            let asItCame = outcome.ambiguous || (colors.depth != .trueColor && next.usesTrueColor)
            if pens.terminal == model.pen || model.penIsUnknown || asItCame {
                // Written as it came; a fade pen is put back first, so the terminal applies it to
                // the input's own state (an ambiguous one is never rewritten in typewrite's words,
                // so cells still fading are settled while their pens can still be written).
                if asItCame && !model.penIsUnknown { settleLive(moves: moves, into: &out) }
                restorePen(into: &out)
                // What follows is written as it came: the frame's own synchronized update ends first.
                if outcome.ambiguous { framing.closeSynchronizedUpdate(into: &out) }
                out.append(contentsOf: bytes)
                pens.terminalTook(next)
            }
            model.take(pen: next, outcome: outcome)
            pens.followInput(model.pen)
            return
        }
        settleLive(moves: moves, into: &out)
        restorePen(into: &out)
        if bytes.dropFirst().contains(where: { $0 < 0x20 || $0 == 0x7F }) { framing.closeSynchronizedUpdate(into: &out) }
        out.append(contentsOf: bytes)
        // A sequence that may move the cursor or change cells: what was drawn is no longer known.
        if kind != .operatingSystemCommand { markdown.forgetPainted() }
        model.sequence(bytes, kind: kind)
        row.sync(model)
        if case .csi(let final, _, _, _) = kind, [0x44, 0x47, 0x60, 0x5A].contains(final) { row.markMovedBack() }  // CUB, CHA, HPA, CBT
        syncTerminalPen()
    }
}
