// Frames a terminal read after its reflow (kitty): finding which, and drawing again what they
// drew in the wrong place. See FadeRenderer+Echo.swift for the resize they follow.

extension FadeRenderer {
    /// Most frames `recentFrames` keeps: how many a terminal may still hold unread when it resizes.
    static let framesKept = 3

    /// A line as kitty lays it out at the new width, and the frames that drew on it last.
    private struct LateLine {
        /// The record of its last row (the cursor's when the frames were written).
        var record: RowRecord
        /// `record.reflowed(upTo: end, columns: columns, as: .cutsCells)`.
        var layout: RowRecord.Layout
        /// Where the row starts in the line, and where the text on it ends (its column).
        var rowStart: Int
        var end: Int
        var columns: Int
        var frames: [Frame]
    }

    /// A way the last `late` frames before a resize were read after the terminal's reflow.
    private struct LateStory {
        var late: Int
        /// The row they drew on, counted as `RowRecord.reflowed` counts rows.
        var row: Int
        /// The columns of that row they drew, and where the cursor ends (`drawn.upperBound`).
        var drawn: Range<Int>
        /// The first column of the old row they drew a cell of (negative: the row before).
        var from: Int
    }

    /// kitty (0.26) parses what it has read on its own schedule, so frames written before a resize
    /// can be read after its reflow: their backspaces stop at the first column of the row the
    /// reflow has just begun (no reverse wrap before 0.43), and their cells are drawn from there
    /// (`docs/terminals.md#resize-and-reflow`). This plays the last one, two or three frames
    /// (`Relocation.inFlight`) from where the reflow put the cursor before them (`lateStories`);
    /// where such a story ends at the `reported` column, with its frames on the cursor's row,
    /// every cell they touched or drew over and every cell still fading is drawn again at its
    /// place, settled, what they drew past the text is erased (ECH, in the default colours), and
    /// the cursor is put after the text. Only where the environment names kitty, and the row record
    /// lays the whole line out (`RowRecord.reflowed`, as kitty cuts it).
    /// - Returns: false, writing nothing, where no story ends at the column, or some cell drawn
    ///   over cannot be drawn again (a wide cluster the reflow cut in two, a cell not recorded):
    ///   the caller leaves the cells as drawn.
    mutating func mendLateFrames(_ r: Relocation, reported now: Int, into out: inout [UInt8]) -> Bool {
        guard configuration.reflow == .cutsCells, let lineOffset = r.lineOffset, !row.movedBack,
              let last = r.inFlight.last, last.lineOffsetBefore + last.advance == lineOffset,
              let layout = row.reflowed(upTo: r.anchor, columns: r.columns, as: .cutsCells),
              layout.cursor.column < r.columns else { return false }
        let line = LateLine(record: row, layout: layout, rowStart: lineOffset - r.anchor, end: r.anchor, columns: r.columns,
                            frames: r.inFlight)
        let stories = Self.lateStories(line).filter { $0.drawn.upperBound == now }
        guard let mended = mend(line, stories, also: live.cells.map(\.column)), mended.row == layout.cursor.row,
              mended.cells.allSatisfy({ mended.row - $0.place.row < (ahead.rows ?? 1) }) else { return false }
        framing.begin(at: out.count)
        pens.closeLink(into: &out)
        draw(mended.cells, up: { mended.row - $0 }, into: &out)
        ControlSequence.append(&out, layout.cursor.column + 1, final: ControlSequence.cha, always: true)
        if mended.drawn.upperBound > layout.cursor.column {
            // ECH, not EL, which would reach the row's last cell, where kitty keeps its wrap.
            pens.reset(terminalPenIsUnknown: model.penIsUnknown, into: &out)
            ControlSequence.append(&out, mended.drawn.upperBound - layout.cursor.column, final: ControlSequence.ech)
        }
        restorePen(into: &out)
        framing.movedCursor = true
        framing.end(into: &out)
        live.removeAll()
        model.columns = r.columns
        model.cursorFound(column: layout.cursor.column, lineOffset: lineOffset)
        return true
    }

