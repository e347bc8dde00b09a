/// Where a terminal `columns` cells wide draws the input, row by row, as `cat` would leave it, as
/// the one `TerminalModel` follows it (autowrap with pending wrap, early wrap of a wide cluster,
/// CR, LF with ONLCR, TAB stops; docs/terminals.md, docs/widths.md), with the rows counted and one row's cells
/// recorded.
///
/// Rows are counted from the row the input starts on (row 0, assumed to start at column 0). The
/// cells of one row, `recordedRow`, are kept so that it can be repainted: the collapsed view's
/// last row. `lost` is set once the model can no longer tell the row (cursor movement sequences,
/// text drawn where it may have wrapped after a cluster of uncertain width, invalid bytes at the
/// margin), or the recorded row holds a cluster whose width terminals disagree on.
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
    let recordedRow: Int
    /// The cells of `recordedRow`, `columns` of them (all empty until the input reaches it).
    private(set) var cells: [Cell]
    /// The terminal as the input leaves it.
    private var model: TerminalModel
    /// The cursor's row (the last one known once `lost`).
    private(set) var row = 0
    /// The input's SGR state at the cursor.
    var pen: GraphicRendition { model.pen }
    /// Whether nothing has been drawn on the cursor's row yet.
    private(set) var rowIsEmpty = true
    /// Offset of the first input byte that belongs to the cursor's row.
    private(set) var rowStart = 0
    /// Whether the input did something after which the rows, or the recorded row's cells, are
    /// not certain.
    private(set) var lost = false
    /// The last cluster drawn on the recorded row: where, and its bytes (a later mark joins it).
    private var lastRecorded: (column: Int, bytes: Range<Int>)?

    init(columns: Int, newlineReturnsCarriage: Bool = true, recordedRow: Int) {
        self.columns = max(1, columns)
        self.recordedRow = recordedRow
        self.cells = Array(repeating: .empty, count: max(1, columns))
        self.model = TerminalModel(columns: max(1, columns), newlineReturnsCarriage: newlineReturnsCarriage, countsRows: true)
    }

    /// Whether the cursor is at the start of a row with nothing on it (where a label can go).
    var atEmptyRowStart: Bool { rowIsEmpty && model.column == 0 }

    /// The column the next cell can start in, at the latest (nil when not even bounded).
    private var latestColumn: Int? { model.column ?? model.columnBounds?.upperBound }

    /// The row `token`'s first cell lands on, or nil when it draws nothing and moves nowhere new.
    /// An LF, VT, FF or TAB counts as landing on the row it acts on.
    func landingRow(of token: Token) -> Int? {
        switch token {
        case .text:
            guard let c = latestColumn else { return row }
            return c >= columns ? row + 1 : row
        case .cluster(_, _, let width, _):
            guard width > 0 else { return nil }
            guard let c = latestColumn else { return row }
            return c >= columns || c + width > columns ? row + 1 : row
        case .control(_, let byte):
            return [0x0A, 0x0B, 0x0C, 0x09].contains(byte) ? row : nil
        case .extend, .sequence, .raw:
            return nil
        }
    }

    /// How many bytes of an ASCII run starting at the cursor land on rows before `limit` (all of
    /// them when the column is not even bounded: following them loses the row).
    func textBytesFitting(before limit: Int) -> Int {
        guard limit > row else { return 0 }
        guard let c = latestColumn else { return .max }
        let wholeRows = (limit - row - 1) * columns
        return c >= columns ? wholeRows : (columns - c) + wholeRows
    }

    /// Follows one token; `store` holds its bytes.
    mutating func apply(_ token: Token, _ store: ByteStore) {
        switch token {
        case .text(let start, let count):
            applyText(start: start, count: count)
        case .cluster(let start, let length, let width, let certain):
            applyCluster(start..<(start + length), width: width, certain: certain)
        case .extend(let start, let length, let width, let certain):
            let onRecordedRow = row == recordedRow
            model.extend(width: width, certain: certain)
            if onRecordedRow, let last = lastRecorded, last.bytes.upperBound == start,
               case .glyph(let old, let w, let cellPen) = cells[last.column], certain, w == width {
                cells[last.column] = .glyph(bytes: old.lowerBound..<(start + length), width: width, pen: cellPen)
                lastRecorded = (last.column, old.lowerBound..<(start + length))
            } else if onRecordedRow {
                lost = true  // the recorded cells may have moved
            }
            followRow(at: start)
        case .control(let start, let byte):
            model.control(byte)
            if byte == 0x09 { rowIsEmpty = false }
            lastRecorded = nil
            followRow(at: start + 1)
        case .sequence(let start, let length, let kind):
            let erases: Bool
            if case .csi(0x4B, 0, false, false) = kind { erases = true } else { erases = false }
            let column = model.column
            model.sequence(store[start..<(start + length)], kind: kind)
            if erases && row == recordedRow {
                // EL: the recorded row loses the erased cells.
                guard let c = column, c < columns else { lost = true; return }
                let mode = Int(String(decoding: store[(start + 2)..<(start + length - 1)], as: UTF8.self)) ?? 0
                let range = mode == 0 ? c..<columns : mode == 1 ? 0..<(c + 1) : 0..<columns
                for k in range where k < columns { setCell(k, .empty) }
            }
            if !kind.isSelectGraphicRendition { lastRecorded = nil }
            followRow(at: start + length)
        case .raw(let start, let length):
            model.apply(token, store)
            if row == recordedRow { lost = true }  // drawn as terminals choose
            lastRecorded = nil
            followRow(at: start + length)
        }
    }

    /// Follows the first `count` bytes of an ASCII run.
    mutating func applyText(start: Int, count: Int) {
        var s = start
        var n = count
        while n > 0 {
            guard var c = model.column else {
                model.drawText(count: n)
                rowIsEmpty = false
                if row == recordedRow { lost = true }
                followRow(at: s)
                return
            }
            if c >= columns { c = 0 }
            let take = min(n, columns - c)
            model.drawText(count: take)
            followRow(at: s)
            if row == recordedRow {
                for i in 0..<take { setCell(c + i, .glyph(bytes: (s + i)..<(s + i + 1), width: 1, pen: pen)) }
                lastRecorded = (c + take - 1, (s + take - 1)..<(s + take))
            }
            s += take
            n -= take
            rowIsEmpty = false
        }
    }

    private mutating func applyCluster(_ bytes: Range<Int>, width: Int, certain: Bool) {
        guard width > 0 else {
            // Zero width: joins the cell before it, where terminals put it; nothing moves.
            if row == recordedRow, let last = lastRecorded, last.bytes.upperBound == bytes.lowerBound,
               case .glyph(let old, let w, let cellPen) = cells[last.column] {
                cells[last.column] = .glyph(bytes: old.lowerBound..<bytes.upperBound, width: w, pen: cellPen)
                lastRecorded = (last.column, old.lowerBound..<bytes.upperBound)
            }
            return
        }
        let wraps = model.wraps(beforeDrawing: width)
        let column = wraps ? 0 : model.column
        if certain { model.draw(width: width) } else { model.drawUncertain(width: width) }
        followRow(at: bytes.lowerBound)
        rowIsEmpty = false
        guard row == recordedRow else { return }
        if let c = column, certain, width <= columns {
            setCell(c, .glyph(bytes: bytes, width: width, pen: pen))
            lastRecorded = (c, bytes)
        } else {
            lost = true  // where the recorded row's cells are is not certain
        }
    }

    /// Takes the model's row after a token that ends at `offset` (a new row starts there, or at
    /// the wrapped cluster that begins there).
    private mutating func followRow(at offset: Int) {
        guard let r = model.row else {
            lost = true
            return
        }
        if r != row {
            row = r
            rowIsEmpty = true
            rowStart = offset
            lastRecorded = nil
        }
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
