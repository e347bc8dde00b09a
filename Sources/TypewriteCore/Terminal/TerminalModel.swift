/// What a terminal does with the input's tokens, as far as the terminals typewrite runs on agree:
/// the cursor's column and pending wrap, the rows it moved down, the pen (SGR state), the modes
/// that change how text is drawn, the saved cursor slots, and how certain each of these is.
///
/// The one model of the terminal: the fade renderer follows what it writes with it, the collapsed
/// view measures the rows of text it holds with it, the timestamps read the pen from it. It writes
/// nothing; a follower feeds it each token it passes on, in order.
///
/// Rules (ECMA-48; xterm ctlseqs; the VT500 parser of vt100.net; docs/terminals.md, docs/widths.md):
/// - Autowrap with pending wrap: drawing into the last column leaves the cursor there with the next
///   cluster wrapping first (`column == columns`); a wide cluster that does not fit wraps early.
/// - CR goes to column 0, LF to the next row (and column 0 when the tty has ONLCR), TAB to the next
///   multiple of 8 while the input has not changed the tab stops.
/// - Where terminals disagree (BS at the margins, DEL, a restore xterm and tmux read differently,
///   a cluster of uncertain width) the column becomes unknown, and is known again at the next CR or
///   absolute move; the row count is lost once text is drawn where it may have wrapped, or the
///   cursor moved vertically in a way the model does not follow (CUU, CUP, scrolling, DECRC).
struct TerminalModel: Sendable {
    /// The tty turns LF into CR LF (ONLCR).
    let newlineReturnsCarriage: Bool
    /// Whether `row` is kept: a follower that passes every line feed on counts rows; the fade
    /// renderer writes floods of lines in bulk and does not.
    var countsRows: Bool

    /// Terminal width in cells, when known.
    var columns: Int? {
        didSet { if columns == nil { forgetColumn() } }
    }
    /// The cursor's column (0-based), when known; `columns` itself is pending wrap. Never known
    /// while autowrap is off: the cursor then stays on the last column instead of wrapping, which
    /// this model does not follow; nor once terminals may have parted ways (`stateIsDisputed`).
    var column: Int? {
        didSet {
            if (autowrapOff || stateIsDisputed) && column != nil { column = nil }
            columnBounds = column.map { $0...$0 }
        }
    }
    /// Whether the next cluster wraps before it is drawn.
    var pendingWrap = false
    /// Where the cursor's row starts in its logical line (the text since the last line feed, which
    /// a terminal that reflows rewraps as one), in cells: 0 on a row a line feed began, one row's
    /// width more for each wrap of a full row; nil when not known (an early wrap of a wide
    /// cluster left a cell blank, or a width or move the model does not follow).
    var rowStartOffset: Int? = 0
    /// The cursor's place in its logical line, in cells (`rowStartOffset` plus the column; a
    /// cursor in pending wrap counts as after the last cell).
    var lineOffset: Int? {
        guard let start = rowStartOffset, let c = column else { return nil }
        return start + c
    }
    /// Whether the cursor's row was reached by wrapping (a resize may reflow it).
    var rowWrapped = false
    /// Cells the last wrap left blank at the end of the row before: 0 for a full row, 1 when a
    /// wide cluster did not fit in the last column; nil when not known.
    var lastWrapGap: Int? = 0
    /// Rows the cursor moved down since the model started (line feeds and wraps), while
    /// `countsRows` and nothing moved it in a way the model does not follow; nil after that.
    var row: Int? = 0
    /// The columns the cursor can be in when its exact column is unknown only because of clusters
    /// of uncertain width (nil when nothing is known): enough to tell whether a row wrapped.
    var columnBounds: ClosedRange<Int>? = 0...0
    /// Width of the cluster drawn last on this row, for scalars that join it later.
    var lastClusterWidth: Int?

    var autowrapOff = false
    /// The input sent an escape sequence terminals read differently, with a byte ≥ 0x80 inside
    /// ESC or CSI (tmux 3.3a ignores the byte and the sequence goes on; xterm ends the sequence
    /// there and the bytes after it are text): what it did to the cursor, the pen and the modes is
    /// not known. From then on nothing is certain until RIS resets every terminal alike.
    var stateIsDisputed = false
    /// The last bytes that were no character ended in the middle of a UTF-8 sequence (a lead byte
    /// without all its continuation bytes), and only escape sequences came since. tmux 3.3a then
    /// drops the next non-ASCII character whole (`\xE2\x82 CSI G カ` shows nothing), where
    /// xterm draws it; a C0 control or printable ASCII ends the state in both
    /// (`docs/terminals.md#broken-utf-8`).
    var utf8Interrupted = false
    /// IRM (CSI 4 h): every character written inserts, so a repaint would push text right.
    var insertMode = false
    var alternateScreen = false
    var shiftedOut = false
    var nonASCIICharset = false
    var defaultTabStops = true
    /// The input may have set a scroll region (DECSTBM with parameters): a line feed at its
    /// bottom then moves only the rows inside it. Cleared by RIS and `CSI r`.
    var scrollRegionMayBeSet = false
    /// Whether the input left an OSC 8 hyperlink open.
    var hyperlinkOpen = false

