// LLMPayloads.swift: what the JSON inside an SSE event, an NDJSON line or a bare response body
// means, for each provider. Framing lives in ServerSentEvents.swift and NDJSON.swift.
//
// JSON is parsed with Foundation's JSONSerialization; strings come out as Swift `String`s whose
// UTF-8 is emitted unchanged (escapes such as \u003c and surrogate pairs resolved, nothing
// normalized).

import Foundation

/// Interprets one decoded JSON payload. The provider is recognised per payload from its shape,
/// so one stream may even mix them. Rules, with their sources:
///
/// **Errors** (checked first):
/// - `{"type":"error","error":{"type":…,"message":…}}` or SSE `event: error`: Anthropic's
///   mid-stream and HTTP error shape; OpenAI Responses' `error` event (`message` at top level).
/// - any object with a non-null top-level `error`: OpenAI / OpenRouter / Gemini error objects
///   (`{"error":{"message":…}}`, also mid-stream) and Ollama's `{"error":"…"}`.
/// - `response.failed` (Responses): `response.error.message`.
/// - Gemini `promptFeedback.blockReason` without candidates (the prompt was blocked).
///
/// **Anthropic Messages** (https://docs.anthropic.com/en/docs/build-with-claude/streaming):
/// `content_block_delta` with `delta.type == "text_delta"` → `delta.text`; `thinking_delta`,
/// `signature_delta`, `input_json_delta`, `citations_delta` are not shown;
/// `content_block_start` of a `text` block → its (normally empty) initial `text`;
/// `message_stop` → `.end`; `message_start`, `content_block_stop`, `message_delta`, `ping` and
/// unknown types are ignored. A non-streamed body (`"type":"message"`) → its `text` blocks + `.end`.
///
/// **OpenAI Responses** (https://platform.openai.com/docs/api-reference/responses-streaming):
/// `response.output_text.delta` → `delta`; `response.refusal.delta` → `delta` (the refusal is the
/// answer the user gets); `response.completed` / `response.incomplete` → `.end`. Everything else,
/// notably the cumulative snapshots `response.output_text.done`, `response.content_part.done`,
/// `response.output_item.done` and the full response inside `response.completed`, and the
/// reasoning-summary and function-call deltas, is not shown. A non-streamed body
/// (`"object":"response"`) → its `output_text` parts + `.end`.
///
/// **OpenAI Chat Completions** (https://platform.openai.com/docs/api-reference/chat/streaming):
/// `choices[].delta.content` (a string, or an array of `{"type":"text","text":…}` parts) and
/// `choices[].delta.refusal`; chunks with empty `choices` (usage) are skipped;
/// `delta.tool_calls`, `delta.reasoning_content` / `delta.reasoning` are not shown; `[DONE]`
/// (handled in `events(fromEventData:…)`) → `.end`. Also legacy completions `choices[].text`, and
/// non-streamed `"object":"chat.completion"` (`choices[].message.content` + `.end`).
/// All choices are concatenated in order (requests normally use n = 1).
///
/// **Gemini** (https://ai.google.dev/api/generate-content, `GenerateContentResponse`):
/// `candidates[].content.parts[].text`, skipping parts with `"thought": true`; a candidate with a
/// `finishReason` (sent on the last chunk) → `.end` once.
///
/// **Ollama** (https://github.com/ollama/ollama/blob/main/docs/api.md): `message.content`
/// (`/api/chat`) or `response` (`/api/generate`); `thinking` / `message.thinking` and
/// `message.tool_calls` not shown; `"done": true` → `.end`.
///
/// **Also recognised:** llama.cpp server `/completion` (`content` + `stop`), Hugging Face TGI
/// `generate_stream` (`token.text` unless `token.special`; the cumulative `generated_text` of the
/// last event is not shown, that event → `.end`).
///
/// Anything else that has a `type` string or came with an SSE `event:` name is an unknown but
/// well-formed event and is ignored (vendors add event types). JSON of no known shape and
/// payloads that are not JSON become `.malformed`.
enum LLMPayload {
    /// Interprets the `data` of one SSE event. `eventType` is its `event:` field (nil if none).
    static func events(fromEventData data: [UInt8], eventType: String?, line: Int) -> [StreamEvent] {
        let trimmed = WireBytes.trimmed(data)
        if trimmed.isEmpty { return [] }                          // `data:` keep-alive
        if trimmed.elementsEqual("[DONE]".utf8) { return [.end] }  // OpenAI Chat Completions
        guard let value = parseJSON(data) else {
            if eventType == "error" {
                return [.remoteError(message: String(decoding: trimmed, as: UTF8.self))]
            }
            return [.malformed(line: line, reason: "event data is not JSON: \(WireBytes.excerpt(trimmed))")]
        }
        return events(from: value, eventType: eventType, line: line)
    }

