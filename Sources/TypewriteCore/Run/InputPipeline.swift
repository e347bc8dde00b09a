/// What stands between the reader and the writer: the `--format` decoder (wire bytes → answer
/// text) and, later, per-line decorations. Raw input with nothing to do passes through untouched.
///
/// Problems in the stream are reported here, once, as `typewrite: …` lines on stderr; the
/// pipeline remembers the exit status they imply.
struct InputPipeline {
    private var decoder: (any StreamDecoder)?
    /// 1 after a remote error or a malformed event, else 0.
    private(set) var status: Int32 = 0
    /// Set after a remote error: the text before it stays on screen, the rest is not read.
    private(set) var stopped = false

    init(format: StreamFormat) {
        decoder = format.makeDecoder()
    }

    /// Whether bytes pass through unchanged (raw format), so callers can skip copying.
    var isPassthrough: Bool { decoder == nil }

    /// Transforms one read's bytes into the bytes to show.
    mutating func process(_ bytes: some Collection<UInt8>) -> [UInt8] {
        guard !stopped else { return [] }
        guard decoder != nil else { return Array(bytes) }
        return handle(decoder!.feed(bytes))
    }

    /// End of input: whatever the decoder still held.
    mutating func finish() -> [UInt8] {
        guard !stopped, decoder != nil else { return [] }
        return handle(decoder!.finish())
    }

    private mutating func handle(_ events: [StreamEvent]) -> [UInt8] {
        var text: [UInt8] = []
        for event in events where !stopped {
            switch event {
            case .text(let bytes):
                text += bytes
            case .remoteError(let message):
                Report.error("the stream reported an error: \(message)")
                status = 1
                stopped = true
            case .malformed(let line, let reason):
                Report.error("line \(line): skipped a malformed event: \(reason)")
                status = 1
            case .end:
                break
            }
        }
        return text
    }
}
