/// The cells still fading: all on the cursor's row, left of the cursor, each at a known column.
///
/// The anchor is the cursor: between frames it rests right after the newest cell (the end of the
/// text), so a repaint reaches a cell by moving back the cells between them (`CSI n D`) and comes
/// back in the same write. Where something outside may have moved the cursor (the tty's echo of
/// `^C`), the renderer asks for absolute moves (`CSI n G`) instead. Fading stops (`settle`) before
/// the cursor reaches the last column, before a control or a sequence that moves it, and before a
/// cluster of uncertain width, so no cell fades where it could not be found again
/// (`docs/terminals.md#the-fades-safety-rules`).
struct LiveRegion: Sendable {
    struct Cell: Sendable {
        var column: Int
        var width: Int
        /// The cluster's bytes in `bytes`.
        var range: Range<Int>
        /// The pen it settles in.
        var pen: GraphicRendition
        /// The hyperlink it is drawn in.
        var link: Hyperlink?
        /// Its number among the clusters received (for its opacity).
        var index: Int
        var code: ColorRamp.Code
        /// The step painted: 0 …< levels while fading, levels when settled.
        var level: Int
        var from: RGB
        var to: RGB
        /// Input offset of the cluster's first byte.
        var start: Int
    }

    /// How a repaint reaches a cell.
    enum Moves: Sendable {
        /// Back from the cursor (`CSI n D`), counting cells: right in every terminal while the cursor
        /// rests after the newest cell.
        case relative
        /// To the cell's column (`CSI n G`): right when the cursor may have moved along the row.
        case absolute
    }

    /// A cell code no ramp step has: the cell is painted again whatever its level.
    static let repaintCode: ColorRamp.Code = -2

    /// From the oldest cell not yet settled to the newest.
    private(set) var cells: [Cell] = []
    private var bytes: [UInt8] = []

    var isEmpty: Bool { cells.isEmpty && bytes.isEmpty }

    /// Whether some cell is still short of its final style.
    var isFading: Bool { cells.contains { $0.code != ColorRamp.settled } }

    /// A cluster drawn at `column` in fade step `code` (`level`).
    mutating func add(_ cluster: ArraySlice<UInt8>, column: Int, width: Int, pen: GraphicRendition, link: Hyperlink?,
                      index: Int, code: ColorRamp.Code, level: Int, from: RGB, to: RGB, start: Int) {
        let range = bytes.count..<(bytes.count + cluster.count)
        bytes.append(contentsOf: cluster)
        cells.append(Cell(column: column, width: width, range: range, pen: pen, link: link, index: index, code: code,
                          level: level, from: from, to: to, start: start))
    }

    /// Forgets every cell (they keep the colour they have on the screen).
    mutating func removeAll() {
        cells.removeAll(keepingCapacity: true)
        bytes.removeAll(keepingCapacity: true)
    }

    /// The cell for the cluster at input offset `start` drawn at `column` takes `pen` and `link`:
    /// it fades toward its new look from the step it has reached. Returns false when no such cell is live.
    mutating func restyle(start: Int, column: Int, pen: GraphicRendition, link: Hyperlink?, from: RGB, to: RGB) -> Bool {
        guard let i = cells.firstIndex(where: { $0.start == start && $0.column == column }) else { return false }
        cells[i].pen = pen
        cells[i].link = link
        cells[i].from = from
        cells[i].to = to
        cells[i].code = Self.repaintCode
        return true
    }

    /// The terminal's colours became known: cells still fading go on from the step they reached,
    /// between the new endpoints (a fade that began on an assumed background would run backwards).
    mutating func retarget(_ colors: FadeColors) {
        for i in cells.indices where cells[i].code != ColorRamp.settled {
            let (from, to) = colors.endpoints(of: cells[i].pen)
            guard from != cells[i].from || to != cells[i].to else { continue }
            cells[i].from = from
            cells[i].to = to
            cells[i].code = Self.repaintCode
        }
    }

    /// Where a cell is after a reflow: rows above the cursor's row, and its column.
    struct Place: Sendable, Equatable {
        var up: Int
        var column: Int
    }

