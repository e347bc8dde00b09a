// ServerSentEvents.swift: Server-sent events framing (`text/event-stream`) and `SSEDecoder`.
//
// Framing follows WHATWG HTML, "Server-sent events", §9.2.5 "Parsing an event stream" and
// §9.2.6 "Interpreting an event stream" (https://html.spec.whatwg.org/multipage/server-sent-events.html).
// What the `data` of each event means is decided in LLMPayloads.swift, not here.

/// One dispatched SSE event.
struct ServerSentEvent: Equatable {
    /// The `event:` field, or `nil` when absent or empty (the spec's default type "message").
    var type: String?
    /// The `data:` field values joined with LF (one trailing LF removed, as the spec says).
    var data: [UInt8]
    /// 1-based input line of the event's first field line.
    var line: Int
}

/// Turns lines into events, following WHATWG "Interpreting an event stream":
///
/// - an empty line dispatches the event (nothing happens if no `data` field was seen);
/// - a line starting with `:` is a comment (keep-alives such as `: OPENROUTER PROCESSING`);
/// - otherwise the field name is everything up to the first `:`, the value everything after it
///   with one leading U+0020 removed (no `:` means the whole line is the name, the value empty);
/// - `data` appends the value plus LF to the data buffer (repeated `data` lines are joined with
///   LF), `event` sets the event type; `id`, `retry` and unknown fields are ignored, since they
///   only matter for reconnecting, which a pipe filter does not do.
///
/// Deviations, both for a pipe reading a finished body: an unterminated event at end of input is
/// dispatched instead of discarded (`finish()`), and an event whose data would exceed
/// `maxEventBytes` is reported once (`oversized`) and its remaining lines skipped up to the
/// next empty line, so memory stays bounded.
struct SSEFramer {
    enum Output: Equatable {
        case event(ServerSentEvent)
        /// The event starting at `line` went over `maxEventBytes`; it is being skipped.
        case oversized(line: Int)
    }

    let maxEventBytes: Int
    private var data: [UInt8] = []
    private var hasData = false
    private var eventType: [UInt8] = []
    private var startLine: Int?
    private var oversized = false

    init(maxEventBytes: Int) { self.maxEventBytes = maxEventBytes }

    /// True between events: no field line seen since the last empty line.
    var isAtEventBoundary: Bool { startLine == nil && !oversized }

    mutating func process(_ line: WireLineSplitter.Line) -> Output? {
        if line.overlong {
            if oversized { return nil }
            let start = startLine ?? line.number
            reset()
            oversized = true
            return .oversized(line: start)
        }
        let bytes = line.bytes
        if bytes.isEmpty { return dispatch() }
        if oversized || bytes[0] == 0x3A /* ":" comment */ { return nil }

        let colon = bytes.firstIndex(of: 0x3A)
        let name = bytes[..<(colon ?? bytes.endIndex)]
        var valueStart = colon.map { $0 + 1 } ?? bytes.endIndex
        if valueStart < bytes.endIndex, bytes[valueStart] == 0x20 { valueStart += 1 }
        let value = bytes[valueStart...]
        if startLine == nil { startLine = line.number }

        if name.elementsEqual("data".utf8) {
            if data.count + value.count + 1 > maxEventBytes {
                let start = startLine ?? line.number
                reset()
                oversized = true
                return .oversized(line: start)
            }
            data.append(contentsOf: value)
            data.append(0x0A)
            hasData = true
        } else if name.elementsEqual("event".utf8) {
            eventType = Array(value)
        }
        return nil
    }

    /// End of input: dispatches a pending event that had no closing empty line.
    mutating func finish() -> Output? {
        defer { reset() }
        return oversized ? nil : dispatch()
    }

    private mutating func dispatch() -> Output? {
        defer { reset() }
        guard hasData, !oversized else { return nil }
        data.removeLast()   // the LF after the last data value
        let type = eventType.isEmpty ? nil : String(decoding: eventType, as: UTF8.self)
        return .event(ServerSentEvent(type: type, data: data, line: startLine ?? 1))
    }

    private mutating func reset() {
        data = []
        hasData = false
        eventType = []
        startLine = nil
        oversized = false
    }
}

