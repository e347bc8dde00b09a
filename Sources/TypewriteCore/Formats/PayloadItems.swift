// PayloadItems.swift: what one payload yields (events and message boundaries), and what
// payloads remember about the ones before them.

import Foundation

/// What payloads remember about the ones before them (agent CLIs repeat messages).
struct PayloadContext: Sendable {
    /// Claude Code: ids of messages whose deltas came as `stream_event`s.
    var streamedMessageIDs: Set<String> = []
    /// Claude Code: a `stream_event` message was seen (`--include-partial-messages`).
    var sawPartialMessages = false
    /// Claude Code: the message the last whole `assistant` line belonged to.
    var lastWholeMessageID: String?
    /// Some answer text or reasoning was decoded already.
    var sawAnswer = false
}

/// What one payload means, before the stateful stages of `PayloadInterpreter`.
struct PayloadItems {
    enum Item: Equatable {
        case event(StreamEvent)
        /// A new whole message starts here (agent transcripts, tool calls in between).
        case boundary
        /// A new part of the reasoning starts here; the answer text goes on.
        case reasoningBoundary
    }
    private(set) var list: [Item] = []

    mutating func add(_ event: StreamEvent) { list.append(.event(event)) }
    mutating func boundary() { list.append(.boundary) }
    mutating func reasoningBoundary() { list.append(.reasoningBoundary) }
    mutating func removeEnds() { list.removeAll { $0 == .event(.end) } }

    /// Adds `value` as answer text if it is a non-empty string.
    mutating func add(text value: Any?) {
        if let s = value as? String, !s.isEmpty { add(.text(Array(s.utf8))) }
    }

    /// Adds `value` as reasoning if it is a non-empty string.
    mutating func add(reasoning value: Any?) {
        if let s = value as? String, !s.isEmpty { add(.reasoning(Array(s.utf8))) }
    }

    /// Adds a message `content`: a string, or an array of parts whose `text` is shown when the
    /// part's `type` is `text` / `output_text` (or absent); Mistral's `thinking` parts (an array
    /// of text parts, or a string) are reasoning; other parts (images, tool use) are not shown.
    mutating func add(contentParts value: Any?) {
        guard let parts = value as? [Any] else { add(text: value); return }
        for case let part as [String: Any] in parts {
            switch part["type"] as? String {
            case nil, "text", "output_text":
                add(text: part["text"])
            case "thinking":
                if let inner = part["thinking"] as? [Any] {
                    for case let p as [String: Any] in inner { add(reasoning: p["text"]) }
                } else {
                    add(reasoning: part["thinking"])
                }
            default:
                break
            }
        }
    }
}