    /// The pen the input has set (its SGR state).
    var pen = GraphicRendition()
    /// The terminal's SGR state is not known, because terminals disagree on what the input did to
    /// it (`CSI ? 1048 l` restores the saved pen in xterm, tmux 3.3a ignores it; `CSI 38;2;256;0;0 m`
    /// changes nothing in xterm, pyte takes it as a colour). Known again after an SGR reset.
    var penIsUnknown = false
    /// Counts the times the terminal replaced its pen by itself (DECRC, DECSTR, RIS): a follower
    /// that tracks what it wrote learns that the terminal's pen is `pen` again.
    var penReplacements = 0
    /// Counts the times what the cursor's row shows may have changed in a way a record of its
    /// cells cannot follow (a new row, a forgotten column, erased or shifted cells).
    var rowChanges = 0
    /// Whether the rows below the cursor are known to be blank: from the start (the cursor on the
    /// shell's fresh row) until the input moves the cursor in a way the model does not follow.
    var rowsBelowAreBlank = true
    /// Counts the rows the cursor reached by a line feed or a wrap while `rowsBelowAreBlank`: a
    /// record of the cursor's row that starts there starts from a blank row.
    var blankRowStarts = 0
    /// `rowChanges` when the cursor last reached a blank row: equal to `rowChanges` while nothing
    /// changed the row since (what came before, on other rows, does not matter).
    var rowChangesAtBlankRowStart = 0

    /// What DECSC (ESC 7, and CSI s or entering the 1049 alternate screen) saves: the pen and the
    /// character set state, one slot for each screen (xterm). `penIsUnknown` is set when terminals
    /// disagree on whether the slot was written.
    struct SavedCursor: Equatable {
        var pen = GraphicRendition()
        var penIsUnknown = false
        var shiftedOut = false
        var nonASCIICharset = false
    }
    var savedCursor: [SavedCursor?] = [nil, nil]
    var screenIndex: Int { alternateScreen ? 1 : 0 }
    /// The slot written last, whichever screen it was on: tmux 3.3a keeps one slot for both
    /// screens where xterm keeps one each, so a restore is certain only where the two agree.
    var lastSaved: SavedCursor?

    /// - Parameters:
    ///   - columns: the terminal's width in cells, when known (the cursor starts in column 0).
    ///   - newlineReturnsCarriage: the tty's ONLCR.
    ///   - countsRows: whether to keep `row`.
    init(columns: Int?, newlineReturnsCarriage: Bool = true, countsRows: Bool = false) {
        self.newlineReturnsCarriage = newlineReturnsCarriage
        self.countsRows = countsRows
        self.columns = columns
        self.column = columns == nil ? nil : 0
        self.columnBounds = self.column.map { $0...$0 }
        if !countsRows { row = nil }
    }

    /// Whether a new cell may fade in the current state: the cursor is where the model thinks, no
    /// mode changes what a repaint would do, and the pen is known.
    var allowsRepaint: Bool {
        column != nil && !autowrapOff && !alternateScreen && !insertMode && !shiftedOut && !nonASCIICharset && !penIsUnknown
    }

    // MARK: Rows and columns

    /// The cursor is on a new row (reached by wrapping when `wrapped`).
    mutating func newRow(wrapped: Bool) {
        rowChanges &+= 1
        if rowsBelowAreBlank {
            blankRowStarts &+= 1
            rowChangesAtBlankRowStart = rowChanges
        }
        if wrapped {
            if pendingWrap || column == columns { lastWrapGap = 0 } else { lastWrapGap = columns.flatMap { w in column.map { w - $0 } } }
            // A full row wrapped: the next one goes on with the same logical line.
            if let start = rowStartOffset, let columns, pendingWrap || column == columns { rowStartOffset = start + columns } else { rowStartOffset = nil }
        } else {
            rowStartOffset = 0
        }
        rowWrapped = wrapped
        lastClusterWidth = nil
        if let r = row { row = r + 1 }
    }

    /// The terminal reported the cursor's column (after a resize that may have reflowed its row):
    /// the column is known again, pending wrap is off, and the row counts as reached by wrapping.
    /// - Parameter lineOffset: the cursor's place in its logical line, which a reflow keeps.
    mutating func cursorFound(column c: Int, lineOffset: Int?) {
        guard let columns, c < columns else { return }
        rowChanges &+= 1
        rowStartOffset = lineOffset.map { $0 - c }
        column = c
        pendingWrap = false
        rowWrapped = true
        lastClusterWidth = nil
    }