    /// Where a reflow put the cells, found from the cursor alone: the cells were right before the
    /// cursor, which was at column `anchor`; it is now at column `cursor` of a row `columns` wide.
    /// A cell further back than the cursor's column went to the end of the row above, which only
    /// cells one cell wide can be placed on with certainty (a wide one may have left the last
    /// column blank). Nil when some cell cannot be placed.
    func placesAfterReflow(cursor: Int, anchor: Int, columns: Int) -> [Place]? {
        var places: [Place] = []
        for cell in cells {
            let distance = anchor - cell.column  // cells from the cell's start to the cursor
            if distance <= cursor {
                places.append(Place(up: 0, column: cursor - distance))
            } else if cell.width == 1, distance - cursor <= columns {
                places.append(Place(up: 1, column: columns - (distance - cursor)))
            } else {
                return nil
            }
        }
        return places
    }

    /// Paints every cell in its final style at `places` (one per cell, `placesAfterReflow` or
    /// `RowRecord.reflowed`) and forgets them all; the cursor, at column `cursor` of a row
    /// `columns` wide (`columns`: pending wrap), ends where it was.
    /// - Returns: false, writing nothing, when `places` does not hold one place per cell.
    mutating func settle(at places: [Place], cursor: Int, columns: Int, colors: inout FadeColors, pens: inout PenBook,
                         penIsUnknown: Bool, into out: inout [UInt8]) -> Bool {
        guard places.count == cells.count, !cells.isEmpty else { return false }
        var up = 0
        for (cell, place) in zip(cells, places) {
            pens.closeLink(into: &out)
            if place.up > up { ControlSequence.append(&out, place.up - up, final: ControlSequence.cuu) }
            if place.up < up { ControlSequence.append(&out, up - place.up, final: ControlSequence.cud) }
            up = place.up
            ControlSequence.append(&out, place.column + 1, final: ControlSequence.cha, always: true)
            pens.set(cell.pen, link: cell.link, terminalPenIsUnknown: penIsUnknown, into: &out)
            out.append(contentsOf: bytes[cell.range])
        }
        pens.closeLink(into: &out)
        if up > 0 { ControlSequence.append(&out, up, final: ControlSequence.cud) }
        // In pending wrap (after the last column), drawing the last cell left the cursor there.
        let endsAtMargin = cursor == columns && places.last.map { $0.up == 0 && $0.column + (cells.last?.width ?? 1) == columns } == true
        if !endsAtMargin { ControlSequence.append(&out, min(cursor, columns - 1) + 1, final: ControlSequence.cha, always: true) }
        removeAll()
        return true
    }

    // MARK: Repainting

    /// Repaints the cells whose step changed at the pacing `front`, moving back along the row and
    /// forward again to `cursor`. Returns whether it moved the cursor.
    ///
    /// When the front moves slowly over few cells, whole frames can pass with no cell reaching its
    /// next step; then the newest cell that can step without passing its older neighbour steps a
    /// little early, so the motion keeps a steady frame rate (no gap over two frames).
    mutating func step(front: Double, pacing: PacingEngine, moves: Moves = .relative, colors: inout FadeColors,
                       pens: inout PenBook, cursor: Int, penIsUnknown: Bool, into out: inout [UInt8]) -> Bool {
        guard !cells.isEmpty else { return false }
        var levels = [Int]()
        levels.reserveCapacity(cells.count)
        var firstChanged: Int?
        for (i, cell) in cells.enumerated() {
            var level = cell.level
            if level < colors.levels {
                // A cell never steps back toward the background.
                level = max(level, colors.level(opacity: pacing.opacity(ofClusterAt: cell.index, front: front), index: cell.index))
            }
            levels.append(level)
            if (level != cell.level || cell.code == Self.repaintCode) && firstChanged == nil { firstChanged = i }
        }
        if firstChanged == nil {
            for j in stride(from: cells.count - 1, through: 0, by: -1) where levels[j] < colors.levels {
                // The oldest fading cell may settle early; any other may step up to its older neighbour.
                if j == 0 || levels[j - 1] >= levels[j] + 1 {
                    levels[j] += 1
                    firstChanged = j
                    break
                }
            }
        }
        guard let first = firstChanged else { return false }
        return paint(from: first, levels: levels, moves: moves, colors: &colors, pens: &pens, cursor: cursor,
                     penIsUnknown: penIsUnknown, into: &out)
    }

