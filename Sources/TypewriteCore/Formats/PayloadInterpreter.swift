// PayloadInterpreter.swift: the stateful stages between the per-payload rules (LLMPayloads.swift)
// and the events a decoder returns: what earlier payloads said (messages an agent CLI repeats),
// reasoning given in-band as `<think>…</think>`, and the blank line between whole messages.

/// Turns decoded payloads into `StreamEvent`s, remembering what earlier payloads of the same
/// stream said. One per decoder; its output does not depend on how the input was chunked,
/// because it only ever sees whole payloads.
struct PayloadInterpreter: Sendable {
    private var context = PayloadContext()
    private var thinkTags = InBandReasoning()
    private var answer = MessageSeparator()
    private var reasoning = MessageSeparator()
    /// Payloads understood so far (a known shape or a well-formed event, shown or not).
    private(set) var understoodPayloads = 0

    /// Interprets the `data` of one SSE event. `eventType` is its `event:` field (nil if none).
    mutating func events(fromEventData data: [UInt8], eventType: String?, line: Int) -> [StreamEvent] {
        let trimmed = WireBytes.trimmed(data)
        if trimmed.isEmpty { return [] }                          // `data:` keep-alive
        if trimmed.elementsEqual("[DONE]".utf8) {                 // OpenAI Chat Completions
            understoodPayloads += 1
            return [.end]
        }
        guard let value = LLMPayload.parseJSON(data) else {
            if eventType == "output" {   // Replicate: the data is the text itself
                understoodPayloads += 1
                return events(fromItems: { $0.add(text: String(decoding: data, as: UTF8.self)) })
            }
            if eventType == "error" {
                return [.remoteError(message: String(decoding: trimmed, as: UTF8.self))]
            }
            return [.malformed(line: line, reason: "event data is not JSON: \(WireBytes.excerpt(trimmed))")]
        }
        return events(from: value, eventType: eventType, line: line)
    }

    /// Interprets one parsed JSON value (an NDJSON line, an SSE event's data, a bare body).
    mutating func events(from value: Any, eventType: String?, line: Int) -> [StreamEvent] {
        var items = PayloadItems()
        if LLMPayload.interpret(value, eventType: eventType, line: line, context: &context, into: &items) {
            understoodPayloads += 1
        }
        return events(of: items)
    }

    private mutating func events(fromItems fill: (inout PayloadItems) -> Void) -> [StreamEvent] {
        var items = PayloadItems()
        fill(&items)
        return events(of: items)
    }

    private mutating func events(of items: PayloadItems) -> [StreamEvent] {
        var out = EventList()
        for item in items.list {
            switch item {
            case .boundary:
                answer.messageEnded()
                reasoning.messageEnded()
                thinkTags.messageEnded()
            case .reasoningBoundary:
                reasoning.messageEnded()
            case .event(.text(let bytes)):
                context.sawAnswer = true
                for event in thinkTags.split(bytes) { emit(event, into: &out) }
            case .event(let event):
                if case .reasoning = event { context.sawAnswer = true }
                if event == .end || { if case .remoteError = event { true } else { false } }() {
                    // The answer is over: text held back for a possible `<think>` is answer text.
                    for held in thinkTags.finish() { emit(held, into: &out) }
                }
                emit(event, into: &out)
            }
        }
        return out.list
    }

    /// End of input: text held back while deciding whether it opens a `<think>` block.
    mutating func finish() -> [StreamEvent] {
        var out = EventList()
        for event in thinkTags.finish() { emit(event, into: &out) }
        let understood = understoodPayloads
        self = PayloadInterpreter()
        understoodPayloads = understood   // still true of the stream just finished
        return out.list
    }

    private mutating func emit(_ event: StreamEvent, into out: inout EventList) {
        switch event {
        case .text(let bytes):
            out.add(.text(answer.separated(bytes)))
        case .reasoning(let bytes):
            out.add(.reasoning(reasoning.separated(bytes)))
        default:
            out.add(event)
        }
    }
}

/// Collects events, merging adjacent text (and adjacent reasoning) and dropping empty ones.
struct EventList {
    private(set) var list: [StreamEvent] = []

    mutating func add(_ event: StreamEvent) {
        switch (event, list.last) {
        case (.text(let new), _) where new.isEmpty, (.reasoning(let new), _) where new.isEmpty:
            return
        case (.text(let new), .text(let old)?):
            list[list.count - 1] = .text(old + new)
        case (.reasoning(let new), .reasoning(let old)?):
            list[list.count - 1] = .reasoning(old + new)
        default:
            list.append(event)
        }
    }
}