    /// Parses one complete JSON text (any top-level value), or nil.
    static func parseJSON(_ bytes: [UInt8]) -> Any? {
        try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
    }

    /// Interprets a parsed payload. A top-level array (Gemini's non-SSE stream, `[{…},{…}]`) is
    /// interpreted element by element.
    static func events(from value: Any, eventType: String?, line: Int) -> [StreamEvent] {
        if let array = value as? [Any] {
            var out = Events()
            for element in array {
                for e in events(from: element, eventType: eventType, line: line) { out.add(e) }
            }
            return out.list
        }
        guard let object = value as? [String: Any] else {
            return [.malformed(line: line, reason: "JSON payload is not an object")]
        }
        var out = Events()
        if interpret(object, eventType: eventType, into: &out) { return out.list }
        return [.malformed(line: line, reason: "JSON of no known shape: \(describeKeys(object))")]
    }

    // MARK: - Rules

    /// Appends what `o` means to `out`. Returns false if `o` has no known shape.
    private static func interpret(_ o: [String: Any], eventType: String?, into out: inout Events) -> Bool {
        let jsonType = o["type"] as? String
        let name = (eventType == "message") ? nil : eventType
        // The JSON `type` names the event; the SSE `event:` field is the fallback (both are the
        // same for Anthropic and Responses, whose docs send both).
        let type = jsonType ?? name

        // Errors.
        if type == "error" {
            let error = o["error"].flatMap { $0 is NSNull ? nil : $0 } ?? o
            out.add(.remoteError(message: errorMessage(error)))
            return true
        }
        if let error = o["error"], !(error is NSNull) {
            out.add(.remoteError(message: errorMessage(error)))
            return true
        }

        if let type {
            if type.hasPrefix("response.") {
                responsesEvent(type, o, into: &out)
                return true
            }
            switch type {
            case "content_block_delta":
                if let delta = o["delta"] as? [String: Any], delta["type"] as? String == "text_delta" {
                    out.add(text: delta["text"])
                }
                return true
            case "content_block_start":
                if let block = o["content_block"] as? [String: Any], block["type"] as? String == "text" {
                    out.add(text: block["text"])
                }
                return true
            case "message_stop":
                out.add(.end)
                return true
            case "message" where o["content"] is [Any]:   // Anthropic non-streamed body
                for case let block as [String: Any] in o["content"] as? [Any] ?? []
                where block["type"] as? String == "text" {
                    out.add(text: block["text"])
                }
                out.add(.end)
                return true
            default:
                break   // maybe an untyped shape below; otherwise an unknown typed event
            }
        }

        // Untyped shapes. A payload with an unknown JSON `type` is an unknown event, never one
        // of these (an unknown SSE `event:` name alone does not hide a known shape).
        guard jsonType == nil else { return true }
        if let choices = o["choices"] as? [Any] {
            chatCompletion(o, choices, into: &out)
            return true
        }
        if o["candidates"] != nil || o["promptFeedback"] != nil {
            return gemini(o, into: &out)
        }
        if o["object"] as? String == "response", let output = o["output"] as? [Any] {
            responsesBody(o, output, into: &out)
            return true
        }
        if o["message"] is [String: Any] || o["response"] is String || (o["done"] is Bool && o["model"] != nil) {
            ollama(o, into: &out)
            return true
        }
        if o["content"] is String, o["stop"] is Bool {   // llama.cpp server /completion
            out.add(text: o["content"])
            if o["stop"] as? Bool == true { out.add(.end) }
            return true
        }
        if let token = o["token"] as? [String: Any] {   // Hugging Face TGI generate_stream
            if token["special"] as? Bool != true { out.add(text: token["text"]) }
            if let full = o["generated_text"], !(full is NSNull) { out.add(.end) }
            return true
        }
        // Named by the SSE `event:` field but of no known shape: an unknown event, ignored.
        return name != nil
    }

