// LLMPayloads.swift: what the JSON inside an SSE event, an NDJSON line or a bare response body
// means, for each provider and agent CLI. Framing lives in ServerSentEvents.swift and NDJSON.swift;
// the state carried from one payload to the next (message separators, `<think>` in the content,
// messages an agent CLI repeats) lives in PayloadInterpreter.swift.
//
// JSON is parsed with Foundation's JSONSerialization; strings come out as Swift `String`s whose
// UTF-8 is emitted unchanged (escapes such as \u003c and surrogate pairs resolved, nothing
// normalized).

import Foundation

/// Interprets one decoded JSON payload. The provider is recognised per payload from its shape,
/// so one stream may even mix them. Rules, with their sources:
///
/// **Errors** (checked first):
/// - `{"type":"error","error":{"type":…,"message":…}}` or SSE `event: error` (Anthropic's
///   mid-stream and HTTP error shape, Groq's `event: error`, LM Studio's `error` event); OpenAI
///   Responses', Codex's and Gemini CLI's `error` event (`message` at top level; a Gemini CLI
///   event with `"severity": "warning"` is not an error).
/// - any object with a non-null top-level `error`: OpenAI / OpenRouter / Gemini / TGI /
///   llama.cpp error objects (`{"error":{"message":…}}`, also mid-stream, e.g. OpenRouter's chunk
///   with `finish_reason: "error"`), Ollama's `{"error":"…"}`, Codex's `turn.failed`.
/// - `{"object":"error","message":…}`: vLLM and Mistral.
/// - MiniMax `base_resp` with a `status_code` other than 0 (`status_msg`), also in an HTTP 200 body.
/// - An HTTP error body that holds only its message: Bedrock `{"message":…}`, Cohere
///   `{"id":…,"message":…}`, FastAPI `{"detail":…}` (not taken as a model stream by
///   `--format auto`, where such a line may be a log).
/// - `response.failed` (Responses): `response.error.message`.
/// - Gemini `promptFeedback.blockReason` without candidates (the prompt was blocked).
/// - An answer a filter stopped, which the API marks but does not explain: Anthropic
///   `message_delta` with `stop_reason: "refusal"`, Chat Completions `finish_reason:
///   "content_filter"`, Gemini `finishReason` `SAFETY`, `RECITATION`, `BLOCKLIST`,
///   `PROHIBITED_CONTENT` or `SPII` (the text before it is kept).
/// - Claude Code and Gemini CLI `result` with `is_error: true`, an `error…` `subtype` or
///   `status: "error"`; Gemini Interactions `error` events; a Claude Code `assistant` message
///   with an `error` code (one it writes itself, e.g. when not logged in: its text is the
///   message). A message that is itself a JSON error object (Codex passes the provider's body
///   on) gives that object's message.
///
/// **Anthropic Messages** (https://docs.anthropic.com/en/docs/build-with-claude/streaming):
/// `content_block_delta` with `text_delta` → `delta.text`; `thinking_delta` → reasoning;
/// `signature_delta`, `input_json_delta`, `citations_delta` are not shown; `content_block_start`
/// of a `text` / `thinking` block → its (normally empty) initial text; `message_stop` → `.end`.
/// A non-streamed body (`"type":"message"`) → its `text` blocks + `.end`.
///
/// **OpenAI Responses** (https://platform.openai.com/docs/api-reference/responses-streaming):
/// `response.output_text.delta` and `response.refusal.delta` → `delta`;
/// `response.reasoning_summary_text.delta` and `response.reasoning_text.delta` → reasoning;
/// `response.completed` / `response.incomplete` → `.end`. The cumulative snapshots (`*.done`,
/// the response inside `response.completed`) and function-call deltas are not shown.
///
/// **OpenAI Chat Completions and compatible servers** (OpenAI, OpenRouter, Groq, DeepSeek,
/// Mistral, xAI, vLLM, LM Studio and llama.cpp's `/v1/chat/completions`, …): `choices[].delta.content`
/// (a string, or an array of typed parts: `text` shown, Mistral's `thinking` parts as reasoning)
/// and `delta.refusal`; reasoning in `reasoning_content` (DeepSeek, xAI, vLLM), `reasoning`
/// (Groq, OpenRouter, vLLM) or `reasoning_details` (OpenRouter). Servers that send the same
/// token in two of these fields are read from the first one present, so it is not doubled. Only
/// choice 0 is shown (a request with `n > 1` interleaves several answers). `delta.tool_calls` is
/// not shown. Also legacy `choices[].text`, and non-streamed `"object":"chat.completion"`.
///
/// **Gemini** (https://ai.google.dev/api/generate-content, `GenerateContentResponse`):
/// `candidates[0].content.parts[].text`, parts with `"thought": true` as reasoning; a candidate
/// with a `finishReason` → `.end`. **Gemini Interactions API** (`event_type`): `step.delta` with
/// `delta.type` `text` → text, `thought_summary` → reasoning; `interaction.completed` → `.end`.
///
/// **Cohere v2** (https://docs.cohere.com/reference/chat-stream): `content-delta` →
/// `delta.message.content.text` (or `.thinking` as reasoning), `message-end` → `.end`. Cohere v1
/// (`event_type: text-generation`) → `text`.
///
/// **Ollama** (https://github.com/ollama/ollama/blob/main/docs/api.md): `message.content` or
/// `response`; `thinking` as reasoning; `"done": true` → `.end`. **llama.cpp** `/completion`:
/// `content` + `stop`. **Hugging Face TGI** `generate_stream`: `token.text` unless
/// `token.special`; the cumulative `generated_text` of the last event is not shown.
/// **LM Studio** native `/api/v1/chat`: `message.delta` → `content`, `reasoning.delta` →
/// reasoning; the cumulative `chat.end` is not shown.
///
/// **Agent CLIs** (NDJSON): Claude Code `--output-format stream-json` (`assistant` messages'
/// `text` and `thinking` blocks; with `--include-partial-messages` the `stream_event` deltas,
/// after which the complete `assistant` message is not shown again; the `result` line's copy of
/// the answer is not shown); Gemini CLI `--output-format stream-json` (`message` events with
/// `role: "assistant"`; the echoed user prompt is not shown); Codex `exec --json`
/// (`item.completed` of an `agent_message` or `reasoning` item; its `Reconnecting...` retry
/// notices are not errors). Tool calls and tool results of any shape are not shown; in an agent
/// transcript they separate the messages around them.
///
/// **Also, from their providers' documentation:** Replicate (`event: output`, whose data is the
/// text itself), OpenAI Assistants (`thread.message.delta`), Anthropic Text Completions
/// (`completion`), the Vercel AI SDK UI message stream (`text-delta`, `reasoning-delta`),
/// Mistral conversations (`message.output.delta`), IBM watsonx.ai (`results[0].generated_text`),
/// Amazon Bedrock ConverseStream events as JSON (`contentBlockDelta.delta.text`), Gemini Live
/// server messages (`serverContent.modelTurn.parts`), and the single result object of Claude
/// Code and Gemini CLI `--output-format json`.
///
/// Anything else that has a known `type` name, or came with an SSE `event:` name, is a
/// well-formed event that is ignored (vendors add event types). JSON of no known shape and
/// payloads that are not JSON become `.malformed`.
enum LLMPayload {
    /// How well a payload was understood.
    enum Recognition: Equatable {
        /// A shape of a model stream this file knows (even if it carries nothing to show).
        case known
        /// A typed event of a name this file does not know: ignored.
        case unknownEvent
        /// No known shape.
        case unknown
    }

