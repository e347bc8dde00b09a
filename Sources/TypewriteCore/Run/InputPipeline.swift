/// What stands between the reader and the writer: the `--format` decoder (wire bytes → answer
/// text), then per-line decorations (`--timestamps`). Raw input with nothing to do passes through
/// untouched.
///
/// Problems in the stream are reported here, once, as `typewrite: …` lines on stderr; the
/// pipeline remembers the exit status they imply.
struct InputPipeline {
    private var decoder: (any StreamDecoder)?
    private var timestamps: TimestampStage?
    /// 1 after a remote error or a malformed event, else 0.
    private(set) var status: Int32 = 0
    /// Set after a remote error: the text before it stays on screen, the rest is not read.
    private(set) var stopped = false
    /// Whether messages wait in `messages` for the caller (animated mode prints them once the text
    /// before them has settled, so they never land inside a fading row) instead of going to stderr.
    var defersMessages = false
    /// Messages waiting for the caller, each a whole `typewrite: …` line.
    private(set) var messages: [String] = []
    private let format: StreamFormat
    private var sawInput = false
    private var sawEvent = false

    init(format: StreamFormat, timestamps: TimestampStage? = nil) {
        decoder = format.makeDecoder()
        self.timestamps = timestamps
        self.format = format
    }

    /// Hands over the waiting messages.
    mutating func takeMessages() -> [String] {
        defer { messages.removeAll() }
        return messages
    }

    private mutating func report(_ message: String) {
        if defersMessages { messages.append("typewrite: \(message)") } else { Report.error(message) }
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
            report("no \(format.rawValue) events in the input (an error page, or the wrong --format?)")
            status = 1
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
                report("the stream reported an error: \(message)")
                status = 1
                stopped = true
            case .malformed(let line, let reason):
                report("line \(line): skipped a malformed event: \(reason)")
                status = 1
            case .end:
                break
            }
        }
        return text
    }
}