    private static func responsesEvent(_ type: String, _ o: [String: Any], into out: inout Events) {
        switch type {
        case "response.output_text.delta", "response.refusal.delta":
            out.add(text: o["delta"])
        case "response.completed", "response.incomplete":
            out.add(.end)
        case "response.failed":
            let response = o["response"] as? [String: Any]
            if let error = response?["error"], !(error is NSNull) {
                out.add(.remoteError(message: errorMessage(error)))
            } else {
                out.add(.remoteError(message: "response failed"))
            }
        default:
            break   // cumulative *.done snapshots, lifecycle, reasoning, tool-call events
        }
    }

    private static func chatCompletion(_ o: [String: Any], _ choices: [Any], into out: inout Events) {
        for case let choice as [String: Any] in choices {
            if let delta = choice["delta"] as? [String: Any] {
                out.add(contentParts: delta["content"])
                out.add(text: delta["refusal"])
            } else if let message = choice["message"] as? [String: Any] {
                out.add(contentParts: message["content"])
                out.add(text: message["refusal"])
            } else {
                out.add(text: choice["text"])   // legacy /v1/completions
            }
        }
        if o["object"] as? String == "chat.completion" { out.add(.end) }   // non-streamed body
    }

    private static func gemini(_ o: [String: Any], into out: inout Events) -> Bool {
        let candidates = o["candidates"] as? [Any] ?? []
        if candidates.isEmpty, let feedback = o["promptFeedback"] as? [String: Any],
           let reason = feedback["blockReason"] as? String {
            out.add(.remoteError(message: "prompt blocked: \(reason)"))
            return true
        }
        var finished = false
        for case let candidate as [String: Any] in candidates {
            let content = candidate["content"] as? [String: Any]
            for case let part as [String: Any] in content?["parts"] as? [Any] ?? []
            where part["thought"] as? Bool != true {
                out.add(text: part["text"])
            }
            if let reason = candidate["finishReason"] as? String, !reason.isEmpty { finished = true }
        }
        if finished { out.add(.end) }
        return o["candidates"] is [Any] || o["promptFeedback"] is [String: Any]
    }

    private static func responsesBody(_ o: [String: Any], _ output: [Any], into out: inout Events) {
        for case let item as [String: Any] in output where item["type"] as? String == "message" {
            for case let part as [String: Any] in item["content"] as? [Any] ?? [] {
                switch part["type"] as? String {
                case "output_text": out.add(text: part["text"])
                case "refusal": out.add(text: part["refusal"])
                default: break
                }
            }
        }
        out.add(.end)
    }

    private static func ollama(_ o: [String: Any], into out: inout Events) {
        if let message = o["message"] as? [String: Any] {
            out.add(text: message["content"])
        } else {
            out.add(text: o["response"])
        }
        if o["done"] as? Bool == true { out.add(.end) }
    }

    // MARK: - Helpers

    /// The human-readable message of an error value: a string, or `message` of an object
    /// (looking into a nested `error`), else its `type`/`code`/`status`, else the JSON itself.
    static func errorMessage(_ error: Any) -> String {
        if let s = error as? String, !s.isEmpty { return s }
        if let d = error as? [String: Any] {
            if let m = d["message"] as? String, !m.isEmpty { return m }
            if let inner = d["error"], !(inner is NSNull) { return errorMessage(inner) }
            for key in ["type", "code", "status"] {
                if let s = d[key] as? String, !s.isEmpty { return s }
            }
        }
        if JSONSerialization.isValidJSONObject(error),
           let data = try? JSONSerialization.data(withJSONObject: error, options: [.sortedKeys]) {
            return String(decoding: data, as: UTF8.self)
        }
        return "unknown error"
    }

