// StreamFormatDetector.swift: `--format auto`, deciding from the first event of the input whether
// it is a model stream (and which framing) or raw text.

/// Decides the format of an input from its first event, holding back only the bytes it needs
/// to decide, then hands every one of them back unchanged.
///
/// Rules, applied to the first non-blank line (after a UTF-8 BOM and blank lines):
/// - An SSE field (`data:`, `event:`, `id:`, `retry:`, or a `:` comment): the lines up to the
///   first dispatched event are read as SSE (WHATWG "Server-sent events"); the input is `.sse`
///   when that event's data is `[DONE]` or JSON of a known model-stream shape (or any data of an
///   `event: error`), else `.raw`. A line that is no SSE field before that event means `.raw`.
/// - A line starting with `{` or `[`: the JSON value it starts (one line, or a pretty-printed
///   body over several; for an array, its first element) is `.ndjson` when it is of a known
///   shape: a stream object, an agent CLI's first line, a known error body or an array of
///   known elements (Gemini without `alt=sse`). Anything else is `.raw`.
/// - Anything else, known as soon as the first bytes of the line rule out the forms above,
///   is `.raw` (prose, `[1/42] Building…` is not JSON, a build log).
///
/// More than `maxHeldBytes` without a decision, or the end of input, decides with what there
/// is; undecided means `.raw`. Raw input is never changed: the replay is the input, byte for byte.
public struct StreamFormatDetector: Sendable {
    /// What `feed` found out.
    public enum Decision: Equatable, Sendable {
        /// Not yet: the bytes so far are held.
        case undecided
        /// The input's format, and the bytes to process as that format: every byte held so far
        /// plus the ones just fed, unchanged and in order. Later feeds return the same format
        /// with just their own bytes.
        case decided(StreamFormat, replay: [UInt8])
    }

    /// Default bound on held bytes: 1 MiB (a pretty-printed error body fits; a log does not wait).
    public static let defaultMaxHeldBytes = 1 << 20

    private enum Mode: Sendable {
        case start
        case sse(SSEFramer)
        case json(buffer: [UInt8], isArray: Bool, lines: Int)
    }

    private let maxHeldBytes: Int
    private var held: [UInt8] = []
    private var decided: StreamFormat?
    private var mode = Mode.start
    private var lineStart = 0
    private var scanned = 0
    private var skipLF = false
    private var bomChecked = false

    /// - Parameter maxHeldBytes: most bytes held before deciding anyway (then: `.raw`).
    public init(maxHeldBytes: Int = StreamFormatDetector.defaultMaxHeldBytes) {
        self.maxHeldBytes = maxHeldBytes
    }

    /// Feeds the next bytes as read. Returns `.decided` once the format is known.
    public mutating func feed(_ bytes: some Collection<UInt8>) -> Decision {
        if let decided { return .decided(decided, replay: Array(bytes)) }
        held.append(contentsOf: bytes)
        scan(final: false)
        if decided == nil, held.count > maxHeldBytes { decided = .raw }
        return takeDecision()
    }

    /// End of input: decides with what there is (an unterminated last line counts as a line).
    public mutating func finish() -> Decision {
        if let decided { return .decided(decided, replay: []) }
        scan(final: true)
        if decided == nil, case .sse(var framer) = mode, case .event(let e)? = framer.finish() {
            decide(classify(e))
        }
        if decided == nil, case .json(let buffer, let isArray, let lines) = mode {
            decide(classifyJSON(buffer, isArray: isArray, lines: lines, lastLine: [], final: true) ?? .raw)
        }
        if decided == nil { decided = .raw }
        return takeDecision()
    }

    private mutating func takeDecision() -> Decision {
        guard let decided else { return .undecided }
        defer { held = [] }
        return .decided(decided, replay: held)
    }

    private mutating func decide(_ format: StreamFormat) { if decided == nil { decided = format } }

    // MARK: - Lines

    private mutating func scan(final: Bool) {
        if !bomChecked {
            let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
            let k = min(held.count, 3)
            if held.prefix(k).elementsEqual(bom.prefix(k)) {
                if k < 3 && !final { return }
                if k == 3 { lineStart = 3; scanned = 3 }
            }
            bomChecked = true
        }
        var i = scanned
        while decided == nil, i < held.count {
            let b = held[i]
            if skipLF {
                skipLF = false
                if b == 0x0A { i += 1; lineStart = i; continue }
            }
            if b == 0x0A || b == 0x0D {
                handle(Array(held[lineStart..<i]))
                skipLF = b == 0x0D
                i += 1
                lineStart = i
                continue
            }
            i += 1
        }
        scanned = i
        if decided == nil, lineStart < held.count {
            if final {
                handle(Array(held[lineStart...]))
                lineStart = held.count
            } else {
                rejectEarly(held[lineStart...])
            }
        }
    }

