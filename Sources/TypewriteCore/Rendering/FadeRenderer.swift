/// Settings of the animated writer, decided once at start.
public struct FadeConfiguration: Sendable {
    /// Typing speed in grapheme clusters per second (finite, > 0). Default 80 (seed 000).
    public var charactersPerSecond: Double = 80
    /// Soft-edge width in grapheme clusters (≥ 0; 0 = hard front). Default 10 (seed 000).
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
    /// Memory held for input not yet shown above which the oldest of it is written at once,
    /// settled, until half of it is left, in bytes (see `FadeRenderer.pendingBytes`); nil = never.
    /// Ignored when `maximumLag` is infinite (a strict typewriter waits instead). Default 16 MiB,
    /// under the point where the reader stops reading, so that a flood never makes the producer wait.
    public var memoryLimit: Int? = 16 << 20
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

/// The animated writer: input bytes in, frames of terminal output out.
///
/// It tokenizes the input, paces grapheme clusters with a `PacingEngine`, writes each newly
/// revealed cluster and repaints those still fading. Its safety rules keep the settled screen equal
/// to what `cat` leaves (TERMINAL-NOTES §1): fading cells are only on the cursor's current row and
/// are reached by moving back with `CSI n D` counting cells; every fading cell is snapped to its
/// final style before the cursor would reach the last column, before any control or non-SGR
/// escape sequence, and before a cluster of uncertain width. When the column is not known
/// exactly (after such a barrier), nothing fades until the next CR or LF.
///
/// Time is passed in by the caller (seconds on a monotonic clock); output is appended to a buffer
/// the caller writes with one `write(2)` per frame.
public struct FadeRenderer: Sendable {
    public private(set) var configuration: FadeConfiguration
    public private(set) var pacing: PacingEngine
    private var store = ByteStore()
    private var tokenizer: Tokenizer
    private var queue = TokenQueue()
    private var ramp: ColorRamp
    private var revealed = 0
    private var inputEnded = false
    /// Terminal height in rows when known and in use for scrolling ahead.
    private var rows: Int?
    /// `queue.endOffset` when the text ahead was last measured for scrolling ahead.
    private var scrolledAheadAt = -1
    /// Per burst that is not yet due: clusters received up to its end and its arrival time.
    private var arrivals: [(clusters: Int, time: Seconds)] = []
    private var arrivalsHead = 0

    /// What the terminal does with what is written: cursor, pending wrap, modes, the input's pen
    /// and how certain each is.
    private var model: TerminalModel
    /// `model.rowChanges` when `rowContent` was last known to match the cursor's row.
    private var seenRowChanges = 0
    /// `model.penReplacements` when `terminalPen` last followed it.
    private var seenPenReplacements = 0
    private var columns: Int? { model.columns }
    private var column: Int? {
        get { model.column }
        set { model.column = newValue }
    }
    private var pendingWrap: Bool {
        get { model.pendingWrap }
        set { model.pendingWrap = newValue }
    }
    private var inputPen: GraphicRendition { model.pen }
    private var penIsUnknown: Bool { model.penIsUnknown }
    /// Whether the input left an OSC 8 hyperlink open.
    public var hyperlinkOpen: Bool { model.hyperlinkOpen }

    // Pens (SGR states): what the input has set (`model.pen`), and what the terminal has now.
    private var terminalPen = GraphicRendition()
    private var penIDs: [GraphicRendition: Int] = [GraphicRendition(): 0]
    /// The pens by number.
    private var pens: [GraphicRendition] = [GraphicRendition()]
    private var inputPenID = 0

    /// Markdown highlighting, when on: the looks of the text and where it was drawn.
    private var markdown: MarkdownLayer?
    /// Styled pens by input pen number and look, with their numbers.
    private var styledPens: [Int: (pen: GraphicRendition, id: Int)] = [:]
    /// A CR was written and nothing since: text drawn now overwrites the row.
    private var returnedCarriage = false
    /// Whether restyled cells may be repainted by moving the cursor (not after a signal, when
    /// the tty may have echoed `^C`).
    private var restylesMayMove = true

    /// Cells on the current row, from the oldest one not yet settled to the cursor.
    private var cells: [Cell] = []
    private var cellBytes: [UInt8] = []
    /// Where the frame being built starts in its output, and whether its synchronized update is
    /// already closed (before bytes that must be written outside one).
    private var frameStart = 0
    private var frameSynchronized = false
    /// Whether the frame being built moves the cursor back (then it is wrapped in synchronized output).
    private var frameMovedCursor = false
    /// Whether repaints address columns absolutely (CHA) instead of moving back (CUB).
    private var absoluteMoves = false
    /// What each column of the current row shows, as far as typewrite wrote it (0 = unknown).
    private var rowContent: [UInt64] = []

    private struct Cell {
        var column: Int
        var width: Int
        var bytes: Range<Int>  // in cellBytes
        var pen: GraphicRendition
        var index: Int
        var code: ColorRamp.Code
        /// The step painted: 0 …< levels while fading, levels when settled.
        var level: Int
        var from: RGB
        var to: RGB
        /// Input offset of the cluster's first byte.
        var start: Int
    }

    /// A cell code no ramp step has: the cell is painted again whatever its level.
    private static let repaintCode: ColorRamp.Code = -2

    /// Widest terminal typewrite models, in cells; a wider (or absurd) width counts as unknown.
    static let maximumColumns = 10_000

    /// Longest the last screenful takes to type in after the rows above it were written at once,
    /// in seconds: long enough to be seen fading (30 frames), short enough that a flood ends soon
    /// after its input does, however often it is read.
    public static let lastScreenfulDuration: Seconds = 0.5

    /// One frame period at 60 frames per second, in seconds.
    public static let frameAllowance: Seconds = 1.0 / 60

    public init(configuration: FadeConfiguration) {
        self.configuration = configuration
        // Bursts end one frame early, so that the frame showing the last of them settled still
        // comes within the maximum lag of its arrival.
        let lag = configuration.maximumLag.isFinite
            ? max(PacingEngine.minimumBurstDuration, configuration.maximumLag - Self.frameAllowance)
            : configuration.maximumLag
        self.pacing = PacingEngine(charactersPerSecond: configuration.charactersPerSecond,
                                   fadeWidth: configuration.fadeWidth, maximumLag: lag)
        self.tokenizer = Tokenizer(ambiguousIsWide: configuration.ambiguousIsWide,
                                   ambiguousIsUncertain: configuration.ambiguousIsUncertain)
        self.ramp = ColorRamp(depth: configuration.colorDepth, levels: configuration.levels)
        self.model = TerminalModel(columns: configuration.columns.flatMap { $0 > 0 && $0 <= Self.maximumColumns ? $0 : nil },
                                   newlineReturnsCarriage: configuration.newlineReturnsCarriage)
        self.rows = configuration.rows.flatMap { $0 > 0 && $0 <= Self.maximumColumns ? $0 : nil }
        if configuration.highlightsMarkdown { startMarkdown() }
    }

