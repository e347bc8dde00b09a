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
    private(set) var countsRows: Bool

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
    /// Whether the cursor's row was reached by wrapping (a resize may reflow it).
    private(set) var rowWrapped = false
    /// Rows the cursor moved down since the model started (line feeds and wraps), while
    /// `countsRows` and nothing moved it in a way the model does not follow; nil after that.
    private(set) var row: Int? = 0
    /// The columns the cursor can be in when its exact column is unknown only because of clusters
    /// of uncertain width (nil when nothing is known): enough to tell whether a row wrapped.
    private(set) var columnBounds: ClosedRange<Int>? = 0...0
    /// Width of the cluster drawn last on this row, for scalars that join it later.
    private var lastClusterWidth: Int?

    private(set) var autowrapOff = false
    /// The input sent an escape sequence terminals read differently, with a byte ≥ 0x80 inside
    /// ESC or CSI (tmux 3.3a ignores the byte and the sequence goes on; xterm ends the sequence
    /// there and the bytes after it are text): what it did to the cursor, the pen and the modes is
    /// not known. From then on nothing is certain until RIS resets every terminal alike.
    private(set) var stateIsDisputed = false
    /// IRM (CSI 4 h): every character written inserts, so a repaint would push text right.
    private(set) var insertMode = false
    private(set) var alternateScreen = false
    private(set) var shiftedOut = false
    private(set) var nonASCIICharset = false
    private(set) var defaultTabStops = true
    /// The input may have set a scroll region (DECSTBM with parameters): a line feed at its
    /// bottom then moves only the rows inside it. Cleared by RIS and `CSI r`.
    private(set) var scrollRegionMayBeSet = false
    /// Whether the input left an OSC 8 hyperlink open.
    private(set) var hyperlinkOpen = false

    /// The pen the input has set (its SGR state).
    private(set) var pen = GraphicRendition()
    /// The terminal's SGR state is not known, because terminals disagree on what the input did to
    /// it (`CSI ? 1048 l` restores the saved pen in xterm, tmux 3.3a ignores it; `CSI 38;2;256;0;0 m`
    /// changes nothing in xterm, pyte takes it as a colour). Known again after an SGR reset.
    private(set) var penIsUnknown = false
    /// Counts the times the terminal replaced its pen by itself (DECRC, DECSTR, RIS): a follower
    /// that tracks what it wrote learns that the terminal's pen is `pen` again.
    private(set) var penReplacements = 0
    /// Counts the times what the cursor's row shows may have changed in a way a record of its
    /// cells cannot follow (a new row, a forgotten column, erased or shifted cells).
    private(set) var rowChanges = 0
    /// Whether the rows below the cursor are known to be blank: from the start (the cursor on the
    /// shell's fresh row) until the input moves the cursor in a way the model does not follow.
    private(set) var rowsBelowAreBlank = true
    /// Counts the rows the cursor reached by a line feed or a wrap while `rowsBelowAreBlank`: a
    /// record of the cursor's row that starts there starts from a blank row.
    private(set) var blankRowStarts = 0

    /// What DECSC (ESC 7, and CSI s or entering the 1049 alternate screen) saves: the pen and the
    /// character set state, one slot for each screen (xterm). `penIsUnknown` is set when terminals
    /// disagree on whether the slot was written.
    private struct SavedCursor: Equatable {
        var pen = GraphicRendition()
        var penIsUnknown = false
        var shiftedOut = false
        var nonASCIICharset = false
    }
    private var savedCursor: [SavedCursor?] = [nil, nil]
    private var screenIndex: Int { alternateScreen ? 1 : 0 }
    /// The slot written last, whichever screen it was on: tmux 3.3a keeps one slot for both
    /// screens where xterm keeps one each, so a restore is certain only where the two agree.
    private var lastSaved: SavedCursor?

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
        if rowsBelowAreBlank { blankRowStarts &+= 1 }
        rowWrapped = wrapped
        lastClusterWidth = nil
        if let r = row { row = r + 1 }
    }

    /// The terminal reported the cursor's column (after a resize that may have reflowed its row):
    /// the column is known again, pending wrap is off, and the row counts as reached by wrapping.
    mutating func cursorFound(column c: Int) {
        guard let columns, c < columns else { return }
        rowChanges &+= 1
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
        guard count > 0, let columns else { return }
        guard var c = column else {
            drawUncertain(low: count, high: count)
            return
        }
        var n = count
        if pendingWrap { newRow(wrapped: true); pendingWrap = false; c = 0 }
        while c + n > columns {
            n -= columns - c
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

    private mutating func drawUncertain(low: Int, high: Int) {
        let bounds = columnBounds
        forgetColumn()
        if let columns, let b = bounds, b.upperBound + high < columns {
            columnBounds = (b.lowerBound + low)...(b.upperBound + high)
        } else if columns != nil {
            row = nil  // it may have wrapped
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
        }
    }

    // MARK: Controls

    /// A C0 control (or DEL) is executed.
    mutating func control(_ byte: UInt8) {
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
    private mutating func disputeSequence() {
        penIsUnknown = true
        forgetColumn()
        forgetRow()
    }

    private mutating func runEmbeddedControls(_ bytes: ArraySlice<UInt8>) {
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

    private mutating func replacePen(_ newPen: GraphicRendition) {
        pen = newPen
        penReplacements &+= 1
    }

    // MARK: Sequences

    /// Follows one token that is not text: a control, an escape sequence or raw bytes. Text is
    /// drawn with `draw`, `drawText`, `drawUncertain` and `extend`, so that a writer can act
    /// between deciding on a wrap and drawing.
    mutating func apply(_ token: Token, _ store: ByteStore) {
        switch token {
        case .text(_, let count): drawText(count: count)
        case .cluster(_, _, let width, let certain): if certain { draw(width: width) } else { drawUncertain(width: width) }
        case .extend(_, _, let width, let certain): extend(width: width, certain: certain)
        case .control(_, let byte): control(byte)
        case .sequence(let s, let n, let kind): sequence(store[s..<(s + n)], kind: kind)
        case .raw(let s, let n): raw(store[s..<(s + n)])
        }
    }

    /// Bytes that are neither text nor a sequence (invalid UTF-8, C1 controls) were written: what
    /// they draw is up to the terminal. A C1 control, raw or written in UTF-8 (U+0080–U+009F), is
    /// acted on by some terminals (kitty takes U+009B as CSI, pyte U+009D as OSC) and shown or
    /// dropped by others, so after one the pen and the cursor are unknown until a reset says.
    mutating func raw(_ bytes: ArraySlice<UInt8>) {
        forgetColumn()
        var expected = 0  // continuation bytes the last lead byte asks for
        var lead: UInt8 = 0
        for byte in bytes {
            let isContinuation = (0x80...0xBF).contains(byte) && expected > 0
            let isC1 = (0x80...0x9F).contains(byte) && (!isContinuation || (lead == 0xC2 && expected == 1))
            if isC1 {
                penIsUnknown = true
                forgetRow()
                return
            }
            if isContinuation {
                expected -= 1
            } else {
                lead = byte
                expected = byte >= 0xF0 ? 3 : byte >= 0xE0 ? 2 : byte >= 0xC0 ? 1 : 0
            }
        }
    }

    /// An escape sequence `bytes` (whole, from its ESC) of `kind` is executed.
    mutating func sequence(_ bytes: ArraySlice<UInt8>, kind: SequenceKind) {
        switch kind {
        case .csi(0x6D, 0, false, let controls):
            selectGraphicRendition(bytes, hasControls: controls)
            return
        case .csi, .escape, .operatingSystemCommand, .controlString:
            break
        default:
            // The terminal ran the C0 controls before the introducer (ECMA-48 / VT500 parser). An SO
            // stops the fade; an SI is not trusted (it might sit in a string the terminal ignored).
            if bytes.dropFirst().contains(0x0E) { shiftedOut = true }
        }
        switch kind {
        case .csi(let final, let marker, let intermediates, let controls):
            if controls { runEmbeddedControls(bytes) }
            if intermediates && final == 0x70 && bytes.contains(0x21) {  // DECSTR: CSI ! p
                replacePen(GraphicRendition())
                penIsUnknown = false
                // VT510 resets the saved cursor state too, tmux 3.3a does not.
                for i in savedCursor.indices { savedCursor[i]?.penIsUnknown = true }
                lastSaved?.penIsUnknown = true
                shiftedOut = false
                nonASCIICharset = false
                autowrapOff = true  // VT510: soft reset turns autowrap off; stay safe until ?7h
            }
            guard !intermediates else { forgetColumn(); return }
            csi(final: final, privateMarker: marker, parameters: Self.csiParameters(bytes, hasControls: controls))
            if controls && Self.hasDisputedControls(bytes) { disputeSequence() }
        case .escape(let final, let intermediate):
            // A C0 control inside the sequence was run by the terminal (a CR moves the cursor).
            let controls = bytes.dropFirst().contains(where: { $0 < 0x20 || $0 == 0x7F })
            if controls { runEmbeddedControls(bytes) }
            escape(final: final, intermediate: intermediate)
            if controls { forgetColumn() }
            if controls && Self.hasDisputedControls(bytes) { disputeSequence() }
        case .operatingSystemCommand:
            let body = bytes.dropFirst(2)
            if body.starts(with: [0x38, 0x3B]) {  // "8;params;URI"
                let fields = body.split(separator: 0x3B, maxSplits: 2, omittingEmptySubsequences: false)
                let uri = fields.count == 3 ? fields[2].prefix { $0 != 0x07 && $0 != 0x1B } : []
                hyperlinkOpen = !uri.isEmpty
            }
        case .controlString:
            break
        case .singleShift:
            forgetColumn()
            forgetRow()
        case .broken:
            if Self.hasDisputedBytes(bytes) {
                stateIsDisputed = true
                penIsUnknown = true
            }
            forgetColumn()
            forgetRow()
        }
    }

    /// Whether the broken sequence `bytes` has a byte ≥ 0x80 in its ESC or CSI part, which
    /// terminals parse differently (see `stateIsDisputed`); inside an OSC or DCS string such bytes
    /// are the string's text to all of them.
    private static func hasDisputedBytes(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard bytes.first == 0x1B else { return false }
        var rest = bytes.dropFirst()
        while let b = rest.first {
            if b >= 0x80 { return true }
            if b >= 0x20 && b != 0x7F {
                // OSC, DCS, SOS, PM, APC: a string follows.
                if b == 0x5D || b == 0x50 || b == 0x58 || b == 0x5E || b == 0x5F { return false }
                return rest.contains { $0 >= 0x80 }
            }
            rest = rest.dropFirst()
        }
        return false
    }

    /// Something other than the input moved the cursor (the job was stopped and continued, and
    /// the shell wrote its prompt): neither the column nor the row is known any more.
    mutating func cursorMovedElsewhere() {
        forgetColumn()
        forgetRow()
    }

    /// DECSC; `certain` is false for a save some terminals do not make (`CSI ? 1048 h` in tmux
    /// 3.3a, `CSI Ps s` with parameters in the VirtualTerminal's xterm reading).
    private mutating func saveCursor(certain: Bool = true) {
        let old = savedCursor[screenIndex]
        let differs = old.map { $0.penIsUnknown || $0.pen != pen } ?? !pen.isDefault
        savedCursor[screenIndex] = SavedCursor(
            pen: pen, penIsUnknown: penIsUnknown || (!certain && differs),
            shiftedOut: shiftedOut || (!certain && old?.shiftedOut == true),
            nonASCIICharset: nonASCIICharset || (!certain && old?.nonASCIICharset == true))
        lastSaved = savedCursor[screenIndex]
    }

    /// DECRC; `certain` is false for a restore some terminals do not make (`CSI ? 1048 l` in tmux
    /// 3.3a, `CSI Ps u` with parameters in the VirtualTerminal's xterm reading): then the pen is
    /// unknown, and SO or a non-ASCII character set on either side keeps fading off.
    private mutating func restoreCursor(certain: Bool = true) {
        let saved = savedCursor[screenIndex] ?? SavedCursor()
        // One slot per screen (xterm) or one for both (tmux): unsure unless both give the same.
        if certain && saved == (lastSaved ?? SavedCursor()) {
            replacePen(saved.pen)
            penIsUnknown = saved.penIsUnknown
            shiftedOut = saved.shiftedOut
            nonASCIICharset = saved.nonASCIICharset
        } else {
            let shared = lastSaved ?? SavedCursor()
            penIsUnknown = penIsUnknown || saved.penIsUnknown || saved.pen != pen || shared.penIsUnknown || shared.pen != pen
                || (certain && saved.pen != shared.pen)
            shiftedOut = shiftedOut || saved.shiftedOut
            nonASCIICharset = nonASCIICharset || saved.nonASCIICharset
        }
        forgetColumn()
        forgetRow()
    }

    private mutating func csi(final: UInt8, privateMarker: UInt8, parameters: ArraySlice<UInt8>) {
        // The private marker (`?` in `CSI ? 1049 h`) comes before the parameters.
        let parameters = privateMarker != 0 ? parameters.dropFirst() : parameters
        let params = parameters.split(separator: 0x3B, omittingEmptySubsequences: false).map { field -> Int in
            var v = 0
            for b in field { guard b >= 0x30 && b <= 0x39 else { break }; v = min(v * 10 + Int(b - 0x30), 1 << 20) }
            return v
        }
        func param(_ i: Int, default d: Int) -> Int { i < params.count && params[i] > 0 ? params[i] : d }
        if privateMarker == 0x3F {  // DEC private modes
            guard final == 0x68 || final == 0x6C else { forgetColumn(); forgetRow(); return }
            let set = final == 0x68
            for mode in params {
                switch mode {
                case 7:
                    autowrapOff = !set
                    if !set { forgetColumn() }  // without autowrap the margin behaves differently
                case 1048:
                    if set { saveCursor(certain: false) } else { restoreCursor(certain: false) }
                case 1049:
                    // Outside the alternate screen, leaving it does nothing (tmux; xterm differs).
                    if set { if !alternateScreen { saveCursor() }; alternateScreen = true } else if alternateScreen { alternateScreen = false; restoreCursor() }
                    forgetColumn()
                    forgetRow()
                case 47, 1047: alternateScreen = set; forgetColumn(); forgetRow()
                case 25, 2026, 1, 12, 1000...1006, 2004: break
                default: forgetColumn(); forgetRow()
                }
            }
            return
        }
        if privateMarker == 0 && (final == 0x68 || final == 0x6C) {  // SM, RM
            if params.contains(4) { insertMode = final == 0x68 }
            return
        }
        if privateMarker == 0 && final == 0x72 { scrollRegionMayBeSet = !parameters.isEmpty }  // DECSTBM
        guard privateMarker == 0, let width = columns else {
            forgetColumn()
            forgetRow()
            return
        }
        switch final {
        case 0x47, 0x60:  // CHA, HPA
            column = min(param(0, default: 1), width) - 1
            pendingWrap = false
            lastClusterWidth = nil
        case 0x48, 0x66:  // CUP
            newRow(wrapped: false)
            forgetRow()
            column = min(param(1, default: 1), width) - 1
            pendingWrap = false
        case 0x43:  // CUF
            if let c = column, !pendingWrap { column = min(width - 1, c + param(0, default: 1)) } else { forgetColumn() }
            lastClusterWidth = nil
        case 0x44:  // CUB
            if let c = column, !pendingWrap { column = max(0, c - param(0, default: 1)) } else { forgetColumn() }
            lastClusterWidth = nil
        case 0x41, 0x42, 0x4A, 0x53, 0x54:  // CUU, CUD, ED, SU, SD: same column
            newRow(wrapped: false)
            forgetRow()
            if pendingWrap { forgetColumn() }
        case 0x4C, 0x4D:
            // IL, DL: xterm (and the VT510) return to the left margin, but only when the cursor is
            // inside the scroll region, which this model does not follow; tmux 3.3a never moves the
            // cursor. So the column is still known only where all of them leave it: column 0.
            newRow(wrapped: false)
            forgetRow()
            if column != 0 || pendingWrap { forgetColumn() }
        case 0x73:  // SCOSC (CSI s), as DECSC in xterm; tmux also saves when there are parameters
            saveCursor(certain: parameters.isEmpty)
        case 0x75:  // SCORC (CSI u); tmux also restores when there are parameters
            restoreCursor(certain: parameters.isEmpty)
        case 0x4B, 0x58, 0x40, 0x50:  // EL, ECH, ICH, DCH: this row changes
            rowChanges &+= 1
            if pendingWrap { forgetColumn() }
            if final != 0x4B && final != 0x58 { lastClusterWidth = nil }
        case 0x45, 0x46:  // CNL, CPL
            newRow(wrapped: false)
            forgetRow()
            column = 0
            pendingWrap = false
        case 0x67:  // TBC
            defaultTabStops = false
        case 0x6E, 0x63, 0x74, 0x71, 0x70:  // DSR, DA, window ops, DECLL, DECSCL…: no movement
            break
        default:
            forgetColumn()
            forgetRow()
        }
    }

    private mutating func escape(final: UInt8, intermediate: UInt8) {
        switch (intermediate, final) {
        case (0x28, _):  // designate G0
            nonASCIICharset = final != 0x42
        case (0x29, _), (0x2A, _), (0x2B, _), (0x2D, _), (0x2E, _), (0x2F, _):
            break  // G1–G3 only matter after SO, which stops fading by itself
        case (0, 0x37):  // DECSC
            saveCursor()
        case (0, 0x38):  // DECRC: position, pen and character sets come back
            restoreCursor()
        case (0, 0x3D), (0, 0x3E):  // keypad modes
            break
        case (0, 0x45):  // NEL
            newRow(wrapped: false)
            column = columns == nil ? nil : 0
            pendingWrap = false
        case (0, 0x44), (0, 0x4D):  // IND, RI
            newRow(wrapped: false)
            if final == 0x4D { forgetRow() }
            if pendingWrap { forgetColumn() }
        case (0, 0x48):  // HTS
            defaultTabStops = false
        case (0, 0x63):  // RIS: everything resets
            replacePen(GraphicRendition())
            penIsUnknown = false
            autowrapOff = false; alternateScreen = false; nonASCIICharset = false; shiftedOut = false
            insertMode = false
            scrollRegionMayBeSet = false
            stateIsDisputed = false
            savedCursor = [nil, nil]
            lastSaved = nil
            defaultTabStops = true
            forgetColumn()
            forgetRow()
        default:
            forgetColumn()
            forgetRow()
        }
    }
}