    /// Paints every cell in its final style and forgets them all. Returns whether it moved the cursor.
    /// - Parameter cursor: the cursor's column, nil when unknown (the cells are then forgotten as drawn).
    /// - Parameter cutAt: cells that reach past this column are gone (a narrower terminal cut
    ///   them off) and are not painted.
    @discardableResult
    mutating func settle(moves: Moves = .relative, colors: inout FadeColors, pens: inout PenBook, cursor: Int?,
                         penIsUnknown: Bool, cutAt: Int? = nil, into out: inout [UInt8]) -> Bool {
        if isEmpty { return false }
        defer { removeAll() }
        if let cutAt { cells.removeAll { $0.column + $0.width > cutAt } }
        guard let first = cells.firstIndex(where: { $0.code != ColorRamp.settled }), let cursor else { return false }
        return paint(from: first, levels: Array(repeating: colors.levels, count: cells.count), moves: moves, colors: &colors,
                     pens: &pens, cursor: cursor, penIsUnknown: penIsUnknown, into: &out)
    }

    private mutating func paint(from first: Int, levels: [Int], moves: Moves, colors: inout FadeColors, pens: inout PenBook,
                                cursor: Int, penIsUnknown: Bool, into out: inout [UInt8]) -> Bool {
        var codes = [ColorRamp.Code]()
        codes.reserveCapacity(cells.count)
        for (i, cell) in cells.enumerated() {
            codes.append(levels[i] == cell.level && cell.code != Self.repaintCode
                         ? cell.code : colors.code(level: levels[i], from: cell.from, to: cell.to))
        }
        guard let firstWrite = (first..<cells.count).first(where: { codes[$0] != cells[$0].code }) else {
            for i in first..<cells.count { cells[i].level = levels[i] }
            return false
        }
        pens.closeLink(into: &out)  // not open across a move
        switch moves {
        case .absolute: ControlSequence.append(&out, cells[firstWrite].column + 1, final: ControlSequence.cha, always: true)
        case .relative:
            // BS, one per cell: where a terminal that reflows its rows (tmux) has split the row
            // since (a resize the renderer has not heard of yet), BS goes back over the soft wrap
            // along the line, where `CSI n D` would stop at the row's start.
            out.append(contentsOf: repeatElement(0x08, count: cursor - cells[firstWrite].column))
        }
        // Every cell from there to the cursor is written (not skipped with `CSI n C`, which does
        // not wrap either): the cursor comes back by writing.
        for i in firstWrite..<cells.count {
            let cell = cells[i]
            cells[i].level = levels[i]
            pens.set(codes[i] == ColorRamp.settled ? cell.pen : colors.fadePen(cell.pen, codes[i]), link: cell.link,
                     terminalPenIsUnknown: penIsUnknown, into: &out)
            out.append(contentsOf: bytes[cell.range])
            cells[i].code = codes[i]
        }
        // Settled cells at the start of the row no longer need to be kept.
        if let keep = cells.firstIndex(where: { $0.code != ColorRamp.settled }) {
            if keep > 0 { cells.removeFirst(keep) }
        } else {
            removeAll()
        }
        return true
    }
}

/// Writing the control sequences a renderer moves with (ECMA-48).
enum ControlSequence {
    /// CHA, cursor character absolute (`CSI n G`).
    static let cha: UInt8 = 0x47
    /// CUB, cursor backward (`CSI n D`).
    static let cub: UInt8 = 0x44
    /// CUF, cursor forward (`CSI n C`).
    static let cuf: UInt8 = 0x43
    /// CUU, cursor up (`CSI n A`).
    static let cuu: UInt8 = 0x41
    /// CUD, cursor down (`CSI n B`).
    static let cud: UInt8 = 0x42
    /// ECH, erase character (`CSI n X`): erases cells from the cursor without moving it.
    static let ech: UInt8 = 0x58

    /// Appends `CSI n final` (the parameter left out for 1; nothing for 0 unless `always`).
    static func append(_ out: inout [UInt8], _ n: Int, final: UInt8, always: Bool = false) {
        guard n > 0 || always else { return }
        out.append(0x1B); out.append(0x5B)
        if n > 1 { out.append(contentsOf: String(n).utf8) }
        out.append(final)
    }

