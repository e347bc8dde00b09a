/// What each column of the cursor's row shows, as far as typewrite drew it.
///
/// A key per column (the cluster's bytes and pen; 0 for a blank cell, the right half of a wide
/// cluster, or a cell not known) serves two jobs: a cluster drawn again exactly as the cell
/// already shows it (a progress line rewritten after CR) is written settled, without a fade; and
/// when the row is `complete` — it started blank at a line feed or a wrap, and every cell drawn on
/// it since is here — it can be drawn again whole from its start (`redraw`), which is how the
/// renderer re-establishes the cursor's place after the tty wrote on the row by itself.
struct RowRecord: Sendable {
    private(set) var keys: [UInt64] = []
    /// The bytes, width and pen of each cluster that is not one byte of printable ASCII, by column
    /// (those keys are hashes; an ASCII key holds its byte and pen).
    private var clusters: [Int: (bytes: [UInt8], width: Int, pen: Int)] = [:]
    /// Whether every column of the row is known: blank, or drawn here.
    private(set) var complete = true
    /// Whether the cursor went back along the row since it began (CR, BS, CUB, CHA): cells right
    /// of the cursor may then show text.
    private(set) var movedBack = false
    /// `TerminalModel.rowChanges` and `blankRowStarts` when `keys` was last known to match the
    /// cursor's row.
    private var seenRowChanges = 0
    private var seenBlankRowStarts = 0
    /// Where the row starts in its logical line, in cells written (a cell a wrap left blank at
    /// the end of a row does not count), nil when not known.
    private(set) var lineStart: Int? = 0
    /// The logical line's wide clusters on the rows before this one, by their place in the line
    /// in cells written; empty on a row a line feed began; nil when some earlier row was not known
    /// whole (or held more than `earlierLimit` of them). Every other cell before `lineStart` is
    /// one cell wide (a row wrapped in bulk holds printable ASCII only).
    private(set) var earlierWide: [Int]? = []
    /// Where earlier rows ended a cell early (a wide cluster did not fit in the last column), by
    /// the place in the line, in cells written, of the cluster that wrapped.
    private(set) var earlierGaps: [Int] = []
    /// The row before this one in its logical line, when this row was reached by wrapping from it
    /// and it was known whole, with no blank cell at its end: its keys and clusters, `columns` wide.
    private var previousRow: (keys: [UInt64], clusters: [Int: (bytes: [UInt8], width: Int, pen: Int)], columns: Int)?
    /// Most wide clusters remembered on earlier rows.
    static let earlierLimit = 4096

    /// Follows the model: when the cursor's row may have changed, the record starts again, complete
    /// only if the last change was reaching a new blank row.
    mutating func sync(_ model: TerminalModel) {
        guard model.rowChanges != seenRowChanges else { return }
        let starts = model.blankRowStarts &- seenBlankRowStarts
        foldIntoEarlierRows(model, newRows: starts)
        keys.removeAll(keepingCapacity: true)
        clusters.removeAll(keepingCapacity: true)
        // A column forgotten on the row before (a cluster of uncertain width) does not make this
        // one unknown.
        complete = model.rowChangesAtBlankRowStart == model.rowChanges && model.rowsBelowAreBlank
        if starts > 0 { movedBack = false }
        seenRowChanges = model.rowChanges
        seenBlankRowStarts = model.blankRowStarts
    }

    /// Keeps what a reflow needs of the row being left: on a wrap to the next row of the same
    /// logical line (`newRows` rows reached since the record began; more than one only when
    /// printable ASCII filled them in bulk), its wide clusters join `earlierWide` and a blank cell
    /// the wrap left joins `earlierGaps`, when the row was known whole.
    private mutating func foldIntoEarlierRows(_ model: TerminalModel, newRows: Int) {
        guard model.rowsBelowAreBlank else { forgetLine(); return }
        if newRows == 0 { return }  // the same row, changed: the rows before it are as they were
        guard model.rowWrapped else {
            if model.rowStartOffset == 0 { lineStart = 0; earlierWide = []; earlierGaps = []; previousRow = nil } else { forgetLine() }
            return
        }
        guard let start = lineStart, complete, !movedBack, earlierWide != nil, let columns = model.columns,
              let gap = newRows == 1 ? model.lastWrapGap : 0, gap <= 1 else {
            forgetLine()
            return
        }
        let used = columns - gap
        var wide: [Int] = []
        for (column, cluster) in clusters where cluster.width != 1 && column < used {
            guard cluster.width == 2 else { forgetLine(); return }
            wide.append(start + column)
        }
        guard (earlierWide?.count ?? 0) + wide.count + earlierGaps.count < Self.earlierLimit else { forgetLine(); return }
        earlierWide? += wide.sorted()
        if gap > 0 { earlierGaps.append(start + used) }
        previousRow = newRows == 1 && gap == 0 ? (keys, clusters, columns) : nil
        lineStart = start + used + (newRows - 1) * columns
    }