    private static func describeKeys(_ o: [String: Any]) -> String {
        let keys = o.keys.sorted()
        let shown = keys.prefix(6).map { "\"\($0)\"" }.joined(separator: ", ")
        return o.isEmpty ? "{}" : "{\(shown)\(keys.count > 6 ? ", …" : "")}"
    }

    /// "16 MiB", "1 MiB", "300 bytes".
    static func describe(bytes: Int) -> String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }

    /// Collects events, merging adjacent text and dropping empty text.
    struct Events {
        private(set) var list: [StreamEvent] = []

        mutating func add(_ event: StreamEvent) {
            if case .text(let new) = event {
                if new.isEmpty { return }
                if case .text(let old)? = list.last {
                    list[list.count - 1] = .text(old + new)
                    return
                }
            }
            list.append(event)
        }

        /// Adds `value` if it is a non-empty string.
        mutating func add(text value: Any?) {
            if let s = value as? String, !s.isEmpty { add(.text(Array(s.utf8))) }
        }

        /// Adds a message `content`: a string, or an array of parts whose `text` is shown when
        /// the part's `type` is `text` / `output_text` (or absent); other parts (thinking,
        /// images, tool use) are not shown.
        mutating func add(contentParts value: Any?) {
            if let parts = value as? [Any] {
                for case let part as [String: Any] in parts {
                    let type = part["type"] as? String
                    if type == nil || type == "text" || type == "output_text" { add(text: part["text"]) }
                }
            } else {
                add(text: value)
            }
        }
    }
}

/// Collects the lines of one bare JSON value (typically an HTTP error body, possibly
/// pretty-printed) until they parse, then interprets it with `LLMPayload`.
///
/// Parsing is attempted only where a complete value can end: when the first line ends in `}` or
/// `]` (if a first line `{…}` does not parse, it is reported as broken at once), when a later line starts with `}` or `]` at column 0 (how JSONSerialization, Python,
/// Go, Node and jq close a pretty-printed top-level value), and at end of input. That keeps the
/// work linear for a body fed byte by byte.
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
    private var buffer: [UInt8] = []
    private var lineCount = 0
    private var isArray = false

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
    mutating func add(_ line: WireLineSplitter.Line, endsBodyEarly: ([UInt8]) -> Bool) -> Step {
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
            return .finished(LLMPayload.events(from: value, eventType: nil, line: startLine))
        }
        if isFirst, !isArray || last == 0x5D {
            // A one-line value that does not parse: broken, not the start of a longer one.
            // (An array's first line may end with a whole first element, `[{…}`, and go on.)
            return .abandoned([.malformed(line: startLine, reason: "not valid JSON: \(WireBytes.excerpt(WireBytes.trimmed(buffer)))")],
                              reprocessLine: false)
        }
        return .needMore
    }

    /// End of input: the body parsed as a whole, or `.malformed`.
    /// Feeds `line` to the body being read, if any (shared by the SSE and NDJSON decoders).
    /// - Returns: whether the line was taken; false when there is no body or it gave the line back.
    static func continueBody(_ body: inout JSONBodyReader?, with line: WireLineSplitter.Line,
                             endsBodyEarly: ([UInt8]) -> Bool, into out: inout [StreamEvent]) -> Bool {
        guard var reader = body else { return false }
        switch reader.add(line, endsBodyEarly: endsBodyEarly) {
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
    static func finishBody(_ body: inout JSONBodyReader?) -> [StreamEvent] {
        defer { body = nil }
        return body?.finish() ?? []
    }

    mutating func finish() -> [StreamEvent] {
        if let value = LLMPayload.parseJSON(buffer) {
            return LLMPayload.events(from: value, eventType: nil, line: startLine)
        }
        return [incomplete("the input ended")]
    }

    private func incomplete(_ why: String) -> StreamEvent {
        let what = lineCount > 1 ? "incomplete JSON (\(lineCount) lines)" : "invalid or incomplete JSON"
        return .malformed(line: startLine, reason: "\(what), \(why): \(WireBytes.excerpt(WireBytes.trimmed(buffer)))")
    }
}