    /// The line before the cursor's (`Relocation.lineEnd`), when frames that ended it, its line feed
    /// included, may have been read after kitty's reflow: the cursor's column after the line feed
    /// cannot tell, so every way of reading them late (`lateStories`) is mended — each cell they
    /// touched or drew over drawn again at its place on the rows above, settled, and what they drew
    /// past the line's end erased. Drawing a cell again where it already is changes nothing, so
    /// this is right whether or not they were read late. The cursor, at column `now` of the first
    /// row of its own line (`rowsDown` rows below that line's first), comes back there.
    /// - Returns: false, writing nothing, where some story drew past its row, or a cell cannot be
    ///   drawn again or is above the screen.
    mutating func mendLineEnd(_ r: Relocation, reported now: Int, rowsDown: Int, into out: inout [UInt8]) -> Bool {
        guard configuration.reflow == .cutsCells, let end = r.lineEnd, let start = end.record.lineStart,
              !end.record.movedBack else { return false }
        let column = end.lineOffset - start
        guard let layout = end.record.reflowed(upTo: column, columns: r.columns, as: .cutsCells) else { return false }
        let line = LateLine(record: end.record, layout: layout, rowStart: start, end: column, columns: r.columns, frames: end.frames)
        let stories = Self.lateStories(line)
        guard !stories.isEmpty else { return true }  // no way of reading them late draws wrongly
        guard let mended = mend(line, stories, also: []), mended.row == layout.cursor.row else { return false }
        // Rows up from the cursor: to its line's first row, one more to the line before's last.
        let up = { (row: Int) in rowsDown + 1 + layout.cursor.row - row }
        guard mended.cells.allSatisfy({ up($0.place.row) < (ahead.rows ?? 1) }) else { return false }
        framing.begin(at: out.count)
        pens.closeLink(into: &out)
        draw(mended.cells, up: up, into: &out)
        if mended.drawn.upperBound > layout.cursor.column && layout.cursor.column < r.columns {
            ControlSequence.append(&out, up(layout.cursor.row), final: ControlSequence.cuu)
            ControlSequence.append(&out, layout.cursor.column + 1, final: ControlSequence.cha, always: true)
            pens.reset(terminalPenIsUnknown: model.penIsUnknown, into: &out)
            ControlSequence.append(&out, mended.drawn.upperBound - layout.cursor.column, final: ControlSequence.ech)
            ControlSequence.append(&out, up(layout.cursor.row), final: ControlSequence.cud)
        }
        ControlSequence.append(&out, now + 1, final: ControlSequence.cha, always: true)
        restorePen(into: &out)
        framing.movedCursor = true
        framing.end(into: &out)
        return true
    }

    /// What `stories` drew wrongly on `line`: the row they drew on, the columns drawn over, and the
    /// cells to draw again at their places — every cell from the first they touched to the text's
    /// end, those in `also`, and those placed in the columns drawn over. Nil where the stories
    /// drew on different rows or a column drawn over before the text's end cannot be drawn again.
    private func mend(_ line: LateLine, _ stories: [LateStory], also: [Int])
        -> (row: Int, drawn: Range<Int>, cells: [(place: (row: Int, column: Int), cell: (bytes: [UInt8], width: Int, pen: Int))])? {
        guard let row = stories.first?.row, stories.allSatisfy({ $0.row == row }) else { return nil }
        let drawn = stories.map(\.drawn).reduce(stories[0].drawn) { min($0.lowerBound, $1.lowerBound)..<max($0.upperBound, $1.upperBound) }
        let record = line.record, layout = line.layout
        var columns = Set(also)
        let from = max(-record.previousColumns, stories.map(\.from).min() ?? line.end)
        if from < line.end { columns.formUnion((from..<line.end).filter { record.cell(at: $0) != nil }) }
        for (column, place) in layout.places where place.row == row && drawn.contains(place.column) { columns.insert(column) }
        var cells: [(place: (row: Int, column: Int), cell: (bytes: [UInt8], width: Int, pen: Int))] = []
        for column in columns {
            guard let place = layout.places[column], let cell = record.cell(at: column) else { return nil }
            cells.append((place, cell))
        }
        cells.sort { ($0.place.row, $0.place.column) < ($1.place.row, $1.place.column) }
        // Every column drawn over before the text's end is drawn again (past it: erased).
        let textEnd = layout.cursor.row == row ? layout.cursor.column : line.columns
        for x in drawn where x < textEnd {
            guard cells.contains(where: { $0.place.row == row && $0.place.column <= x && x < $0.place.column + $0.cell.width })
            else { return nil }
        }
        return (row, drawn, cells)
    }

