// Frames a terminal read after its reflow (kitty): describing each frame written, finding which
// were read late, and drawing again what they drew in the wrong place. See FadeRenderer+Echo.swift
// for the resize they follow.

extension FadeRenderer {
    /// Most frames `recentFrames` keeps: how many a terminal may still hold unread when it resizes.
    static let framesKept = 3

    // MARK: Describing frames

    /// Describes the frame `bytes` (`Frame`), written from `offsetBefore` in the cursor's logical
    /// line, and keeps it among `recentFrames`, or forgets them all when it cannot be described. A
    /// frame with line feeds ends the line before: what it drew up to the first, with the frames
    /// before it, is kept among `lineEnds`, with the whole lines it wrote after it. Only where the
    /// environment names kitty, the one terminal it is used for (`mendLateFrames`, `mendLineEnd`);
    /// a call that wrote nothing changes nothing.
    mutating func noteFrame(_ bytes: ArraySlice<UInt8>, from offsetBefore: Int?) {
        guard configuration.reflow == .cutsCells, !bytes.isEmpty else { return }
        defer { lineFeedRecord = nil }
        lineEnds = lineEnds.compactMap { end in
            var end = end
            end.framesSince += 1
            return end.framesSince < Self.framesKept ? end : nil
        }
        framesWrittenAt = frameTime
        guard let before = offsetBefore, let after = model.lineOffset, let runs = Self.runs(of: bytes) else {
            // Other motion (CR, CUU, a wide cluster on a whole line…) or a restyle above: the line
            // before may not be right above any more, nor its record right (frames are read in order).
            recentFrames.removeAll()
            lineEnds.removeAll()
            return
        }
        let chained = recentFrames.last.map { $0.lineOffsetBefore + $0.advance == before } ?? true
        let frame = Frame(lineOffsetBefore: before, runs: runs.beforeLineFeed)
        if let next = runs.afterLineFeed {
            // The line ends in this frame: its frames go with its row record.
            if let feed = lineFeedRecord, feed.lineOffset == before + frame.advance {
                lineEnds.append(LineEnd(record: feed.record, lineOffset: feed.lineOffset,
                                        frames: (chained ? recentFrames : []) + [frame], linesAfter: runs.lines))
            } else {
                lineEnds.removeAll()
            }
            let begun = Frame(lineOffsetBefore: 0, runs: next)
            recentFrames = begun.advance == after ? [begun] : []
            return
        }
        guard before + frame.advance == after, chained else {
            recentFrames.removeAll()
            return
        }
        if recentFrames.count == Self.framesKept { recentFrames.removeFirst() }
        recentFrames.append(frame)
    }

    /// A frame's motion: runs before its first line feed, each whole line it wrote after that
    /// (between line feeds), and runs after its last line feed (nil: none in it).
    struct FrameRuns {
        var beforeLineFeed: [Frame.Run]
        var lines: [WholeLine] = []
        var afterLineFeed: [Frame.Run]?
    }

    /// A line a frame wrote whole, from the first column: the most cells it reached, and whether
    /// it went back (BS, CUB) on the way, which stops at a row's first column in kitty.
    struct WholeLine: Equatable {
        var cells: Int
        var goesBack: Bool

        /// The rows it takes `columns` wide (one when empty); nil where it went back on a line
        /// that wraps (where it went back to is not known).
        func rows(columns: Int) -> Int? {
            if goesBack && cells > columns { return nil }
            return max(1, (cells + columns - 1) / columns)
        }
    }

