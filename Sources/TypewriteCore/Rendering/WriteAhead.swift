/// What must be written at once, settled, ahead of the pacing front, so that the fade never breaks
/// its bounds (with a finite maximum lag only; a strict typewriter waits instead):
///
/// - every cluster of a burst whose deadline (its arrival + the maximum lag) has come;
/// - text that will have scrolled off the top of the screen before the front reaches it (the rows
///   ahead counted against the screen's height): only the last screenful animates;
/// - the oldest text while the memory held passes the limit, until half of it is left.
///
/// Counts are of grapheme clusters from the first one received.
struct WriteAhead: Sendable {
    /// The maximum lag one frame early, so the frame that shows a due burst is still within it.
    let deadline: Seconds
    /// Memory held above which the oldest text is written at once, in bytes; nil for never.
    let memoryLimit: Int?
    /// Terminal height in rows, when known.
    var rows: Int? {
        didSet { scrolledAheadAt = -1 }
    }

    /// Per burst that is not yet due: clusters received up to its end and its arrival time.
    private var arrivals: [(clusters: Int, time: Seconds)] = []
    private var arrivalsHead = 0
    /// `tokenizedEnd` when the text ahead was last measured for scrolling off.
    private var scrolledAheadAt = -1

    /// - Parameters:
    ///   - maximumLag: the configuration's, in seconds (infinite: nothing is written ahead).
    ///   - frameAllowance: one frame period, in seconds.
    init(maximumLag: Seconds, frameAllowance: Seconds, memoryLimit: Int?, rows: Int?) {
        deadline = maximumLag - frameAllowance
        self.memoryLimit = memoryLimit
        self.rows = rows
    }

    /// Whether bursts have a deadline (and rows about to scroll off unseen are written ahead).
    var lagIsBounded: Bool { deadline.isFinite }

    /// A burst ended with cluster number `clusters` (counted from the first), arriving at `time`.
    mutating func noteArrival(clusters: Int, added: Int, at time: Seconds) {
        guard added > 0, lagIsBounded else { return }
        arrivals.append((clusters, time))
    }

    /// Clusters that must be fully shown by `time`: those of every burst whose deadline has come.
    mutating func dueClusters(at time: Seconds) -> Int {
        var due = 0
        while arrivalsHead < arrivals.count, arrivals[arrivalsHead].time + deadline <= time {
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
    /// - Parameter received: clusters received so far.
    mutating func clustersScrolledOff(_ stream: TokenStream, columns: Int?, received: Int) -> Int {
        guard let rows, let width = columns, stream.tokenizedEnd != scrolledAheadAt else { return 0 }
        scrolledAheadAt = stream.tokenizedEnd
        var advances = 0       // rows the cursor moves down after the current line
        var lineCells = 0      // cells after this point on the current line (its last CR-separated part)
        var lineWraps: Int?    // set at a CR: the rows the part after it moves down
        var after = 0          // clusters after this point
        var found: Int?
        var budget = 8 * rows * width + 1024  // tokens looked at before giving up
        stream.forEachFromNewest { token in
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
        return received - found
    }

    /// Clusters to write at once so that the memory held, `pending` bytes, falls to half of the
    /// limit; 0 while it is below the limit. A run of clusters is taken whole (at most
    /// `TokenQueue.runByteLimit` bytes past the half): splitting it would segment every cluster again.
    /// - Parameter written: clusters written so far.
    func clustersOverMemoryLimit(_ stream: TokenStream, pending: Int, written: Int) -> Int {
        guard let limit = memoryLimit, pending > limit else { return 0 }
        var toFree = pending - limit / 2
        var clusters = written
        stream.queue.forEachFromOldest(run: { _, length, count in
            clusters += count
            toFree -= length + TokenQueue.bytesPerEntry
            return toFree > 0
        }) { token in
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
}