    // MARK: Markdown

    /// Highlights the text from here on as markdown (CommonMark 0.31.2 + GFM, `MarkdownHighlighter`):
    /// every character keeps its cell, and default-coloured text takes the look of its role
    /// (`MarkdownAppearance`), fading toward it. Restyles repaint cells still on the screen.
    public mutating func startMarkdown() {
        guard markdown == nil else { return }
        var layer = MarkdownLayer(colors: configuration.markdownUsesColor && configuration.colorDepth != .none)
        layer.skip(to: queue.endOffset)
        markdown = layer
        model.startCountingRows()
    }

    /// The text from here on is a markdown document of its own (a model's reasoning before its
    /// answer): what the one before left open ends here.
    public mutating func startMarkdownDocument() {
        feedMarkdown()
        markdown?.startDocument()
    }

    /// The text from here on continues `context` instead of what was received before it (a
    /// snapshot rewrote its tail): the highlighter starts again, reading `context` first. The
    /// next `skipping` bytes received (the moves back to the change) are not fed to it.
    public mutating func restartMarkdownDocument(after context: some Collection<UInt8>, skipping: Int = 0) {
        feedMarkdown()
        markdown?.startDocument(after: context, notText: store.end..<(store.end + max(0, skipping)))
    }

    /// Whether markdown highlighting is on.
    public var highlightsMarkdown: Bool { markdown != nil }

    /// For the benchmark: clusters written, clusters repainted in a new look, and restyled bytes
    /// that could not be repainted (scrolled off, or where their place was not certain); nil
    /// when markdown highlighting is off.
    public var markdownStatistics: (characters: Int, restyledCells: Int, restyledOffScreen: Int)? {
        markdown.map { (pacing.received, $0.restyledCells, $0.restyledOffScreen) }
    }

    /// Feeds the text tokenized since the last call to the highlighter (escape sequences left out).
    private mutating func feedMarkdown() {
        guard markdown != nil else { return }
        let from = markdown!.fedEnd, end = queue.endOffset
        guard end > from else { return }
        var skip: [Range<Int>] = []
        queue.forEachFromNewest { token in
            guard token.start >= from else { return false }
            if case .sequence(let s, let n, _) = token { skip.append(s..<(s + n)) }
            return true
        }
        markdown!.feed(store, to: end, skipping: skip.reversed())
    }

    /// The pen the cluster at input offset `start` is drawn in, its number, and its look: the
    /// input's pen, with the markdown look on top when the input's colours are the default ones.
    private mutating func drawingPen(at start: Int) -> (pen: GraphicRendition, id: Int, look: UInt8) {
        guard markdown != nil, inputPenID >= 0, !penIsUnknown else { return (inputPen, inputPenID, 0) }
        let look = markdown!.look(at: start)
        guard look != 0 else { return (inputPen, inputPenID, 0) }
        let (pen, id) = styledPen(id: inputPenID, look: look)
        return (pen, id, look)
    }

    /// The pen numbered `baseID` with `look` on top, and its number; the pen itself when its
    /// colours are not the default ones (the input's own colours win).
    private mutating func styledPen(id baseID: Int, look: UInt8) -> (GraphicRendition, Int) {
        let base = pens[baseID]
        guard look != 0, markdown != nil, base.hasDefaultColors else { return (base, baseID) }
        let key = baseID << 8 | Int(look)
        if let hit = styledPens[key] { return hit }
        var pen = base
        pen.apply(parameters: markdown!.lookParameters[Int(look)].utf8)
        let id = penID(pen)
        if id < 0 { return (base, baseID) }
        styledPens[key] = (pen, id)
        return (pen, id)
    }

    /// Remembers where a cluster was drawn (before the model draws it), for repainting it when
    /// its look changes.
    private mutating func notePainted(start: Int, bytes: ArraySlice<UInt8>, column c: Int, width: Int, look: UInt8) {
        guard let row = paintedRow() else { return }
        markdown!.note(start: start, bytes: bytes, row: row, column: c, width: width, penID: inputPenID, look: look)
    }

    /// Remembers where `count` one-cell clusters of printable ASCII from `start` are drawn (before
    /// the model draws them), placed as `TerminalModel.drawText` places them.
    private mutating func notePaintedText(start: Int, count: Int, look: UInt8) {
        guard let width = columns, var c = column, var row = paintedRow() else { return }
        var wrap = pendingWrap
        for i in 0..<count {
            if wrap || c >= width { row += 1; c = 0; wrap = false }
            markdown!.note(start: start + i, bytes: store[(start + i)..<(start + i + 1)], row: row, column: c, width: 1,
                           penID: inputPenID, look: look)
            c += 1
        }
    }

    /// The cursor's row for remembering what is drawn now, or nil when it cannot be found again
    /// (markdown off, the input's own colours, a state where cells cannot be repainted).
    private mutating func paintedRow() -> Int? {
        // Not inside a hyperlink (a cell drawn again takes the link open then) nor a scroll region.
        guard markdown != nil, inputPenID >= 0, !penIsUnknown, model.allowsRepaint, pens[inputPenID].hasDefaultColors,
              !model.hyperlinkOpen, !model.scrollRegionMayBeSet else { return nil }
        if returnedCarriage, let row = model.row { markdown!.forgetRow(row) }  // drawing over the row
        returnedCarriage = false
        if model.row == nil {
            markdown!.forgetPainted()
            model.startCountingRows()
        }
        return model.row
    }

    /// The cursor went down a row: forget the clusters on rows that may have scrolled off.
    private mutating func forgetScrolledRows() {
        guard markdown != nil else { return }
        guard let row = model.row else { markdown!.forgetPainted(); return }
        markdown!.forgetRows(before: rows.map { row - ($0 - 1) } ?? row)
    }