    /// `bytes` as runs of going back (BS, CUB) and then cells drawn (pens and modes set between
    /// them: SGR, `CSI ? n h/l`), the cells counted as terminals without a grapheme mode do (UAX
    /// #11, `CellWidth`), before the first line feed (LF or CR LF) and after the last, and the
    /// whole lines between them (`WholeLine`; none with a wide cluster, which can leave a row's
    /// last cell blank); nil for any other motion (CR, TAB, a cursor or other sequence), an
    /// ambiguous width, or going back past a whole line's start.
    static func runs(of bytes: ArraySlice<UInt8>) -> FrameRuns? {
        var runs: [Frame.Run] = []
        var beforeLineFeed: [Frame.Run]?
        var lines: [WholeLine] = []
        var wide = false  // a wide cluster since the last line feed
        var text: [UInt8] = []
        func flush() -> Bool {
            guard !text.isEmpty else { return true }
            var cells = 0
            for scalar in String(decoding: text, as: UTF8.self).unicodeScalars {
                if CellWidth.isAmbiguous(scalar) || scalar.value < 0x20 { return false }
                let width = CellWidth.of(scalar)
                cells += width
                if width == 2 { wide = true }
            }
            text.removeAll()
            if runs.isEmpty { runs.append(Frame.Run(backspaces: 0, written: 0)) }
            runs[runs.count - 1].written += cells
            return true
        }
        func goBack(_ n: Int) {
            if runs.last.map({ $0.written > 0 }) ?? true { runs.append(Frame.Run(backspaces: 0, written: 0)) }
            runs[runs.count - 1].backspaces += n
        }
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let byte = bytes[i]
            if byte == 0x1B {
                guard flush(), i + 1 < bytes.endIndex, bytes[i + 1] == UInt8(ascii: "[") else { return nil }
                i += 2
                let parameters = i
                while i < bytes.endIndex, !(0x40...0x7E).contains(bytes[i]) { i += 1 }
                guard i < bytes.endIndex else { return nil }
                if bytes[i] == ControlSequence.cub {
                    // CUB stops at the row's first column as kitty's BS does: a run of going back.
                    guard let n = parameters == i ? 1 : Int(String(decoding: bytes[parameters..<i], as: UTF8.self)) else { return nil }
                    goBack(n)
                } else if ![UInt8(ascii: "m"), UInt8(ascii: "h"), UInt8(ascii: "l")].contains(bytes[i]) {
                    return nil
                }
            } else if byte == 0x08 {
                guard flush() else { return nil }
                goBack(1)
            } else if byte == 0x0A || (byte == 0x0D && i + 1 < bytes.endIndex && bytes[i + 1] == 0x0A) {
                // LF, or CR LF (the CR moves only along the row the LF leaves).
                if byte == 0x0D { i += 1 }
                guard flush() else { return nil }
                if beforeLineFeed == nil {
                    beforeLineFeed = runs
                } else {
                    guard !wide else { return nil }
                    var at = 0, reached = 0
                    for run in runs {
                        at -= run.backspaces
                        guard at >= 0 else { return nil }
                        at += run.written
                        reached = max(reached, at)
                    }
                    lines.append(WholeLine(cells: reached, goesBack: runs.contains { $0.backspaces > 0 }))
                }
                runs = []
                wide = false
            } else if byte < 0x20 || byte == 0x7F {
                return nil  // CR, TAB: other motion
            } else {
                text.append(byte)
            }
            i += 1
        }
        guard flush() else { return nil }
        if let beforeLineFeed { return FrameRuns(beforeLineFeed: beforeLineFeed, lines: lines, afterLineFeed: runs) }
        return FrameRuns(beforeLineFeed: runs)
    }

    // MARK: Mending what late frames drew

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
        /// Where they leave the cursor: its row, counted as `RowRecord.reflowed` counts rows, and
        /// its column (`columns`: in pending wrap).
        var row: Int
        var column: Int
        /// The columns they drew away from their cells' places, by row.
        var drawn: [Int: Range<Int>]
        /// The first column of the old row they drew a cell of (negative: the row before).
        var from: Int
    }

    /// A cell to draw again: its place after the reflow and what the row record holds there.
    private typealias PlacedCell = (place: (row: Int, column: Int), cell: (bytes: [UInt8], width: Int, pen: Int))

    /// kitty (0.26) parses what it has read on its own schedule, so frames written before a resize
    /// can be read after its reflow: their backspaces stop at the first column of the row the
    /// reflow has just begun (no reverse wrap before 0.43), and their cells are drawn from there
    /// (`docs/terminals.md#resize-and-reflow`). This plays the last one, two or three frames
    /// (`Relocation.inFlight`) from where the reflow put the cursor before them (`lateStories`);
    /// where such a story ends at the `reported` column (kitty reports a cursor they left in
    /// pending wrap at the first column), every cell they touched or drew over and every cell still
    /// fading is drawn again at its place, settled, what they drew past the text is erased (ECH, in
    /// the default colours), and the cursor is put after the text. Drawing a cell again where it
    /// already is changes nothing, so where several stories fit, all of them are mended. Only where
    /// the environment names kitty, and the row record lays the whole line out
    /// (`RowRecord.reflowed`, as kitty cuts it).
    /// - Returns: false, writing nothing, where no story ends at the column, they end on different
    ///   rows, or some cell drawn over cannot be drawn again (a wide cluster the reflow cut in two, a
    ///   cell not recorded): the caller goes on without.
    mutating func mendLateFrames(_ r: Relocation, reported now: Int, into out: inout [UInt8]) -> Bool {
        guard configuration.reflow == .cutsCells, let lineOffset = r.lineOffset, !row.movedBack,
              let last = r.inFlight.last, last.lineOffsetBefore + last.advance == lineOffset,
              let layout = row.reflowed(upTo: r.anchor, columns: r.columns, as: .cutsCells),
              layout.cursor.column < r.columns else { return false }
        let line = LateLine(record: row, layout: layout, rowStart: lineOffset - r.anchor, end: r.anchor, columns: r.columns,
                            frames: r.inFlight)
        guard let all = stories(line, firstColumns: r.firstColumns) else { return false }
        let stories = all.filter { $0.column == now || ($0.column == r.columns && now == 0) }
        // The cursor is on the row the stories end on; the text ends there, on a row above (where
        // a second reflow moved what they drew past its end), or on the next (where they left the
        // cursor in pending wrap): the cells there are reached by writing on.
        guard let mended = mend(line, stories, also: live.cells.map(\.column)), layout.cursor.row <= mended.row + 1,
              // Below the text's last row only where frames read in time would not leave this column.
              layout.cursor.row >= mended.row || (now != layout.cursor.column && now + 1 != layout.cursor.column),
              mended.cells.allSatisfy({ mended.row - $0.place.row < (ahead.rows ?? 1) }) else { return false }
        var drawing: [UInt8] = []
        guard var at = draw(mended.cells, up: { mended.row - $0 }, columns: r.columns, into: &drawing) else { return false }
        framing.begin(at: out.count)
        pens.closeLink(into: &out)
        out += drawing
        let up = { (row: Int) in mended.row - row }
        erase(mended.drawn, after: layout.cursor, up: up, at: &at, into: &out)
        // To the text's end: on the row drawn last, or the one above.
        Self.moveRows(from: at, to: up(layout.cursor.row), into: &out)
        ControlSequence.append(&out, layout.cursor.column + 1, final: ControlSequence.cha, always: true)
        restorePen(into: &out)
        framing.movedCursor = true
        framing.end(into: &out)
        live.removeAll()
        model.columns = r.columns
        model.cursorFound(column: layout.cursor.column, lineOffset: lineOffset)
        return true
    }

    /// A line before the cursor's (`Relocation.lineEnds`), when frames that ended it, its line feed
    /// included, may have been read after kitty's reflow: the cursor's column after the line feed
    /// cannot tell, so every way of reading them late (`lateStories`) is mended — each cell they
    /// touched or drew over drawn again at its place on the rows above, settled, and what they drew
    /// past the line's end erased. Drawing a cell again where it already is changes nothing, so
    /// this is right whether or not they were read late. The cursor, at column `now` of the first
    /// row of its own line, `rowsDown` rows below the first row of the line after `end`'s, comes
    /// back there; the whole lines written between (`LineEnd.linesAfter`) are as writing them at
    /// the new width leaves them, late or not.
    /// - Returns: how many rows below the first row of `end`'s line the cursor is (for the line
    ///   before it); nil where a story ends on another row than the line's last (its line feed
    ///   would have moved the rows below), or a cell cannot be drawn again or is above the screen,
    ///   having written nothing.
    mutating func mendLineEnd(_ end: LineEnd, _ r: Relocation, reported now: Int, rowsDown: Int, into out: inout [UInt8]) -> Int? {
        guard configuration.reflow == .cutsCells, let start = end.record.lineStart, !end.record.movedBack else { return nil }
        let column = end.lineOffset - start
        guard let layout = end.record.reflowed(upTo: column, columns: r.columns, as: .cutsCells) else { return nil }
        // Rows up from the cursor: to the first row of the line after, over the whole lines
        // between, one more to this line's last.
        var between = 0
        for line in end.linesAfter {
            guard let rows = line.rows(columns: r.columns) else { return nil }
            between += rows
        }
        let rowsBelowStart = rowsDown + between + 1 + layout.cursor.row
        // Late frames are the last ones written, at most `framesKept`: the frames written since
        // this line's line feed leave room for that many fewer of its own.
        let mayBeLate = end.frames.suffix(max(0, Self.framesKept - end.framesSince))
        let line = LateLine(record: end.record, layout: layout, rowStart: start, end: column, columns: r.columns,
                            frames: Array(mayBeLate))
        guard let stories = stories(line, firstColumns: r.firstColumns) else { return nil }
        guard !stories.isEmpty else { return rowsBelowStart }  // no way of reading them late draws wrongly
        guard let mended = mend(line, stories, also: []), mended.row == layout.cursor.row else { return nil }
        let up = { (row: Int) in rowsBelowStart - row }
        guard mended.cells.allSatisfy({ up($0.place.row) < (ahead.rows ?? 1) }) else { return nil }
        var drawing: [UInt8] = []
        guard var at = draw(mended.cells, up: up, columns: r.columns, into: &drawing) else { return nil }
        framing.begin(at: out.count)
        pens.closeLink(into: &out)
        out += drawing
        erase(mended.drawn, after: layout.cursor, up: up, at: &at, into: &out)
        Self.moveRows(from: at, to: 0, into: &out)
        ControlSequence.append(&out, now + 1, final: ControlSequence.cha, always: true)
        restorePen(into: &out)
        framing.movedCursor = true
        framing.end(into: &out)
        return rowsBelowStart
    }

    /// The ways `line`'s frames may have been read late (`lateStories`) at its width, and, after a
    /// second resize before the report, at the first width (`firstColumns`), where they may have
    /// been read before the second reflow, told again at `line`'s width (`restated`). Nil where
    /// the line is not laid out cell for cell at both widths (a wide cluster): a second reflow of
    /// what they drew could not be followed.
    private func stories(_ line: LateLine, firstColumns: Int) -> [LateStory]? {
        var stories = Self.lateStories(line)
        guard firstColumns != line.columns, !line.frames.isEmpty else { return stories }
        guard let layout = line.record.reflowed(upTo: line.end, columns: firstColumns, as: .cutsCells) else { return nil }
        var first = line
        first.layout = layout
        first.columns = firstColumns
        guard Self.isCellForCell(first), Self.isCellForCell(line) else { return nil }
        for story in Self.lateStories(first) { stories += Self.restated(story, from: firstColumns, to: line.columns) }
        return stories
    }

    /// Erases (ECH, in the default colours) the columns in `drawn` past the text's end — after
    /// `textEnd` on its row, all of them on rows below it — moving by rows from `at` rows above the
    /// cursor's row (`up(row)` for each row), and leaves `at` where it ends. ECH, not EL: EL would
    /// reach the row's last cell, where kitty keeps its wrap.
    private mutating func erase(_ drawn: [Int: Range<Int>], after textEnd: (row: Int, column: Int), up: (Int) -> Int,
                                at: inout Int, into out: inout [UInt8]) {
        var penReset = false
        for (row, range) in drawn.sorted(by: { $0.key < $1.key }) where row >= textEnd.row {
            let start = row == textEnd.row ? max(range.lowerBound, textEnd.column) : range.lowerBound
            guard range.upperBound > start else { continue }
            Self.moveRows(from: at, to: up(row), into: &out)
            at = up(row)
            ControlSequence.append(&out, start + 1, final: ControlSequence.cha, always: true)
            if !penReset { pens.reset(terminalPenIsUnknown: model.penIsUnknown, into: &out) }
            penReset = true
            ControlSequence.append(&out, range.upperBound - start, final: ControlSequence.ech)
        }
    }

    /// CUU or CUD from `from` rows above the cursor's row to `to` rows above it.
    private static func moveRows(from: Int, to: Int, into out: inout [UInt8]) {
        if to > from { ControlSequence.append(&out, to - from, final: ControlSequence.cuu) }
        if to < from { ControlSequence.append(&out, from - to, final: ControlSequence.cud) }
    }

    /// Columns drawn over by row (`LateStory.drawn`): `row`'s range widened to cover `range` too.
    private static func widen(_ drawn: inout [Int: Range<Int>], row: Int, to range: Range<Int>) {
        drawn[row] = drawn[row].map { min($0.lowerBound, range.lowerBound)..<max($0.upperBound, range.upperBound) } ?? range
    }

    /// Whether `line`'s layout puts every cell at its place in the logical line, counted in cells
    /// (no row ends early before a wide cluster): a reflow then moves every cell, and what was
    /// drawn over it, by its place in the line alone.
    private static func isCellForCell(_ line: LateLine) -> Bool {
        line.layout.places.allSatisfy { column, place in place.row * line.columns + place.column == line.rowStart + column }
    }

    /// `story`, told at a width of `old` columns, as a reflow to `new` columns moves it (kitty cuts
    /// a line by cells): what it drew by its place in the line; where it left the cursor, the same
    /// — at a row's end either on that row's last cell or in pending wrap after it (which kitty
    /// reports at the first column), and at the second column also one cell short, where kitty
    /// may leave it.
    private static func restated(_ story: LateStory, from old: Int, to new: Int) -> [LateStory] {
        var drawn: [Int: Range<Int>] = [:]
        for (row, range) in story.drawn {
            var offset = row * old + range.lowerBound
            let end = row * old + range.upperBound
            while offset < end {
                let row = offset / new, column = offset % new
                let take = min(end - offset, new - column)
                let range = column..<(column + take)
                Self.widen(&drawn, row: row, to: range)
                offset += take
            }
        }
        let cursor = story.row * old + story.column
        var moved = story
        moved.drawn = drawn
        if cursor > 0 && cursor % new == 0 {
            moved.row = cursor / new - 1
            var pending = moved
            moved.column = new - 1
            pending.column = new
            return [moved, pending]
        }
        (moved.row, moved.column) = (cursor / new, cursor % new)
        guard moved.column == 1 else { return [moved] }
        var short = moved
        short.column = 0
        return [moved, short]
    }

    /// What `stories` drew wrongly on `line`: the row they end on, the columns drawn over by row,
    /// and the cells to draw again at their places — every cell from the first they touched to the
    /// text's end, those in `also`, and those placed in the columns drawn over. Nil where they end
    /// on different rows, drew on a row after the text's last, or drew over a column before the
    /// text's end that cannot be drawn again.
    private func mend(_ line: LateLine, _ stories: [LateStory], also: [Int]) -> (row: Int, drawn: [Int: Range<Int>], cells: [PlacedCell])? {
        guard let row = stories.first?.row, stories.allSatisfy({ $0.row == row }) else { return nil }
        var drawn: [Int: Range<Int>] = [:]
        for story in stories {
            for (r, range) in story.drawn { Self.widen(&drawn, row: r, to: range) }
        }
        let record = line.record, layout = line.layout
        guard drawn.keys.allSatisfy({ $0 <= max(layout.cursor.row, row) }) else { return nil }
        var columns = Set(also)
        let from = max(-record.previousColumns, stories.map(\.from).min() ?? line.end)
        if from < line.end { columns.formUnion((from..<line.end).filter { record.cell(at: $0) != nil }) }
        for (column, place) in layout.places where drawn[place.row]?.contains(place.column) == true { columns.insert(column) }
        var cells: [PlacedCell] = []
        for column in columns {
            guard let place = layout.places[column], let cell = record.cell(at: column) else { return nil }
            cells.append((place, cell))
        }
        cells.sort { ($0.place.row, $0.place.column) < ($1.place.row, $1.place.column) }
        // Every column drawn over before the text's end is drawn again (past it: erased).
        for (r, range) in drawn {
            let textEnd = r < layout.cursor.row ? line.columns : r == layout.cursor.row ? layout.cursor.column : 0
            for x in range where x < textEnd {
                guard cells.contains(where: { $0.place.row == r && $0.place.column <= x && x < $0.place.column + $0.cell.width })
                else { return nil }
            }
        }
        return (row, drawn, cells)
    }

    /// Draws `cells` (sorted) settled at their places, `up(row)` rows above the cursor's row (CUU,
    /// CHA). A row below the cursor's is reached only by writing on from the last cell of the row
    /// above (the cursor is there in pending wrap: a move down would not scroll at the screen's
    /// bottom, writing does). - Returns: how many rows above the cursor's row it ends (negative:
    /// below), nil, writing nothing, where a row below cannot be reached so.
    private mutating func draw(_ cells: [PlacedCell], up: (Int) -> Int, columns: Int, into out: inout [UInt8]) -> Int? {
        var at = 0, column = -1  // rows up; the column after the cell drawn last (-1: none yet)
        for (place, cell) in cells {
            let target = up(place.row)
            if target < 0 {
                guard target == at - 1, place.column == 0, column == columns else { return nil }
            } else {
                Self.moveRows(from: at, to: target, into: &out)
                ControlSequence.append(&out, place.column + 1, final: ControlSequence.cha, always: true)
            }
            at = target
            pens.set(pens[cell.pen], terminalPenIsUnknown: model.penIsUnknown, into: &out)
            out.append(contentsOf: cell.bytes)
            column = place.column + cell.width
        }
        return at
    }

    /// For each count of late frames (the last one, two, …, of `line.frames`), where they leave the
    /// cursor when read after the reflow, as kitty reads them. The reflow puts the cursor after the
    /// cell before it (on the last cell, not after it, at a row's end), or one cell short of that
    /// where it stood at the second column or right after a wide cluster (kitty 0.26, `docs/`
    /// `terminals.md#resize-and-reflow`): both are played. While the cursor is where the layout
    /// says, a run of backspaces that stays on the row lands as in time, cells and all; one that
    /// stops at the row's first column, or any run once the cursor is elsewhere, draws its cells
    /// from where the cursor is, wrapping at the margin as writing does (a wide cluster there is not
    /// known to these counts). Only stories in which some run drew away from its place (else the
    /// frames land as if read in time), on at most the row after the reflow's.
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
            guard let first = frames.first, let reflowed = place(first.lineOffsetBefore) else { continue }
            for short in record.mayLeaveCursorShort(at: first.lineOffsetBefore - line.rowStart) ? [false, true] : [false] {
                var at = reflowed
                var displaced = short
                if at.column == line.columns {
                    // On the last cell, not in pending wrap after it: going back or writing on starts
                    // a cell short of where it would after writing (measured: 96 cells at 135
                    // columns, then 32, BS×10 and `X`: `X` at 85, not 86).
                    at.column -= 1
                    displaced = true
                }
                if short { at.column -= 1 }
                guard at.column >= 0 else { continue }
                var offset = first.lineOffsetBefore
                var drawn: [Int: Range<Int>] = [:]
                var fits = true
                var from = line.end
                for run in frames.flatMap(\.runs) {
                    from = min(from, offset - run.backspaces - line.rowStart)
                    offset += run.written - run.backspaces
                    if !displaced && run.backspaces <= at.column {
                        // Lands as in time: the cursor goes where the line puts it.
                        guard let next = place(offset) else { fits = false; break }
                        at = next
                        continue
                    }
                    // Drawn from where the cursor is: back to the row's first column at most (from
                    // pending wrap too), then on, wrapping at the margin.
                    displaced = true
                    at.column = max(0, at.column - run.backspaces)
                    var left = run.written
                    while left > 0 {
                        if at.column == line.columns { at.row += 1; at.column = 0 }
                        let take = min(left, line.columns - at.column)
                        let range = at.column..<(at.column + take)
                        widen(&drawn, row: at.row, to: range)
                        at.column += take
                        left -= take
                    }
                    if at.row > reflowed.row + 1 { fits = false; break }
                }
                guard fits, displaced else { continue }
                stories.append(LateStory(late: late, row: at.row, column: at.column, drawn: drawn, from: from))
            }
        }
        return stories
    }
}
