/// Where a terminal `columns` cells wide draws the input, row by row, as `cat` would leave it:
/// autowrap with pending wrap at the last column, a wide cluster that does not fit wrapping early,
/// CR to column 0, LF to the next row (and column 0 when the tty has ONLCR), TAB to the next
/// multiple of 8 (TERMINAL-NOTES §1, §2). Widths are the tokenizer's (the sum of the scalars'
/// widths, as tmux and most terminals count).
///
/// Rows are counted from the row the input starts on (row 0, assumed to start at column 0). The
/// cells of one row, `recordedRow`, are kept so that it can be repainted: the collapsed view's
/// last row. Anything that moves the cursor in a way this model does not follow (cursor movement
/// sequences, BS, scrolling, invalid bytes) sets `lost`.
struct RowLayout: Sendable {
    /// One cell of the recorded row.
    enum Cell: Equatable, Sendable {
        case empty
        /// A cluster drawn here: its bytes (absolute offsets in the input), width, and SGR state.
        case glyph(bytes: Range<Int>, width: Int, pen: GraphicRendition)
        /// The right half of a wide cluster.
        case continuation
    }

    let columns: Int
    let newlineReturnsCarriage: Bool
    let recordedRow: Int
    /// The cells of `recordedRow`, `columns` of them (all empty until the input reaches it).
    private(set) var cells: [Cell]
    /// The cursor's row and column; `column == columns` is pending wrap.
    private(set) var row = 0
    private(set) var column = 0
    /// The input's SGR state at the cursor.
    private(set) var pen = GraphicRendition()
    /// Whether nothing has been drawn on the cursor's row yet.
    private(set) var rowIsEmpty = true
    /// Offset of the first input byte that belongs to the cursor's row.
    private(set) var rowStart = 0
    /// Whether the input did something this model does not follow.
    private(set) var lost = false
    /// The last cluster drawn: where, how wide, on which row (a later combining mark joins it).
    private var lastCluster: (column: Int, width: Int, row: Int)?

    init(columns: Int, newlineReturnsCarriage: Bool = true, recordedRow: Int) {
        self.columns = max(1, columns)
        self.newlineReturnsCarriage = newlineReturnsCarriage
        self.recordedRow = recordedRow
        self.cells = Array(repeating: .empty, count: max(1, columns))
    }

    /// Whether the cursor is at the start of a row with nothing on it (where a label can go).
    var atEmptyRowStart: Bool { rowIsEmpty && column == 0 }

    /// The row `token`'s first cell lands on, or nil when it draws nothing and moves nowhere new.
    /// An LF, VT, FF or TAB counts as landing on the row it acts on.
    func landingRow(of token: Token) -> Int? {
        switch token {
        case .text:
            return column >= columns ? row + 1 : row
        case .cluster(_, _, let width, _):
            guard width > 0 else { return nil }
            return column >= columns || column + width > columns ? row + 1 : row
        case .control(_, let byte):
            return [0x0A, 0x0B, 0x0C, 0x09].contains(byte) ? row : nil
        case .extend, .sequence, .raw:
            return nil
        }
    }

    /// How many bytes of an ASCII run starting at the cursor land on rows before `limit`.
    func textBytesFitting(before limit: Int) -> Int {
        guard limit > row else { return 0 }
        let wholeRows = (limit - row - 1) * columns
        return column >= columns ? wholeRows : (columns - column) + wholeRows
    }

    /// Follows one token; `store` holds its bytes.
    mutating func apply(_ token: Token, _ store: ByteStore) {
        switch token {
        case .text(let start, let count):
            applyText(start: start, count: count)
        case .cluster(let start, let length, let width, _):
            applyCluster(start..<(start + length), width: width)
        case .extend(let start, let length, let width, _):
            applyExtension(start..<(start + length), width: width)
        case .control(let start, let byte):
            control(byte, at: start)
        case .sequence(let start, let length, let kind):
            sequence(store[start..<(start + length)], kind: kind)
        case .raw:
            lost = true
        }
    }

