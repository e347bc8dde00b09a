/// What stands between the reader and the writer: the `--format` decoder (wire bytes → answer
/// text), then per-line decorations (`--timestamps`). Raw input with nothing to do passes through
/// untouched.
///
/// Problems in the stream are collected as `TypewriteError` values for the session to report,
/// once each, in their place among the text.
struct InputPipeline {
    private var decoder: (any StreamDecoder)?
    private var timestamps: TimestampStage?
    /// Set after a remote error: the text before it stays on screen, the rest is not read.
    private(set) var stopped = false
    /// Problems found and not yet taken by the caller, in input order.
    private(set) var errors: [TypewriteError] = []
    private let format: StreamFormat
    private var sawInput = false
    private var sawEvent = false

    init(format: StreamFormat, timestamps: TimestampStage? = nil) {
        decoder = format.makeDecoder()
        self.timestamps = timestamps
        self.format = format
    }

    /// Hands over the problems found so far.
    mutating func takeErrors() -> [TypewriteError] {
        defer { errors.removeAll() }
        return errors
    }

    /// Whether bytes pass through unchanged (raw format, no decorations), so callers can skip copying.
    var isPassthrough: Bool { decoder == nil && timestamps == nil }

    /// Transforms one read's bytes, which arrived at `time` (seconds, monotonic), into the bytes to show.
    mutating func process(_ bytes: some Collection<UInt8>, at time: Seconds) -> [UInt8] {
        guard !stopped else { return [] }
        if !bytes.isEmpty { sawInput = true }
        let text = decoder == nil ? Array(bytes) : handle(decoder!.feed(bytes))
        return decorate(text, at: time)
    }

    /// Applies only the per-line decorations to text that needs no decoding (the demo's answer).
    mutating func decorate(_ text: [UInt8], at time: Seconds) -> [UInt8] {
        guard timestamps != nil else { return text }
        return timestamps!.process(text, at: time)
    }

    /// End of input at `time`: whatever the decoder and the decorations still held.
    mutating func finish(at time: Seconds) -> [UInt8] {
        guard !stopped else { return [] }
        var text = decoder == nil ? [] : handle(decoder!.finish())
        if decoder != nil && sawInput && !sawEvent {
            // Not a single event: an HTML error page, plain text, the wrong --format.
            errors.append(.noEvents(format: format.rawValue))
        }
        if timestamps != nil { text = timestamps!.process(text, at: time) + timestamps!.finish() }
        return text
    }

    private mutating func handle(_ events: [StreamEvent]) -> [UInt8] {
        var text: [UInt8] = []
        for event in events where !stopped {
            sawEvent = true
            switch event {
            case .text(let bytes):
                text += bytes
            case .remoteError(let message):
                errors.append(.remoteError(message: message))
                stopped = true
            case .malformed(let line, let reason):
                errors.append(.malformedEvent(line: line, reason: reason))
            case .end:
                break
            }
        }
        return text
    }
}
