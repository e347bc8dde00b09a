/// `--timestamps[=FORMAT]`: each line starts with the local time its first byte arrived, like
/// moreutils `ts` (after the timestamped lines of seed 002, TypewriterConsole).
///
/// A byte transform that runs after the `--format` decoder. It follows the terminal's view of the
/// stream with a small escape-sequence state machine (ECMA-48; vt100.net "dec_ansi_parser"), so
/// that only real line breaks start a line: an LF inside an OSC or DCS string is not one, an LF
/// inside a CSI sequence is (the terminal executes it).
///
/// - The prefix is written when the line's first character arrives (a printable byte or TAB, or
///   the LF of an empty line), not at the LF before it, so a final LF at end of input leaves no
///   empty stamped line. SGR sequences and OSC strings at the start of a line are held back until
///   then and written after the prefix, so the prefix keeps the colours of the line before; any
///   other sequence or control (EL, BEL, a leading CR) passes through first, unstamped.
/// - A line rewritten with CR keeps its time: the same prefix is written again before the next
///   character after the CR (CR LF is a line end and writes nothing).
/// - Dimmed (animated mode on a terminal): the prefix is `CSI 0;2 m` + time + `CSI 0 m`, then the
///   input's own SGR state is replayed, so the text after it looks exactly as without timestamps.
///   Plain: the prefix is bare text (no escape sequence is added).
struct TimestampStage {
    /// Longest sequence held back at the start of a line or collected for SGR tracking, in bytes;
    /// longer ones (images, clipboard OSC 52) stream through as they come.
    static let sequenceLimit = 4096

    let dimmed: Bool
    private let clock: WallClock
    private let formatter: LocalTimeFormatter

    private enum LinePosition { case start, rewrite, body }
    private enum Escape { case ground, escape, csi, string, stringEscape, singleShift }

