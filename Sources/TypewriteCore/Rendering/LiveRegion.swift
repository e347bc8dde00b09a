/// The cells still fading: all on the cursor's row, left of the cursor, each at a known column.
///
/// The anchor is the cursor: between frames it rests right after the newest cell (the end of the
/// text), so a repaint reaches a cell by moving back the cells between them (`CSI n D`) and comes
/// back in the same write. Where something outside may have moved the cursor (the tty's echo of
/// `^C`), the renderer asks for absolute moves (`CSI n G`) instead. Fading stops (`settle`) before
/// the cursor reaches the last column, before a control or a sequence that moves it, and before a
/// cluster of uncertain width, so no cell fades where it could not be found again
/// (`docs/terminals.md`, Repainting).
struct LiveRegion: Sendable {
    struct Cell: Sendable {
        var column: Int
        var width: Int
        /// The cluster's bytes in `bytes`.
        var range: Range<Int>
        /// The pen it settles in.
        var pen: GraphicRendition
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
    mutating func add(_ cluster: ArraySlice<UInt8>, column: Int, width: Int, pen: GraphicRendition, index: Int,
                      code: ColorRamp.Code, level: Int, from: RGB, to: RGB, start: Int) {
        let range = bytes.count..<(bytes.count + cluster.count)
        bytes.append(contentsOf: cluster)
        cells.append(Cell(column: column, width: width, range: range, pen: pen, index: index, code: code, level: level,
                          from: from, to: to, start: start))
    }

    /// Forgets every cell (they keep the colour they have on the screen).
    mutating func removeAll() {
        cells.removeAll(keepingCapacity: true)
        bytes.removeAll(keepingCapacity: true)
    }

    /// The cell for the cluster at input offset `start` drawn at `column` takes `pen`: it fades
    /// toward it from the step it has reached. Returns false when no such cell is live.
    mutating func restyle(start: Int, column: Int, pen: GraphicRendition, from: RGB, to: RGB) -> Bool {
        guard let i = cells.firstIndex(where: { $0.start == start && $0.column == column }) else { return false }
        cells[i].pen = pen
        cells[i].from = from
        cells[i].to = to
        cells[i].code = Self.repaintCode
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
    mutating func settle(moves: Moves = .relative, colors: inout FadeColors, pens: inout PenBook, cursor: Int?,
                         penIsUnknown: Bool, into out: inout [UInt8]) -> Bool {
        if isEmpty { return false }
        defer { removeAll() }
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
        switch moves {
        case .absolute: ControlSequence.append(&out, cells[firstWrite].column + 1, final: ControlSequence.cha, always: true)
        case .relative: ControlSequence.append(&out, cursor - cells[firstWrite].column, final: ControlSequence.cub)
        }
        var skip = 0
        for i in firstWrite..<cells.count {
            let cell = cells[i]
            cells[i].level = levels[i]
            if codes[i] == cell.code {
                skip += cell.width
                continue
            }
            ControlSequence.append(&out, skip, final: ControlSequence.cuf)
            skip = 0
            pens.set(codes[i] == ColorRamp.settled ? cell.pen : colors.fadePen(cell.pen, codes[i]), terminalPenIsUnknown: penIsUnknown,
                     into: &out)
            out.append(contentsOf: bytes[cell.range])
            cells[i].code = codes[i]
        }
        ControlSequence.append(&out, skip, final: ControlSequence.cuf)
        // Settled cells at the start of the row no longer need to be kept.
        if let keep = cells.firstIndex(where: { $0.code != ColorRamp.settled }) {
            if keep > 0 { cells.removeFirst(keep) }
        } else {
            removeAll()
        }
        return true
    }
}

/// What each column of the cursor's row shows, as far as typewrite drew it: a key per column
/// (the cluster's bytes and pen, 0 when unknown), so a cluster drawn again exactly as the cell
/// already shows it (a progress line rewritten after CR) is written settled, without a fade.
struct RowRecord: Sendable {
    private(set) var keys: [UInt64] = []
    /// `TerminalModel.rowChanges` when `keys` was last known to match the cursor's row.
    private var seenRowChanges = 0

    /// Forgets what the row shows once the model says it may have changed.
    mutating func sync(_ model: TerminalModel) {
        guard model.rowChanges != seenRowChanges else { return }
        keys.removeAll(keepingCapacity: true)
        seenRowChanges = model.rowChanges
    }

    /// Whether column `column` shows `key` (never for key 0).
    func shows(_ key: UInt64, at column: Int) -> Bool { key != 0 && column < keys.count && keys[column] == key }

    /// A cluster with `key` was drawn at `column`, `width` cells wide, on a row `columns` wide.
    mutating func record(_ key: UInt64, at column: Int, width: Int, columns: Int) {
        if keys.count < columns { keys += repeatElement(0, count: columns - keys.count) }
        keys[column] = key
        for k in (column + 1)..<min(columns, column + width) { keys[k] = 0 }
    }

    /// `count` one-cell clusters of printable ASCII, `bytes[start...]`, drawn from `column` in pen `pen`.
    mutating func recordText(_ bytes: ByteStore, start: Int, count: Int, column: Int, pen: Int) {
        // Columns past the end count as unknown: grow only as far as written.
        if keys.count < column + count { keys += repeatElement(0, count: column + count - keys.count) }
        keys.withUnsafeMutableBufferPointer { row in
            for i in 0..<count { row[column + i] = Self.key(byte: bytes[start + i], pen: pen) }
        }
    }

    /// Forgets what `columns` show (they were drawn again in another look).
    mutating func forget(_ columns: Range<Int>) {
        for c in columns where c < keys.count { keys[c] = 0 }
    }

    /// 0 (never equal to what the row shows) once there were too many pens to number.
    static func key(byte: UInt8, pen: Int) -> UInt64 { pen < 0 ? 0 : UInt64(pen) << 40 | 1 << 39 | UInt64(byte) }

    static func key(_ bytes: ArraySlice<UInt8>, pen: Int) -> UInt64 {
        if pen < 0 { return 0 }
        if bytes.count == 1, let b = bytes.first { return key(byte: b, pen: pen) }
        var hasher = Hasher()
        hasher.combine(pen)
        for b in bytes { hasher.combine(b) }
        return UInt64(bitPattern: Int64(hasher.finalize())) | 1
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
