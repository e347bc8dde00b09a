// Frames a terminal read after its reflow (kitty): finding which, and drawing again what they
// drew in the wrong place. See FadeRenderer+Echo.swift for the resize they follow.

extension FadeRenderer {
    /// Most frames `recentFrames` keeps: how many a terminal may still hold unread when it resizes.
    static let framesKept = 3

    /// A way the last `late` frames before a resize were read after the terminal's reflow.
    private struct LateStory {
        var late: Int
        /// The row they drew on, counted as `RowRecord.reflowed` counts rows.
        var row: Int
        /// The columns of that row they drew.
        var drawn: Range<Int>
        /// The first column of the old row they drew a cell of.
        var from: Int
    }

    /// kitty (0.26) parses what it has read on its own schedule, so frames written before a resize
    /// can be read after its reflow: their backspaces stop at the first column of the row the
    /// reflow has just begun (no reverse wrap before 0.43), and their cells are drawn from there
    /// (`docs/terminals.md#resize-and-reflow`). This plays the last one, two or three frames
    /// (`Relocation.inFlight`) from where the reflow put the cursor before them; where such a
    /// story ends at the `reported` column, with its frames on the cursor's row, every cell they
    /// drew over is drawn again at its place, settled, with every cell still fading and those the
    /// frames drew settled; what they drew past the text is erased (ECH, in the default colours);
    /// the cursor is put after the text. Only where the environment names kitty, and the row
    /// record lays the whole line out (`RowRecord.reflowed`, as kitty cuts it).
    /// - Returns: false, writing nothing, where no story ends at the column, or some cell drawn
    ///   over cannot be drawn again (a wide cluster the reflow cut in two, a cell not recorded):
    ///   the caller leaves the cells as drawn.
    mutating func mendLateFrames(_ r: Relocation, reported now: Int, into out: inout [UInt8]) -> Bool {
        guard configuration.reflow == .cutsCells, let lineOffset = r.lineOffset, !row.movedBack,
              let last = r.inFlight.last, last.lineOffsetBefore + last.advance == lineOffset,
              let layout = row.reflowed(upTo: r.anchor, columns: r.columns, as: .cutsCells),
              layout.cursor.column < r.columns else { return false }
        let stories = lateStories(r, layout: layout, rowStart: lineOffset - r.anchor).filter { $0.drawn.upperBound == now }
        guard let row = stories.first?.row, stories.allSatisfy({ $0.row == row }), row == layout.cursor.row else { return false }
        let drawn = stories.map(\.drawn).reduce(stories[0].drawn) { min($0.lowerBound, $1.lowerBound)..<max($0.upperBound, $1.upperBound) }
        let end = layout.cursor.column

        // The cells to draw again, by old column: those still fading, every one the late frames
        // drew (in a fade step, or at the wrong place), and those whose place is in the columns
        // drawn over.
        var columns = Set(live.cells.map(\.column))
        let from = stories.map(\.from).min() ?? r.anchor
        columns.formUnion((max(-self.row.previousColumns, from)..<r.anchor).filter { self.row.cell(at: $0) != nil })
        for (column, place) in layout.places where place.row == row && drawn.contains(place.column) { columns.insert(column) }
        var cells: [(place: (row: Int, column: Int), cell: (bytes: [UInt8], width: Int, pen: Int))] = []
        for column in columns {
            guard let place = layout.places[column], row - place.row < (ahead.rows ?? 1),
                  let cell = self.row.cell(at: column) else { return false }
            cells.append((place, cell))
        }
        cells.sort { ($0.place.row, $0.place.column) < ($1.place.row, $1.place.column) }
        // Every column drawn over is drawn again, or erased past the text.
        for x in drawn where x < end {
            guard cells.contains(where: { $0.place.row == row && $0.place.column <= x && x < $0.place.column + $0.cell.width })
            else { return false }
        }

        framing.begin(at: out.count)
        pens.closeLink(into: &out)
        var at = row
        for (place, cell) in cells {
            if place.row < at { ControlSequence.append(&out, at - place.row, final: ControlSequence.cuu) }
            if place.row > at { ControlSequence.append(&out, place.row - at, final: ControlSequence.cud) }
            at = place.row
            ControlSequence.append(&out, place.column + 1, final: ControlSequence.cha, always: true)
            pens.set(pens[cell.pen], terminalPenIsUnknown: model.penIsUnknown, into: &out)
            out.append(contentsOf: cell.bytes)
        }
        if at < row { ControlSequence.append(&out, row - at, final: ControlSequence.cud) }
        ControlSequence.append(&out, end + 1, final: ControlSequence.cha, always: true)
        if drawn.upperBound > end {
            // ECH, not EL, which would reach the row's last cell, where kitty keeps its wrap.
            pens.reset(terminalPenIsUnknown: model.penIsUnknown, into: &out)
            ControlSequence.append(&out, drawn.upperBound - end, final: ControlSequence.ech)
        }
        restorePen(into: &out)
        framing.movedCursor = true
        framing.end(into: &out)
        live.removeAll()
        model.columns = r.columns
        model.cursorFound(column: end, lineOffset: lineOffset)
        return true
    }

    /// For each count of late frames (the last one, two, …, of `r.inFlight`), where they leave the
    /// cursor when read after the reflow, as kitty reads them. From where the reflow put the cursor
    /// before the first (after the cell before it; on the last cell, not after it, at a row's end),
    /// a run of backspaces that stays on the row lands where it would have in time, and its cells
    /// with it; one that stops at the row's first column has its cells drawn from there, and every
    /// later run moves from where they left the cursor. Only stories in which a backspace stopped
    /// (else the frames land as if read in time) and no cell was drawn past the row after a stop
    /// (it would be on a row not known).
    private func lateStories(_ r: Relocation, layout: RowRecord.Layout, rowStart: Int) -> [LateStory] {
        /// The cursor after the cells before line offset `offset` (on the old row), as the reflow lays
        /// them out (`columns`: after the row's last cell).
        func place(_ offset: Int) -> (row: Int, column: Int)? {
            let column = offset - rowStart
            guard column >= -row.previousColumns, column <= r.anchor else { return nil }
            if column == r.anchor { return layout.cursor }
            for start in stride(from: column - 1, through: column - 2, by: -1) {
                if let cell = row.cell(at: start), start + cell.width == column, let place = layout.places[start] {
                    return (place.row, place.column + cell.width)
                }
            }
            return column == 0 ? layout.places[0] : nil
        }
        var stories: [LateStory] = []
        for late in 1...r.inFlight.count {
            let frames = r.inFlight.suffix(late)
            guard let first = frames.first, var at = place(first.lineOffsetBefore) else { continue }
            if at.column == r.columns { at.column -= 1 }
            var offset = first.lineOffsetBefore
            var drawn: Range<Int>?
            var fits = true
            var from = r.anchor
            for run in frames.flatMap(\.runs) {
                from = min(from, offset - run.backspaces - rowStart)
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
                if at.column >= r.columns { fits = false; break }
            }
            guard fits, let drawn, drawn.upperBound == at.column else { continue }
            stories.append(LateStory(late: late, row: at.row, drawn: drawn, from: from))
        }
        return stories
    }
}
