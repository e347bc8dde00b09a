// JSONBodyReader.swift: a bare JSON body (an HTTP error, a whole response) read line by line
// until it parses; see LLMPayloads.swift for what its value means.

/// Collects the lines of one bare JSON value (typically an HTTP error body, possibly
/// pretty-printed) until they parse, then interprets it with a `PayloadInterpreter`.
///
/// Parsing is attempted only where a complete value can end: when the first line ends in `}` or
/// `]` (if a first line `{…}` does not parse, it is reported as broken at once), when a later line
/// starts with `}` or `]` at column 0 (how JSONSerialization, Python, Go, Node and jq close a
/// pretty-printed top-level value), and at end of input. That keeps the work linear for a body
/// fed byte by byte.
struct JSONBodyReader {
    enum Step {
        case needMore
        case finished([StreamEvent])
        /// The body was given up (`events` says why). `reprocessLine`: the line passed to `add`
        /// is not part of it and must be handled by the caller.
        case abandoned([StreamEvent], reprocessLine: Bool)
    }

    let startLine: Int
    let maxBytes: Int
    var buffer: [UInt8] = []
    var lineCount = 0
    var isArray = false

    init(startLine: Int, maxBytes: Int) {
        self.startLine = startLine
        self.maxBytes = maxBytes
    }

    /// True if `bytes` (one line) starts a JSON object or array after optional spaces/tabs.
    static func startsJSON(_ bytes: [UInt8]) -> Bool {
        guard let first = bytes.first(where: { $0 != 0x20 && $0 != 0x09 }) else { return false }
        return first == 0x7B || first == 0x5B
    }

    /// Adds the next line. `endsBodyEarly` tells, for lines after the first, whether a line
    /// cannot belong to the body (it then ends the body as malformed, and is reprocessed).
    mutating func add(_ line: WireLineSplitter.Line, endsBodyEarly: ([UInt8]) -> Bool,
                      interpreter: inout PayloadInterpreter) -> Step {
        let isFirst = lineCount == 0
        if isFirst { isArray = line.bytes.first(where: { $0 != 0x20 && $0 != 0x09 }) == 0x5B }
        // Inside an array (Gemini's non-SSE stream: `[{` … `}` `,` `{` … `}` `]`), elements
        // start with `{` at column 0; only in an object does that mean a new value.
        let elementStart = isArray && (line.bytes.first == 0x7B || line.bytes.first == 0x5B)
        if !isFirst, !line.overlong, !elementStart, endsBodyEarly(line.bytes) {
            return .abandoned([incomplete("it was followed by line \(line.number)")], reprocessLine: true)
        }
        if line.overlong || buffer.count + line.bytes.count + 1 > maxBytes {
            return .abandoned([.malformed(line: startLine, reason: "JSON body larger than \(LLMPayload.describe(bytes: maxBytes)); skipped")],
                              reprocessLine: false)
        }
        buffer.append(contentsOf: line.bytes)
        buffer.append(0x0A)
        lineCount += 1

        let last = line.bytes.last(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D })
        let closes = last == 0x7D || last == 0x5D
        guard closes, isFirst || line.bytes.first == 0x7D || line.bytes.first == 0x5D else { return .needMore }
        if let value = LLMPayload.parseJSON(buffer) {
            return .finished(interpreter.events(from: value, eventType: nil, line: startLine))
        }
        if isFirst, !isArray || last == 0x5D {
            // A one-line value that does not parse: broken, not the start of a longer one.
            // (An array's first line may end with a whole first element, `[{…}`, and go on.)
            return .abandoned([.malformed(line: startLine, reason: "not valid JSON: \(WireBytes.excerpt(WireBytes.trimmed(buffer)))")],
                              reprocessLine: false)
        }
        return .needMore
    }

    /// Feeds `line` to the body being read, if any (shared by the SSE and NDJSON decoders).
    /// - Returns: whether the line was taken; false when there is no body or it gave the line back.
    static func continueBody(_ body: inout JSONBodyReader?, with line: WireLineSplitter.Line,
                             endsBodyEarly: ([UInt8]) -> Bool, interpreter: inout PayloadInterpreter,
                             into out: inout [StreamEvent]) -> Bool {
        guard var reader = body else { return false }
        switch reader.add(line, endsBodyEarly: endsBodyEarly, interpreter: &interpreter) {
        case .needMore:
            body = reader
            return true
        case .finished(let events):
            body = nil
            out += events
            return true
        case .abandoned(let events, let reprocessLine):
            body = nil
            out += events
            return !reprocessLine
        }
    }

    /// End of input: the events of the body being read, if any.
    static func finishBody(_ body: inout JSONBodyReader?, interpreter: inout PayloadInterpreter) -> [StreamEvent] {
        defer { body = nil }
        return body?.finish(interpreter: &interpreter) ?? []
    }

    /// End of input: the body parsed as a whole, or `.malformed`.
    mutating func finish(interpreter: inout PayloadInterpreter) -> [StreamEvent] {
        if let value = LLMPayload.parseJSON(buffer) {
            return interpreter.events(from: value, eventType: nil, line: startLine)
        }
        return [incomplete("the input ended")]
    }

    func incomplete(_ why: String) -> StreamEvent {
        let what = lineCount > 1 ? "incomplete JSON (\(lineCount) lines)" : "invalid or incomplete JSON"
        return .malformed(line: startLine, reason: "\(what), \(why): \(WireBytes.excerpt(WireBytes.trimmed(buffer)))")
    }
}