    private var line = LinePosition.start
    /// Arrival time (monotonic) of the current line's first byte.
    private var lineTime: Seconds?
    /// The current line's prefix, fixed when the line is first stamped (CR rewrites reuse it).
    private var linePrefix: [UInt8]?
    private var escape = Escape.ground
    /// The escape sequence being read, from its ESC; empty once it grew past `sequenceLimit`.
    private var sequence: [UInt8] = []
    private var sequenceTooLong = false
    /// Whether the sequence being read is a plain CSI (no private marker or intermediates) so far.
    private var sequenceIsPlainCSI = false
    /// SGR sequences and strings seen at the start of the line, written after its prefix.
    private var held: [UInt8] = []
    /// The SGR state of the output so far (what the terminal has), for replay after a dim prefix.
    private var pen = GraphicRendition()
    /// The SGR state before the held sequences.
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
        for byte in bytes { step(byte, at: time, into: &out) }
        return out
    }

    /// End of input: whatever is held (sequences at the start of a line, an unfinished sequence)
    /// passes through without a prefix.
    mutating func finish() -> [UInt8] {
        var out: [UInt8] = []
        flushHeld(into: &out)
        out += sequence
        if escape == .stringEscape { out.append(0x1B) }
        sequence.removeAll()
        escape = .ground
        return out
    }

    // MARK: Bytes

    private mutating func step(_ byte: UInt8, at time: Seconds, into out: inout [UInt8]) {
        if line == .start && lineTime == nil { lineTime = time }
        switch escape {
        case .ground:
            ground(byte, at: time, into: &out)
        case .escape:
            switch byte {
            case 0x5B:  // CSI
                append(byte, into: &out)
                escape = .csi
                sequenceIsPlainCSI = true
            case 0x5D, 0x50, 0x58, 0x5E, 0x5F:  // OSC, DCS, SOS, PM, APC
                append(byte, into: &out)
                escape = .string
            case 0x4E, 0x4F:  // SS2, SS3: the next character is part of it
                append(byte, into: &out)
                escape = .singleShift
            case 0x20...0x2F:  // intermediates
                append(byte, into: &out)
            case 0x30...0x7E:
                append(byte, into: &out)
                if byte == 0x63 && sequence.count == 2 { pen = GraphicRendition(); penBeforeHeld = nil }  // RIS
                endSequence(holdable: false, into: &out)
            default:
                controlInSequence(byte, at: time, into: &out)
            }
        case .csi:
            switch byte {
            case 0x40...0x7E:
                append(byte, into: &out)
                let isSGR = byte == 0x6D && sequenceIsPlainCSI && !sequenceTooLong
                if isSGR {
                    if line != .body && penBeforeHeld == nil { penBeforeHeld = pen }
                    pen.apply(parameters: sequence[2..<(sequence.count - 1)])
                }
                endSequence(holdable: isSGR, into: &out)
            case 0x20...0x3F:
                // Private markers (< = > ?) and intermediates: not an SGR the pen knows.
                if byte >= 0x3C || byte < 0x30 { sequenceIsPlainCSI = false }
                append(byte, into: &out)
            default:
                controlInSequence(byte, at: time, into: &out)
            }
        case .string:
            switch byte {
            case 0x07:  // BEL ends an OSC (xterm)
                append(byte, into: &out)
                endSequence(holdable: true, into: &out)
            case 0x1B:
                escape = .stringEscape  // ESC \ ends it; ESC and anything else aborts it
            case 0x18, 0x1A:  // CAN, SUB abort
                append(byte, into: &out)
                endSequence(holdable: false, into: &out)
            default:
                // Other controls, LF included, are ignored inside a string: not a line break.
                append(byte, into: &out)
            }
        case .stringEscape:
            if byte == 0x5C {  // ST
                append(0x1B, into: &out)
                append(byte, into: &out)
                endSequence(holdable: true, into: &out)
            } else {
                // The ESC ended the string and starts a new sequence.
                endSequence(holdable: true, into: &out)
                beginSequence(into: &out)
                step(byte, at: time, into: &out)
            }
        case .singleShift:
            append(byte, into: &out)  // the shifted character (its first byte, if it is UTF-8)
            endSequence(holdable: false, into: &out)
        }
    }

    private mutating func ground(_ byte: UInt8, at time: Seconds, into out: inout [UInt8]) {
        switch byte {
        case 0x1B:
            beginSequence(into: &out)
        case 0x0A:
            if line == .start { stamp(at: time, into: &out) } else { flushHeld(into: &out) }  // an empty line
            out.append(byte)
            line = .start
            lineTime = nil
            linePrefix = nil
        case 0x0D:
            flushHeld(into: &out)
            out.append(byte)
            if line == .body { line = .rewrite }
        case 0x09, 0x20...0x7E, 0x80...0xFF:
            if line != .body { stamp(at: time, into: &out) }
            out.append(byte)
        default:  // other C0 controls and DEL: no character, no line
            flushHeld(into: &out)
            out.append(byte)
        }
    }

    /// A C0 control inside ESC or CSI: the terminal executes it where it stands (an LF moves).
    private mutating func controlInSequence(_ byte: UInt8, at time: Seconds, into out: inout [UInt8]) {
        switch byte {
        case 0x18, 0x1A:  // CAN, SUB abort the sequence
            append(byte, into: &out)
            endSequence(holdable: false, into: &out)
        case 0x1B:  // ESC restarts
            endSequence(holdable: false, into: &out)
            beginSequence(into: &out)
        default:
            let saved = escape
            let savedSequence = sequence
            escape = .ground
            sequence = []
            // Held text before this control stays in order: the sequence so far goes out first.
            if line != .body { flushHeld(into: &out) }
            out += savedSequence
            ground(byte, at: time, into: &out)
            escape = saved
            sequence = []
            sequenceTooLong = sequenceTooLong || !savedSequence.isEmpty
        }
    }

    private mutating func beginSequence(into out: inout [UInt8]) {
        escape = .escape
        sequence = [0x1B]
        sequenceTooLong = false
        sequenceIsPlainCSI = false
    }

    private mutating func append(_ byte: UInt8, into out: inout [UInt8]) {
        if sequenceTooLong {
            out.append(byte)
            return
        }
        sequence.append(byte)
        if sequence.count > Self.sequenceLimit {
            if line != .body { flushHeld(into: &out) }
            out += sequence
            sequence.removeAll()
            sequenceTooLong = true
        }
    }

    /// The sequence is complete: held at the start of a line when `holdable`, else written.
    private mutating func endSequence(holdable: Bool, into out: inout [UInt8]) {
        escape = .ground
        defer { sequence.removeAll(keepingCapacity: true); sequenceTooLong = false }
        if sequenceTooLong { return }
        if line != .body && holdable && held.count + sequence.count <= Self.sequenceLimit {
            held += sequence
        } else {
            if line != .body { flushHeld(into: &out) }
            out += sequence
        }
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
            let before = penBeforeHeld ?? pen
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
