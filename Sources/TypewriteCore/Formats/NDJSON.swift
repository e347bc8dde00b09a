// NDJSON.swift: newline-delimited JSON (`application/x-ndjson`), as streamed by Ollama.
//
// Format: one JSON text per line, lines separated by LF (https://github.com/ndjson/ndjson-spec;
// Ollama API docs, "Streaming responses": https://github.com/ollama/ollama/blob/main/docs/api.md).
// What each object means is decided in LLMPayloads.swift.

/// Decodes an NDJSON body (Ollama `/api/generate` or `/api/chat`, the agent CLIs' JSON output,
/// or any stream of the JSON objects `LLMPayload` knows) into answer text and reasoning.
///
/// - Lines end at LF; a CR before the LF is dropped (CRLF tolerated); blank lines are skipped;
///   a UTF-8 BOM at the start is skipped.
/// - Each line is one JSON object: `message.content` (`/api/chat`) or `response`
///   (`/api/generate`) → `.text`; `thinking` → `.reasoning`; `"done": true` → `.end`;
///   `{"error":"…"}` → `.remoteError`. Claude Code, Gemini CLI and Codex lines: see `LLMPayload`.
/// - A line that is not JSON at all (it does not start with `{` or `[`: a log line of a CLI run
///   with `2>&1`) → `.notJSON(line:excerpt:)`; an SSE line (`data:`, `event:`), broken JSON or
///   JSON of no known shape → `.malformed(line:)` with its 1-based line number. Decoding
///   continues with the next line.
/// - A line that starts with `{`/`[` but does not end with `}`/`]` and does not parse starts a
///   multi-line JSON value (a pretty-printed HTTP error body sent to `--format ndjson`); its lines
///   are collected as in `SSEDecoder` (up to `maxBodyBytes`, or until a line starts with `{`/`[`
///   at column 0, which means the earlier line was just broken).
/// - A line longer than `maxLineBytes` (default 16 MiB) → one `.malformed`; its bytes are dropped
///   as they arrive.
public struct NDJSONDecoder: StreamDecoder, Sendable {
    /// Default limit for one line: 16 MiB.
    public static let defaultMaxLineBytes = 16 << 20
    /// Default limit for a multi-line JSON value: 1 MiB.
    public static let defaultMaxBodyBytes = 1 << 20

    private var lines: WireLineSplitter
    private var body: JSONBodyReader?
    private var interpreter = PayloadInterpreter()
    private let maxBodyBytes: Int

    /// - Parameters:
    ///   - maxLineBytes: largest line, in bytes.
    ///   - maxBodyBytes: largest JSON value spread over several lines, in bytes.
    public init(maxLineBytes: Int = NDJSONDecoder.defaultMaxLineBytes,
                maxBodyBytes: Int = NDJSONDecoder.defaultMaxBodyBytes) {
        lines = WireLineSplitter(terminators: .lf, maxLineBytes: maxLineBytes)
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
        out += interpreter.finish()
        return out
    }

    private mutating func handle(_ line: WireLineSplitter.Line, into out: inout [StreamEvent]) {
        if JSONBodyReader.continueBody(&body, with: line, endsBodyEarly: Self.startsNewValue,
                                       interpreter: &interpreter, into: &out) { return }
        if line.overlong {
            out.append(.malformed(line: line.number, reason: "line longer than \(LLMPayload.describe(bytes: lines.maxLineBytes)); skipped"))
            return
        }
        let trimmed = WireBytes.trimmed(line.bytes)
        if trimmed.isEmpty { return }
        if JSONBodyReader.startsJSON(line.bytes) {
            var reader = JSONBodyReader(startLine: line.number, maxBytes: max(maxBodyBytes, line.bytes.count + 1))
            switch reader.add(line, endsBodyEarly: Self.startsNewValue, interpreter: &interpreter) {
            case .needMore: body = reader
            case .finished(let events), .abandoned(let events, _): out += events
            }
            return
        }
        if trimmed.starts(with: "data:".utf8) || trimmed.starts(with: "event:".utf8) {
            let reason = "line is not a JSON object: \(WireBytes.excerpt(trimmed)) (this looks like SSE; try --format sse)"
            out.append(.malformed(line: line.number, reason: reason))
            return
        }
        out.append(.notJSON(line: line.number, excerpt: WireBytes.excerpt(trimmed)))
    }

    /// In a multi-line value, a line starting with `{` or `[` at column 0 starts a new value.
    static func startsNewValue(_ bytes: [UInt8]) -> Bool {
        bytes.first == 0x7B || bytes.first == 0x5B
    }
}