    /// Repaints the clusters on the screen whose look changed: up to each row (CUU, CUD), to its
    /// column (CHA), in the new look, and back to where the cursor was. Restyles that cannot be
    /// repainted (the cursor's place is not known, or the row may have scrolled off) are dropped.
    private mutating func repaintRestyled(into out: inout [UInt8]) {
        guard markdown?.hasRestyles == true else { return }
        let restyled = markdown!.takeRestyles()
        guard let row = model.row, let width = columns, var column, restylesMayMove, model.allowsRepaint,
              !model.hyperlinkOpen, !model.scrollRegionMayBeSet else {
            markdown!.restyledOffScreen += restyled.count
            return
        }
        // In pending wrap, the cursor goes back there by drawing the last cell again.
        var last: MarkdownLayer.Painted?
        if pendingWrap {
            guard let p = markdown!.lastPainted, p.row == row, p.column + p.width == width else {
                markdown!.restyledOffScreen += restyled.count
                return
            }
            last = p
            column = p.column
        }
        // In pending wrap the next character would wrap first: move before drawing anything.
        var atRow = row, atColumn: Int? = last == nil ? column : nil
        var moved = false
        for cluster in restyled {
            let up = row - cluster.row
            guard up >= 0, up < (rows ?? 1) else { markdown!.restyledOffScreen += 1; continue }
            if let i = cells.firstIndex(where: { $0.start == cluster.start && $0.column == cluster.column }), up == 0 {
                // Still fading: it fades toward its new look from the step it has reached.
                let (pen, _) = styledPen(id: cluster.penID, look: cluster.wanted)
                cells[i].pen = pen
                cells[i].from = rgb(of: pen.background) ?? configuration.background
                cells[i].to = rgb(of: pen.foreground) ?? configuration.foreground
                cells[i].code = Self.repaintCode
                markdown!.restyledCells += 1
                continue
            }
            moveRows(from: atRow, to: cluster.row, into: &out)
            atRow = cluster.row
            if atColumn != cluster.column { Self.appendCSI(&out, cluster.column + 1, final: 0x47, always: true) }  // CHA
            let (pen, _) = styledPen(id: cluster.penID, look: cluster.wanted)
            setPen(pen, into: &out)
            out.append(contentsOf: markdown!.bytes(of: cluster))
            atColumn = cluster.column + cluster.width < width ? cluster.column + cluster.width : nil
            if cluster.row == row { forgetRowContent(cluster.column..<(cluster.column + cluster.width)) }
            markdown!.restyledCells += 1
            moved = true
        }
        guard moved else { return }
        frameMovedCursor = true
        moveRows(from: atRow, to: row, into: &out)
        if atColumn != column { Self.appendCSI(&out, column + 1, final: 0x47, always: true) }
        if let last {
            let (pen, _) = styledPen(id: last.penID, look: last.drawn)
            setPen(pen, into: &out)
            out.append(contentsOf: markdown!.bytes(of: last))
        }
    }

    private func moveRows(from: Int, to: Int, into out: inout [UInt8]) {
        if to < from { Self.appendCSI(&out, from - to, final: 0x41) }  // CUU
        if to > from { Self.appendCSI(&out, to - from, final: 0x42) }  // CUD
    }

    private mutating func forgetRowContent(_ columns: Range<Int>) {
        for c in columns where c < rowContent.count { rowContent[c] = 0 }
    }

    // MARK: Input side

    /// Takes bytes as read (any split) that arrived at `time`.
    public mutating func receive(_ bytes: some Collection<UInt8>, at time: Seconds) {
        let tokensBefore = queue.storedBytes
        store.append(contentsOf: bytes)
        let clusters = tokenizer.scan(store, into: &queue)
        feedMarkdown()
        noteReadBoundary()
        pacing.receive(clusters, at: time)
        noteArrival(clusters, at: time)
        if bytes.count >= 4096 {
            bytesOfMemoryPerInputByte = 1 + Double(2 * max(0, queue.storedBytes - tokensBefore)) / Double(bytes.count)
        }
    }

    /// End of input at `time`: anything held back (an incomplete sequence) passes through verbatim.
    public mutating func endInput(at time: Seconds) {
        let clusters = tokenizer.finish(store, into: &queue)
        feedMarkdown()
        markdown?.finish()
        noteReadBoundary()
        pacing.receive(clusters, at: time)
        noteArrival(clusters, at: time)
        inputEnded = true
    }

    /// Memory held for input not yet written, in bytes: the input bytes and the tokens that
    /// describe them, counted twice for the slack of a growing array (a flood of short lines
    /// costs more in tokens than in bytes). Reading pauses on it.
    public var pendingBytes: Int { pendingInputBytes + 2 * queue.storedBytes }

    /// Input bytes received and not yet written.
    public var pendingInputBytes: Int { store.end - writtenOffset }

    /// Memory one input byte cost in the last burst, in bytes (1 for long lines of text, up to
    /// about 40 for a flood of 3-byte lines): the reader sizes its next burst with it.
    public private(set) var bytesOfMemoryPerInputByte = 1.0

    /// Most bytes one frame writes before it leaves the rest to the next frame (16 ms later), so a
    /// huge burst never needs one huge buffer.
    static let frameByteLimit = 4 << 20

    private var writtenOffset: Int {
        guard let first = queue.first else { return min(queue.endOffset, tokenizer.heldFrom) }
        return first.start
    }

    /// Where the tokens of each read end (absolute offsets, increasing), for reads whose tokens are
    /// not all written: a ZWJ joins what follows it only within one `write()` in tmux, so what
    /// follows a ZWJ is written in the same write exactly when it came in the same read (as cat does).
    private var readBoundaries: [Int] = []
    private var readBoundariesHead = 0

    private mutating func noteReadBoundary() {
        if queue.endOffset > (readBoundaries.last ?? -1) { readBoundaries.append(queue.endOffset) }
    }

    /// The end of the read whose tokens include the byte before `offset`.
    private func readBoundary(atOrAfter offset: Int) -> Int {
        var i = readBoundariesHead
        while i < readBoundaries.count && readBoundaries[i] < offset { i += 1 }
        return i < readBoundaries.count ? readBoundaries[i] : .max
    }

    private mutating func discardReadBoundaries(before offset: Int) {
        while readBoundariesHead < readBoundaries.count && readBoundaries[readBoundariesHead] <= offset { readBoundariesHead += 1 }
        if readBoundariesHead >= 1024 && readBoundariesHead * 2 >= readBoundaries.count {
            readBoundaries.removeFirst(readBoundariesHead)
            readBoundariesHead = 0
        }
    }

    /// Whether frames are still needed: clusters waiting or cells fading.
    public var isAnimating: Bool {
        !queue.isEmpty || cells.contains { $0.code != ColorRamp.settled } || markdown?.hasRestyles == true
    }

    /// Whether input has ended and everything has been written and settled.
    public var isFinished: Bool { inputEnded && !isAnimating }

    // MARK: Frames

    /// Writes what changed by `time` into `out`: newly revealed clusters and repainted fading cells.
    ///
    /// With a finite maximum lag, text is also written at once, settled, where animating it would
    /// show nothing or break the bound: text that will have scrolled off the top of the screen
    /// before the front reaches it (the rows ahead counted against `rows`), every cluster of a burst
    /// whose deadline (arrival + maximum lag) has come, and the oldest text while the memory held
    /// passes `memoryLimit`. The front carries on from there, reaching the rest no later than it
    /// would have; after rows written ahead, the last screenful takes `lastScreenfulDuration` at most.
    public mutating func frame(at time: Seconds, into out: inout [UInt8]) {
        var settledUpTo = 0
        if configuration.maximumLag.isFinite {
            let due = max(dueClusters(at: time), clustersOverMemoryLimit())
            let unseen = clustersScrolledOff()
            settledUpTo = max(due, unseen)
            if Double(settledUpTo) > pacing.front(at: time) {
                pacing.skip(to: Double(settledUpTo), at: time, within: unseen >= due ? Self.lastScreenfulDuration : .infinity)
            }
        }
        render(front: pacing.front(at: time), finishing: false, settledUpTo: settledUpTo, into: &out)
    }

