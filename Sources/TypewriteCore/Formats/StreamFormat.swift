// StreamFormat.swift: how typewrite interprets its input bytes, and the decoder interface
// shared by the wire-format decoders (SSEDecoder in ServerSentEvents.swift, NDJSONDecoder in
// NDJSON.swift; the per-provider JSON rules live in LLMPayloads.swift).
//
// Framing: WHATWG HTML, "Server-sent events" (https://html.spec.whatwg.org/multipage/server-sent-events.html),
// and newline-delimited JSON (https://github.com/ndjson/ndjson-spec); what each provider puts in the
// JSON, with its documentation: LLMPayloads.swift. Recorded examples of each: Tests/traces/README.md.

/// How typewrite interprets its input bytes (`--format raw|sse|ndjson|auto`).
///
/// The raw value is the spelling used on the command line.
public enum StreamFormat: String, CaseIterable, Sendable {
    /// The input is the text itself (plain output of an LLM CLI, a build log, …). No decoding.
    case raw
    /// An HTTP response body in Server-sent events framing (`text/event-stream`), as printed by
    /// `curl -N`: OpenAI Chat Completions and Responses, Anthropic Messages, Gemini `alt=sse` and
    /// its Interactions API, Cohere, OpenAI-compatible servers (OpenRouter, Groq, Mistral, vLLM,
    /// LM Studio, llama.cpp, TGI, …). The provider is detected per event from its JSON.
    case sse
    /// Newline-delimited JSON (`application/x-ndjson`), one object per line: Ollama
    /// `/api/generate` and `/api/chat`, and the agent CLIs' JSON output (Claude Code and Gemini
    /// CLI `--output-format stream-json`, Codex `exec --json`).
    case ndjson
    /// Decided from the start of the input by `StreamFormatDetector`: one of the three above.
    case auto

    /// A fresh decoder for this format, or `nil` for `.raw` (its bytes are the text as they are)
    /// and `.auto` (decide first with `StreamFormatDetector`).
    public func makeDecoder() -> (any StreamDecoder)? {
        switch self {
        case .raw, .auto: return nil
        case .sse: return SSEDecoder()
        case .ndjson: return NDJSONDecoder()
        }
    }
}

/// How a decoded stream's reasoning ("thinking") is shown (`--thinking`).
public enum ThinkingDisplay: String, Sendable {
    /// Not at all: only the answer.
    case hide
    /// Before the answer, faint (SGR 2) when typewrite styles its output, plain otherwise.
    case dim
    /// Before the answer, in the normal style.
    case show
}

/// What a decoder found in the bytes fed so far, in input order.
public enum StreamEvent: Equatable, Sendable {
    /// UTF-8 answer text to show, exactly as the provider sent it (JSON escapes resolved, no
    /// Unicode normalization). Always whole code points: a text event never ends or starts
    /// inside a UTF-8 sequence, because it comes from complete JSON strings. Consecutive whole
    /// messages of an agent transcript come separated by one blank line.
    case text([UInt8])
    /// UTF-8 reasoning ("thinking") the model sent before or beside its answer, in whichever
    /// spelling the provider uses (`reasoning_content`, `reasoning`, `reasoning_details`,
    /// Anthropic `thinking_delta`, Gemini `thought` parts, Mistral `thinking` parts, Cohere and
    /// Ollama `thinking`, Responses reasoning summaries, Codex `reasoning` items, or in-band
    /// `<think>…</think>` at the start of the answer, whose tags and trailing white space are
    /// removed). Whole code points, like `.text`. A caller shows it or not (`--thinking`).
    case reasoning([UInt8])
    /// The remote side reported an error: an SSE `error` event, an error object inside a stream,
    /// `response.failed`, an agent's failed result, or an HTTP error body (`{"error":{"message":…}}`,
    /// `{"error":"…"}`, `{"object":"error",…}`). `message` is the provider's human-readable
    /// message. The caller shows it and exits 1.
    case remoteError(message: String)
    /// An event (SSE) or line (NDJSON) that could not be understood: payload that is not JSON
    /// (SSE), JSON of no known shape, or an event larger than the size limit. `line` is the
    /// 1-based input line number where that event/line/body started. Decoding continues with
    /// the next event; the caller decides whether to warn (typewrite: and exits 1 at the end).
    case malformed(line: Int, reason: String)
    /// An NDJSON line that is not JSON at all (a log line of a CLI run with `2>&1`, a progress
    /// message printed into the stream). `excerpt` is a short printable copy of the line. The
    /// caller reports it and goes on; it is not a failure of the stream.
    case notJSON(line: Int, excerpt: String)
    /// The stream said it is complete: `data: [DONE]` (OpenAI Chat Completions),
    /// `message_stop` (Anthropic), `response.completed` / `response.incomplete` (OpenAI Responses),
    /// a candidate with `finishReason` (Gemini), `"done": true` (Ollama), `message-end` (Cohere),
    /// `stop: true` (llama.cpp), or the end of a complete non-streamed response body. Decoders
    /// keep decoding input that follows it.
    case end
}

