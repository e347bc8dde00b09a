/// `--timestamps[=FORMAT]`: each line starts with the local time its first byte arrived, like
/// moreutils `ts` (docs/design.md#timestamps-and-progress-lines).
///
/// A byte transform that runs after the `--format` decoder. It reads the stream with the same
/// `Tokenizer` as the renderer and follows its pen with the same `TerminalModel`, so that only real
/// line breaks start a line: an LF inside an OSC or DCS string is not one; an LF inside a CSI or
/// ESC sequence is (the terminal executes it), though no prefix is written inside a sequence.
///
/// - The prefix is written when the line's first character arrives (a printable character or TAB,
///   or the LF of an empty line), not at the LF before it, so a final LF at end of input leaves no
///   empty stamped line. SGR sequences and OSC strings at the start of a line are held back until
///   then and written after the prefix, so the prefix keeps the colours of the line before; any
///   other sequence or control (EL, BEL, a leading CR) passes through first, unstamped.
/// - A line rewritten with CR keeps its time: the same prefix is written again before the next
///   character after the CR (CR LF is a line end and writes nothing).
/// - Dimmed (animated mode on a terminal): the prefix is `CSI 0;2 m` + time + `CSI 0 m`, then the
///   input's own SGR state is replayed, so the text after it looks exactly as without timestamps.
///   Plain: the prefix is bare text (no escape sequence is added).
struct TimestampStage {
    /// Most bytes of sequences held back at the start of a line; longer ones (images, clipboard
    /// OSC 52) go out as they come, before the prefix.
    static let sequenceLimit = 4096

    let dimmed: Bool
    private let clock: WallClock
    private let formatter: LocalTimeFormatter

    private enum LinePosition { case start, rewrite, body }

    private var line = LinePosition.start
    /// Arrival time (monotonic) of the current line's first byte.
    private var lineTime: Seconds?
    /// The current line's prefix, fixed when the line is first stamped (CR rewrites reuse it).
    private var linePrefix: [UInt8]?
    private var store = ByteStore()
    private var tokenizer = Tokenizer()
    private var queue = TokenQueue()
    /// The terminal as the output so far leaves it (only its pen matters here).
    private var model = TerminalModel(columns: nil)
    /// SGR sequences and strings seen at the start of the line, written after its prefix.
    private var held: [UInt8] = []
    /// The pen before the held sequences.
    private var penBeforeHeld: GraphicRendition?

    /// - Parameters:
    ///   - format: a strftime(3) format, written as given (locale C); `%.S`, `%.s` and `%.T` add
    ///     microseconds as in `ts`. When it does not end in white space, one space follows it.
    ///   - dimmed: whether the prefix is drawn faint (animated mode with colour).
    ///   - clock: maps arrival times to wall-clock time.
    init(format: String, dimmed: Bool, clock: WallClock = .system) {
        self.init(dimmed: dimmed, clock: clock, formatter: LocalTimeFormatter(format: format))
    }

    init(dimmed: Bool, clock: WallClock, formatter: LocalTimeFormatter) {
        self.dimmed = dimmed
        self.clock = clock
        self.formatter = formatter
    }