    private mutating func forgetLine() {
        previousRow = nil
        lineStart = nil
        earlierWide = nil
        earlierGaps = []
    }

    /// Something was drawn on the row that the record cannot draw again.
    mutating func markIncomplete() { complete = false }

    /// The cursor went back along the row.
    mutating func markMovedBack() { movedBack = true }

    /// Whether column `column` shows `key` (never for key 0).
    func shows(_ key: UInt64, at column: Int) -> Bool { key != 0 && column < keys.count && keys[column] == key }

    /// `cluster` was drawn at `column` in pen number `pen`, `width` cells wide, on a row `columns`
    /// wide; `key` is `RowRecord.key(cluster, pen:)`.
    mutating func record(_ key: UInt64, _ cluster: ArraySlice<UInt8>, pen: Int, at column: Int, width: Int, columns: Int) {
        if keys.count < columns { keys += repeatElement(0, count: columns - keys.count) }
        for k in column..<min(columns, column + width) {
            if keys[k] != 0 && Self.isCluster(keys[k]) { clusters[k] = nil }
            keys[k] = 0
        }
        // A wide cluster half covered loses its other half (xterm; tmux clears it).
        if column > 0, keys[column - 1] != 0, Self.isCluster(keys[column - 1]), let left = clusters[column - 1], left.width > 1 {
            keys[column - 1] = 0
            clusters[column - 1] = nil
            complete = false
        }
        keys[column] = key
        if key == 0 {
            complete = false
        } else if Self.isCluster(key) {
            clusters[column] = (Array(cluster), width, pen)
        }
    }

    /// `count` one-cell clusters of printable ASCII, `bytes[start...]`, drawn from `column` in pen `pen`.
    mutating func recordText(_ bytes: ByteStore, start: Int, count: Int, column: Int, pen: Int) {
        if pen < 0 { complete = false }
        // Columns past the end count as unknown: grow only as far as written.
        if keys.count < column + count { keys += repeatElement(0, count: column + count - keys.count) }
        if !clusters.isEmpty || (column > 0 && keys[column - 1] != 0 && Self.isCluster(keys[column - 1])) {
            // Rare: text over wide clusters. Cell by cell, so their halves are forgotten.
            for i in 0..<count {
                let b = bytes[start + i]
                record(Self.key(byte: b, pen: pen), [b], pen: pen, at: column + i, width: 1, columns: keys.count)
            }
            return
        }
        keys.withUnsafeMutableBufferPointer { row in
            for i in 0..<count { row[column + i] = Self.key(byte: bytes[start + i], pen: pen) }
        }
    }

    /// Draws every cell recorded again, in the pen it was recorded with, leaving the cells between
    /// them as they are. The cursor must be at column 0 of the row; it ends after the rightmost
    /// cell drawn, at that column (`columns`: pending wrap, when the last cell reached the margin).
    /// - Returns: the column the cursor is left in.
    func redraw(pens: inout PenBook, penIsUnknown: Bool, into out: inout [UInt8]) -> Int {
        var at = 0
        for c in 0..<keys.count where keys[c] != 0 {
            let key = keys[c]
            let pen: Int, width: Int
            if Self.isCluster(key) {
                guard let cluster = clusters[c] else { continue }
                pen = cluster.pen
                width = cluster.width
            } else {
                pen = Int(key >> 40)
                width = 1
            }
            ControlSequence.append(&out, c - at, final: ControlSequence.cuf)
            pens.set(pens[pen], terminalPenIsUnknown: penIsUnknown, into: &out)
            if let cluster = clusters[c], Self.isCluster(key) {
                out.append(contentsOf: cluster.bytes)
            } else {
                out.append(UInt8(truncatingIfNeeded: key))
            }
            at = c + width
        }
        return at
    }

    /// The cluster recorded at `column` (where it starts; a negative column counts back from the
    /// end of the row before, `previousColumns`): its bytes, width and pen number; nil for a blank
    /// cell, the right half of a wide cluster, or a cell not known.
    func cell(at column: Int) -> (bytes: [UInt8], width: Int, pen: Int)? {
        if column < 0 {
            guard let previous = previousRow else { return nil }
            return Self.cell(at: previous.columns + column, keys: previous.keys, clusters: previous.clusters)
        }
        return Self.cell(at: column, keys: keys, clusters: clusters)
    }

    /// How many cells of the row before this one are known (`cell(at:)` with a negative column).
    var previousColumns: Int { previousRow?.columns ?? 0 }

    /// Whether kitty (0.26) may leave a cursor at `column` of this row one cell short of its place
    /// after a reflow: at the second column (of any row), or right after a wide cluster
    /// (`docs/terminals.md#resize-and-reflow`).
    func mayLeaveCursorShort(at column: Int) -> Bool {
        column == 1 || (column - 2 >= -previousColumns && cell(at: column - 2)?.width == 2)
    }