    // MARK: Writing ahead of the front

    private mutating func noteArrival(_ clusters: Int, at time: Seconds) {
        guard clusters > 0, configuration.maximumLag.isFinite else { return }
        arrivals.append((pacing.received, time))
    }

    /// Clusters that must be fully shown by `time`: those of every burst whose deadline has come
    /// (one frame early, so the frame that shows them is still within the bound).
    private mutating func dueClusters(at time: Seconds) -> Int {
        var due = 0
        while arrivalsHead < arrivals.count, arrivals[arrivalsHead].time + configuration.maximumLag - Self.frameAllowance <= time {
            due = arrivals[arrivalsHead].clusters
            arrivalsHead += 1
        }
        if arrivalsHead == arrivals.count {
            arrivals.removeAll(keepingCapacity: arrivals.capacity <= 1024)
            arrivalsHead = 0
        } else if arrivalsHead >= 1024 && arrivalsHead * 2 >= arrivals.count {
            arrivals.removeFirst(arrivalsHead)
            arrivalsHead = 0
        }
        return due
    }

    /// Clusters (counted from the first received) before the last screenful of the text waiting:
    /// the rows ahead of them (line feeds, and the wraps of the text between) fill the screen, so
    /// they will have scrolled off the top before the front reaches them. 0 when the rows are
    /// unknown or a barrier whose effect on the rows is unknown (cursor movement, BS…) comes first.
    ///
    /// The count is a lower bound of the rows the cursor moves down: a line of `w` cells moves it at
    /// least `(w − 1) / columns` rows whatever column it starts in (a wide character that does not
    /// fit only adds a row), a tab counts no cells, and after a CR only the part after it counts.
    private mutating func clustersScrolledOff() -> Int {
        guard let rows, let width = columns, queue.endOffset != scrolledAheadAt else { return 0 }
        scrolledAheadAt = queue.endOffset
        var advances = 0       // rows the cursor moves down after the current line
        var lineCells = 0      // cells after this point on the current line (its last CR-separated part)
        var lineWraps: Int?    // set at a CR: the rows the part after it moves down
        var after = 0          // clusters after this point
        var found: Int?
        var budget = 8 * rows * width + 1024  // tokens looked at before giving up
        queue.forEachFromNewest { token in
            budget -= 1
            guard budget > 0 else { return false }
            let need = (rows - advances) * width  // cells after a point on this line that push it off
            switch token {
            case .text(_, let n):
                if lineWraps == nil && lineCells + n > need - 1 && need > 0 {
                    found = after + max(0, need - lineCells)
                    return false
                }
                if lineWraps == nil { lineCells += n }
                after += n
            case .cluster(_, _, let w, let certain):
                if lineWraps == nil && lineCells >= need && need > 0 { found = after; return false }
                if lineWraps == nil && certain { lineCells += w }
                after += 1
            case .extend:
                break
            case .control(_, let byte):
                switch byte {
                case 0x0A, 0x0B, 0x0C:
                    advances += 1 + (lineWraps ?? (lineCells > 0 ? (lineCells - 1) / width : 0))
                    lineCells = 0
                    lineWraps = nil
                    if advances >= rows { found = after; return false }
                case 0x0D:
                    if lineWraps == nil { lineWraps = lineCells > 0 ? (lineCells - 1) / width : 0 }
                case 0x09, 0x07, 0x00:
                    break
                default:
                    return false
                }
            case .sequence(_, _, let kind):
                switch kind {
                case .operatingSystemCommand: break
                case .csi(0x4B, 0, false, false): break  // EL: this row changes, the cursor stays
                default: if !kind.isSelectGraphicRendition { return false }
                }
            case .raw:
                break
            }
            return true
        }
        guard let found else { return 0 }
        return pacing.received - found
    }

    /// Clusters to write at once so that the memory held falls to half of `memoryLimit`; 0 while
    /// it is below the limit.
    private func clustersOverMemoryLimit() -> Int {
        guard let limit = configuration.memoryLimit, pendingBytes > limit else { return 0 }
        var toFree = pendingBytes - limit / 2
        var clusters = revealed
        queue.forEachFromOldest { token in
            let bytes: Int
            switch token {
            case .text(_, let n): bytes = n; clusters += n
            case .cluster(_, let n, _, _): bytes = n; clusters += 1
            case .extend(_, let n, _, _), .sequence(_, let n, _), .raw(_, let n): bytes = n
            case .control: bytes = 1
            }
            toFree -= bytes + TokenQueue.bytesPerEntry
            return toFree > 0
        }
        return clusters
    }

    /// Writes everything received so far, settled (for SIGINT, SIGTERM, SIGTSTP), and restores the
    /// input's own SGR state.
    ///
    /// The tty may have echoed `^C` or `^Z` at the cursor (ECHOCTL) before this runs, so fading
    /// cells are reached by absolute column (CHA) rather than by moving back; next to the right
    /// margin, where the echo may have wrapped the cursor to another row, they are left as drawn.
    /// Later text is paced from here: the pacing front jumps to what has been written.
    /// - Parameter echoMayHaveMoved: false when nothing else can have written to the terminal (a
    ///   library host settling before it moves the cursor): cells next to the margin settle too.
    public mutating func flushSettled(echoMayHaveMoved: Bool, into out: inout [UInt8]) {
        if echoMayHaveMoved, let c = column, let width = columns, c >= width - 2 {
            cells.removeAll(keepingCapacity: true)
            cellBytes.removeAll(keepingCapacity: true)
        }
        absoluteMoves = true
        restylesMayMove = !echoMayHaveMoved
        render(front: .infinity, finishing: true, settledUpTo: 0, into: &out)
        absoluteMoves = false
        restylesMayMove = true
        pacing.settleNow()
    }

    /// `flushSettled(echoMayHaveMoved: true, into:)`: after a signal the tty may have echoed.
    public mutating func flushSettled(into out: inout [UInt8]) { flushSettled(echoMayHaveMoved: true, into: &out) }