    /// Decorates one read's decoded text that arrived at `time` (seconds on the monotonic clock).
    mutating func process(_ bytes: some Collection<UInt8>, at time: Seconds) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 32)
        store.append(contentsOf: bytes)
        tokenizer.scan(store, into: &queue)
        drain(at: time, into: &out)
        // Bytes the tokenizer holds (an incomplete sequence or character) start the next line.
        if line == .start && lineTime == nil && tokenizer.heldFrom < store.end { lineTime = time }
        return out
    }

    /// End of input: whatever is held (sequences at the start of a line, an unfinished sequence)
    /// passes through without a prefix.
    mutating func finish() -> [UInt8] {
        var out: [UInt8] = []
        let time = lineTime ?? 0
        tokenizer.finish(store, into: &queue)
        while !queue.isEmpty {
            let token = queue.removeFirst()
            if case .raw(let s, let n) = token, store[s] == 0x1B {
                flushHeld(into: &out)
                out += store[s..<(s + n)]
            } else {
                take(token, at: time, into: &out)
            }
        }
        flushHeld(into: &out)
        store.discard(upTo: store.end)
        return out
    }

    // MARK: Tokens

    private mutating func drain(at time: Seconds, into out: inout [UInt8]) {
        while !queue.isEmpty { take(queue.removeFirst(), at: time, into: &out) }
        store.discard(upTo: tokenizer.heldFrom)
    }

    private mutating func take(_ token: Token, at time: Seconds, into out: inout [UInt8]) {
        if line == .start && lineTime == nil { lineTime = time }
        switch token {
        case .text(let s, let n):
            if line != .body { stamp(at: time, into: &out) }
            out += store[s..<(s + n)]
        case .cluster(let s, let n, _, _), .extend(let s, let n, _, _), .raw(let s, let n):
            if line != .body { stamp(at: time, into: &out) }
            out += store[s..<(s + n)]
        case .control(_, let byte):
            control(byte, at: time, into: &out)
        case .sequence(let s, let n, let kind):
            sequence(store[s..<(s + n)], kind: kind, into: &out)
        }
    }

    private mutating func control(_ byte: UInt8, at time: Seconds, into out: inout [UInt8]) {
        switch byte {
        case 0x0A:
            if line == .start { stamp(at: time, into: &out) } else { flushHeld(into: &out) }  // an empty line
            out.append(byte)
            endLine()
        case 0x0D:
            flushHeld(into: &out)
            out.append(byte)
            if line == .body { line = .rewrite }
        case 0x09:
            if line != .body { stamp(at: time, into: &out) }
            out.append(byte)
        default:  // other C0 controls and DEL: no character, no line
            flushHeld(into: &out)
            out.append(byte)
        }
    }

    private mutating func sequence(_ bytes: ArraySlice<UInt8>, kind: SequenceKind, into out: inout [UInt8]) {
        let holdable: Bool
        switch kind {
        case .operatingSystemCommand, .controlString: holdable = true
        default: holdable = kind.isSelectGraphicRendition
        }
        if line != .body && holdable && held.count + bytes.count <= Self.sequenceLimit {
            if penBeforeHeld == nil { penBeforeHeld = model.pen }
            held += bytes
            model.sequence(bytes, kind: kind)
            return
        }
        flushHeld(into: &out)
        out += bytes
        model.sequence(bytes, kind: kind)
        // C0 controls inside an ESC or CSI sequence are executed where they stand (VT500 parser).
        for byte in Self.executedControls(bytes, kind: kind) {
            switch byte {
            case 0x0A, 0x0B, 0x0C: if byte == 0x0A { endLine() }
            case 0x0D: if line == .body { line = .rewrite }
            default: break
            }
        }
    }

    /// The C0 controls a terminal executes inside `bytes` (after the ESC, before any string body).
    private static func executedControls(_ bytes: ArraySlice<UInt8>, kind: SequenceKind) -> [UInt8] {
        switch kind {
        case .operatingSystemCommand, .controlString: return []
        default: break
        }
        var controls: [UInt8] = []
        var afterEscape = true
        for byte in bytes.dropFirst() {
            if afterEscape && [0x5D, 0x50, 0x58, 0x5E, 0x5F].contains(byte) { break }  // a string starts
            if byte == 0x1B { afterEscape = true; continue }
            if byte < 0x20 { controls.append(byte); continue }
            afterEscape = false
        }
        return controls
    }

    private mutating func endLine() {
        line = .start
        lineTime = nil
        linePrefix = nil
    }

    private mutating func flushHeld(into out: inout [UInt8]) {
        out += held
        held.removeAll(keepingCapacity: true)
        penBeforeHeld = nil
    }

    /// Writes the line's prefix (then what was held), and marks the line as begun.
    private mutating func stamp(at time: Seconds, into out: inout [UInt8]) {
        if linePrefix == nil {
            linePrefix = formatter.format(epoch: clock.epoch(at: lineTime ?? time))
        }
        let prefix = linePrefix ?? []
        if dimmed {
            out += Self.dimOn
            out += prefix
            out += Self.reset
            let before = penBeforeHeld ?? model.pen
            if !before.isDefault { out += Array("\u{1B}[0;\(before.render())m".utf8) }
        } else {
            out += prefix
        }
        out += held
        held.removeAll(keepingCapacity: true)
        penBeforeHeld = nil
        line = .body
    }

    static let dimOn = Array("\u{1B}[0;2m".utf8)
    static let reset = Array("\u{1B}[0m".utf8)
}

/// Maps arrival times on the monotonic clock to wall-clock time, in seconds since the epoch.
struct WallClock: Sendable {
    /// Wall-clock time minus monotonic time, read when a line is stamped (so a suspend or a clock
    /// change during a long run is honoured).
    let offset: @Sendable () -> Double

    func epoch(at time: Seconds) -> Double { offset() + time }

    /// The system's clocks (`CLOCK_REALTIME` − `CLOCK_MONOTONIC`).
    static let system = WallClock { System.wallClockNow() - System.monotonicNow() }

    /// A fixed offset, for tests.
    static func fixed(_ offset: Double) -> WallClock { WallClock { offset } }
}

/// Formats a time with a strftime(3) format in the local time zone.
struct LocalTimeFormatter: Sendable {
    /// The format given to strftime, with `ts`'s sub-second conversions (`%.S`, `%.s`, `%.T`)
    /// split out: pieces of strftime format and markers where microseconds go.
    private enum Piece: Sendable { case strftime(String), microseconds }
    private let pieces: [Piece]
    private let trailingSpace: Bool
    private let render: @Sendable (String, Int) -> String

    /// - Parameters:
    ///   - format: the strftime format; one space is added when it does not end in white space.
    ///   - render: formats whole seconds since the epoch (default: `localtime_r` + `strftime`).
    init(format: String, render: @escaping @Sendable (String, Int) -> String = System.formatLocalTime) {
        var pieces: [Piece] = []
        var current = ""
        var chars = format[...]
        while let c = chars.first {
            chars = chars.dropFirst()
            guard c == "%", let next = chars.first else { current.append(c); continue }
            if next == ".", chars.count >= 2, let unit = chars.dropFirst().first, "sST".contains(unit) {
                current += "%\(unit)"
                pieces.append(.strftime(current))
                pieces.append(.microseconds)
                current = ""
                chars = chars.dropFirst(2)
            } else {
                current += "%\(next)"
                chars = chars.dropFirst()
            }
        }
        if !current.isEmpty { pieces.append(.strftime(current)) }
        self.pieces = pieces
        self.trailingSpace = !(format.last?.isWhitespace ?? false)
        self.render = render
    }

    /// The prefix for `epoch` seconds since the epoch, as bytes.
    func format(epoch: Double) -> [UInt8] {
        let second = Int(epoch.rounded(.down))
        let micro = min(999_999, max(0, Int(((epoch - Double(second)) * 1_000_000).rounded(.down))))
        var text = ""
        for piece in pieces {
            switch piece {
            case .strftime(let f): text += render(f, second)
            case .microseconds:
                let digits = String(micro)
                text += "." + String(repeating: "0", count: 6 - digits.count) + digits
            }
        }
        if trailingSpace { text += " " }
        return Array(text.utf8)
    }
}
