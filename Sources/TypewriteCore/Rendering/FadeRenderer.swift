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

    // Terminal model.
    private var columns: Int?
    /// The cursor's column (0-based), when known. Never known while autowrap is off: the cursor
    /// then stays on the last column instead of wrapping, which the column bookkeeping does not model;
    /// nor once terminals may have parted ways (`stateIsDisputed`).
    private var column: Int? {
        didSet { if (autowrapOff || stateIsDisputed) && column != nil { column = nil } }
    }
    /// The input sent an escape sequence terminals read differently, with a byte ≥ 0x80 inside ESC or
    /// CSI (tmux 3.3a ignores the byte and the sequence goes on; xterm ends the sequence there and
    /// the bytes after it are text): what it did to the cursor, the pen and the modes is not known.
    /// From then on the input is written as it comes, with nothing of typewrite's own (no fade),
    /// until RIS resets every terminal alike.
    private var stateIsDisputed = false
    private var pendingWrap = false
    private var rowWrapped = false
    private var autowrapOff = false
    /// IRM (CSI 4 h): every character written inserts, so a repaint would push text right.
    private var insertMode = false
    private var alternateScreen = false
    private var shiftedOut = false
    private var nonASCIICharset = false
    private var defaultTabStops = true
    /// Whether the input left an OSC 8 hyperlink open.
    public private(set) var hyperlinkOpen = false

    // Pens (SGR states): what the input has set, and what the terminal has now.
    private var inputPen = GraphicRendition()
    private var terminalPen = GraphicRendition()
    private var penIDs: [GraphicRendition: Int] = [GraphicRendition(): 0]
    private var inputPenID = 0
    /// The terminal's SGR state is not known, because terminals disagree on what the input did to it
    /// (`CSI ? 1048 l` restores the saved pen in xterm, tmux 3.3a ignores it; see `restoreCursor`;
    /// `CSI 38;2;256;0;0 m` changes nothing in xterm, pyte takes it as a colour).
    /// Then nothing fades and typewrite writes no SGR of its own, until an SGR from the input resets.
    private var penIsUnknown = false

    /// Cells on the current row, from the oldest one not yet settled to the cursor.
    private var cells: [Cell] = []
    private var cellBytes: [UInt8] = []
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
    }

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
        self.columns = configuration.columns.flatMap { $0 > 0 && $0 <= Self.maximumColumns ? $0 : nil }
        self.column = self.columns == nil ? nil : 0
        self.rows = configuration.rows.flatMap { $0 > 0 && $0 <= Self.maximumColumns ? $0 : nil }
    }

    // MARK: Input side

    /// Takes bytes as read (any split) that arrived at `time`.
    public mutating func receive(_ bytes: some Collection<UInt8>, at time: Seconds) {
        let tokensBefore = queue.storedBytes
        store.append(contentsOf: bytes)
        let clusters = tokenizer.scan(store, into: &queue)
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
    public var isAnimating: Bool { !queue.isEmpty || cells.contains { $0.code != ColorRamp.settled } }

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
        render(front: .infinity, finishing: true, settledUpTo: 0, into: &out)
        absoluteMoves = false
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
        if let c = column, let old = columns, let new = valid, !rowWrapped, !pendingWrap, c < old - 1, c < new - 1 {
            columns = new
            return
        }
        // The terminal may have reflowed the row (tmux, kitty, VTE), so the cells can no longer be
        // reached by moving back: they keep the colour they have, and the column is unknown.
        cells.removeAll(keepingCapacity: true)
        cellBytes.removeAll(keepingCapacity: true)
        restorePen(into: &out)
        columns = valid
        column = nil
        rowContent.removeAll()
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
    }

    /// Something else moved the cursor (the job was stopped and continued): forget the column.
    public mutating func forgetCursor(into out: inout [UInt8]) {
        snap(into: &out)
        column = nil
        rowContent.removeAll()
    }

    /// Writes the clusters due at `front` (all with `finishing`), those before `settledUpTo` settled.
    private mutating func render(front: Double, finishing: Bool, settledUpTo: Int, into out: inout [UInt8]) {
        let start = out.count
        frameMovedCursor = false
        var synchronized = false
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
                writeCluster(store[s..<(s + n)], width: width, certain: certain && !joining, index: revealed,
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
                extend(store[s..<(s + n)], width: width, certain: certain, into: &out)
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
                if frameMovedCursor && !synchronized {
                    // An incomplete UTF-8 sequence must be the last thing written, as with cat:
                    // close the synchronized update before it, not after (and before the ZWJ whose
                    // joining stretch it is part of, so that nothing comes between them).
                    out.insert(contentsOf: Self.synchronizedOutputBegin, at: start)
                    out.insert(contentsOf: Self.synchronizedOutputEnd,
                               at: joining ? joinerWriteStart + Self.synchronizedOutputBegin.count : out.count)
                    synchronized = true
                }
                out.append(contentsOf: store[s..<(s + n)])
                column = nil
                rowContent.removeAll()
                _ = queue.removeFirst()
            }
        }
        if finishing { snap(into: &out) }
        restorePen(into: &out)
        if frameMovedCursor && !synchronized && out.count > start {
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
    private var canFade: Bool {
        configuration.colorDepth != .none && column != nil && !autowrapOff && !alternateScreen && !insertMode
            && !shiftedOut && !nonASCIICharset && !penIsUnknown && inputPen.allowsFade
            && !(inputPen.usesTrueColor && configuration.colorDepth != .trueColor)
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
            restorePen(into: &out)
            out.append(contentsOf: store[s..<(s + settled)])
            advanceSettled(s, count: settled)
            s += settled
            remaining -= settled
            revealed += settled
        }
        for i in 0..<remaining {
            let opacity = pacing.opacity(ofClusterAt: revealed, front: front)
            writeCluster(store[(s + i)..<(s + i + 1)], width: 1, certain: true, index: revealed, opacity: opacity, into: &out)
            revealed += 1
        }
    }

    /// Writes whole settled lines of printable ASCII at once (a flood of short lines, or rows that
    /// scroll off unseen), while nothing fades and the pen is the input's. Each LF ends at column 0
    /// (the tty's ONLCR), so no per-line bookkeeping is needed. Returns whether it wrote any.
    private mutating func writeSettledLines(upTo settledEdge: Int, byteLimit: Int, into out: inout [UInt8]) -> Bool {
        guard cells.isEmpty, columns != nil, configuration.newlineReturnsCarriage, !autowrapOff, !penIsUnknown,
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
    private mutating func advanceSettled(_ start: Int, count: Int) {
        guard let width = columns, var c = column else { return }
        var first = 0
        if pendingWrap { newRow(wrapped: true); c = 0; pendingWrap = false }
        let total = c + count
        if total > width {
            // Wrapped one or more times: only the last row's cells are still on the cursor's row.
            let onLastRow = (total - 1) % width + 1
            first = count - onLastRow
            newRow(wrapped: true)
            c = 0
        }
        // Columns past the end of `rowContent` count as unknown: grow it only as far as written.
        if rowContent.count < c + count - first { rowContent += repeatElement(0, count: c + count - first - rowContent.count) }
        for i in first..<count {
            rowContent[c] = Self.key(byte: store[start + i], pen: inputPenID)
            c += 1
        }
        column = c
        pendingWrap = c >= width
        if pendingWrap { column = width }
    }

    private mutating func writeCluster(_ bytes: ArraySlice<UInt8>, width: Int, certain: Bool, index: Int, opacity: Double,
                                       into out: inout [UInt8]) {
        guard let columnsNow = columns, var c = column else {
            restorePen(into: &out)
            out.append(contentsOf: bytes)
            return
        }
        if !certain || width == 0 {
            snap(into: &out)
            restorePen(into: &out)
            out.append(contentsOf: bytes)
            if !certain { column = nil; rowContent.removeAll() }
            return
        }
        if pendingWrap || c + width > columnsNow {
            // The terminal wraps before drawing: a new row starts with this cluster.
            snap(into: &out)
            newRow(wrapped: true)
            pendingWrap = false
            c = 0
            column = 0
            if width > columnsNow {
                restorePen(into: &out)
                out.append(contentsOf: bytes)
                column = nil
                return
            }
        }
        let key = Self.key(bytes, pen: inputPenID)
        if c + width >= columnsNow {
            // Reaching the last column: nothing may fade while the cursor sits in pending wrap.
            snap(into: &out)
            restorePen(into: &out)
            out.append(contentsOf: bytes)
            record(key, at: c, width: width)
            column = columnsNow
            pendingWrap = true
            return
        }
        let unchanged = rowContent.count > c && rowContent[c] == key && key != 0
        var code = ColorRamp.settled
        var level = ramp.levels
        var from = configuration.background, to = configuration.foreground
        if canFade && !unchanged && opacity < 1 {
            from = Self.rgb(of: inputPen.background) ?? configuration.background
            to = Self.rgb(of: inputPen.foreground) ?? configuration.foreground
            level = ramp.level(opacity: opacity, phase: phase(index))
            code = ramp.code(level: level, from: from, to: to)
        }
        if code == ColorRamp.settled && cells.isEmpty {
            restorePen(into: &out)
            out.append(contentsOf: bytes)
        } else {
            let pen = code == ColorRamp.settled ? inputPen : fadePen(inputPen, code)
            setPen(pen, into: &out)
            out.append(contentsOf: bytes)
            let range = cellBytes.count..<(cellBytes.count + bytes.count)
            cellBytes.append(contentsOf: bytes)
            cells.append(Cell(column: c, width: width, bytes: range, pen: inputPen, index: index, code: code, level: level,
                              from: from, to: to))
        }
        record(key, at: c, width: width)
        column = c + width
    }

    /// Scalars joining the cluster written last.
    private mutating func extend(_ bytes: ArraySlice<UInt8>, width: Int, certain: Bool, into out: inout [UInt8]) {
        let previousWidth = cells.last.map { $0.width }
        snap(into: &out)
        restorePen(into: &out)
        out.append(contentsOf: bytes)
        rowContent.removeAll()
        if !(certain && previousWidth == width) { column = nil }
    }

    private mutating func record(_ key: UInt64, at c: Int, width: Int) {
        guard let columnsNow = columns else { return }
        if rowContent.count < columnsNow { rowContent += repeatElement(0, count: columnsNow - rowContent.count) }
        rowContent[c] = key
        for k in (c + 1)..<min(columnsNow, c + width) { rowContent[k] = 0 }
    }

    private mutating func newRow(wrapped: Bool) {
        rowContent.removeAll(keepingCapacity: true)
        rowWrapped = wrapped
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
            if level != cell.level && firstChanged == nil { firstChanged = i }
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
            codes.append(levels[i] == cell.level ? cell.code : ramp.code(level: levels[i], from: cell.from, to: cell.to))
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

    private static func rgb(of color: TerminalColor) -> RGB? {
        switch color {
        case .default: return nil
        case .indexed(let i): return RGB.xterm(i)
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
        switch byte {
        case 0x0D:  // CR
            if columns != nil && !autowrapOff { column = 0 }
            pendingWrap = false
        case 0x0A, 0x0B, 0x0C:  // LF, VT, FF
            newRow(wrapped: false)
            if byte == 0x0A && configuration.newlineReturnsCarriage && columns != nil && !autowrapOff {
                column = 0
                pendingWrap = false
            } else if pendingWrap {
                column = nil
            }
        case 0x09:  // TAB: stops every 8 columns unless the input changed them
            if let c = column, let width = columns, !pendingWrap, defaultTabStops {
                column = min(width - 1, (c / 8 + 1) * 8)
            } else {
                column = nil
            }
        case 0x08:  // BS: margins disagree at pending wrap and column 0 (TERMINAL-NOTES §1)
            if let c = column, !pendingWrap, c > 0 { column = c - 1 } else { column = nil }
        case 0x0E: shiftedOut = true
        case 0x0F: shiftedOut = false
        case 0x7F, 0x18, 0x1A:
            // DEL: xterm and tmux ignore it, urxvt draws a glyph for it. CAN, SUB: the VT100
            // draws its error character for them, xterm and tmux draw nothing.
            forgetColumn()
        default: break
        }
    }

    /// Runs the bookkeeping of the C0 controls embedded in the sequence at `range` (after its
    /// first byte), in order: the VT500 parser executes a C0 control met inside ESC or CSI and the
    /// sequence goes on (`ESC NUL [ ? 7 l` is still DECRST 7). Call it after snapping, before
    /// the sequence's own effect. DEL inside is ignored by that parser; not all terminals are known
    /// to, so the column is forgotten.
    private mutating func runEmbeddedControls(_ range: Range<Int>) {
        var scratch: [UInt8] = []
        for byte in store[range].dropFirst() where byte < 0x20 || byte == 0x7F {
            if byte == 0x7F { forgetColumn(); continue }
            control(byte, into: &scratch)
        }
    }

    /// The parameter bytes of the CSI at `range` (after `[`, before the final byte), without the
    /// C0 controls and DEL a terminal executes or ignores in them.
    private func csiParameters(_ range: Range<Int>) -> [UInt8] {
        let bytes = store[range]
        guard let open = bytes.dropFirst().firstIndex(of: 0x5B) else { return [] }
        return bytes[(open + 1)..<(bytes.endIndex - 1)].filter { $0 >= 0x20 && $0 != 0x7F }
    }

    private mutating func sequence(_ range: Range<Int>, kind: SequenceKind, into out: inout [UInt8]) {
        switch kind {
        case .csi, .escape, .operatingSystemCommand, .controlString:
            break
        default:
            // The terminal ran the C0 controls before the introducer (ECMA-48 / VT500 parser). An SO
            // stops the fade; an SI is not trusted (it might sit in a string the terminal ignored).
            if store[range].dropFirst().contains(0x0E) { shiftedOut = true }
        }
        if case .csi(0x6D, 0, false, true) = kind {
            // SGR with C0 controls inside: the terminal runs the controls and still sets the pen.
            snap(into: &out)
            restorePen(into: &out)
            out.append(contentsOf: store[range])
            runEmbeddedControls(range)
            var next = inputPen
            let outcome = next.apply(parameters: csiParameters(range))
            terminalSetPen(next)
            notePen(outcome)
            return
        }
        if kind.isSelectGraphicRendition {
            var next = inputPen
            let outcome = next.apply(parameters: store[(range.lowerBound + 2)..<(range.upperBound - 1)])
            // A 24-bit pen when typewrite is not in 24-bit mode is written only as it came, in the
            // input's order: terminals that approximate 24-bit colours (urxvt) pick the colour
            // from what was sent before, so a pen re-sent in another order can settle differently.
            let asItCame = outcome.ambiguous || (next.usesTrueColor && configuration.colorDepth != .trueColor)
            if terminalPen == inputPen || penIsUnknown || asItCame {
                // Written as it came; a fade pen is put back first, so the terminal applies it to
                // the input's own state (an ambiguous one is never rewritten in typewrite's words,
                // so cells still fading are settled while their pens can still be written).
                if asItCame && !penIsUnknown { snap(into: &out) }
                restorePen(into: &out)
                out.append(contentsOf: store[range])
                terminalPen = next
            }
            inputPen = next
            notePen(outcome)
            inputPenID = penID(inputPen)
            return
        }
        snap(into: &out)
        restorePen(into: &out)
        out.append(contentsOf: store[range])
        switch kind {
        case .csi(let final, let marker, let intermediates, let controls):
            if controls { runEmbeddedControls(range) }
            if intermediates && final == 0x70 && store[range].contains(0x21) {  // DECSTR: CSI ! p
                terminalSetPen(GraphicRendition())
                penIsUnknown = false
                // VT510 resets the saved cursor state too, tmux 3.3a does not.
                for i in savedCursor.indices { savedCursor[i]?.penIsUnknown = true }
                lastSaved?.penIsUnknown = true
                shiftedOut = false
                nonASCIICharset = false
                autowrapOff = true  // VT510: soft reset turns autowrap off; stay safe until ?7h
            }
            guard !intermediates else { forgetColumn(); return }
            csi(final: final, privateMarker: marker,
                parameters: controls ? csiParameters(range)[...] : store[(range.lowerBound + 2)..<(range.upperBound - 1)])
        case .escape(let final, let intermediate):
            // A C0 control inside the sequence was run by the terminal (a CR moves the cursor).
            let controls = store[(range.lowerBound + 1)..<range.upperBound].contains(where: { $0 < 0x20 || $0 == 0x7F })
            if controls { runEmbeddedControls(range) }
            escape(final: final, intermediate: intermediate)
            if controls { forgetColumn() }
        case .operatingSystemCommand:
            let body = store[(range.lowerBound + 2)..<range.upperBound]
            if body.starts(with: [0x38, 0x3B]) {  // "8;params;URI"
                let fields = body.split(separator: 0x3B, maxSplits: 2, omittingEmptySubsequences: false)
                let uri = fields.count == 3 ? fields[2].prefix { $0 != 0x07 && $0 != 0x1B } : []
                hyperlinkOpen = !uri.isEmpty
            }
        case .controlString:
            break
        case .singleShift:
            forgetColumn()
        case .broken:
            if Self.hasDisputedBytes(store[range]) {
                stateIsDisputed = true
                penIsUnknown = true
            }
            forgetColumn()
        }
    }

    /// Whether the broken sequence `bytes` has a byte ≥ 0x80 in its ESC or CSI part, which
    /// terminals parse differently (see `stateIsDisputed`); inside an OSC or DCS string such bytes
    /// are the string's text to all of them.
    private static func hasDisputedBytes(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard bytes.first == 0x1B else { return false }
        var rest = bytes.dropFirst()
        while let b = rest.first {
            if b >= 0x80 { return true }
            if b >= 0x20 && b != 0x7F {
                // OSC, DCS, SOS, PM, APC: a string follows.
                if b == 0x5D || b == 0x50 || b == 0x58 || b == 0x5E || b == 0x5F { return false }
                return rest.contains { $0 >= 0x80 }
            }
            rest = rest.dropFirst()
        }
        return false
    }

    /// A small number naming `pen`, for comparing cells cheaply (-1 once too many pens were seen).
    private mutating func penID(_ pen: GraphicRendition) -> Int {
        if let id = penIDs[pen] { return id }
        guard penIDs.count < 4096 else { return -1 }
        let id = penIDs.count
        penIDs[pen] = id
        return id
    }

    /// The terminal replaced its pen (DECRC, DECSTR, RIS…): the input's state is now `pen`.
    private mutating func terminalSetPen(_ pen: GraphicRendition) {
        inputPen = pen
        terminalPen = pen
        inputPenID = penID(pen)
    }

    /// After an SGR from the input: a reset makes the pen known, a parameter terminals read
    /// differently makes it unknown (then typewrite never rewrites it in its own words).
    private mutating func notePen(_ outcome: GraphicRendition.Outcome) {
        if outcome.reset { penIsUnknown = false }
        if outcome.ambiguous { penIsUnknown = true }
    }

    /// What DECSC (ESC 7, and CSI s or entering the 1049 alternate screen) saves: the pen and the
    /// character set state, one slot for each screen (xterm). `penIsUnknown` is set when terminals
    /// disagree on whether the slot was written.
    private struct SavedCursor: Equatable {
        var pen = GraphicRendition()
        var penIsUnknown = false
        var shiftedOut = false
        var nonASCIICharset = false
    }
    private var savedCursor: [SavedCursor?] = [nil, nil]
    private var screenIndex: Int { alternateScreen ? 1 : 0 }
    /// The slot written last, whichever screen it was on: tmux 3.3a keeps one slot for both
    /// screens where xterm keeps one each, so a restore is certain only where the two agree.
    private var lastSaved: SavedCursor?

    /// DECSC; `certain` is false for a save some terminals do not make (`CSI ? 1048 h` in tmux
    /// 3.3a, `CSI Ps s` with parameters in the VirtualTerminal's xterm reading).
    private mutating func saveCursor(certain: Bool = true) {
        let old = savedCursor[screenIndex]
        let differs = old.map { $0.penIsUnknown || $0.pen != inputPen } ?? !inputPen.isDefault
        savedCursor[screenIndex] = SavedCursor(
            pen: inputPen, penIsUnknown: penIsUnknown || (!certain && differs),
            shiftedOut: shiftedOut || (!certain && old?.shiftedOut == true),
            nonASCIICharset: nonASCIICharset || (!certain && old?.nonASCIICharset == true))
        lastSaved = savedCursor[screenIndex]
    }

    /// DECRC; `certain` is false for a restore some terminals do not make (`CSI ? 1048 l` in tmux
    /// 3.3a, `CSI Ps u` with parameters in the VirtualTerminal's xterm reading): then the pen is
    /// unknown, and SO or a non-ASCII character set on either side keeps fading off.
    private mutating func restoreCursor(certain: Bool = true) {
        let saved = savedCursor[screenIndex] ?? SavedCursor()
        // One slot per screen (xterm) or one for both (tmux): unsure unless both give the same.
        if certain && saved == (lastSaved ?? SavedCursor()) {
            terminalSetPen(saved.pen)
            penIsUnknown = saved.penIsUnknown
            shiftedOut = saved.shiftedOut
            nonASCIICharset = saved.nonASCIICharset
        } else {
            let shared = lastSaved ?? SavedCursor()
            penIsUnknown = penIsUnknown || saved.penIsUnknown || saved.pen != inputPen || shared.penIsUnknown || shared.pen != inputPen
                || (certain && saved.pen != shared.pen)
            shiftedOut = shiftedOut || saved.shiftedOut
            nonASCIICharset = nonASCIICharset || saved.nonASCIICharset
        }
        forgetColumn()
    }

    private mutating func forgetColumn() {
        column = nil
        rowContent.removeAll()
    }

    private mutating func csi(final: UInt8, privateMarker: UInt8, parameters: ArraySlice<UInt8>) {
        // The private marker (`?` in `CSI ? 1049 h`) comes before the parameters.
        let parameters = privateMarker != 0 ? parameters.dropFirst() : parameters
        let params = parameters.split(separator: 0x3B, omittingEmptySubsequences: false).map { field -> Int in
            var v = 0
            for b in field { guard b >= 0x30 && b <= 0x39 else { break }; v = min(v * 10 + Int(b - 0x30), 1 << 20) }
            return v
        }
        func param(_ i: Int, default d: Int) -> Int { i < params.count && params[i] > 0 ? params[i] : d }
        if privateMarker == 0x3F {  // DEC private modes
            guard final == 0x68 || final == 0x6C else { forgetColumn(); return }
            let set = final == 0x68
            for mode in params {
                switch mode {
                case 7:
                    autowrapOff = !set
                    if !set { forgetColumn() }  // without autowrap the margin behaves differently
                case 1048:
                    if set { saveCursor(certain: false) } else { restoreCursor(certain: false) }
                case 1049:
                    // Outside the alternate screen, leaving it does nothing (tmux; xterm differs).
                    if set { if !alternateScreen { saveCursor() }; alternateScreen = true } else if alternateScreen { alternateScreen = false; restoreCursor() }
                    forgetColumn()
                case 47, 1047: alternateScreen = set; forgetColumn()
                case 25, 2026, 1, 12, 1000...1006, 2004: break
                default: forgetColumn()
                }
            }
            return
        }
        if privateMarker == 0 && (final == 0x68 || final == 0x6C) {  // SM, RM
            if params.contains(4) { insertMode = final == 0x68 }
            return
        }
        guard privateMarker == 0, columns != nil else { forgetColumn(); return }
        let width = columns ?? 1
        switch final {
        case 0x47, 0x60:  // CHA, HPA
            column = min(param(0, default: 1), width) - 1
            pendingWrap = false
        case 0x48, 0x66:  // CUP
            newRow(wrapped: false)
            column = min(param(1, default: 1), width) - 1
            pendingWrap = false
        case 0x43:  // CUF
            if let c = column, !pendingWrap { column = min(width - 1, c + param(0, default: 1)) } else { forgetColumn() }
        case 0x44:  // CUB
            if let c = column, !pendingWrap { column = max(0, c - param(0, default: 1)) } else { forgetColumn() }
        case 0x41, 0x42, 0x4A, 0x53, 0x54:  // CUU, CUD, ED, SU, SD: same column
            newRow(wrapped: false)
            if pendingWrap { forgetColumn() }
        case 0x4C, 0x4D:
            // IL, DL: xterm (and the VT510) return to the left margin, but only when the cursor is
            // inside the scroll region, which typewrite does not follow; tmux 3.3a never moves the
            // cursor. So the column is still known only where all of them leave it: column 0.
            newRow(wrapped: false)
            if column != 0 || pendingWrap { forgetColumn() }
        case 0x73:  // SCOSC (CSI s), as DECSC in xterm; tmux also saves when there are parameters
            saveCursor(certain: parameters.isEmpty)
        case 0x75:  // SCORC (CSI u); tmux also restores when there are parameters
            restoreCursor(certain: parameters.isEmpty)
        case 0x4B, 0x58, 0x40, 0x50:  // EL, ECH, ICH, DCH: this row changes
            rowContent.removeAll()
            if pendingWrap { forgetColumn() }
        case 0x45, 0x46:  // CNL, CPL
            newRow(wrapped: false)
            column = 0
            pendingWrap = false
        case 0x67:  // TBC
            defaultTabStops = false
        case 0x6E, 0x63, 0x74, 0x71, 0x70:  // DSR, DA, window ops, DECLL, DECSCL…: no movement
            break
        default:
            forgetColumn()
        }
    }

    private mutating func escape(final: UInt8, intermediate: UInt8) {
        switch (intermediate, final) {
        case (0x28, _):  // designate G0
            nonASCIICharset = final != 0x42
        case (0x29, _), (0x2A, _), (0x2B, _), (0x2D, _), (0x2E, _), (0x2F, _):
            break  // G1–G3 only matter after SO, which stops fading by itself
        case (0, 0x37):  // DECSC
            saveCursor()
        case (0, 0x38):  // DECRC: position, pen and character sets come back
            restoreCursor()
        case (0, 0x3D), (0, 0x3E):  // keypad modes
            break
        case (0, 0x45):  // NEL
            newRow(wrapped: false)
            column = columns == nil ? nil : 0
            pendingWrap = false
        case (0, 0x44), (0, 0x4D):  // IND, RI
            newRow(wrapped: false)
            if pendingWrap { forgetColumn() }
        case (0, 0x48):  // HTS
            defaultTabStops = false
        case (0, 0x63):  // RIS: everything resets
            terminalSetPen(GraphicRendition())
            penIsUnknown = false
            autowrapOff = false; alternateScreen = false; nonASCIICharset = false; shiftedOut = false
            insertMode = false
            stateIsDisputed = false
            savedCursor = [nil, nil]
            lastSaved = nil
            defaultTabStops = true
            forgetColumn()
        default:
            forgetColumn()
        }
    }
}
