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
    private static let knownQuietTypes: Set<String> = [
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
    private static let boundaryTypes: Set<String> = ["user", "tool_result", "tool_use"]

    /// Appends what `o` means to `items`.
    private static func interpret(_ o: [String: Any], eventType: String?,
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
    private static func typed(_ type: String, _ o: [String: Any],
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

    /// Payloads named by `event_type`: the Gemini Interactions API and Cohere v1.
    private static func eventTyped(_ name: String, _ o: [String: Any], into items: inout PayloadItems) -> Recognition {
        switch name {
        case "step.delta", "content.delta":
            guard let delta = o["delta"] as? [String: Any] else { return .known }
            switch delta["type"] as? String {
            case "text": items.add(text: delta["text"])
            case "thought_summary": items.add(reasoning: (delta["content"] as? [String: Any])?["text"])
            case "thought": items.add(reasoning: delta["thought"] ?? delta["text"])
            default: break
            }
        case "step.start", "content.start":
            items.reasoningBoundary()
        case "interaction.completed", "interaction.complete":
            let status = (o["interaction"] as? [String: Any])?["status"] as? String
            if status == "failed" {
                items.add(.remoteError(message: "the interaction failed"))
            } else {
                items.add(.end)
            }
        case "error":
            items.add(.remoteError(message: nonNull(o["error"]).map(errorMessage) ?? "unknown error"))
        case "text-generation":   // Cohere v1
            items.add(text: o["text"])
        case "stream-end":
            items.add(.end)
        default:
            if name.hasPrefix("interaction.") || name.hasPrefix("step.") || name.hasPrefix("content.")
                || ["stream-start", "search-queries-generation", "search-results", "citation-generation",
                    "tool-calls-generation", "tool-calls-chunk"].contains(name) {
                return .known
            }
            return .unknownEvent
        }
        return .known
    }

    /// Amazon Bedrock ConverseStream events (as JSON, one key naming the event) and Gemini Live
    /// API server messages; nil when `o` is neither.
    private static func bedrockOrLive(_ o: [String: Any], into items: inout PayloadItems) -> Recognition? {
        if let delta = (o["contentBlockDelta"] as? [String: Any])?["delta"] as? [String: Any] {
            items.add(text: delta["text"])
            items.add(reasoning: (delta["reasoningContent"] as? [String: Any])?["text"])
            return .known
        }
        if o["messageStop"] != nil { items.add(.end); return .known }
        for key in ["messageStart", "contentBlockStart", "contentBlockStop", "metadata"] where o[key] is [String: Any] {
            return .known
        }
        if let server = o["serverContent"] as? [String: Any] {
            let parts = (server["modelTurn"] as? [String: Any])?["parts"] as? [Any] ?? []
            for case let part as [String: Any] in parts {
                if part["thought"] as? Bool == true { items.add(reasoning: part["text"]) } else { items.add(text: part["text"]) }
            }
            if server["turnComplete"] as? Bool == true { items.add(.end) }
            return .known
        }
        for key in ["setupComplete", "sessionResumptionUpdate", "goAway", "toolCall", "toolCallCancellation"] where o[key] != nil {
            return .known
        }
        return nil
    }

    private static func anthropicDelta(_ o: [String: Any], into items: inout PayloadItems) {
        guard let delta = o["delta"] as? [String: Any] else { return }
        switch delta["type"] as? String {
        case "text_delta": items.add(text: delta["text"])
        case "thinking_delta": items.add(reasoning: delta["thinking"])
        default: break   // signature, input_json (tool use), citations
        }
    }

    private static func claudeCodeAssistant(_ o: [String: Any], context: inout PayloadContext,
                                            into items: inout PayloadItems) {
        guard let message = o["message"] as? [String: Any] else { return }
        let id = message["id"] as? String
        // With --include-partial-messages the deltas came first: this is their repetition.
        if let id, context.streamedMessageIDs.contains(id) { return }
        if id == nil, context.sawPartialMessages { return }
        if id == nil || id != context.lastWholeMessageID { items.boundary() }
        context.lastWholeMessageID = id
        for case let block as [String: Any] in message["content"] as? [Any] ?? [] {
            switch block["type"] as? String {
            case "text": items.add(text: block["text"])
            case "thinking": items.add(reasoning: block["thinking"])
            default: break   // tool_use, redacted_thinking
            }
        }
    }

    /// `result` of Claude Code (`is_error`, `subtype`) and Gemini CLI (`status`). A successful
    /// result repeats the answer, which is not shown again.
    private static func agentResult(_ o: [String: Any], context: PayloadContext,
                                    into items: inout PayloadItems) -> Recognition {
        let subtype = o["subtype"] as? String
        let failed = o["is_error"] as? Bool == true || subtype?.hasPrefix("error") == true
            || ["error", "failed", "failure"].contains(o["status"] as? String ?? "")
        guard failed else {
            // Claude Code --output-format json: the result is the only copy of the answer.
            if !context.sawAnswer, o["type"] as? String == "result" { items.add(text: o["result"]) }
            return .known
        }
        var message: String?
        if let error = nonNull(o["error"]) { message = errorMessage(error) }
        if message == nil, let text = o["result"] as? String, !text.isEmpty { message = text }
        if message == nil, let errors = o["errors"] as? [Any], !errors.isEmpty {
            message = errors.map(errorMessage).joined(separator: "; ")
        }
        items.add(.remoteError(message: message ?? subtype ?? "the agent reported an error"))
        return .known
    }

    /// Codex `item.completed`: whole messages, no deltas.
    private static func codexItem(_ o: [String: Any], into items: inout PayloadItems) {
        guard let item = o["item"] as? [String: Any] else { return }
        let kind = item["type"] as? String ?? item["item_type"] as? String
        items.boundary()
        switch kind {
        case "agent_message", "assistant_message": items.add(text: item["text"])
        case "reasoning": items.add(reasoning: item["text"])
        default: break   // command_execution, file_change, mcp_tool_call, web_search, todo_list, error
        }
    }

    private static func responsesEvent(_ type: String, _ o: [String: Any], into items: inout PayloadItems) {
        switch type {
        case "response.output_text.delta", "response.refusal.delta":
            items.add(text: o["delta"])
        case "response.reasoning_summary_text.delta", "response.reasoning_text.delta":
            items.add(reasoning: o["delta"])
        case "response.reasoning_summary_part.added":
            items.reasoningBoundary()
        case "response.completed", "response.incomplete":
            items.add(.end)
        case "response.failed":
            let response = o["response"] as? [String: Any]
            if let error = nonNull(response?["error"]) {
                items.add(.remoteError(message: errorMessage(error)))
            } else {
                items.add(.remoteError(message: "response failed"))
            }
        default:
            break   // cumulative *.done snapshots, lifecycle, tool-call events
        }
    }

    private static func chatCompletion(_ o: [String: Any], _ choices: [Any], into items: inout PayloadItems) {
        // Choice 0 only: with n > 1 each chunk carries one of several interleaved answers.
        for case let choice as [String: Any] in choices where (choice["index"] as? Int ?? 0) == 0 {
            let part = choice["delta"] as? [String: Any] ?? choice["message"] as? [String: Any]
            if let part {
                items.add(reasoning: firstReasoning(part))
                items.add(contentParts: part["content"])
                items.add(text: part["refusal"])
            } else {
                items.add(text: choice["text"])   // legacy /v1/completions
            }
            if choice["finish_reason"] as? String == "content_filter" {
                items.add(.remoteError(message: "the answer was stopped by a content filter (finish_reason content_filter)"))
            }
        }
        if o["object"] as? String == "chat.completion" { items.add(.end) }   // non-streamed body
    }

    /// The reasoning of a Chat Completions delta, from the first field that has any: the same
    /// token is sent in several of them by some servers (vLLM: `reasoning_content` and
    /// `reasoning`; OpenRouter: `reasoning` and `reasoning_details`).
    private static func firstReasoning(_ part: [String: Any]) -> String? {
        for key in ["reasoning_content", "reasoning", "thinking"] {
            if let s = part[key] as? String, !s.isEmpty { return s }
        }
        guard let details = part["reasoning_details"] as? [Any] else { return nil }
        var text = ""
        for case let detail as [String: Any] in details {
            switch detail["type"] as? String {
            case "reasoning.text": text += detail["text"] as? String ?? ""
            case "reasoning.summary": text += detail["summary"] as? String ?? ""
            default: break   // reasoning.encrypted
            }
        }
        return text.isEmpty ? nil : text
    }

    private static func gemini(_ o: [String: Any], into items: inout PayloadItems) -> Bool {
        let candidates = o["candidates"] as? [Any] ?? []
        if candidates.isEmpty, let feedback = o["promptFeedback"] as? [String: Any],
           let reason = feedback["blockReason"] as? String {
            items.add(.remoteError(message: "prompt blocked: \(reason)"))
            return true
        }
        var finished = false
        for case let candidate as [String: Any] in candidates where (candidate["index"] as? Int ?? 0) == 0 {
            let content = candidate["content"] as? [String: Any]
            for case let part as [String: Any] in content?["parts"] as? [Any] ?? [] {
                if part["thought"] as? Bool == true {
                    items.add(reasoning: part["text"])
                } else {
                    items.add(text: part["text"])
                }
            }
            if let reason = candidate["finishReason"] as? String, !reason.isEmpty {
                if Self.geminiBlockReasons.contains(reason) {
                    items.add(.remoteError(message: "the answer was blocked (finishReason \(reason))"))
                } else {
                    finished = true
                }
            }
        }
        if finished { items.add(.end) }
        return o["candidates"] is [Any] || o["promptFeedback"] is [String: Any]
    }

    /// Gemini `finishReason` values that mean the answer was cut off by a filter, not finished.
    private static let geminiBlockReasons: Set<String> = ["SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII"]

    private static func responsesBody(_ output: [Any], into items: inout PayloadItems) {
        for case let item as [String: Any] in output where item["type"] as? String == "message" {
            for case let part as [String: Any] in item["content"] as? [Any] ?? [] {
                switch part["type"] as? String {
                case "output_text": items.add(text: part["text"])
                case "refusal": items.add(text: part["refusal"])
                default: break
                }
            }
        }
        items.add(.end)
    }

    private static func ollama(_ o: [String: Any], into items: inout PayloadItems) {
        if let message = o["message"] as? [String: Any] {
            items.add(reasoning: message["thinking"])
            items.add(text: message["content"])
        } else {
            items.add(reasoning: o["thinking"])
            items.add(text: o["response"])
        }
        if o["done"] as? Bool == true { items.add(.end) }
    }

    // MARK: - Helpers

    private static func nonNull(_ value: Any?) -> Any? {
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
    private static func describeJSON(_ o: [String: Any]) -> String {
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

    private func incomplete(_ why: String) -> StreamEvent {
        let what = lineCount > 1 ? "incomplete JSON (\(lineCount) lines)" : "invalid or incomplete JSON"
        return .malformed(line: startLine, reason: "\(what), \(why): \(WireBytes.excerpt(WireBytes.trimmed(buffer)))")
    }
}