    /// Parses one complete JSON text (any top-level value), or nil.
    static func parseJSON(_ bytes: [UInt8]) -> Any? {
        try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
    }

    /// Whether `value` is the JSON of a known model-stream shape (for `--format auto`).
    static func isKnownShape(_ value: Any, eventType: String?) -> Bool {
        var context = PayloadContext()
        var items = PayloadItems()
        if let array = value as? [Any] {
            guard let first = array.first else { return false }
            return isKnownShape(first, eventType: eventType)
        }
        guard let object = value as? [String: Any] else { return false }
        // A bare `{"message": …}` or `{"detail": …}` is an error body only when a model stream
        // was asked for: as the first line of unknown input it may as well be a log line.
        if bareErrorMessage(object) != nil { return false }
        return interpret(object, eventType: eventType, context: &context, into: &items) == .known
    }

    /// The message of an HTTP error body that says no more than its message: Amazon Bedrock's
    /// `{"message": …}`, Cohere's `{"id": …, "message": …}` (with `error_type`), FastAPI's
    /// `{"detail": …}` (Mistral, vLLM). Nil for any other object.
    static func bareErrorMessage(_ o: [String: Any]) -> String? {
        let keys = Set(o.keys)
        if let m = o["message"] as? String, !m.isEmpty, keys.isSubset(of: ["message", "id", "error_type", "request_id"]) {
            return m
        }
        if keys == ["detail"] { return validationDetail(o["detail"]) }
        return nil
    }

