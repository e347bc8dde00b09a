/// How a snapshot (the whole text so far) was shown.
public enum SnapshotUpdate: Equatable, Sendable {
    /// The same text as before: nothing written.
    case unchanged
    /// The new text extends the old one: only what was added types in.
    case extended
    /// Text was replaced and typing restarted in place, at UTF-8 byte `offset` of the new text
    /// (where the two differ, at a grapheme cluster boundary): the cursor moved back up within
    /// rows this typewriter wrote, the rest of the screen below was erased, and the new text from
    /// there types in (docs/design.md#replaced-text).
    case rewritten(offset: Int)
    /// Text was replaced where it cannot be rewritten (scrolled off, or the rows between hold
    /// something of uncertain geometry, or the output is not a terminal that takes cursor
    /// movement): history stays as it is, and the new text from the start of the line where the
    /// change begins (UTF-8 byte `lineStart` of the new text) is written again below it.
    case appendedBelow(lineStart: Int)
}

/// Turns a stream of snapshots (each one the whole response so far: docs/design.md#snapshots-and-deltas) into the bytes to
/// type: the growth of each, or — when text was replaced — the moves that restart it where it
/// differs, if the screen still shows that place with certain geometry.
///
/// Geometry is simulated from the text itself: grapheme clusters of certain cell width (UAX #29,
/// UAX #11), LF returning to column 0 (a tty's ONLCR), wrapping at the right margin, a wide
/// character that does not fit moving to the next row. Anything else between the change and the
/// cursor (escape sequences, other controls, clusters of uncertain width) makes it uncertain.
/// The typewriter's first row is assumed to start at column 0.
struct SnapshotStage: Sendable {
    /// The text shown so far (the last snapshot), UTF-8.
    private(set) var text: [UInt8] = []
    /// Text before this byte offset is not laid out on screen as simulated (it was written again
    /// below after an earlier replacement), so no rewrite reaches back before it.
    private var floor = 0
    /// The terminal width in cells when the first text was written; a resize since makes every
    /// earlier row uncertain (terminals reflow differently).
    private var startColumns: Int??
    /// Rows this typewriter wrote below the row the text now ends on (a replacement shortened the
    /// text): the rows above the end that are still certainly on screen are `screen rows − 1 −
    /// this`, wherever on the screen the typewriter began (scrolling happened at the lowest row
    /// reached, not at the end). Counted low when widths are uncertain, so never too few.
    private var rowsBelowEnd = 0

    /// Where the terminal is, as far as the snapshot stage needs to know.
    struct Terminal {
        /// Whether cursor movement may be written (an animated terminal that takes escape sequences).
        var movesCursor: Bool
        /// Width and height in cells, nil when unknown.
        var columns: Int?
        var rows: Int?
    }

    /// The bytes that show `snapshot` and how it was shown.
    /// - Returns: `needsSettling` is true when everything received so far must be written and
    ///   settled before `bytes` (they move the cursor relative to the end of the old text).
    mutating func update(to snapshot: [UInt8], terminal: Terminal) -> (bytes: [UInt8], update: SnapshotUpdate, needsSettling: Bool) {
        if startColumns == nil { startColumns = .some(terminal.columns) }
        if snapshot == text { return ([], .unchanged, false) }
        if snapshot.starts(with: text) {
            let added = Array(snapshot[text.count...])
            let lineStart = Self.lineStart(snapshot, before: text.count)
            var down = added.lazy.filter { $0 == 0x0A }.count  // at least one row per LF
            if let columns = terminal.columns,
               let end = Self.cursorRow(snapshot, from: lineStart, to: snapshot.count, columns: columns),
               let start = Self.cursorRow(snapshot, from: lineStart, to: text.count, columns: columns) {
                down = end - start
            }
            rowsBelowEnd = max(0, rowsBelowEnd - down)
            text = snapshot
            return (added, .extended, false)
        }
        let offset = Self.commonClusterPrefix(text, snapshot)
        let oldLineStart = Self.lineStart(text, before: offset)
        if terminal.movesCursor, let columns = terminal.columns, let rows = terminal.rows, startColumns == .some(columns),
           oldLineStart >= floor,
           let (moves, up, targetRow) = Self.moves(text, from: oldLineStart, to: offset, columns: columns, rows: rows - rowsBelowEnd,
                                                   newTextStartsWithLF: snapshot.count == offset || snapshot[offset] == 0x0A) {
            var tailRows = snapshot[offset...].lazy.filter { $0 == 0x0A }.count
            if let end = Self.cursorRow(snapshot, from: oldLineStart, to: snapshot.count, columns: columns) { tailRows = end - targetRow }
            rowsBelowEnd = max(0, rowsBelowEnd + up - tailRows)
            text = snapshot
            return (moves + snapshot[offset...], .rewritten(offset: offset), true)
        }
        let lineStart = Self.lineStart(snapshot, before: offset)
        var bytes: [UInt8] = text.last == 0x0A || text.isEmpty ? [] : [0x0A]
        bytes += snapshot[lineStart...]
        var down = snapshot[lineStart...].lazy.filter { $0 == 0x0A }.count
        if let columns = terminal.columns, let end = Self.cursorRow(snapshot, from: lineStart, to: snapshot.count, columns: columns) {
            down = end
        }
        down += bytes.count - (snapshot.count - lineStart)  // the LF written first
        rowsBelowEnd = max(0, rowsBelowEnd - down)
        text = snapshot
        floor = lineStart
        return (bytes, .appendedBelow(lineStart: lineStart), false)
    }