    /// `CSI ? 2026 h` / `l`: synchronized output, so a frame is drawn at once where supported.
    static let synchronizedOutputBegin = Array("\u{1B}[?2026h".utf8)
    static let synchronizedOutputEnd = Array("\u{1B}[?2026l".utf8)
}

extension LiveRegion {
    /// The one rule for finding the anchor again after the tty wrote `width` cells of its own at it
    /// (the echo of `^C` or `^Z`, ECHOCTL), before typewrite could react. The echo went where text
    /// would go: from the cursor, wrapping at the margin. Where the cursor's row is wholly known
    /// (`RowRecord.complete`), the echo is erased and the row drawn again from its start (CR, the
    /// universal way back), every live cell settled, which also mends a frame written after the
    /// echo; where only the column is known, the cursor moves back to it; else the anchor is lost.
    /// - Returns: whether the cursor is at the anchor again (and, when the row was drawn again,
    ///   the live cells are settled and forgotten).
    mutating func reanchor(afterEcho width: Int, model: TerminalModel, row: RowRecord, pens: inout PenBook,
                           into out: inout [UInt8]) -> Bool {
        guard let columns = model.columns else { return false }
        guard let c = model.column else {
            // Only bounds known: moving back is exact only where the echo cannot have wrapped.
            guard let bounds = model.columnBounds, !model.pendingWrap, bounds.upperBound + width < columns else { return false }
            ControlSequence.append(&out, width, final: ControlSequence.cub)
            eraseEcho(width, row: row, pens: &pens, penIsUnknown: model.penIsUnknown, into: &out)
            return true
        }
        let echoWrapped = model.pendingWrap || c + width > columns
        if row.complete {
            pens.reset(terminalPenIsUnknown: model.penIsUnknown, into: &out)
            if echoWrapped {
                // Erase the echo's part on the row below (and the wrap it made), and go back up.
                out.append(contentsOf: [0x0D, 0x1B, 0x5B, 0x4B])
                ControlSequence.append(&out, 1, final: ControlSequence.cuu)
            }
            // A row that begins its logical line is erased whole (EL 2): the cells the text never
            // reaches are then unused, as they were, where tmux 3.3a counts a cell erased by ECH
            // or EL 0 as a space when it joins rows (copy, reflow). A row reached by wrapping
            // keeps its join only with ECH (EL at column 0 or EL 2 breaks it, in tmux).
            let wholeRow = !model.rowWrapped
            if wholeRow {
                out.append(contentsOf: [0x1B, 0x5B, 0x32, 0x4B])
            } else if !model.pendingWrap {
                ControlSequence.append(&out, c + 1, final: ControlSequence.cha, always: true)
                ControlSequence.append(&out, min(width, columns - c), final: ControlSequence.ech)
            }
            out.append(0x0D)
            let at = row.redraw(pens: &pens, penIsUnknown: model.penIsUnknown, into: &out)
            if at > 0 && at < columns && !wholeRow {
                // What a frame written after the echo pushed right of the text.
                pens.reset(terminalPenIsUnknown: model.penIsUnknown, into: &out)
                out.append(contentsOf: [0x1B, 0x5B, 0x4B])
            }
            removeAll()
            if model.pendingWrap { return at == columns }
            if at != c { ControlSequence.append(&out, c + 1, final: ControlSequence.cha, always: true) }
            return true
        }
        guard !echoWrapped else { return false }
        ControlSequence.append(&out, c + 1, final: ControlSequence.cha, always: true)
        eraseEcho(width, row: row, pens: &pens, penIsUnknown: model.penIsUnknown, into: &out)
        return true
    }

    /// Erases `width` cells at the cursor, where the echo is, when nothing but the echo can be
    /// there (the cursor never went back along the row: it is where the row's text ends).
    private func eraseEcho(_ width: Int, row: RowRecord, pens: inout PenBook, penIsUnknown: Bool, into out: inout [UInt8]) {
        guard !row.movedBack, !penIsUnknown else { return }
        let pen = pens.terminal
        pens.reset(terminalPenIsUnknown: penIsUnknown, into: &out)
        ControlSequence.append(&out, width, final: ControlSequence.ech)
        pens.set(pen, terminalPenIsUnknown: penIsUnknown, into: &out)
    }
}
