/// Splits terminal input into tokens at byte level: the DEC VT500 parser states (vt100.net
/// "dec_ansi_parser", ECMA-48) for controls and escape sequences, UTF-8 validation, and grapheme
/// clusters (UAX #29, by the table-driven `GraphemeBreak` on the bytes) for text. No byte enters a
/// `String` or a `Character`.
///
/// Input may be split anywhere: an incomplete UTF-8 scalar or sequence is held until the rest
/// arrives (never flushed on a timeout), and a cluster continued by a later read is reported with
/// `Token.extend`. A sequence held longer than `holdingLimit` bytes passes through in pieces.
package struct Tokenizer: Sendable {
    /// Longest incomplete sequence held back, in bytes (docs/input.md#holding-incomplete-sequences).
    package static let holdingLimit = 64 * 1024

    /// Whether East Asian ambiguous-width characters take two cells (UAX #11; CJK locales).
    package var ambiguousIsWide: Bool

    private enum State: Sendable {
        case ground
        case utf8(remaining: Int, lowerBound: UInt8, upperBound: UInt8)
        case escape
        case escapeIntermediate(UInt8)
        /// `parameterSeen`: a parameter byte came (a private marker is only valid before any).
        case csi(privateMarker: UInt8, parameterSeen: Bool, hasIntermediates: Bool, hasControls: Bool, invalid: Bool)
        case osc
        case oscEscape
        case controlString
        case controlStringEscape
        case singleShift
        case singleShiftUTF8(remaining: Int)
    }

    private var state = State.ground
    /// Where the token being scanned started (absolute offset).
    private var tokenStart = 0
    /// Where scanning resumes.
    private var position = 0
    /// Start of the pending run of text bytes, if any.
    private var runStart: Int?
    /// The segmenter's state after the last text scanned (a fresh state when there is no cluster a
    /// later read may extend: after a control, a sequence, raw bytes).
    private var segmenter = GraphemeBreak()
    /// The width so far of the cluster that ended the last text run, and whether its last scalar is
    /// ZWJ: a later read may extend it.
    private var lastMeasure = CellWidth.Accumulator()
    private var lastEndsInJoiner = false
    /// Whether the tokenizer packs clusters into runs (`TokenQueue.appendToRun`), which only a
    /// `TokenStream` reads back.
    package var packsRuns = false
    /// Whether runs of clusters of the common shape (`GraphemeBreak.simpleClusters`) are packed in
    /// one step; off only for the tests that compare the two ways.
    var simpleClusterRuns = true
    /// Cells of the whole token the last cluster ends (more than the cluster's own when a ZWJ joined
    /// it to the cluster before), of that cluster alone, and whether the token's width is certain:
    /// a continuation replaces the cluster's part of the token, not the whole token.
    private var lastTokenWidth = 0
    private var lastClusterWidth = 0
    private var lastTokenIsCertain = true
    /// Whether the held sequence was already passed through in part (it is then `.broken`).
    private var passedThroughInPart = false
    /// A C0 control came between ESC and the rest of the sequence (terminals run it).
    private var escapeHasControls = false
    /// A byte ≥ 0x80 came inside ESC or CSI. Terminals part ways there: tmux 3.3a ignores it and
    /// the sequence goes on; xterm ends the sequence and drops the character (U+00A0–U+00FF it
    /// reads as the GL byte 0x20–0x7F instead). The sequence is scanned as tmux does and is
    /// `.broken`: its bytes are written as they came, and what they did is not known.
    private var sequenceHasHighBytes = false

    /// Whether clusters with East Asian ambiguous-width characters count as uncertain (CJK locale).
    package var ambiguousIsUncertain: Bool

    package init(ambiguousIsWide: Bool = false, ambiguousIsUncertain: Bool = false) {
        self.ambiguousIsWide = ambiguousIsWide
        self.ambiguousIsUncertain = ambiguousIsUncertain
    }

    /// Absolute offset of the first byte not yet part of an emitted token.
    package var heldFrom: Int { runStart ?? tokenStart }

    /// Scans the bytes of `store` appended since the last call and appends finished tokens to `tokens`.
    /// - Returns: the number of grapheme clusters added (the pacing count).
    @discardableResult
    package mutating func scan(_ store: ByteStore, into tokens: inout TokenQueue) -> Int {
        var clusters = 0
        let end = store.end
        var p = position
        scanning: while p < end {
            let byte = store[p]
            switch state {
            case .ground:
                if byte >= 0x20 && byte < 0x7F {
                    // A run of printable ASCII.
                    var runEnd = store.endOfPrintableASCII(from: p + 1, to: end)
                    if runStart == nil && lastClusterIsASCII {
                        // Fast path: a run that starts here and ends before a byte that cannot join
                        // its last character (anything but a UTF-8 lead byte: UAX #29 puts a boundary
                        // after printable ASCII unless an Extend, ZWJ or SpacingMark follows) is one
                        // text token, as `flushRun` would make it, without scanning it again. The C0
                        // control that ends a line or a progress line goes in the same entry, and the
                        // next line, when it starts with printable ASCII, goes the same way.
                        while runEnd < end, case let next = store[runEnd], next < 0xC2 || next > 0xF4 {
                            clusters += runEnd - p
                            forgetLastCluster()
                            guard next < 0x20 && next != 0x1B || next == 0x7F else {
                                tokens.appendText(start: p, count: runEnd - p)
                                p = runEnd  // ESC, or a byte that is not UTF-8: scanned as before
                                continue scanning
                            }
                            tokens.appendText(start: p, count: runEnd - p, endedBy: next)
                            p = runEnd + 1
                            guard p < end, case let b = store[p], b >= 0x20 && b < 0x7F else { continue scanning }
                            runEnd = store.endOfPrintableASCII(from: p + 1, to: end)
                        }
                    }
                    if runStart == nil { runStart = p }
                    p = runEnd
                    continue
                }
                if byte >= 0xC2 && byte <= 0xF4 {
                    if runStart == nil { runStart = p }
                    // Whole valid scalars (and printable ASCII) in a row are validated in place;
                    // what is cut short, invalid or a C1 control goes through the states below.
                    let valid = store.endOfValidText(from: p, to: end)
                    if valid > p {
                        p = valid
                        continue
                    }
                    tokenStart = p
                    switch byte {
                    case 0xC2...0xDF: state = .utf8(remaining: 1, lowerBound: 0x80, upperBound: 0xBF)
                    case 0xE0: state = .utf8(remaining: 2, lowerBound: 0xA0, upperBound: 0xBF)
                    case 0xED: state = .utf8(remaining: 2, lowerBound: 0x80, upperBound: 0x9F)
                    case 0xE1...0xEF: state = .utf8(remaining: 2, lowerBound: 0x80, upperBound: 0xBF)
                    case 0xF0: state = .utf8(remaining: 3, lowerBound: 0x90, upperBound: 0xBF)
                    case 0xF4: state = .utf8(remaining: 3, lowerBound: 0x80, upperBound: 0x8F)
                    default: state = .utf8(remaining: 3, lowerBound: 0x80, upperBound: 0xBF)
                    }
                    p += 1
                    continue
                }
                clusters += flushRun(upTo: p, store, &tokens)
                forgetLastCluster()
                if byte == 0x1B {
                    tokenStart = p
                    state = .escape
                } else if byte < 0x20 || byte == 0x7F {
                    tokens.append(.control(start: p, byte: byte))
                } else {
                    tokens.appendRaw(start: p, length: 1)
                }
                p += 1
            case .utf8(let remaining, let lower, let upper):
                if byte < lower || byte > upper {
                    // Invalid: the bytes so far pass through raw; this byte is scanned again.
                    clusters += flushRun(upTo: tokenStart, store, &tokens)
                    forgetLastCluster()
                    tokens.appendRaw(start: tokenStart, length: p - tokenStart)
                    state = .ground
                    continue
                }
                p += 1
                if remaining > 1 {
                    state = .utf8(remaining: remaining - 1, lowerBound: 0x80, upperBound: 0xBF)
                } else {
                    state = .ground
                    // U+0080–U+009F written in UTF-8 are C1 controls to a terminal, not text.
                    if store[tokenStart] == 0xC2 && byte <= 0x9F {
                        clusters += flushRun(upTo: tokenStart, store, &tokens)
                        forgetLastCluster()
                        tokens.appendRaw(start: tokenStart, length: 2)
                    }
                }
            case .escape:
                p += 1
                switch byte {
                case 0x5B:
                    state = .csi(privateMarker: 0, parameterSeen: false, hasIntermediates: false, hasControls: escapeHasControls,
                                 invalid: false)
                case 0x5D: state = .osc
                case 0x50, 0x58, 0x5E, 0x5F: state = .controlString
                case 0x4E, 0x4F: state = .singleShift
                case 0x20...0x2F: state = .escapeIntermediate(byte)
                case 0x30...0x7E: finishSequence(at: p, .escape(final: byte, intermediate: 0), &tokens)
                case 0x18, 0x1A: finishSequence(at: p, .broken, &tokens)
                case 0x1B: finishSequence(at: p - 1, .broken, &tokens); tokenStart = p - 1; state = .escape
                default:
                    // C0 inside an escape is executed by terminals; keep it in the (odd) sequence.
                    if byte >= 0x80 { sequenceHasHighBytes = true } else if byte != 0x7F { escapeHasControls = true }
                }
            case .escapeIntermediate(let last):
                p += 1
                switch byte {
                case 0x20...0x2F: state = .escapeIntermediate(byte)
                case 0x30...0x7E: finishSequence(at: p, .escape(final: byte, intermediate: last), &tokens)
                case 0x1B: finishSequence(at: p - 1, .broken, &tokens); tokenStart = p - 1; state = .escape
                case 0x18, 0x1A: finishSequence(at: p, .broken, &tokens)
                default:
                    if byte >= 0x80 { sequenceHasHighBytes = true } else if byte != 0x7F { escapeHasControls = true }
                }
            case .csi(let marker, let seen, let hasIntermediates, let hasControls, let invalid):
                p += 1
                switch byte {
                case 0x30...0x3F:
                    // A private marker is the first parameter byte (C0 controls before it do not count:
                    // the VT500 parser executes them and stays in CSI entry).
                    if byte >= 0x3C && !seen && !hasIntermediates {
                        state = .csi(privateMarker: byte, parameterSeen: true, hasIntermediates: false, hasControls: hasControls,
                                     invalid: invalid)
                    } else {
                        // Parameter bytes after intermediates, or a private marker late, make it invalid.
                        state = .csi(privateMarker: marker, parameterSeen: true, hasIntermediates: hasIntermediates,
                                     hasControls: hasControls, invalid: invalid || hasIntermediates || byte >= 0x3C)
                    }
                case 0x20...0x2F:
                    state = .csi(privateMarker: marker, parameterSeen: seen, hasIntermediates: true, hasControls: hasControls,
                                 invalid: invalid)
                case 0x40...0x7E:
                    finishSequence(at: p, invalid ? .broken : .csi(final: byte, privateMarker: marker,
                                                                    hasIntermediates: hasIntermediates, hasControls: hasControls), &tokens)
                case 0x1B: finishSequence(at: p - 1, .broken, &tokens); tokenStart = p - 1; state = .escape
                case 0x18, 0x1A: finishSequence(at: p, .broken, &tokens)
                case 0x7F: break
                default:
                    if byte >= 0x80 {
                        sequenceHasHighBytes = true
                    } else {
                        state = .csi(privateMarker: marker, parameterSeen: seen, hasIntermediates: hasIntermediates, hasControls: true,
                                     invalid: invalid)
                    }
                }
            case .osc:
                p += 1
                if byte == 0x07 {
                    finishSequence(at: p, passedThroughInPart ? .broken : .operatingSystemCommand, &tokens)
                } else if byte == 0x1B {
                    state = .oscEscape
                } else if byte == 0x18 || byte == 0x1A {
                    finishSequence(at: p, .broken, &tokens)
                }
            case .oscEscape, .controlStringEscape:
                let isOSC: Bool = { if case .oscEscape = state { return true }; return false }()
                if byte == 0x5C {
                    p += 1
                    finishSequence(at: p, passedThroughInPart ? .broken : (isOSC ? .operatingSystemCommand : .controlString), &tokens)
                } else {
                    // ESC not followed by `\` ends the string; the ESC starts a new sequence.
                    finishSequence(at: p - 1, .broken, &tokens)
                    tokenStart = p - 1
                    state = .escape
                }
            case .controlString:
                p += 1
                if byte == 0x1B {
                    state = .controlStringEscape
                } else if byte == 0x18 || byte == 0x1A {
                    finishSequence(at: p, .broken, &tokens)
                }
            case .singleShift:
                if byte < 0x20 || byte == 0x7F {
                    // Not a character to shift (a control or another sequence): SS2/SS3 ends here
                    // and this byte is scanned again.
                    finishSequence(at: p, .singleShift, &tokens)
                    continue
                }
                p += 1
                switch byte {
                case 0xC2...0xDF: state = .singleShiftUTF8(remaining: 1)
                case 0xE0...0xEF: state = .singleShiftUTF8(remaining: 2)
                case 0xF0...0xF4: state = .singleShiftUTF8(remaining: 3)
                default: finishSequence(at: p, .singleShift, &tokens)
                }
            case .singleShiftUTF8(let remaining):
                if byte & 0xC0 != 0x80 {
                    finishSequence(at: p, .singleShift, &tokens)
                    continue
                }
                p += 1
                if remaining > 1 { state = .singleShiftUTF8(remaining: remaining - 1) } else {
                    finishSequence(at: p, .singleShift, &tokens)
                }
            }
        }
        position = p
        // Text is never held back: what arrived is shown (a later combining mark becomes `.extend`).
        switch state {
        case .ground:
            clusters += flushRun(upTo: p, store, &tokens)
            tokenStart = p
        case .utf8:
            // The incomplete scalar is held; it begins the next run.
            clusters += flushRun(upTo: tokenStart, store, &tokens)
            runStart = tokenStart
        default:
            if p - tokenStart > Self.holdingLimit {
                // A runaway string or sequence streams through raw; the cursor's column is unknown.
                tokens.append(.sequence(start: tokenStart, length: p - tokenStart, kind: .broken))
                tokenStart = p
                passedThroughInPart = true
            }
        }
        return clusters
    }

    /// End of input: anything held (an incomplete scalar or sequence) passes through verbatim.
    /// - Returns: the number of grapheme clusters added.
    @discardableResult
    package mutating func finish(_ store: ByteStore, into tokens: inout TokenQueue) -> Int {
        var clusters = scan(store, into: &tokens)
        if case .utf8 = state { runStart = nil }
        clusters += flushRun(upTo: tokenStart, store, &tokens)
        if position > tokenStart {
            tokens.appendRaw(start: tokenStart, length: position - tokenStart)
        }
        state = .ground
        tokenStart = position
        forgetLastCluster()
        escapeHasControls = false
        sequenceHasHighBytes = false
        passedThroughInPart = false
        return clusters
    }

    private mutating func finishSequence(at end: Int, _ kind: SequenceKind, _ tokens: inout TokenQueue) {
        var kind = kind
        // CSI carries its own flag; the writer looks for controls in a plain ESC sequence itself
        // (ESC CR 8 is still DECRC); anything else with controls before its introducer is `.broken`.
        switch kind {
        case .csi, .escape: break
        default: if escapeHasControls { kind = .broken }
        }
        if sequenceHasHighBytes { kind = .broken }
        tokens.append(.sequence(start: tokenStart, length: end - tokenStart, kind: passedThroughInPart ? .broken : kind))
        passedThroughInPart = false
        escapeHasControls = false
        sequenceHasHighBytes = false
        state = .ground
        tokenStart = end
        forgetLastCluster()
    }

    /// Emits the pending text run `runStart..<end` as tokens.
    private mutating func flushRun(upTo end: Int, _ store: ByteStore, _ tokens: inout TokenQueue) -> Int {
        guard let start = runStart else { return 0 }
        runStart = nil
        guard end > start else { return 0 }
        if lastClusterIsASCII && store.endOfPrintableASCII(from: start, to: end) == end {
            // Printable ASCII only: a cluster per byte (UAX #29: ASCII is never Extend, ZWJ or SpacingMark).
            tokens.append(.text(start: start, count: end - start))
            segmenter = GraphemeBreak()
            _ = segmenter.isBoundary(before: GraphemeBreak.printableASCII)
            lastMeasure = CellWidth.Accumulator()
            lastMeasure.add(UInt32(store[end - 1]), ambiguousIsWide: false)
            lastEndsInJoiner = false
            (lastTokenWidth, lastClusterWidth, lastTokenIsCertain) = (1, 1, true)
            return end - start
        }
        return store.withUnsafeBytes { base, shift in segment(base, shift, start..<end, &tokens) }
    }

    /// Splits valid UTF-8 text (no C0 or C1 controls) into grapheme clusters (UAX #29, `GraphemeBreak`);
    /// the first may continue the cluster that ended the last run. The byte at absolute offset `o`
    /// is at `base + o + shift`.
    ///
    /// Where a cluster ends in ZWJ (U+200D), the read boundaries around the next non-ASCII cluster
    /// are kept, because tmux joins a ZWJ with the next non-ASCII scalar only when both arrive in
    /// one read (measured in tmux 3.3a; see the `.tmux` convention of the tests' VirtualTerminal):
    /// in the same read it becomes part of the ZWJ's cluster token, so it is written in the same
    /// `write()`; in a later read it becomes an `.extend`, which the writer starts a new write with.
    private mutating func segment(_ base: UnsafeRawPointer, _ shift: Int, _ range: Range<Int>, _ tokens: inout TokenQueue) -> Int {
        let lower = range.lowerBound, upper = range.upperBound
        var clusters = 0
        var asciiStart = -1
        // The token the newest cluster ends: its width, the cluster's own, and certainty.
        var tokenWidth = lastTokenWidth, clusterWidth = lastClusterWidth, tokenIsCertain = lastTokenIsCertain
        // The cluster being read: where it starts (before `lower` when it continues the last run's),
        // its width so far, whether its last scalar is ZWJ, and whether it is one printable ASCII byte.
        let continues = segmenter.previous != GraphemeBreak.start
        var clusterStart = continues ? lower - 1 : lower
        var measure = lastMeasure
        var endsInJoiner = lastEndsInJoiner
        var isASCII = false
        /// Width of the token appended last when its bytes end in ZWJ.
        var joinerEndedWidth: Int? = nil
        var state = segmenter
        /// Where the clusters appended to a run in this call end (-1: none yet).
        var runEnd = -1
        let wide = ambiguousIsWide, ambiguousUncertain = ambiguousIsUncertain, packs = packsRuns

        /// Emits the cluster `clusterStart..<end` (its part from `lower` on).
        func close(at end: Int, _ tokens: inout TokenQueue) {
            if clusterStart < lower {
                // The first cluster began in an earlier read: it replaces its old part of the token
                // (which a ZWJ may have joined to a cluster before it), so the token's width is the
                // rest of the token plus the cluster's new width.
                let width = measure.width
                let whole = max(0, tokenWidth - clusterWidth) + width.cells
                tokenIsCertain = tokenIsCertain && width.isCertain
                tokenWidth = whole
                clusterWidth = width.cells
                if end > lower {
                    tokens.append(.extend(start: lower, length: end - lower, width: whole, isCertain: tokenIsCertain))
                }
                joinerEndedWidth = endsInJoiner ? whole : nil
                return
            }
            if isASCII {
                if runEnd == clusterStart {
                    // Printable ASCII between clusters of a run joins the run (a space between words).
                    tokens.appendToRun(start: clusterStart, length: 1)
                    runEnd = clusterStart + 1
                    clusters += 1
                    joinerEndedWidth = nil
                    (tokenWidth, clusterWidth, tokenIsCertain) = (1, 1, true)
                    return
                }
                if asciiStart < 0 { asciiStart = clusterStart }
                joinerEndedWidth = nil
                (tokenWidth, clusterWidth, tokenIsCertain) = (1, 1, true)
                return
            }
            if asciiStart >= 0 {
                tokens.append(.text(start: asciiStart, count: clusterStart - asciiStart))
                clusters += clusterStart - asciiStart
                asciiStart = -1
            }
            let width = measure.width
            let length = end - clusterStart
            // tmux joins a ZWJ with the next scalar only when that is not ASCII ("n" + U+0301 after
            // a ZWJ is drawn as usual, the ZWJ dropped).
            if let before = joinerEndedWidth, base.load(fromByteOffset: clusterStart + shift, as: UInt8.self) >= 0x80 {
                let joined = before + width.cells
                if clusterStart == lower {
                    // After a ZWJ that ended the last read.
                    tokens.append(.extend(start: clusterStart, length: length, width: joined, isCertain: false))
                } else {
                    tokens.joinLast(length: length, width: joined)
                }
                joinerEndedWidth = endsInJoiner ? joined : nil
                (tokenWidth, clusterWidth, tokenIsCertain) = (joined, width.cells, false)
                return
            }
            if packs && !endsInJoiner {
                tokens.appendToRun(start: clusterStart, length: length)
                runEnd = clusterStart + length
            } else {
                tokens.append(.cluster(start: clusterStart, length: length, width: width.cells, isCertain: width.isCertain))
            }
            clusters += 1
            joinerEndedWidth = endsInJoiner ? width.cells : nil
            (tokenWidth, clusterWidth, tokenIsCertain) = (width.cells, width.cells, width.isCertain)
        }

        /// Packs the clusters of the common shape from `start` (`GraphemeBreak.startsSimpleCluster`,
        /// with a boundary before it and the cluster before it closed) into the run in
        /// one entry, without a width or a state per cluster (a run's widths are measured when it
        /// is split), and makes the last one, which may go on, the cluster being read. Returns
        /// where reading goes on.
        func packSimpleClusters(from start: Int, _ tokens: inout TokenQueue) -> Int {
            if asciiStart >= 0 {
                tokens.append(.text(start: asciiStart, count: start - asciiStart))
                clusters += start - asciiStart
                asciiStart = -1
            }
            let limit = min(upper, start + TokenQueue.runByteLimit - 4)
            let run = GraphemeBreak.simpleClusters(in: base, from: start + shift, to: limit + shift)
            let complete = run.complete - shift, end = run.end - shift
            if run.count > 0 {
                tokens.appendToRun(start: start, length: complete - start, clusters: run.count)
                runEnd = complete
                clusters += run.count
            }
            // The state after the open cluster's scalars does not depend on what came before its
            // first (`GraphemeBreak.isBeforeSimpleCluster`).
            state = GraphemeBreak()
            measure = CellWidth.Accumulator()
            clusterStart = complete
            var k = complete
            while k < end {
                let (v, n) = GraphemeBreak.decode(base, at: k + shift)
                _ = state.isBoundary(before: v < 0x80 ? GraphemeBreak.printableASCII : GraphemeBreak.properties(v))
                measure.add(v, ambiguousIsWide: wide, ambiguousIsUncertain: ambiguousUncertain)
                k += n
            }
            isASCII = end - complete == 1 && base.load(fromByteOffset: complete + shift, as: UInt8.self) < 0x80
            endsInJoiner = false
            return end
        }

        var i = lower
        while i < upper {
            let byte = base.load(fromByteOffset: i + shift, as: UInt8.self)
            if byte < 0x80 && packs && state.previous != GraphemeBreak.prepend && (i > lower || continues) {
                // Printable ASCII after a cluster of a run (UAX #29: a boundary before it): the
                // bytes up to the last one before a non-ASCII scalar are clusters of one byte
                // each and join the run at once (the last may still take a combining mark).
                close(at: i, &tokens)
                if runEnd == i && simpleClusterRuns {
                    i = packSimpleClusters(from: i, &tokens)
                    continue
                }
                if runEnd == i {
                    var j = i + 1
                    while j < upper && j - i <= TokenQueue.runByteLimit
                            && base.load(fromByteOffset: j + shift, as: UInt8.self) < 0x80 { j += 1 }
                    let batch = j - i - 1
                    if batch > 0 {
                        tokens.appendToRun(start: i, length: batch, clusters: batch)
                        runEnd = i + batch
                        clusters += batch
                        i += batch
                    }
                }
                _ = state.isBoundary(before: GraphemeBreak.printableASCII)
                clusterStart = i
                measure = CellWidth.Accumulator()
                measure.add(UInt32(base.load(fromByteOffset: i + shift, as: UInt8.self)), ambiguousIsWide: wide)
                isASCII = true
                endsInJoiner = false
                i += 1
                continue
            }
            let value: UInt32, length: Int, properties: UInt8
            if byte < 0x80 {
                (value, length, properties) = (UInt32(byte), 1, GraphemeBreak.printableASCII)
            } else {
                (value, length) = GraphemeBreak.decode(base, at: i + shift)
                properties = GraphemeBreak.properties(value)
                if packs && simpleClusterRuns && GraphemeBreak.startsSimpleCluster(properties) && state.isBeforeSimpleCluster
                    && (i > lower || continues) {
                    // A boundary before it (GB999, see `GraphemeBreak.simpleClusters`).
                    close(at: i, &tokens)
                    i = packSimpleClusters(from: i, &tokens)
                    continue
                }
            }
            if state.isBoundary(before: properties) {
                if i > lower || continues { close(at: i, &tokens) }
                clusterStart = i
                measure = CellWidth.Accumulator()
                isASCII = byte < 0x80
            } else {
                isASCII = false
            }
            measure.add(value, ambiguousIsWide: wide, ambiguousIsUncertain: ambiguousUncertain)
            endsInJoiner = value == 0x200D
            i += length
        }
        close(at: upper, &tokens)
        if asciiStart >= 0 {
            tokens.append(.text(start: asciiStart, count: upper - asciiStart))
            clusters += upper - asciiStart
        }
        segmenter = state
        lastMeasure = measure
        lastEndsInJoiner = endsInJoiner
        lastTokenWidth = tokenWidth
        lastClusterWidth = clusterWidth
        lastTokenIsCertain = tokenIsCertain
        return clusters
    }

    /// Whether printable ASCII after the last text starts a new cluster (UAX #29: it does unless a
    /// Prepend scalar comes before it), so it may go out as a text run without segmenting.
    private var lastClusterIsASCII: Bool { segmenter.previous != GraphemeBreak.prepend }

    /// Nothing to extend: after a control, a sequence or raw bytes.
    private mutating func forgetLastCluster() {
        segmenter = GraphemeBreak()
        lastMeasure = CellWidth.Accumulator()
        lastEndsInJoiner = false
        lastTokenWidth = 1
        lastClusterWidth = 1
        lastTokenIsCertain = true
    }
}