    /// Follows the first `count` bytes of an ASCII run.
    mutating func applyText(start: Int, count: Int) {
        var s = start
        var n = count
        while n > 0 {
            if column >= columns { newRow(at: s) }
            let take = min(n, columns - column)
            if row == recordedRow {
                for i in 0..<take { setCell(column + i, .glyph(bytes: (s + i)..<(s + i + 1), width: 1, pen: pen)) }
            }
            column += take
            s += take
            n -= take
            rowIsEmpty = false
            lastCluster = (column - 1, 1, row)
        }
    }

    private mutating func applyCluster(_ bytes: Range<Int>, width: Int) {
        guard width > 0 else {
            // Zero width: joins the cell before it, where terminals put it.
            applyExtension(bytes, width: lastCluster?.width ?? 0)
            return
        }
        guard width <= columns else { lost = true; return }
        if column >= columns || column + width > columns { newRow(at: bytes.lowerBound) }
        if row == recordedRow { setCell(column, .glyph(bytes: bytes, width: width, pen: pen)) }
        lastCluster = (column, width, row)
        column += width
        rowIsEmpty = false
    }

    /// Scalars joining the last cluster; `width` is the whole cluster's width now.
    private mutating func applyExtension(_ bytes: Range<Int>, width: Int) {
        guard var last = lastCluster, last.row == row else { return }
        let delta = width - last.width
        if delta != 0 {
            guard last.column + width <= columns else { lost = true; return }
            column = min(columns, column + delta)
        }
        if row == recordedRow, case .glyph(let old, _, let cellPen) = cells[last.column], old.upperBound == bytes.lowerBound {
            setCell(last.column, .glyph(bytes: old.lowerBound..<bytes.upperBound, width: width, pen: cellPen))
        }
        last.width = width
        lastCluster = last
    }

    private mutating func control(_ byte: UInt8, at offset: Int) {
        switch byte {
        case 0x0A:  // LF (CR LF with ONLCR)
            newRow(at: offset + 1)
            if !newlineReturnsCarriage { column = min(column, columns - 1) } else { column = 0 }
        case 0x0B, 0x0C:  // VT, FF: down one row, same column
            let c = min(column, columns - 1)
            newRow(at: offset + 1)
            column = c
        case 0x0D:
            column = 0
        case 0x09:
            if column < columns { column = min(columns - 1, (column / 8 + 1) * 8) }
            rowIsEmpty = false
        case 0x08:  // BS: terminals disagree at the margins (TERMINAL-NOTES §1)
            lost = true
        default:  // BEL, NUL, DEL, SO, SI …: nothing moves
            break
        }
        lastCluster = nil
    }

    private mutating func sequence(_ bytes: ArraySlice<UInt8>, kind: SequenceKind) {
        switch kind {
        case .csi(final: 0x6D, privateMarker: 0, hasIntermediates: false, hasControls: false):  // SGR
            pen.apply(parameters: bytes.dropFirst(2).dropLast())
        case .csi(final: 0x4B, privateMarker: 0, hasIntermediates: false, hasControls: false):  // EL
            guard column < columns else { lost = true; return }
            let mode = Int(String(decoding: bytes.dropFirst(2).dropLast(), as: UTF8.self)) ?? 0
            if row == recordedRow {
                let range = mode == 0 ? column..<columns : mode == 1 ? 0..<(column + 1) : 0..<columns
                for c in range where c < columns { setCell(c, .empty) }
            }
        case .operatingSystemCommand, .controlString:
            break
        case .escape(_, let intermediate) where (0x28...0x2F).contains(intermediate):
            break  // character set designations
        default:
            lost = true
        }
        lastCluster = nil
    }

    private mutating func newRow(at offset: Int) {
        row += 1
        column = 0
        rowIsEmpty = true
        rowStart = offset
        lastCluster = nil
    }

    /// Draws `cell` at column `c` of the recorded row; a wide cluster half-covered loses its other
    /// half, as in xterm.
    private mutating func setCell(_ c: Int, _ cell: Cell) {
        let width: Int
        if case .glyph(_, let w, _) = cell { width = w } else { width = 1 }
        let end = min(columns, c + width)
        if c < columns, cells[c] == .continuation, c > 0 { cells[c - 1] = .empty }
        if end - 1 >= 0, end < columns, cells[end] == .continuation { cells[end] = .empty }
        cells[c] = cell
        for k in (c + 1)..<max(c + 1, end) { cells[k] = .continuation }
    }
}