    /// The terminal is now `newColumns` wide (SIGWINCH). Fading continues only where nothing can
    /// have moved: the row never wrapped and the cursor is left of both margins. Elsewhere the
    /// cells still fading stop where they are (at worst a few cells stop fading early).
    /// `newRows` is the new height in rows (nil when unknown: nothing is written ahead then).
    public mutating func resize(columns newColumns: Int?, rows newRows: Int?, into out: inout [UInt8]) {
        rows = newRows.flatMap { $0 > 0 && $0 <= Self.maximumColumns ? $0 : nil }
        scrolledAheadAt = -1
        let valid = newColumns.flatMap { $0 > 0 && $0 <= Self.maximumColumns ? $0 : nil }
        if let c = column, let old = columns, let new = valid, !model.rowWrapped, !pendingWrap, c < old - 1, c < new - 1 {
            model.columns = new
            // Rows above may have been reflowed: only the cursor's row is still where it was.
            if let row = model.row { markdown?.forgetRows(before: row) }
            return
        }
        // The terminal may have reflowed the row (tmux, kitty, VTE), so the cells can no longer be
        // reached by moving back: they keep the colour they have, and the column is unknown.
        cells.removeAll(keepingCapacity: true)
        cellBytes.removeAll(keepingCapacity: true)
        restorePen(into: &out)
        model.columns = valid
        forgetColumn()
        markdown?.forgetPainted()
    }

    /// Resets the terminal's SGR state (`CSI 0 m`) before typewrite stops (SIGTSTP); the input's
    /// state is restored before the next text.
    public mutating func resetPen(into out: inout [UInt8]) {
        guard !terminalPen.isDefault || penIsUnknown else { return }
        out.append(contentsOf: "\u{1B}[0m".utf8)
        terminalPen = GraphicRendition()
    }

    /// The terminal's own colours, as it reported them (OSC 10/11): cells that start fading from
    /// now on run from this background to this foreground (those already fading finish as they
    /// began).
    public mutating func useTerminalColors(_ colors: TerminalColors) {
        if let background = colors.background { configuration.background = background }
        if let foreground = colors.foreground { configuration.foreground = foreground }
        configuration.palette.merge(colors.palette) { _, reported in reported }
    }

    /// Something else moved the cursor (the job was stopped and continued): forget the column.
    public mutating func forgetCursor(into out: inout [UInt8]) {
        snap(into: &out)
        model.cursorMovedElsewhere()
        markdown?.forgetPainted()
    }

    /// Writes the clusters due at `front` (all with `finishing`), those before `settledUpTo` settled.
    private mutating func render(front: Double, finishing: Bool, settledUpTo: Int, into out: inout [UInt8]) {
        let start = out.count
        frameMovedCursor = false
        frameStart = start
        frameSynchronized = false
        repaintRestyled(into: &out)
        repaint(front: front, into: &out)
        let target = finishing ? pacing.received : max(settledUpTo, pacing.revealedCount(front: front))
        let settledEdge = finishing ? pacing.received : max(settledUpTo, pacing.settledCount(front: front))
        let tokensAtStart = queue.count
        // After a cluster that ends in ZWJ, terminals disagree on whether it joins the next cluster
        // across a control or an escape sequence (tmux joins within one write). So the tokens of the
        // same read that follow it are written as they came, in this write, with nothing inserted
        // and without waiting for the pacing, until a printable character settles it; a token of a
        // later read starts a new write, as with cat.
        var joinerBoundary: Int? = nil
        var joinerWriteStart = out.count
        loop: while let token = queue.first {
            var joining = false
            if let boundary = joinerBoundary {
                if token.start >= boundary {
                    if !finishing { break loop }
                    joinerBoundary = nil
                } else {
                    joining = true
                }
            }
            if !joining && !finishing && out.count - start > Self.frameByteLimit { break }
            switch token {
            case .text(let s, let n):
                joinerBoundary = nil  // printable ASCII: the ZWJ joins nothing (tmux drops it)
                guard revealed < target else { break loop }
                if revealed + n <= settledEdge && writeSettledLines(upTo: settledEdge, byteLimit: Self.frameByteLimit - (out.count - start), into: &out) {
                    continue
                }
                let k = min(n, target - revealed)
                writeASCII(s, count: k, settledEdge: settledEdge, front: front, into: &out)
                if k < n { queue.replaceFirst(with: .text(start: s + k, count: n - k)); break loop }
                _ = queue.removeFirst()
            case .cluster(let s, let n, let width, let certain):
                // A cluster that begins with ASCII settles the ZWJ (tmux draws it as usual).
                if joining && store[s] < 0x80 { joining = false; joinerBoundary = nil }
                guard joining || revealed < target else { break loop }
                // Joined to the ZWJ (tmux: no cell of its own) or not (xterm): its width is uncertain.
                writeCluster(store[s..<(s + n)], start: s, width: width, certain: certain && !joining, index: revealed,
                             opacity: joining || revealed < settledEdge ? 1 : pacing.opacity(ofClusterAt: revealed, front: front),
                             into: &out)
                revealed += 1
                _ = queue.removeFirst()
                joinerBoundary = nil
                if endsInJoiner(s, n) { joinerBoundary = readBoundary(atOrAfter: s + n); joinerWriteStart = out.count - n }
            case .extend(let s, let n, let width, let certain):
                // It arrived in a later read than the token before it: a write of its own, as with
                // cat (tmux joins a ZWJ only within one read).
                if !finishing && queue.count < tokensAtStart { break loop }
                extend(store[s..<(s + n)], start: s, width: width, certain: certain, into: &out)
                _ = queue.removeFirst()
                if endsInJoiner(s, n) { joinerBoundary = readBoundary(atOrAfter: s + n); joinerWriteStart = out.count - n }
            case .control(_, let byte):
                // A barrier waits while cells fade, until the text after it is due (TERMINAL-NOTES §1),
                // so the end of a line keeps fading while the producer pauses.
                if !joining && !finishing && revealed >= target && hasFadingCells && byte != 0x07 && byte != 0x00 { break loop }
                control(byte, into: &out)
                _ = queue.removeFirst()
            case .sequence(let s, let n, let kind):
                if !joining && !finishing && revealed >= target && hasFadingCells && !kind.isSelectGraphicRendition { break loop }
                sequence(s..<(s + n), kind: kind, into: &out)
                _ = queue.removeFirst()
            case .raw(let s, let n):
                if !joining && !finishing && revealed >= target && hasFadingCells { break loop }
                snap(into: &out)
                restorePen(into: &out)
                if frameMovedCursor && !frameSynchronized {
                    // An incomplete UTF-8 sequence must be the last thing written, as with cat:
                    // close the synchronized update before it, not after (and before the ZWJ whose
                    // joining stretch it is part of, so that nothing comes between them).
                    out.insert(contentsOf: Self.synchronizedOutputBegin, at: start)
                    out.insert(contentsOf: Self.synchronizedOutputEnd,
                               at: joining ? joinerWriteStart + Self.synchronizedOutputBegin.count : out.count)
                    frameSynchronized = true
                }
                out.append(contentsOf: store[s..<(s + n)])
                model.apply(token, store)
                markdown?.forgetPainted()
                _ = queue.removeFirst()
            }
        }
        if finishing { snap(into: &out) }
        if markdown != nil {
            // Restyles come only with input (receive, endInput), so the next frame repaints them.
            markdown!.writtenEnd = writtenOffset
            markdown!.discardLooks(before: writtenOffset)
        }
        restorePen(into: &out)
        if frameMovedCursor && !frameSynchronized && out.count > start {
            out.insert(contentsOf: Self.synchronizedOutputBegin, at: start)
            out.append(contentsOf: Self.synchronizedOutputEnd)
        }
        store.discard(upTo: writtenOffset)
        discardReadBoundaries(before: writtenOffset)
    }