    /// The row (0 = the row of `lineStart`) the cursor stands on after `text[lineStart..<end]` is
    /// written from column 0; a cursor in pending wrap is still on the row it filled. Nil when a
    /// cluster's width is uncertain or something other than text and LF is in the way.
    static func cursorRow(_ text: [UInt8], from lineStart: Int, to end: Int, columns: Int) -> Int? {
        guard columns > 0, lineStart <= end, end <= text.count else { return nil }
        return follow(text[lineStart..<end], columns: columns, target: nil)?.end.row
    }

    /// Where the cursor stands: its row (0 = the row the text starts on), its column (`columns`
    /// itself in pending wrap) and whether it is in pending wrap.
    struct Position { var row: Int, column: Int, pendingWrap: Bool }

    /// Follows `text` written from column 0 of a row with the one `TerminalModel` (the tokens of
    /// the one `Tokenizer`): LF returns to column 0 of the next row (ONLCR), a cluster that does not
    /// fit wraps, and writing the last column leaves the cursor in pending wrap on the row it filled.
    /// Returns where the cursor ends and where it stood before the byte at offset `target` (counted
    /// from the start of `text`) was written; nil when anything but printable text of certain width
    /// and LF is in the way.
    private static func follow(_ text: ArraySlice<UInt8>, columns: Int, target: Int?) -> (end: Position, atTarget: Position?)? {
        var store = ByteStore()
        store.append(contentsOf: text)
        var tokenizer = Tokenizer()
        var queue = TokenQueue()
        tokenizer.finish(store, into: &queue)
        var model = TerminalModel(columns: columns, countsRows: true)
        var atTarget: Position?
        func position() -> Position? {
            guard let row = model.row, let column = model.column else { return nil }
            return Position(row: row, column: column, pendingWrap: model.pendingWrap)
        }
        while !queue.isEmpty {
            let token = queue.removeFirst()
            switch token {
            case .text(let start, let count):
                if let target, target >= start, target < start + count {
                    model.drawText(count: target - start)
                    atTarget = position()
                    model.drawText(count: count - (target - start))
                } else {
                    model.drawText(count: count)
                }
            case .cluster(let start, _, let width, let certain):
                guard certain, width > 0, width <= columns else { return nil }
                if start == target { atTarget = position() }
                model.draw(width: width)
            case .control(let start, 0x0A):
                if start == target { atTarget = position() }
                model.control(0x0A)
            default:
                return nil
            }
        }
        guard let end = position() else { return nil }
        return (end, atTarget)
    }

    /// The byte offset where `a` and `b` first differ, moved back to the start of the grapheme
    /// cluster it falls in (UAX #29, as Swift's `Character`).
    static func commonClusterPrefix(_ a: [UInt8], _ b: [UInt8]) -> Int {
        var offset = 0
        var ia = String(decoding: a, as: UTF8.self).makeIterator()
        var ib = String(decoding: b, as: UTF8.self).makeIterator()
        while let ca = ia.next(), let cb = ib.next(), ca == cb {
            let length = ca.utf8.count
            // A cluster that continues in one text but not the other differs (e + U+0301 vs e).
            guard offset + length <= a.count, offset + length <= b.count,
                  a[offset..<(offset + length)].elementsEqual(b[offset..<(offset + length)]) else { break }
            offset += length
        }
        return offset
    }

    /// Offset just after the last LF before `offset` (0 when none).
    static func lineStart(_ text: [UInt8], before offset: Int) -> Int {
        var i = min(offset, text.count)
        while i > 0 && text[i - 1] != 0x0A { i -= 1 }
        return i
    }

    /// The bytes that move the cursor from the end of `text` (where it stands once everything is
    /// written) to the cell where the cluster at `target` was drawn, and erase from there to the
    /// end of the screen: CR, CUU, CHA, ED (ECMA-48); with the rows moved up and the target's row
    /// (0 = the row of `lineStart`). Nil when the way there is uncertain or more than `rows − 1`
    /// rows up (it might have scrolled off: never into scrollback).
    /// `newTextStartsWithLF` is also true when the new text ends at `target`: from pending wrap
    /// the cursor can be put back on the next row only for a printable character.
    static func moves(_ text: [UInt8], from lineStart: Int, to target: Int, columns: Int, rows: Int,
                      newTextStartsWithLF: Bool = false) -> (bytes: [UInt8], up: Int, targetRow: Int)? {
        guard columns > 0, rows > 0, lineStart <= target, target <= text.count else { return nil }
        guard let walk = follow(text[lineStart...], columns: columns, target: target - lineStart) else { return nil }
        var targetCell: (row: Int, column: Int)?
        if let at = walk.atTarget {
            // Where the cursor stood before the cluster was written: the new text may fit where
            // the old one wrapped (a wide character that did not fit). From pending wrap a
            // printable character always starts the next row; an LF would not.
            if at.pendingWrap {
                if text[target] == 0x0A || newTextStartsWithLF { return nil }
                targetCell = (at.row + 1, 0)
            } else {
                targetCell = (at.row, at.column)
            }
        }
        let (row, column, pendingWrap) = (walk.end.row, walk.end.column, walk.end.pendingWrap)
        if targetCell == nil && target == text.count {
            // The change begins after the last character: where the next one is drawn.
            if pendingWrap && newTextStartsWithLF { return nil }
            targetCell = pendingWrap ? (row + 1, 0) : (row, column)
        }
        guard let cell = targetCell else { return nil }
        let up = row - cell.row
        guard up >= 0, up < rows else { return nil }
        var bytes: [UInt8] = [0x0D]
        if up > 0 { bytes += Array("\u{1B}[\(up)A".utf8) }
        if cell.column > 0 { bytes += Array("\u{1B}[\(cell.column + 1)G".utf8) }
        bytes += Array("\u{1B}[J".utf8)
        return (bytes, up, cell.row)
    }
}
