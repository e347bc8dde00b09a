// TerminalModel+Sequences.swift: what escape sequences do to the cursor, the modes and the
// pen (ECMA-48 CSI and ESC finals, DECSC/DECRC; xterm ctlseqs). See TerminalModel.swift.

extension TerminalModel {
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
    /// acted on by some terminals (kitty takes U+009B as CSI, U+0085 as NEL; pyte U+009D as OSC)
    /// and shown or dropped by others, so after one the cursor is unknown (the column until CR or
    /// an absolute move, the row for good). The pen is unknown too, until an SGR reset, after a
    /// C1 control that opens a sequence or a string (DCS, SOS, CSI, OSC, PM, APC: ECMA-48 8.3):
    /// the text after it may be that sequence's parameters, an SGR, to some terminals and text to
    /// others. The others (NEL, IND, RI, HTS, SS2, ST…) move the cursor at most.
    mutating func raw(_ bytes: ArraySlice<UInt8>) {
        forgetColumn()
        var expected = 0  // continuation bytes the last lead byte asks for
        var lead: UInt8 = 0
        var sawC1 = false
        for byte in bytes {
            let isContinuation = (0x80...0xBF).contains(byte) && expected > 0
            let isC1 = (0x80...0x9F).contains(byte) && (!isContinuation || (lead == 0xC2 && expected == 1))
            if isC1 {
                if Self.c1Introducers.contains(byte) { penIsUnknown = true }
                sawC1 = true
                expected = 0
                continue
            }
            if isContinuation {
                expected -= 1
            } else {
                lead = byte
                expected = byte >= 0xF0 ? 3 : byte >= 0xE0 ? 2 : byte >= 0xC0 ? 1 : 0
            }
        }
        if sawC1 {
            forgetRow()
            return
        }
        utf8Interrupted = expected > 0
    }

    /// The C1 controls that open a control string or a sequence (ECMA-48 8.3): DCS, SOS, CSI,
    /// OSC, PM and APC.
    static let c1Introducers: Set<UInt8> = [0x90, 0x98, 0x9B, 0x9D, 0x9E, 0x9F]

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
    static func hasDisputedBytes(_ bytes: ArraySlice<UInt8>) -> Bool {
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
    mutating func saveCursor(certain: Bool = true) {
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
    mutating func restoreCursor(certain: Bool = true) {
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

    mutating func csi(final: UInt8, privateMarker: UInt8, parameters: ArraySlice<UInt8>) {
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

    mutating func escape(final: UInt8, intermediate: UInt8) {
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