    /// Interprets a parsed payload into `items`. A top-level array (Gemini's non-SSE stream,
    /// `[{…},{…}]`) is interpreted element by element.
    /// - Returns: whether any of it was understood (a known shape or a well-formed event).
    @discardableResult
    static func interpret(_ value: Any, eventType: String?, line: Int,
                          context: inout PayloadContext, into items: inout PayloadItems) -> Bool {
        if let array = value as? [Any] {
            var understood = false
            for element in array where interpret(element, eventType: eventType, line: line, context: &context, into: &items) {
                understood = true
            }
            return understood
        }
        guard let object = value as? [String: Any] else {
            items.add(.malformed(line: line, reason: "JSON payload is not an object"))
            return false
        }
        if interpret(object, eventType: eventType, context: &context, into: &items) == .unknown {
            items.add(.malformed(line: line, reason: "JSON of no known shape: \(describeJSON(object))"))
            return false
        }
        return true
    }

    // MARK: - Rules

    /// Type names of events that carry nothing to show but mark a known stream.
    static let knownQuietTypes: Set<String> = [
        // Anthropic Messages
        "message_start", "message_delta", "content_block_stop", "ping",
        // Claude Code stream-json
        "system", "rate_limit_event", "control_request", "control_response", "control_cancel_request",
        "tool_progress", "auth_status", "keep_alive",
        // Gemini CLI stream-json
        "init", "tool_use",
        // Codex exec --json
        "thread.started", "turn.started", "turn.completed", "item.started", "item.updated",
        // Cohere v2
        "content-start", "content-end", "tool-plan-delta", "tool-call-start", "tool-call-delta",
        "tool-call-end", "citation-start", "citation-end", "debug",
        // LM Studio /api/v1/chat
        "chat.start", "model_load.start", "model_load.progress", "model_load.end",
        "prompt_processing.start", "prompt_processing.progress", "prompt_processing.end",
        "reasoning.end", "message.end", "tool_call.start", "tool_call.arguments", "chat.end",
        // Vercel AI SDK UI message stream
        "start", "start-step", "finish-step", "text-start", "text-end", "reasoning-start", "reasoning-end",
        "tool-input-start", "tool-input-delta", "tool-input-available", "tool-output-available", "source-url",
        // Mistral conversations
        "conversation.response.started", "conversation.response.done", "tool.execution.started",
        "tool.execution.done", "function.call.delta", "agent.handoff.started", "agent.handoff.done",
    ]

    /// Agent CLI type names after which a new whole message starts (tool calls and results).
    /// API streams are deltas of one answer and get no separators in their text.
    static let boundaryTypes: Set<String> = ["user", "tool_result", "tool_use"]