/// Separates consecutive whole messages of one kind (answer or reasoning) with exactly one
/// blank line: nothing before the first message, none after the last.
struct MessageSeparator: Sendable {
    private var emittedAny = false
    private var endsWithNewlines = 0   // 0, 1 or 2: trailing LFs of what was emitted
    private var pending = false

    mutating func messageEnded() { pending = emittedAny }

    /// `bytes` with the separator the previous message needs in front, if a message ended.
    mutating func separated(_ bytes: [UInt8]) -> [UInt8] {
        guard !bytes.isEmpty else { return bytes }
        var out = bytes
        if pending {
            pending = false
            out = Array(repeating: 0x0A, count: 2 - endsWithNewlines) + bytes
        }
        emittedAny = true
        var trailing = 0
        for b in out.reversed() {
            guard b == 0x0A, trailing < 2 else { break }
            trailing += 1
        }
        endsWithNewlines = trailing == out.count ? min(2, endsWithNewlines + trailing) : trailing
        return out
    }
}

/// Reasoning sent in-band in the answer text by models that think aloud (DeepSeek R1, Qwen3,
/// QwQ through servers that do not split it off): a message whose text starts with `<think>`
/// (after optional white space) reasons until `</think>`; the white space after `</think>` is
/// dropped. A `<think>` anywhere else is answer text. Tags may be split across payloads at any
/// byte; at most the length of a tag (plus leading white space) is held back.
struct InBandReasoning: Sendable {
    private enum State: Sendable { case start, thinking, afterThinking, answer }
    private static let open = Array("<think>".utf8)
    private static let close = Array("</think>".utf8)
    /// Longest leading white space held while waiting for a possible `<think>`.
    private static let maxLeadingBlank = 256

    private var state = State.start
    private var held: [UInt8] = []

    /// A new message starts: it may open with `<think>` again.
    mutating func messageEnded() {
        if state == .answer || state == .afterThinking { state = .start }
    }

    /// Splits the next piece of answer text into text and reasoning events.
    mutating func split(_ bytes: [UInt8]) -> [StreamEvent] {
        var out: [StreamEvent] = []
        var input = held + bytes
        held = []
        while !input.isEmpty {
            switch state {
            case .answer:
                out.append(.text(input))
                input = []
            case .start:
                let blank = input.prefix { WireBytes.isBlank($0) }.count
                let rest = input[blank...]
                if rest.isEmpty, blank <= Self.maxLeadingBlank { held = input; input = []; break }
                let n = min(rest.count, Self.open.count)
                if blank <= Self.maxLeadingBlank, rest.prefix(n).elementsEqual(Self.open.prefix(n)) {
                    if n < Self.open.count { held = input; input = []; break }
                    state = .thinking
                    input = Array(rest.dropFirst(Self.open.count))
                } else {
                    state = .answer
                }
            case .thinking:
                if let range = Self.find(Self.close, in: input) {
                    out.append(.reasoning(Array(input[..<range.lowerBound])))
                    input = Array(input[range.upperBound...])
                    state = .afterThinking
                } else {
                    // Keep a tail that could be the start of `</think>`.
                    let keep = Self.partialSuffix(of: input, matching: Self.close)
                    out.append(.reasoning(Array(input.dropLast(keep))))
                    held = Array(input.suffix(keep))
                    input = []
                }
            case .afterThinking:
                let blank = input.prefix { WireBytes.isBlank($0) }.count
                input = Array(input.dropFirst(blank))
                if !input.isEmpty { state = .answer }
            }
        }
        return out.filter { $0 != .text([]) && $0 != .reasoning([]) }
    }

    /// End of input: what was held back, as what it turned out to be.
    mutating func finish() -> [StreamEvent] {
        defer { self = InBandReasoning() }
        guard !held.isEmpty else { return [] }
        return state == .thinking ? [.reasoning(held)] : [.text(held)]
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Range<Int>? {
        guard haystack.count >= needle.count else { return nil }
        for i in 0...(haystack.count - needle.count) where haystack[i] == needle[0] {
            if haystack[i..<(i + needle.count)].elementsEqual(needle) { return i..<(i + needle.count) }
        }
        return nil
    }

    /// Length of the longest proper prefix of `needle` that `bytes` ends with.
    private static func partialSuffix(of bytes: [UInt8], matching needle: [UInt8]) -> Int {
        for k in stride(from: min(needle.count - 1, bytes.count), to: 0, by: -1)
        where bytes.suffix(k).elementsEqual(needle.prefix(k)) {
            return k
        }
        return 0
    }
}