    /// The first line is still incomplete: decide `.raw` already when its start rules out
    /// every form this detector accepts, so plain text is not held back.
    private mutating func rejectEarly(_ partial: ArraySlice<UInt8>) {
        guard case .start = mode else { return }
        let text = partial.drop { $0 == 0x20 || $0 == 0x09 }
        guard let first = text.first else { return }
        if first == 0x7B || first == 0x5B || first == 0x3A { return }
        for name in ["data", "event", "id", "retry"] {
            let n = min(text.count, name.utf8.count)
            if text.prefix(n).elementsEqual(name.utf8.prefix(n)) {
                if text.count <= name.utf8.count { return }
                let next = text[text.startIndex + name.utf8.count]
                if next == 0x3A { return }
            }
        }
        decide(.raw)
    }

    private mutating func handle(_ line: [UInt8]) {
        switch mode {
        case .start:
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }
            if JSONBodyReader.startsJSON(line) {
                let isArray = line.first { $0 != 0x20 && $0 != 0x09 } == 0x5B
                mode = .json(buffer: [], isArray: isArray, lines: 0)
                handle(line)
            } else if Self.isSSEField(line) {
                mode = .sse(SSEFramer(maxEventBytes: maxHeldBytes))
                handle(line)
            } else {
                decide(.raw)
            }
        case .sse(var framer):
            if !line.isEmpty, !Self.isSSEField(line) { decide(.raw); return }
            let output = framer.process(WireLineSplitter.Line(bytes: line, number: 1, overlong: false))
            mode = .sse(framer)
            switch output {
            case .event(let e)?: decide(classify(e))
            case .oversized?: decide(.raw)
            case nil: break
            }
        case .json(var buffer, let isArray, let lines):
            mode = .start   // no second reference to the buffer while it grows
            buffer += line
            buffer.append(0x0A)
            if let format = classifyJSON(buffer, isArray: isArray, lines: lines + 1, lastLine: line, final: false) {
                decide(format)
            }
            mode = .json(buffer: buffer, isArray: isArray, lines: lines + 1)
        }
    }

    /// The decision for a JSON value read so far (`lines` lines, the last one `lastLine`), or nil
    /// to read on. Parsing is tried only where a value can end (as `JSONBodyReader` does), so
    /// the work stays linear in the bytes held.
    private func classifyJSON(_ buffer: [UInt8], isArray: Bool, lines: Int, lastLine: [UInt8], final: Bool) -> StreamFormat? {
        let singleLine = lines == 1
        let closesAtColumn0 = lastLine.first == 0x7D || lastLine.first == 0x5D
        guard final || singleLine || closesAtColumn0 else { return nil }
        let trimmed = Array(WireBytes.trimmed(buffer))
        guard let last = trimmed.last else { return nil }
        if let value = LLMPayload.parseJSON(trimmed) {
            return LLMPayload.isKnownShape(value, eventType: nil) ? .ndjson : .raw
        }
        // An array whose first element is complete: judge by that element.
        if isArray, last == 0x7D, let value = LLMPayload.parseJSON(trimmed + [0x5D]) {
            return LLMPayload.isKnownShape(value, eventType: nil) ? .ndjson : .raw
        }
        if singleLine, last == 0x7D || last == 0x5D, !isArray || last == 0x5D { return .raw }   // broken JSON
        return final ? .raw : nil
    }

    private func classify(_ event: ServerSentEvent) -> StreamFormat {
        let data = WireBytes.trimmed(event.data)
        if data.elementsEqual("[DONE]".utf8) { return .sse }
        guard let value = LLMPayload.parseJSON(Array(data)) else { return event.type == "error" ? .sse : .raw }
        return LLMPayload.isKnownShape(value, eventType: event.type) ? .sse : .raw
    }

    /// A line that can only be an SSE field: a comment or a `data`/`event`/`id`/`retry` field.
    private static func isSSEField(_ bytes: [UInt8]) -> Bool {
        guard let first = bytes.first else { return false }
        if first == 0x3A { return true }
        return SSEDecoder.startsSSEField(bytes) && first != 0x7B && first != 0x5B
    }
}