/// Incremental decoder of one wire format into `StreamEvent`s.
///
/// Feed the input in whatever pieces `read(2)` returns; the events do not depend on where the
/// input was split (byte by byte, at the writer's boundaries, or all at once). A decoder holds
/// at most one incomplete line/event (bounded, see each decoder's size limits).
public protocol StreamDecoder {
    /// Feeds the next bytes, exactly as read (any split, including inside a line ending, a JSON
    /// string or a UTF-8 sequence). Returns the events completed by them, in input order.
    ///
    /// Any `Collection<UInt8>` works; `[UInt8]`, `ArraySlice<UInt8>`, `Data` and
    /// `UnsafeBufferPointer<UInt8>` are read in place (contiguous storage), others are copied once.
    mutating func feed(_ bytes: some Collection<UInt8>) -> [StreamEvent]

    /// End of input: flushes an unterminated final line/event and returns what it completes.
    /// Afterwards the decoder is back in its initial state and could decode a new stream.
    mutating func finish() -> [StreamEvent]

    /// Whether any payload was understood since the decoder was created (`finish()` keeps it):
    /// a known shape or a well-formed
    /// event, whether or not it carried text (a stream of tool calls only shows nothing, yet is
    /// a stream). False for input with no event at all (an HTML error page, the wrong format).
    var hasUnderstoodPayloads: Bool { get }
}

extension StreamDecoder {
    /// Convenience for tests and small inputs: `feed(bytes) + finish()`.
    public mutating func decodeAll(_ bytes: some Collection<UInt8>) -> [StreamEvent] {
        feed(bytes) + finish()
    }
}

// MARK: - Shared line machinery (used by SSEDecoder and NDJSONDecoder)

/// Splits input into lines across arbitrary feed boundaries.
///
/// - `.sse`: a line ends at CRLF, LF or CR (WHATWG HTML, "Server-sent events", parsing an event
///   stream: `end-of-line = ( cr lf / cr / lf )`). A CR at the end of one feed followed by LF at
///   the start of the next is one line end.
/// - `.lf`: a line ends at LF; one CR right before the LF is dropped (NDJSON tolerates CRLF).
///
/// A UTF-8 byte order mark at the very start of the input is removed (WHATWG: "One leading
/// U+FEFF BYTE ORDER MARK character must be ignored if any are present").
/// Lines longer than `maxLineBytes` are not held: their bytes are dropped as they arrive, and the
/// line is delivered with `overlong == true` when its terminator (or the end of input) arrives.
struct WireLineSplitter {
    enum Terminators { case sse, lf }

    /// One complete input line, without its terminator.
    struct Line {
        /// The line's bytes (empty if `overlong`).
        var bytes: [UInt8]
        /// 1-based line number.
        var number: Int
        /// The line exceeded the size limit; its bytes were dropped while reading it.
        var overlong: Bool
    }

    let terminators: Terminators
    let maxLineBytes: Int
    private var partial: [UInt8] = []
    private var partialOverlong = false
    private var pendingCR = false   // .sse: the previous feed ended in CR; swallow one LF
    private var lineNumber = 1      // number of the line being assembled
    private var atStart = true      // line 1 may still begin with a BOM (fewer than 3 bytes seen)

    init(terminators: Terminators, maxLineBytes: Int) {
        self.terminators = terminators
        self.maxLineBytes = maxLineBytes
    }

    /// Splits `bytes` (continuing the current partial line); returns the lines it completes.
    /// Reads contiguous collections in place, copies others once.
    mutating func split(_ bytes: some Collection<UInt8>) -> [Line] {
        if let lines = bytes.withContiguousStorageIfAvailable({ split(buffer: $0) }) { return lines }
        return Array(bytes).withUnsafeBufferPointer { split(buffer: $0) }
    }