/// Decodes an LLM API response body in Server-sent events framing into answer text.
///
/// Line splitting and field parsing follow WHATWG HTML "Server-sent events" (see `SSEFramer`,
/// `WireLineSplitter`): LF, CRLF and CR line ends, also when a CRLF is split across two feeds; a
/// leading UTF-8 BOM is skipped; `data` lines are joined with LF; `:` comments are ignored.
/// Each event's data is then interpreted by its JSON shape, so the provider needs no flag
/// (OpenAI Chat Completions and Responses, Anthropic Messages, Gemini; see `LLMPayload`).
///
/// **Bare JSON bodies.** When `curl -N` gets an HTTP 4xx/5xx, the body is a JSON object such as
/// `{"error":{"message":"Incorrect API key provided",…}}`, often pretty-printed over many lines,
/// instead of SSE. So at an event boundary (at the start of input, after whitespace, or after a
/// blank line, e.g. following `curl -i` headers) a line whose first non-blank byte is `{` or `[`
/// starts a JSON body instead of an SSE field (a field name cannot sensibly start with `{`).
/// Its lines are buffered until they parse as one JSON value (tried when the first line ends in
/// `}`/`]` or a later line starts with `}`/`]` at column 0, and at end of input), then the value
/// is interpreted like an event: error objects become `.remoteError`, a complete non-streamed
/// response becomes `.text` + `.end`. A body over `maxBodyBytes` (default 1 MiB), or one cut off
/// by a line that starts an SSE field, becomes `.malformed` and SSE decoding resumes.
///
/// **Limits.** An event whose lines or data exceed `maxEventBytes` (default 16 MiB) becomes one
/// `.malformed` and is skipped up to its closing empty line without being held in memory.
public struct SSEDecoder: StreamDecoder, Sendable {
    /// Default limit for one event (its data, or any single line): 16 MiB.
    public static let defaultMaxEventBytes = 16 << 20
    /// Default limit for a bare JSON body (an HTTP error body): 1 MiB.
    public static let defaultMaxBodyBytes = 1 << 20

    private var lines: WireLineSplitter
    private var framer: SSEFramer
    private var body: JSONBodyReader?
    private var interpreter = PayloadInterpreter()
    private let maxBodyBytes: Int

    /// - Parameters:
    ///   - maxEventBytes: largest event (sum of its data values) or line, in bytes.
    ///   - maxBodyBytes: largest bare JSON body (e.g. a pretty-printed HTTP error), in bytes.
    public init(maxEventBytes: Int = SSEDecoder.defaultMaxEventBytes,
                maxBodyBytes: Int = SSEDecoder.defaultMaxBodyBytes) {
        lines = WireLineSplitter(terminators: .sse, maxLineBytes: maxEventBytes)
        framer = SSEFramer(maxEventBytes: maxEventBytes)
        self.maxBodyBytes = maxBodyBytes
    }

    /// Decodes the next bytes of the stream (any split, even inside a UTF-8 sequence or a line).
    /// - Returns: the events completed by them, in order (often none).
    public mutating func feed(_ bytes: some Collection<UInt8>) -> [StreamEvent] {
        let complete = lines.split(bytes)
        var out: [StreamEvent] = []
        for line in complete { handle(line, into: &out) }
        return out
    }

    /// Whether any payload so far had a shape the decoder knows (an answer, reasoning, an error).
    public var hasUnderstoodPayloads: Bool { interpreter.understoodPayloads > 0 }

    /// End of the stream: the events of what was left (a last line without its terminator).
    /// The decoder starts over afterwards.
    public mutating func finish() -> [StreamEvent] {
        var out: [StreamEvent] = []
        if let last = lines.finish() { handle(last, into: &out) }
        out += JSONBodyReader.finishBody(&body, interpreter: &interpreter)
        if let o = framer.finish() { out += interpret(o) }
        out += interpreter.finish()
        return out
    }

    private mutating func handle(_ line: WireLineSplitter.Line, into out: inout [StreamEvent]) {
        if JSONBodyReader.continueBody(&body, with: line, endsBodyEarly: Self.startsSSEField,
                                       interpreter: &interpreter, into: &out) { return }
        if framer.isAtEventBoundary, !line.overlong, !line.bytes.isEmpty,
           line.bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
            return   // whitespace between events (before a JSON body): not an SSE field
        }
        if framer.isAtEventBoundary, !line.overlong, JSONBodyReader.startsJSON(line.bytes) {
            var reader = JSONBodyReader(startLine: line.number, maxBytes: maxBodyBytes)
            switch reader.add(line, endsBodyEarly: Self.startsSSEField, interpreter: &interpreter) {
            case .needMore: body = reader
            case .finished(let events), .abandoned(let events, _): out += events
            }
            return
        }
        if let o = framer.process(line) { out += interpret(o) }
    }

    private mutating func interpret(_ output: SSEFramer.Output) -> [StreamEvent] {
        switch output {
        case .event(let e):
            return interpreter.events(fromEventData: e.data, eventType: e.type, line: e.line)
        case .oversized(let line):
            return [.malformed(line: line, reason: "event larger than \(LLMPayload.describe(bytes: framer.maxEventBytes)); skipped")]
        }
    }

    /// Lines that cannot be inside a pretty-printed JSON body but start an SSE event: a comment,
    /// a `data`/`event`/`id`/`retry` field, or a new JSON value at column 0.
    static func startsSSEField(_ bytes: [UInt8]) -> Bool {
        guard let first = bytes.first else { return false }
        if first == 0x3A || first == 0x7B || first == 0x5B { return true }   // ":" "{" "["
        for name in ["data", "event", "id", "retry"] {
            let n = name.utf8.count
            if bytes.count >= n, bytes.prefix(n).elementsEqual(name.utf8),
               bytes.count == n || bytes[n] == 0x3A {
                return true
            }
        }
        return false
    }
}