    /// Whether the bytes at `start..<start + length` end in ZWJ (U+200D, UTF-8 E2 80 8D).
    private func endsInJoiner(_ start: Int, _ length: Int) -> Bool {
        length >= 3 && store[start + length - 1] == 0x8D && store[start + length - 2] == 0x80 && store[start + length - 3] == 0xE2
    }

    /// `CSI ? 2026 h` / `l`: synchronized output, so a frame is drawn at once where supported.
    static let synchronizedOutputBegin = Array("\u{1B}[?2026h".utf8)
    static let synchronizedOutputEnd = Array("\u{1B}[?2026l".utf8)

    private var hasFadingCells: Bool { cells.contains { $0.code != ColorRamp.settled } }

    /// Whether a new cell may fade at all in the current state.
    private func canFade(_ pen: GraphicRendition) -> Bool {
        configuration.colorDepth != .none && model.allowsRepaint && pen.allowsFade
            && !(configuration.colorDepth != .trueColor && pen.usesTrueColor)  // the cheap test first
    }

    // MARK: Writing cells

    private mutating func writeASCII(_ start: Int, count: Int, settledEdge: Int, front: Double, into out: inout [UInt8]) {
        var s = start
        var remaining = count
        // Clusters already past the soft edge are written in bulk, settled.
        let settled = min(remaining, max(0, settledEdge - revealed))
        if settled > 0 {
            if hasFadingCells { snap(into: &out) }
            if !cells.isEmpty {
                cells.removeAll(keepingCapacity: true)
                cellBytes.removeAll(keepingCapacity: true)
            }
            if markdown == nil {
                restorePen(into: &out)
                out.append(contentsOf: store[s..<(s + settled)])
                advanceSettled(s, count: settled, penID: inputPenID)
            } else {
                // Run by run of one look.
                var at = s
                while at < s + settled {
                    let (pen, id, look) = drawingPen(at: at)
                    var end = at + 1
                    while end < s + settled && markdown!.look(at: end) == look { end += 1 }
                    setPen(pen, into: &out)
                    out.append(contentsOf: store[at..<end])
                    notePaintedText(start: at, count: end - at, look: look)
                    advanceSettled(at, count: end - at, penID: id)
                    forgetScrolledRows()
                    at = end
                }
            }
            s += settled
            remaining -= settled
            revealed += settled
        }
        for i in 0..<remaining {
            let opacity = revealed < settledEdge ? 1 : pacing.opacity(ofClusterAt: revealed, front: front)
            writeCluster(store[(s + i)..<(s + i + 1)], start: s + i, width: 1, certain: true, index: revealed, opacity: opacity,
                         into: &out)
            revealed += 1
        }
    }

    /// Writes whole settled lines of printable ASCII at once (a flood of short lines, or rows that
    /// scroll off unseen), while nothing fades and the pen is the input's. Each LF ends at column 0
    /// (the tty's ONLCR), so no per-line bookkeeping is needed. Returns whether it wrote any.
    private mutating func writeSettledLines(upTo settledEdge: Int, byteLimit: Int, into out: inout [UInt8]) -> Bool {
        guard cells.isEmpty, markdown == nil, columns != nil, configuration.newlineReturnsCarriage, !model.autowrapOff, !penIsUnknown,
              terminalPen == inputPen,
              let lines = queue.removeLines(clusterLimit: settledEdge - revealed, byteLimit: max(byteLimit, 1)) else { return false }
        out.append(contentsOf: store[lines.bytes])
        revealed += lines.clusters
        newRow(wrapped: false)
        column = 0
        pendingWrap = false
        return true
    }

    /// Column bookkeeping for `count` settled one-cell clusters at `start` written in bulk.
    private mutating func advanceSettled(_ start: Int, count: Int, penID pen: Int) {
        guard let width = columns, var c = column else {
            model.drawText(count: count)
            return
        }
        if pendingWrap { c = 0 }
        var first = 0
        if c + count > width {
            // Wrapped one or more times: only the last row's cells are still on the cursor's row.
            first = count - ((c + count - 1) % width + 1)
            c = 0
        }
        model.drawText(count: count)
        syncRowContent()
        // Columns past the end of `rowContent` count as unknown: grow it only as far as written.
        if rowContent.count < c + count - first { rowContent += repeatElement(0, count: c + count - first - rowContent.count) }
        let bytes = store
        rowContent.withUnsafeMutableBufferPointer { row in
            for i in first..<count { row[c + i - first] = Self.key(byte: bytes[start + i], pen: pen) }
        }
    }

    private mutating func writeCluster(_ bytes: ArraySlice<UInt8>, start: Int, width: Int, certain: Bool, index: Int,
                                       opacity: Double, into out: inout [UInt8]) {
        let (pen, drawnPenID, look) = drawingPen(at: start)
        guard let columnsNow = columns, var c = column else {
            setPen(pen, into: &out)
            out.append(contentsOf: bytes)
            if certain { model.draw(width: width) } else { model.drawUncertain(width: width) }
            return
        }
        if !certain || width == 0 {
            snap(into: &out)
            setPen(pen, into: &out)
            out.append(contentsOf: bytes)
            if !certain { model.drawUncertain(width: width) }
            return
        }
        syncRowContent()
        var wrapped = false
        if pendingWrap || c + width > columnsNow {
            // The terminal wraps before drawing: a new row starts with this cluster.
            wrapped = true
            snap(into: &out)
            newRow(wrapped: true)
            pendingWrap = false
            c = 0
            column = 0
            forgetScrolledRows()
            if width > columnsNow {
                setPen(pen, into: &out)
                out.append(contentsOf: bytes)
                forgetColumn()  // wider than the screen: where it ends is unknown
                return
            }
        }
        let key = Self.key(bytes, pen: drawnPenID)
        if c + width >= columnsNow {
            // Reaching the last column: nothing may fade while the cursor sits in pending wrap.
            snap(into: &out)
            setPen(pen, into: &out)
            out.append(contentsOf: bytes)
            record(key, at: c, width: width)
            notePainted(start: start, bytes: bytes, column: c, width: width, look: look)
            model.draw(width: width)
            return
        }
        let unchanged = rowContent.count > c && rowContent[c] == key && key != 0
        var code = ColorRamp.settled
        var level = ramp.levels
        var from = configuration.background, to = configuration.foreground
        if canFade(pen) && !unchanged && opacity < 1 {
            from = rgb(of: pen.background) ?? configuration.background
            to = rgb(of: pen.foreground) ?? configuration.foreground
            level = ramp.level(opacity: opacity, phase: phase(index))
            code = ramp.code(level: level, from: from, to: to)
        }
        if code == ColorRamp.settled && cells.isEmpty {
            setPen(pen, into: &out)
            out.append(contentsOf: bytes)
        } else {
            if wrapped && code != ColorRamp.settled {
                // A row that scrolls in takes the pen of the wrap in its blank cells (xterm draws
                // the cursor in their colour): wrap in the settled pen, then draw the fade over it.
                setPen(pen, into: &out)
                out.append(contentsOf: bytes)
                Self.appendCSI(&out, width, final: 0x44)  // CUB
                frameMovedCursor = true
            }
            setPen(code == ColorRamp.settled ? pen : fadePen(pen, code), into: &out)
            out.append(contentsOf: bytes)
            let range = cellBytes.count..<(cellBytes.count + bytes.count)
            cellBytes.append(contentsOf: bytes)
            cells.append(Cell(column: c, width: width, bytes: range, pen: pen, index: index, code: code, level: level,
                              from: from, to: to, start: start))
        }
        record(key, at: c, width: width)
        notePainted(start: start, bytes: bytes, column: c, width: width, look: look)
        model.draw(width: width)
    }