    private mutating func split(buffer buf: UnsafeBufferPointer<UInt8>) -> [Line] {
        var lines: [Line] = []
        let n = buf.count
        var i = 0
        if pendingCR, n > 0 {
            pendingCR = false
            if buf[0] == 0x0A { i = 1 }
        }
        while i < n {
            var j = i
            switch terminators {
            case .sse: while j < n, buf[j] != 0x0A, buf[j] != 0x0D { j += 1 }
            case .lf: while j < n, buf[j] != 0x0A { j += 1 }
            }
            append(UnsafeBufferPointer(rebasing: buf[i..<j]))
            if j == n { break }
            if buf[j] == 0x0D {            // only in .sse mode
                if j + 1 < n {
                    if buf[j + 1] == 0x0A { j += 1 }
                } else {
                    pendingCR = true
                }
            } else if terminators == .lf, partial.last == 0x0D {
                partial.removeLast()
            }
            lines.append(takeLine())
            i = j + 1
        }
        return lines
    }

    /// End of input: the unterminated last line, if any. Resets the splitter.
    mutating func finish() -> Line? {
        defer { self = WireLineSplitter(terminators: terminators, maxLineBytes: maxLineBytes) }
        guard !partial.isEmpty || partialOverlong else { return nil }
        if terminators == .lf, partial.last == 0x0D { partial.removeLast() }
        return takeLine()
    }

    private mutating func append(_ segment: UnsafeBufferPointer<UInt8>) {
        if partialOverlong { return }
        if atStart {
            // The BOM is not part of the line: strip it before measuring, so that the limit
            // does not depend on whether the BOM came in the same read as the rest of the line.
            partial.append(contentsOf: segment)
            stripBOM(final: false)
            if !atStart, partial.count > maxLineBytes { markOverlong() }
            return
        }
        if partial.count + segment.count > maxLineBytes {
            markOverlong()
            return
        }
        partial.append(contentsOf: segment)
    }

    private mutating func markOverlong() {
        partial = []
        partialOverlong = true
        atStart = false
    }

    /// Line 1 only: drops a complete leading EF BB BF once enough bytes are known.
    /// `final`: the line is complete, so a shorter prefix of the BOM is kept as data.
    private mutating func stripBOM(final: Bool) {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let k = min(partial.count, 3)
        guard partial.prefix(k).elementsEqual(bom.prefix(k)) else { atStart = false; return }
        if k == 3 {
            partial.removeFirst(3)
            atStart = false
        } else if final {
            atStart = false
        }
    }

    private mutating func takeLine() -> Line {
        if atStart {
            stripBOM(final: true)
            if partial.count > maxLineBytes { markOverlong() }
        }
        let line = Line(bytes: partial, number: lineNumber, overlong: partialOverlong)
        partial = []
        partialOverlong = false
        lineNumber += 1
        return line
    }
}

/// Small byte helpers shared by the format decoders.
enum WireBytes {
    static func isBlank(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0D || b == 0x0A }

    /// `bytes` without leading and trailing ASCII space, tab, CR and LF.
    static func trimmed(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        guard let first = bytes.firstIndex(where: { !isBlank($0) }),
              let last = bytes.lastIndex(where: { !isBlank($0) }) else { return [] }
        return bytes[first...last]
    }

    /// A short, printable excerpt of `bytes` for a `.malformed` reason: at most `limit` bytes,
    /// cut at a UTF-8 boundary, control characters escaped.
    static func excerpt(_ bytes: ArraySlice<UInt8>, limit: Int = 60) -> String {
        var cut = Array(bytes.prefix(limit))
        let truncated = bytes.count > limit
        if truncated {   // back up to a code point boundary
            var k = cut.count
            while k > 0, cut[k - 1] & 0xC0 == 0x80 { k -= 1 }
            if k > 0, cut[k - 1] >= 0xC0 { k -= 1 }
            cut.removeSubrange(k...)
        }
        var s = ""
        for scalar in String(decoding: cut, as: UTF8.self).unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F {
                s += scalar.escaped(asASCII: true)
            } else {
                s.unicodeScalars.append(scalar)
            }
        }
        return truncated ? s + "…" : s
    }
}