    /// Draws `cells` settled at their places, `up(row)` rows above the cursor's row (CUU, CHA), and
    /// comes back down to that row.
    private mutating func draw(_ cells: [(place: (row: Int, column: Int), cell: (bytes: [UInt8], width: Int, pen: Int))],
                               up: (Int) -> Int, into out: inout [UInt8]) {
        var at = 0  // rows up
        for (place, cell) in cells {
            let target = up(place.row)
            if target > at { ControlSequence.append(&out, target - at, final: ControlSequence.cuu) }
            if target < at { ControlSequence.append(&out, at - target, final: ControlSequence.cud) }
            at = target
            ControlSequence.append(&out, place.column + 1, final: ControlSequence.cha, always: true)
            pens.set(pens[cell.pen], terminalPenIsUnknown: model.penIsUnknown, into: &out)
            out.append(contentsOf: cell.bytes)
        }
        if at > 0 { ControlSequence.append(&out, at, final: ControlSequence.cud) }
    }

    /// For each count of late frames (the last one, two, …, of `line.frames`), where they leave the
    /// cursor when read after the reflow, as kitty reads them. From where the reflow put the cursor
    /// before the first (after the cell before it; on the last cell, not after it, at a row's end),
    /// a run of backspaces that stays on the row lands where it would have in time, and its cells
    /// with it; one that stops at the row's first column has its cells drawn from there, and every
    /// later run moves from where they left the cursor. Only stories in which a backspace stopped
    /// (else the frames land as if read in time) and no cell was drawn past the row after a stop
    /// (it would be on a row not known).
    private static func lateStories(_ line: LateLine) -> [LateStory] {
        let record = line.record, layout = line.layout
        /// The cursor after the cells before line offset `offset` (on the old row), as the reflow lays
        /// them out (`columns`: after the row's last cell).
        func place(_ offset: Int) -> (row: Int, column: Int)? {
            let column = offset - line.rowStart
            guard column >= -record.previousColumns, column <= line.end else { return nil }
            if column == line.end { return layout.cursor }
            for start in stride(from: column - 1, through: column - 2, by: -1) {
                if let cell = record.cell(at: start), start + cell.width == column, let place = layout.places[start] {
                    return (place.row, place.column + cell.width)
                }
            }
            return column == 0 ? layout.places[0] : nil
        }
        var stories: [LateStory] = []
        for late in 1...max(1, line.frames.count) where late <= line.frames.count {
            let frames = line.frames.suffix(late)
            guard let first = frames.first, var at = place(first.lineOffsetBefore) else { continue }
            if at.column == line.columns { at.column -= 1 }
            var offset = first.lineOffsetBefore
            var drawn: Range<Int>?
            var fits = true
            var from = line.end
            for run in frames.flatMap(\.runs) {
                from = min(from, offset - run.backspaces - line.rowStart)
                offset += run.written - run.backspaces
                if drawn == nil && run.backspaces <= at.column {
                    // Lands as in time: the cursor goes where the line puts it.
                    guard let next = place(offset) else { fits = false; break }
                    at = next
                    continue
                }
                let start = max(0, at.column - run.backspaces)
                at.column = start + run.written
                drawn = min(drawn?.lowerBound ?? start, start)..<max(drawn?.upperBound ?? at.column, at.column)
                if at.column >= line.columns { fits = false; break }
            }
            guard fits, let drawn, drawn.upperBound == at.column else { continue }
            stories.append(LateStory(late: late, row: at.row, drawn: drawn, from: from))
        }
        return stories
    }
}