    /// Appends what `o` means to `items`.
    static func interpret(_ o: [String: Any], eventType: String?,
                                  context: inout PayloadContext, into items: inout PayloadItems) -> Recognition {
        if let eventName = o["event_type"] as? String, o["type"] == nil {
            return eventTyped(eventName, o, into: &items)
        }
        let jsonType = o["type"] as? String
        let name = (eventType == "message") ? nil : eventType
        // The JSON `type` names the event; the SSE `event:` field is the fallback (both are the
        // same for Anthropic, Responses, Cohere and LM Studio, whose docs send both).
        let type = jsonType ?? name

        // Typed shapes that carry an `error` object that is not a stream error.
        if type == "tool_result" {
            items.boundary()
            return .known
        }
        if type == "tool_call.failure" { return .known }
        if type == "result" { return agentResult(o, context: context, into: &items) }
        if type == "assistant", let code = nonNull(o["error"]) {
            // Claude Code: a message it made up itself to report a failure (`"model": "<synthetic>"`,
            // `error` a code such as `authentication_failed`); its text is the readable message.
            let blocks = (o["message"] as? [String: Any])?["content"] as? [Any] ?? []
            let text = blocks.compactMap { ($0 as? [String: Any]).flatMap { $0["type"] as? String == "text" ? $0["text"] as? String : nil } }
                .joined(separator: "\n")
            items.add(.remoteError(message: text.isEmpty ? errorMessage(code) : text))
            return .known
        }

        // Errors.
        if type == "error" {
            if o["severity"] as? String == "warning" { return .known }   // Gemini CLI: not fatal
            // Codex reports its own retries as `error` events and goes on.
            if (o["message"] as? String)?.hasPrefix("Reconnecting...") == true { return .known }
            let error = nonNull(o["error"]) ?? nonNull(o["errorText"]) ?? o
            items.add(.remoteError(message: errorMessage(error)))
            return .known
        }
        if let error = nonNull(o["error"]) {
            items.add(.remoteError(message: errorMessage(error)))
            return .known
        }
        if o["object"] as? String == "error" {   // vLLM, Mistral
            items.add(.remoteError(message: errorMessage(o)))
            return .known
        }
        // MiniMax: `base_resp.status_code` other than 0 is an error, even with HTTP 200.
        if let base = o["base_resp"] as? [String: Any], let code = base["status_code"] as? Int, code != 0 {
            let text = (base["status_msg"] as? String).flatMap { $0.isEmpty ? nil : $0 }
            items.add(.remoteError(message: text ?? "status code \(code)"))
            return .known
        }

        if let jsonType {
            return typed(jsonType, o, context: &context, into: &items) ?? .unknownEvent
        }

        // Untyped shapes, before the SSE `event:` name is consulted: a name alone never hides
        // a known shape.
        if let choices = o["choices"] as? [Any] {
            chatCompletion(o, choices, into: &items)
            return .known
        }
        if o["object"] as? String == "thread.message.delta" {   // OpenAI Assistants
            let parts = (o["delta"] as? [String: Any])?["content"] as? [Any] ?? []
            for case let part as [String: Any] in parts where part["type"] as? String == "text" {
                items.add(text: (part["text"] as? [String: Any])?["value"])
            }
            return .known
        }
        if let recognition = bedrockOrLive(o, into: &items) { return recognition }
        if let results = o["results"] as? [Any], let first = results.first as? [String: Any],
           first["generated_text"] is String {   // IBM watsonx.ai generation_stream
            items.add(text: first["generated_text"])
            return .known
        }
        if o["candidates"] != nil || o["promptFeedback"] != nil {
            return gemini(o, into: &items) ? .known : .unknown
        }
        if o["object"] as? String == "response", let output = o["output"] as? [Any] {
            responsesBody(output, into: &items)
            return .known
        }
        if o["message"] is [String: Any] || o["response"] is String || (o["done"] is Bool && o["model"] != nil) {
            ollama(o, into: &items)
            return .known
        }
        if o["content"] is String, o["stop"] is Bool {   // llama.cpp server /completion
            items.add(text: o["content"])
            if o["stop"] as? Bool == true { items.add(.end) }
            return .known
        }
        if let token = o["token"] as? [String: Any] {   // Hugging Face TGI generate_stream
            if token["special"] as? Bool != true { items.add(text: token["text"]) }
            if nonNull(o["generated_text"]) != nil { items.add(.end) }
            return .known
        }
        // Named by the SSE `event:` field only (Anthropic and Responses examples without `type`).
        if let name { return typed(name, o, context: &context, into: &items) ?? .unknownEvent }
        if o["base_resp"] is [String: Any] { return .known }   // MiniMax, status_code 0
        if let message = bareErrorMessage(o) {
            items.add(.remoteError(message: message))
            return .known
        }
        return .unknown
    }