    /// Scalars joining the cluster written last.
    private mutating func extend(_ bytes: ArraySlice<UInt8>, start: Int, width: Int, certain: Bool, into out: inout [UInt8]) {
        snap(into: &out)
        setPen(drawingPen(at: start).pen, into: &out)
        out.append(contentsOf: bytes)
        markdown?.forgetLastPainted(endingAt: start)  // drawn again whole, it would lose what joined it
        model.extend(width: width, certain: certain)
    }

    private mutating func record(_ key: UInt64, at c: Int, width: Int) {
        guard let columnsNow = columns else { return }
        syncRowContent()
        if rowContent.count < columnsNow { rowContent += repeatElement(0, count: columnsNow - rowContent.count) }
        rowContent[c] = key
        for k in (c + 1)..<min(columnsNow, c + width) { rowContent[k] = 0 }
    }

    private mutating func newRow(wrapped: Bool) {
        model.newRow(wrapped: wrapped)
        syncRowContent()
    }

    private mutating func forgetColumn() {
        model.forgetColumn()
        syncRowContent()
    }

    /// Forgets what the cursor's row shows once the model says it may have changed.
    private mutating func syncRowContent() {
        guard model.rowChanges != seenRowChanges else { return }
        rowContent.removeAll(keepingCapacity: true)
        seenRowChanges = model.rowChanges
    }

    /// Follows a pen the terminal took by itself (DECRC, DECSTR, RIS).
    private mutating func syncTerminalPen() {
        guard model.penReplacements != seenPenReplacements else { return }
        seenPenReplacements = model.penReplacements
        terminalPen = model.pen
        inputPenID = penID(model.pen)
    }

    /// 0 (never equal to what the row shows) once there were too many pens to number (lolcat).
    private static func key(byte: UInt8, pen: Int) -> UInt64 { pen < 0 ? 0 : UInt64(pen) << 40 | 1 << 39 | UInt64(byte) }

    private static func key(_ bytes: ArraySlice<UInt8>, pen: Int) -> UInt64 {
        if pen < 0 { return 0 }
        if bytes.count == 1, let b = bytes.first { return key(byte: b, pen: pen) }
        var hasher = Hasher()
        hasher.combine(pen)
        for b in bytes { hasher.combine(b) }
        return UInt64(bitPattern: Int64(hasher.finalize())) | 1
    }

    // MARK: Repainting

    /// The step phase of a cell, in steps. Neighbouring cells differ in opacity by 1/fade, which is
    /// levels/fade steps; phases are kept below that, so an older cell is never darker than a newer one.
    private func phase(_ index: Int) -> Double {
        guard configuration.fadeWidth > 0 else { return 0 }
        return ColorRamp.phase(ofClusterAt: index) * min(1, Double(configuration.levels) / configuration.fadeWidth)
    }

    private func fadePen(_ pen: GraphicRendition, _ code: ColorRamp.Code) -> GraphicRendition {
        if configuration.colorDepth == .basic16 { return pen.replacingForeground(with: nil, faint: true) }
        return pen.replacingForeground(with: ramp.foregroundParameter(code))
    }

    /// Repaints cells whose colour step changed, moving back along the row and forward again.
    ///
    /// When the front moves slowly over few cells, whole frames can pass with no cell reaching its
    /// next step; then the newest cell that can step without passing its older neighbour steps a
    /// little early, so the motion keeps a steady frame rate (no gap over two frames).
    private mutating func repaint(front: Double, into out: inout [UInt8]) {
        guard !cells.isEmpty, let end = column else { return }
        var levels = [Int]()
        levels.reserveCapacity(cells.count)
        var firstChanged: Int?
        for (i, cell) in cells.enumerated() {
            var level = cell.level
            if level < ramp.levels {
                // A cell never steps back toward the background.
                level = max(level, ramp.level(opacity: pacing.opacity(ofClusterAt: cell.index, front: front), phase: phase(cell.index)))
            }
            levels.append(level)
            if (level != cell.level || cell.code == Self.repaintCode) && firstChanged == nil { firstChanged = i }
        }
        if firstChanged == nil {
            for j in stride(from: cells.count - 1, through: 0, by: -1) where levels[j] < ramp.levels {
                // The oldest fading cell may settle early; any other may step up to its older neighbour.
                if j == 0 || levels[j - 1] >= levels[j] + 1 {
                    levels[j] += 1
                    firstChanged = j
                    break
                }
            }
        }
        guard let first = firstChanged else { return }
        paint(from: first, levels: levels, cursorAt: end, into: &out)
    }

    /// Snaps every fading cell to its final style.
    private mutating func snap(into out: inout [UInt8]) {
        if cells.isEmpty && cellBytes.isEmpty { return }
        guard let first = cells.firstIndex(where: { $0.code != ColorRamp.settled }), let end = column else {
            cells.removeAll(keepingCapacity: true)
            cellBytes.removeAll(keepingCapacity: true)
            return
        }
        paint(from: first, levels: Array(repeating: ramp.levels, count: cells.count), cursorAt: end, into: &out)
        cells.removeAll(keepingCapacity: true)
        cellBytes.removeAll(keepingCapacity: true)
    }

