/// What stands between the reader and the writer: the `--format` decoder (wire bytes → answer
/// text, and reasoning as `--thinking` says; `auto` first decides the format), then per-line
/// decorations (`--timestamps`). Raw input with nothing to do passes through untouched.
///
/// Problems in the stream are collected as `TypewriteError` values for the session to report,
/// once each, in their place among the text.
struct InputPipeline {
    private var decoder: (any StreamDecoder)?
    /// --format auto, until it has decided.
    private var detector: StreamFormatDetector?
    /// Raw input on a terminal, until decided: is it plainly a model stream (for a hint)?
    private var hintDetector: StreamFormatDetector?
    private var hintFormat: StreamFormat?
    private var timestamps: TimestampStage?
    /// Set after a remote error: the text before it stays on screen, the rest is not read.
    private(set) var stopped = false
    /// Problems found and not yet taken by the caller, in input order.
    private(set) var errors: [TypewriteError] = []
    private var format: StreamFormat
    private var sawInput = false
    private var sawEvent = false
    private let thinking: ThinkingDisplay
    /// Whether reasoning shown with `--thinking dim` may be wrapped in SGR 2 … SGR 22.
    private let mayStyle: Bool
    private var reasoningOpen = false   // the last shown bytes were reasoning
    private var shownReasoning = false
    private var sawAnswer = false
    private var trailingNewlines = 0    // of the reasoning shown last (0…2)

    /// - Parameters:
    ///   - thinking: what to do with a decoded stream's reasoning (`--thinking`).
    ///   - mayStyle: whether the output may carry typewrite's own SGR (dimmed reasoning).
    ///   - suggestsFormat: raw input only: say once at the end which `--format` would decode
    ///     it, when it is plainly a model stream (meant for a terminal, where nobody parses it).
    init(format: StreamFormat, timestamps: TimestampStage? = nil,
         thinking: ThinkingDisplay = .hide, mayStyle: Bool = false, suggestsFormat: Bool = false) {
        decoder = format.makeDecoder()
        if format == .auto { detector = StreamFormatDetector() }
        if format == .raw, suggestsFormat { hintDetector = StreamFormatDetector(maxHeldBytes: 64 << 10) }
        self.timestamps = timestamps
        self.format = format
        self.thinking = thinking
        self.mayStyle = mayStyle
    }

    /// Hands over the problems found so far.
    mutating func takeErrors() -> [TypewriteError] {
        defer { errors.removeAll() }
        return errors
    }

    /// Whether the input is being decoded as a model stream (any format but raw, once decided).
    var decodesModelStream: Bool { decoder != nil }

    /// Where in the text returned since the last call a new markdown document starts (offsets,
    /// increasing): the reasoning and the answer are documents of their own.
    private var documentBreaks: [Int] = []

    mutating func takeDocumentBreaks() -> [Int] {
        defer { documentBreaks.removeAll() }
        return documentBreaks
    }

    /// Whether bytes pass through unchanged (raw format, no decorations), so callers can skip copying.
    var isPassthrough: Bool { decoder == nil && detector == nil && hintDetector == nil && timestamps == nil }

    /// Transforms one read's bytes, which arrived at `time` (seconds, monotonic), into the bytes to show.
    mutating func process(_ bytes: some Collection<UInt8>, at time: Seconds) -> [UInt8] {
        guard !stopped else { return [] }
        if !bytes.isEmpty { sawInput = true }
        if hintDetector != nil, case .decided(let looksLike, _) = hintDetector!.feed(bytes) {
            hintDetector = nil
            hintFormat = looksLike
        }
        if detector != nil {
            guard case .decided(let decided, let replay) = detector!.feed(bytes) else { return [] }
            adopt(decided)
            return decorate(decoder == nil ? replay : handle(decoder!.feed(replay)), at: time)
        }
        let text = decoder == nil ? Array(bytes) : handle(decoder!.feed(bytes))
        return decorate(text, at: time)
    }