    /// Events named by their `type`; nil when the name is not one of them.
    static func typed(_ type: String, _ o: [String: Any],
                              context: inout PayloadContext, into items: inout PayloadItems) -> Recognition? {
        if type.hasPrefix("response.") {
            responsesEvent(type, o, into: &items)
            return .known
        }
        if boundaryTypes.contains(type) {
            items.boundary()
            return .known
        }
        switch type {
        case "message_delta" where (o["delta"] as? [String: Any])?["stop_reason"] as? String == "refusal":
            // Streaming classifiers stopped the answer; the API adds no message of its own.
            items.add(.remoteError(message: "the model declined to go on (stop_reason refusal)"))
        case "content_block_delta":
            anthropicDelta(o, into: &items)
        case "content_block_start":
            if let block = o["content_block"] as? [String: Any] {
                switch block["type"] as? String {
                case "text": items.add(text: block["text"])
                case "thinking": items.add(reasoning: block["thinking"])
                default: break
                }
            }
        case "message_stop":
            items.add(.end)
        case "message" where o["content"] is [Any]:   // Anthropic non-streamed body
            for case let block as [String: Any] in o["content"] as? [Any] ?? []
            where block["type"] as? String == "text" {
                items.add(text: block["text"])
            }
            items.add(.end)
        case "message" where o["role"] is String:   // Gemini CLI stream-json
            if o["role"] as? String == "assistant" {
                if o["delta"] as? Bool != true { items.boundary() }
                items.add(text: o["content"])
            }
        case "assistant":
            claudeCodeAssistant(o, context: &context, into: &items)
        case "stream_event":
            guard let event = o["event"] as? [String: Any] else { return .unknown }
            if event["type"] as? String == "message_start" {
                items.boundary()   // a new message of the transcript
                context.sawPartialMessages = true
                if let id = (event["message"] as? [String: Any])?["id"] as? String { context.streamedMessageIDs.insert(id) }
            }
            var inner = PayloadContext()
            _ = interpret(event, eventType: nil, context: &inner, into: &items)
            // A stream event's message_stop ends one message of the transcript, not the stream.
            items.removeEnds()
        case "item.completed":
            codexItem(o, into: &items)
        case "turn.failed":
            items.add(.remoteError(message: nonNull(o["error"]).map(errorMessage) ?? "turn failed"))
        case "content-delta":   // Cohere v2
            let content = ((o["delta"] as? [String: Any])?["message"] as? [String: Any])?["content"] as? [String: Any]
            items.add(text: content?["text"])
            items.add(reasoning: content?["thinking"])
        case "message-end":
            let reason = (o["delta"] as? [String: Any])?["finish_reason"] as? String
            if reason == "ERROR" {
                items.add(.remoteError(message: "the model stopped with an error (finish_reason ERROR)"))
            } else {
                items.add(.end)
            }
        case "reasoning.start", "message.start", "message-start", "tool_call.success":
            items.reasoningBoundary()   // LM Studio, Cohere: the answer goes on; reasoning parts are paragraphs
        case "message.delta":   // LM Studio
            items.add(text: o["content"])
        case "message.output.delta":   // Mistral conversations: a string or one typed chunk
            if let chunk = o["content"] as? [String: Any] { items.add(contentParts: [chunk]) } else { items.add(text: o["content"]) }
        case "text-delta":   // Vercel AI SDK UI message stream
            items.add(text: o["delta"])
        case "reasoning-delta":
            items.add(reasoning: o["delta"])
        case "finish":
            items.add(.end)
        case "completion" where o["completion"] is String:   // Anthropic Text Completions (legacy)
            items.add(text: o["completion"])
        case "reasoning.delta":
            items.add(reasoning: o["content"])
        default:
            return knownQuietTypes.contains(type) ? .known : nil
        }
        return .known
    }

    // MARK: - Helpers

    static func nonNull(_ value: Any?) -> Any? {
        guard let value, !(value is NSNull) else { return nil }
        return value
    }

    /// The human-readable message of an error value: a string (or, when the string is itself a
    /// JSON error object, that object's message), or `message` of an object (a FastAPI `detail`
    /// list of validation errors is spelled out, also nested in `message` as Mistral sends it;
    /// then a nested `error`), else its `type`/`code`/`status`, else the JSON itself.
    static func errorMessage(_ error: Any) -> String {
        if let s = error as? String, !s.isEmpty {
            // Some CLIs pass a provider's JSON error body on as the message (Codex does).
            if s.first == "{", let body = parseJSON(Array(s.utf8)) as? [String: Any] { return errorMessage(body) }
            return s
        }
        if let d = error as? [String: Any] {
            if let m = d["message"] as? String, !m.isEmpty { return errorMessage(m) }
            // Mistral nests a FastAPI validation body in `message`: {"detail":[{"loc":…,"msg":…}]}.
            if let m = d["message"] as? [String: Any], let text = validationDetail(m["detail"]) { return text }
            if let text = validationDetail(d["detail"]) { return text }
            if let inner = nonNull(d["error"]) { return errorMessage(inner) }
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

    /// FastAPI's `detail`: a string, or validation errors `[{"loc":["body","temperature"],"msg":…}]`
    /// as "body.temperature: msg" joined with "; " (vLLM, Mistral and other Python servers).
    static func validationDetail(_ detail: Any?) -> String? {
        if let s = detail as? String, !s.isEmpty { return s }
        guard let items = detail as? [Any], !items.isEmpty else { return nil }
        let texts = items.compactMap { item -> String? in
            guard let d = item as? [String: Any], let msg = d["msg"] as? String else { return nil }
            let loc = (d["loc"] as? [Any] ?? []).map { "\($0)" }.joined(separator: ".")
            return loc.isEmpty ? msg : "\(loc): \(msg)"
        }
        return texts.isEmpty ? nil : texts.joined(separator: "; ")
    }

    /// The object as compact JSON with sorted keys, cut to a short excerpt (`WireBytes.excerpt`).
    static func describeJSON(_ o: [String: Any]) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: o, options: [.sortedKeys, .withoutEscapingSlashes]) else {
            return "{…}"
        }
        return WireBytes.excerpt(Array(data)[...])
    }

    /// "16 MiB", "1 MiB", "300 bytes".
    static func describe(bytes: Int) -> String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }
}