    private mutating func paint(from first: Int, levels: [Int], cursorAt end: Int, into out: inout [UInt8]) {
        var codes = [ColorRamp.Code]()
        codes.reserveCapacity(cells.count)
        for (i, cell) in cells.enumerated() {
            codes.append(levels[i] == cell.level && cell.code != Self.repaintCode
                         ? cell.code : ramp.code(level: levels[i], from: cell.from, to: cell.to))
        }
        guard let firstWrite = (first..<cells.count).first(where: { codes[$0] != cells[$0].code }) else {
            for i in first..<cells.count { cells[i].level = levels[i] }
            return
        }
        frameMovedCursor = true
        if absoluteMoves {
            Self.appendCSI(&out, cells[firstWrite].column + 1, final: 0x47, always: true)  // CHA
        } else {
            Self.appendCSI(&out, end - cells[firstWrite].column, final: 0x44)  // CUB, counting cells
        }
        var skip = 0
        for i in firstWrite..<cells.count {
            let cell = cells[i]
            cells[i].level = levels[i]
            if codes[i] == cell.code {
                skip += cell.width
                continue
            }
            if skip > 0 { Self.appendCSI(&out, skip, final: 0x43); skip = 0 }  // CUF
            setPen(codes[i] == ColorRamp.settled ? cell.pen : fadePen(cell.pen, codes[i]), into: &out)
            out.append(contentsOf: cellBytes[cell.bytes])
            cells[i].code = codes[i]
        }
        if skip > 0 { Self.appendCSI(&out, skip, final: 0x43) }
        // Settled cells at the start of the row no longer need to be kept.
        if let keep = cells.firstIndex(where: { $0.code != ColorRamp.settled }) {
            if keep > 0 { cells.removeFirst(keep) }
        } else {
            cells.removeAll(keepingCapacity: true)
            cellBytes.removeAll(keepingCapacity: true)
        }
    }

    private static func appendCSI(_ out: inout [UInt8], _ n: Int, final: UInt8, always: Bool = false) {
        guard n > 0 || always else { return }
        out.append(0x1B); out.append(0x5B)
        if n > 1 { out.append(contentsOf: String(n).utf8) }
        out.append(final)
    }

    // MARK: Pens

    private mutating func setPen(_ pen: GraphicRendition, into out: inout [UInt8]) {
        guard pen != terminalPen, !penIsUnknown else { return }
        if pen.differsOnlyInForeground(from: terminalPen) {
            out.append(contentsOf: "\u{1B}[\(pen.foregroundParameter ?? "39")m".utf8)
        } else {
            let params = pen.render()
            out.append(contentsOf: (params.isEmpty ? "\u{1B}[0m" : "\u{1B}[0;\(params)m").utf8)
        }
        terminalPen = pen
    }

    /// Leaves the terminal in exactly the input's SGR state.
    private mutating func restorePen(into out: inout [UInt8]) { setPen(inputPen, into: &out) }

    private func rgb(of color: TerminalColor) -> RGB? {
        switch color {
        case .default: return nil
        case .indexed(let i): return configuration.palette[i] ?? RGB.xterm(i)
        case .rgb(let c): return c
        }
    }

    // MARK: Controls and sequences

    private mutating func control(_ byte: UInt8, into out: inout [UInt8]) {
        switch byte {
        case 0x00, 0x07:
            out.append(byte)  // no cursor movement
            return
        default: break
        }
        snap(into: &out)
        restorePen(into: &out)
        out.append(byte)
        model.control(byte)
        syncRowContent()
        if markdown != nil {
            switch byte {
            case 0x0A, 0x0B, 0x0C: returnedCarriage = false; forgetScrolledRows()
            case 0x0D: returnedCarriage = true
            case 0x09: break
            default: if let row = model.row { markdown!.forgetRow(row) } else { markdown!.forgetPainted() }  // BS, DEL…
            }
        }
    }

    private mutating func sequence(_ range: Range<Int>, kind: SequenceKind, into out: inout [UInt8]) {
        let bytes = store[range]
        if case .csi(0x6D, 0, false, true) = kind {
            // SGR with C0 controls inside: the terminal runs the controls and still sets the pen.
            snap(into: &out)
            restorePen(into: &out)
            endSynchronizedUpdate(into: &out)
            out.append(contentsOf: bytes)
            model.selectGraphicRendition(bytes, hasControls: true)
            markdown?.forgetPainted()
            syncRowContent()
            terminalPen = model.pen
            inputPenID = penID(model.pen)
            return
        }
        if kind.isSelectGraphicRendition {
            let (next, outcome) = model.pen(afterSGR: bytes.dropFirst(2).dropLast())
            // A 24-bit pen when typewrite is not in 24-bit mode is written only as it came, in the
            // input's order: terminals that approximate 24-bit colours (urxvt) pick the colour
            // from what was sent before, so a pen re-sent in another order can settle differently.
            let asItCame = outcome.ambiguous || (configuration.colorDepth != .trueColor && next.usesTrueColor)
            if terminalPen == inputPen || penIsUnknown || asItCame {
                // Written as it came; a fade pen is put back first, so the terminal applies it to
                // the input's own state (an ambiguous one is never rewritten in typewrite's words,
                // so cells still fading are settled while their pens can still be written).
                if asItCame && !penIsUnknown { snap(into: &out) }
                restorePen(into: &out)
                // What follows is written as it came: the frame's own synchronized update ends first.
                if outcome.ambiguous { endSynchronizedUpdate(into: &out) }
                out.append(contentsOf: bytes)
                terminalPen = next
            }
            model.take(pen: next, outcome: outcome)
            inputPenID = penID(inputPen)
            return
        }
        snap(into: &out)
        restorePen(into: &out)
        if bytes.dropFirst().contains(where: { $0 < 0x20 || $0 == 0x7F }) { endSynchronizedUpdate(into: &out) }
        out.append(contentsOf: bytes)
        // A sequence that may move the cursor or change cells: what was drawn is no longer known.
        if kind != .operatingSystemCommand { markdown?.forgetPainted() }
        model.sequence(bytes, kind: kind)
        syncRowContent()
        syncTerminalPen()
    }

    /// Closes the frame's synchronized update here when it moved the cursor: a C0 control inside
    /// an escape sequence is executed outside one (ECMA-48) but not inside one by every terminal
    /// (kitty 0.26 skips a CR inside a CSI within `CSI ? 2026 h` … `l`), so such a sequence is
    /// written as `cat` would write it, outside.
    private mutating func endSynchronizedUpdate(into out: inout [UInt8]) {
        guard frameMovedCursor && !frameSynchronized else { return }
        out.insert(contentsOf: Self.synchronizedOutputBegin, at: frameStart)
        out.append(contentsOf: Self.synchronizedOutputEnd)
        frameSynchronized = true
    }

    /// A small number naming `pen`, for comparing cells cheaply (-1 once too many pens were seen).
    private mutating func penID(_ pen: GraphicRendition) -> Int {
        if let id = penIDs[pen] { return id }
        guard penIDs.count < 4096 else { return -1 }
        let id = penIDs.count
        penIDs[pen] = id
        pens.append(pen)
        return id
    }
}