    /// Something moved the cursor to a column the model cannot tell.
    mutating func forgetColumn() {
        column = nil
        rowChanges &+= 1
        lastClusterWidth = nil
    }

    /// The cursor moved vertically in a way the model does not follow.
    mutating func forgetRow() {
        row = nil
        rowStartOffset = nil
        rowsBelowAreBlank = false
    }

    /// Counts rows from here: the cursor's row is row 0 (a follower that starts counting late, or
    /// starts again after the count was lost, and forgot every row it knew of before).
    mutating func startCountingRows() {
        countsRows = true
        row = 0
    }

    /// Whether a cluster `width` cells wide wraps to a new row before it is drawn.
    func wraps(beforeDrawing width: Int) -> Bool {
        guard let columns, let c = column, width > 0 else { return false }
        return pendingWrap || c + width > columns
    }

    /// A cluster of certain width `width` (UAX #11, as the tokenizer counts) is drawn.
    mutating func draw(width: Int) {
        guard width > 0 else { return }  // zero width: joins the cell before it, nothing moves
        guard let columns else { return }
        guard var c = column else {
            drawUncertain(low: width, high: width)
            return
        }
        if pendingWrap || c + width > columns {
            newRow(wrapped: true)
            pendingWrap = false
            c = 0
            column = 0
            if width > columns {  // wider than the screen: where it ends is unknown
                forgetColumn()
                return
            }
        }
        if c + width >= columns {
            column = columns
            pendingWrap = true
        } else {
            column = c + width
        }
        lastClusterWidth = width
    }

    /// `count` one-cell clusters (printable ASCII) are drawn.
    mutating func drawText(count: Int) {
        utf8Interrupted = false
        guard count > 0, let columns else { return }
        guard var c = column else {
            drawUncertain(low: count, high: count)
            return
        }
        var n = count
        if pendingWrap { newRow(wrapped: true); pendingWrap = false; c = 0 }
        while c + n > columns {
            n -= columns - c
            column = columns  // the row is full
            newRow(wrapped: true)
            c = 0
        }
        column = c + n
        pendingWrap = c + n >= columns
        lastClusterWidth = 1
    }

    /// A cluster whose width terminals disagree on (`width` by the tokenizer's count) is drawn:
    /// the column is unknown from here, the row only if it may have wrapped.
    mutating func drawUncertain(width: Int) {
        drawUncertain(low: 1, high: max(2, width))
    }

    mutating func drawUncertain(low: Int, high: Int) {
        let bounds = columnBounds
        forgetColumn()
        if let columns, let b = bounds, b.upperBound + high < columns {
            columnBounds = (b.lowerBound + low)...(b.upperBound + high)
        } else if columns != nil {
            row = nil  // it may have wrapped
            rowStartOffset = nil
        }
    }

    /// Scalars join the cluster drawn last (a combining mark or joiner that came in a later
    /// token); `width` and `certain` describe the whole cluster as it now stands.
    mutating func extend(width: Int, certain: Bool) {
        rowChanges &+= 1
        if certain, let last = lastClusterWidth, last == width { return }
        let bounds = columnBounds
        let delta = lastClusterWidth.map { width - $0 }
        forgetColumn()
        if let columns, let b = bounds, let delta, certain, b.upperBound + max(0, delta) < columns {
            columnBounds = max(0, b.lowerBound + min(0, delta))...(b.upperBound + max(0, delta))
        } else if let columns, let b = bounds, b.upperBound + 2 < columns {
            columnBounds = b.lowerBound...(b.upperBound + 2)
        } else if columns != nil {
            row = nil
            rowStartOffset = nil
        }
    }

    // MARK: Controls