    /// --format auto has decided: decode from here on as `decided`.
    private mutating func adopt(_ decided: StreamFormat) {
        detector = nil
        format = decided
        decoder = decided.makeDecoder()
    }

    /// Applies only the per-line decorations to text that needs no decoding (the demo's answer).
    mutating func decorate(_ text: [UInt8], at time: Seconds) -> [UInt8] {
        guard timestamps != nil else { return text }
        return timestamps!.process(text, at: time)
    }

    /// End of input at `time`: whatever the decoder and the decorations still held.
    mutating func finish(at time: Seconds) -> [UInt8] {
        guard !stopped else { return [] }
        var text: [UInt8] = []
        if detector != nil, case .decided(let decided, let replay) = detector!.finish() {
            adopt(decided)
            text = decoder == nil ? replay : handle(decoder!.feed(replay))
        }
        if decoder != nil { text += handle(decoder!.finish(), after: text.count) }
        text += closeReasoning()
        if hintDetector != nil, case .decided(let looksLike, _) = hintDetector!.finish() { hintFormat = looksLike }
        hintDetector = nil
        if let hint = hintFormat, hint != .raw {
            errors.append(.looksLikeModelStream(format: hint.rawValue))
        }
        if decoder != nil && sawInput && !sawEvent && !decoder!.hasUnderstoodPayloads {
            // Not a single event: an HTML error page, plain text, the wrong --format.
            errors.append(.noEvents(format: format.rawValue))
        }
        if timestamps != nil { text = timestamps!.process(text, at: time) + timestamps!.finish() }
        return text
    }

    /// - Parameter base: where the returned text will start in what the caller returns.
    private mutating func handle(_ events: [StreamEvent], after base: Int = 0) -> [UInt8] {
        var text: [UInt8] = []
        for event in events where !stopped {
            if case .notJSON = event {} else { sawEvent = true }   // a log line is no event
            switch event {
            case .text(let bytes):
                if reasoningOpen { documentBreaks.append(base + text.count) }
                text += closeReasoning()
                if shownReasoning {
                    // A blank line between the reasoning and the answer (counting the newlines
                    // a decoder already put between two messages).
                    let leading = bytes.prefix(2).prefix { $0 == 0x0A }.count
                    text += Array(repeating: 0x0A, count: max(0, 2 - trailingNewlines - leading))
                    shownReasoning = false
                }
                text += bytes
                sawAnswer = sawAnswer || !bytes.isEmpty
            case .reasoning(let bytes):
                guard thinking != .hide else { break }
                if !reasoningOpen && sawAnswer { documentBreaks.append(base + text.count) }
                if thinking == .dim, mayStyle, !reasoningOpen { text += Self.faint }
                reasoningOpen = true
                shownReasoning = true
                text += bytes
                let newlines = bytes.reversed().prefix { $0 == 0x0A }.count
                trailingNewlines = newlines == bytes.count ? min(2, trailingNewlines + newlines) : min(2, newlines)
            case .remoteError(let message):
                text += closeReasoning()
                errors.append(.remoteError(message: message))
                stopped = true
            case .malformed(let line, let reason):
                errors.append(.malformedEvent(line: line, reason: reason))
            case .notJSON(let line, let excerpt):
                errors.append(.strayLine(line: line, excerpt: excerpt))
            case .end:
                break
            }
        }
        return text
    }

    /// SGR 2 (faint) and SGR 22 (normal intensity), ECMA-48.
    private static let faint = Array("\u{1B}[2m".utf8)
    private static let normal = Array("\u{1B}[22m".utf8)

    /// Ends dimmed reasoning (SGR 22) if it is open.
    private mutating func closeReasoning() -> [UInt8] {
        guard reasoningOpen else { return [] }
        reasoningOpen = false
        return thinking == .dim && mayStyle ? Self.normal : []
    }
}