    private static func cell(at column: Int, keys: [UInt64], clusters: [Int: (bytes: [UInt8], width: Int, pen: Int)])
        -> (bytes: [UInt8], width: Int, pen: Int)? {
        guard column >= 0, column < keys.count, keys[column] != 0 else { return nil }
        let key = keys[column]
        if isCluster(key) { return clusters[column] }
        return ([UInt8(truncatingIfNeeded: key)], 1, Int(key >> 40))
    }

    typealias Reflow = TerminalReflow

    /// The places of a line's clusters by old column, and the cursor's (`reflowed`).
    typealias Layout = (places: [Int: (row: Int, column: Int)], cursor: (row: Int, column: Int))

    /// Where a terminal that reflows as `reflow` put the cells of this row's columns before `end`
    /// at the new width `columns`, when every cell of the logical line before `end` is known: this
    /// row whole, and the wide clusters and early wraps of the rows before it (`earlierWide`,
    /// `earlierGaps`). Blank cells on this row count one each.
    /// - Returns: the place of each cluster by its old column (none for a wide cluster cut in
    ///   two; as kitty cuts the line, the row before's too, by negative column, where known), and the cursor's — rows counted from the line's first; the cursor's column is
    ///   `columns` in pending wrap. Nil when the line is not known so far or has text at or after
    ///   `end` on this row.
    func reflowed(upTo end: Int, columns: Int, as reflow: Reflow = .wrapsWide) -> Layout? {
        guard complete, !movedBack, columns > 1, extent <= end, let start = lineStart, let earlier = earlierWide else { return nil }
        var places: [Int: (row: Int, column: Int)] = [:]
        // The cursor in `0...columns` (`columns`: pending wrap) after `offset` cells of the line.
        var row = 0, column = 0
        func advance(narrow n: Int) {
            guard n > 0 else { return }
            if column == columns { row += 1; column = 0 }
            let total = column + n
            row += (total - 1) / columns
            column = (total - 1) % columns + 1
        }
        func width(at c: Int) -> Int? {
            guard c < keys.count, keys[c] != 0, Self.isCluster(keys[c]) else { return 1 }
            return clusters[c]?.width
        }
        switch reflow {
        case .wrapsWide:
            var offset = 0
            for w in earlier {
                advance(narrow: w - offset)
                if column + 2 > columns { row += 1; column = 0 }
                column += 2
                offset = w + 2
            }
            advance(narrow: start - offset)
            var c = 0
            while c < end {
                guard let width = width(at: c), width <= columns else { return nil }
                if column + width > columns { row += 1; column = 0 }
                places[c] = (row, column)
                column += width
                c += width
            }
        case .cutsCells:
            // The cells earlier wraps left blank stay in the line as cells.
            let start = start + earlierGaps.count
            // The row before, where known: its cells by negative column.
            var c = -previousColumns
            while c < end {
                guard let width = c < 0 ? cell(at: c)?.width ?? 1 : width(at: c) else { return nil }
                let o = start + c
                if o % columns + width <= columns { places[c] = (o / columns, o % columns) }
                c += width
            }
            advance(narrow: start + end)
        }
        return (places, (row, column))
    }

    /// The column after the rightmost cell recorded (0 for none).
    var extent: Int {
        guard let last = keys.lastIndex(where: { $0 != 0 }) else { return 0 }
        return last + (Self.isCluster(keys[last]) ? clusters[last]?.width ?? 1 : 1)
    }

    /// Forgets what `columns` show (they were drawn again in a way not recorded).
    mutating func forget(_ columns: Range<Int>) {
        for c in columns where c < keys.count && keys[c] != 0 {
            keys[c] = 0
            clusters[c] = nil
            complete = false
        }
    }

    /// Whether `key` names a cluster kept in `clusters` (not one ASCII byte).
    private static func isCluster(_ key: UInt64) -> Bool { key & (1 << 39) == 0 }

    /// 0 (never equal to what the row shows) once there were too many pens to number.
    static func key(byte: UInt8, pen: Int) -> UInt64 { pen < 0 ? 0 : UInt64(pen) << 40 | 1 << 39 | UInt64(byte) }

    static func key(_ bytes: ArraySlice<UInt8>, pen: Int) -> UInt64 {
        if pen < 0 { return 0 }
        if bytes.count == 1, let b = bytes.first { return key(byte: b, pen: pen) }
        var hasher = Hasher()
        hasher.combine(pen)
        for b in bytes { hasher.combine(b) }
        return UInt64(bitPattern: Int64(hasher.finalize())) & ~(1 << 39) | 1
    }
}

/// How a terminal that reflows its rows lays a logical line out again at a new width
/// (`docs/terminals.md#resize-and-reflow`).
package enum TerminalReflow: CaseIterable, Sendable {
    /// As writing wraps it (tmux 3.3a): a wide cluster that does not fit before the margin goes
    /// whole to the next row, leaving the last column blank; such a blank cell from an earlier
    /// wrap is dropped when the rows are joined.
    case wrapsWide
    /// Cut into rows of `columns` cells (kitty): a wide cluster's halves may end up on two
    /// rows, and a blank cell an earlier wrap left stays a cell of the line.
    case cutsCells
}