    /// A C0 control (or DEL) is executed.
    mutating func control(_ byte: UInt8) {
        utf8Interrupted = false
        switch byte {
        case 0x0D:  // CR
            if columns != nil && !autowrapOff { column = 0 }
            pendingWrap = false
            lastClusterWidth = nil
        case 0x0A, 0x0B, 0x0C:  // LF, VT, FF
            let bounds = columnBounds
            newRow(wrapped: false)
            if byte == 0x0A && newlineReturnsCarriage && columns != nil && !autowrapOff {
                column = 0
                pendingWrap = false
            } else if pendingWrap {
                forgetColumn()
            } else if column == nil, let b = bounds, let columns {
                columnBounds = min(b.lowerBound, columns - 1)...min(b.upperBound, columns - 1)
            }
        case 0x09:  // TAB: stops every 8 columns unless the input changed them
            if let c = column, let width = columns, !pendingWrap, defaultTabStops {
                column = min(width - 1, (c / 8 + 1) * 8)
            } else if column == nil, defaultTabStops, let b = columnBounds, let width = columns, b.upperBound < width {
                let bounds = min(width - 1, (b.lowerBound / 8 + 1) * 8)...min(width - 1, (b.upperBound / 8 + 1) * 8)
                forgetColumn()
                columnBounds = bounds
            } else {
                forgetColumn()
            }
            lastClusterWidth = nil
        case 0x08:  // BS: margins disagree at pending wrap and column 0 (docs/terminals.md#pending-wrap)
            if let c = column, !pendingWrap, c > 0 { column = c - 1 } else { forgetColumn() }
            lastClusterWidth = nil
        case 0x0E: shiftedOut = true
        case 0x0F: shiftedOut = false
        case 0x7F, 0x18, 0x1A:
            // DEL: xterm and tmux ignore it, urxvt draws a glyph for it. CAN, SUB: the VT100
            // draws its error character for them, xterm and tmux draw nothing.
            forgetColumn()
        default:  // NUL, BEL, …: nothing moves
            break
        }
    }

    /// Runs the C0 controls embedded in a sequence (after its first byte), in order: the VT500
    /// parser executes a C0 control met inside ESC or CSI and the sequence goes on (`ESC NUL [ ? 7 l`
    /// is still DECRST 7). DEL inside is ignored by that parser; not all terminals are known to, so
    /// the column is forgotten.
    /// Whether `bytes` (a sequence, from its ESC) holds a C0 control other than the format
    /// effectors BS, TAB, LF, VT, FF and CR. xterm runs any C0 control inside ESC or CSI and goes on
    /// with the sequence (the VT500 parser), kitty 0.26 runs those six the same way but ends the
    /// sequence at others (`ESC [ 31 NAK NUL m` leaves the pen as it was and draws `m`).
    static func hasDisputedControls(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.dropFirst().contains { ($0 < 0x08 || (0x0E...0x1F).contains($0)) && $0 != 0x1B }
    }

    /// A sequence terminals may have read in different ways: its effect on the pen and the cursor
    /// is not known (the pen until an SGR reset, the column until CR or an absolute move).
    mutating func disputeSequence() {
        penIsUnknown = true
        forgetColumn()
        forgetRow()
    }

    mutating func runEmbeddedControls(_ bytes: ArraySlice<UInt8>) {
        for byte in bytes.dropFirst() where byte < 0x20 || byte == 0x7F {
            if byte == 0x7F { forgetColumn(); continue }
            control(byte)
        }
    }

    /// The parameter bytes of the CSI `bytes` (after `[`, before the final byte), without the C0
    /// controls and DEL a terminal executes or ignores in them.
    static func csiParameters(_ bytes: ArraySlice<UInt8>, hasControls: Bool) -> ArraySlice<UInt8> {
        guard hasControls else { return bytes.dropFirst(2).dropLast() }
        guard let open = bytes.dropFirst().firstIndex(of: 0x5B) else { return [] }
        return ArraySlice(bytes[(open + 1)..<(bytes.endIndex - 1)].filter { $0 >= 0x20 && $0 != 0x7F })
    }

    // MARK: Pens

    /// The pen an SGR with `parameters` would leave, and how certain that is; nothing changes.
    func pen(afterSGR parameters: some Collection<UInt8>) -> (GraphicRendition, GraphicRendition.Outcome) {
        var next = pen
        let outcome = next.apply(parameters: parameters)
        return (next, outcome)
    }

    /// The input's SGR `bytes` (`CSI … m`, whole, C0 controls inside when `hasControls`) took effect.
    mutating func selectGraphicRendition(_ bytes: ArraySlice<UInt8>, hasControls: Bool) {
        if hasControls { runEmbeddedControls(bytes) }
        let (next, outcome) = pen(afterSGR: Self.csiParameters(bytes, hasControls: hasControls))
        take(pen: next, outcome: outcome)
        if hasControls && Self.hasDisputedControls(bytes) { disputeSequence() }
    }

    /// An SGR took effect that `pen(afterSGR:)` read as `next` with `outcome`: a reset makes the
    /// pen known, a parameter terminals read differently makes it unknown.
    mutating func take(pen next: GraphicRendition, outcome: GraphicRendition.Outcome) {
        pen = next
        if outcome.reset && !stateIsDisputed { penIsUnknown = false }
        if outcome.ambiguous { penIsUnknown = true }
    }

    mutating func replacePen(_ newPen: GraphicRendition) {
        pen = newPen
        penReplacements &+= 1
    }
}
