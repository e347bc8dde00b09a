// LLMPayloads+Providers.swift: the shapes of one provider or agent CLI each (Gemini, Bedrock,
// Claude Code, Codex, the Responses API, Chat Completions, Ollama), called from the rules in
// LLMPayloads.swift.

import Foundation

extension LLMPayload {
    /// Payloads named by `event_type`: the Gemini Interactions API and Cohere v1.
    static func eventTyped(_ name: String, _ o: [String: Any], into items: inout PayloadItems) -> Recognition {
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
    static func bedrockOrLive(_ o: [String: Any], into items: inout PayloadItems) -> Recognition? {
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

    static func anthropicDelta(_ o: [String: Any], into items: inout PayloadItems) {
        guard let delta = o["delta"] as? [String: Any] else { return }
        switch delta["type"] as? String {
        case "text_delta": items.add(text: delta["text"])
        case "thinking_delta": items.add(reasoning: delta["thinking"])
        default: break   // signature, input_json (tool use), citations
        }
    }

    static func claudeCodeAssistant(_ o: [String: Any], context: inout PayloadContext,
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
    static func agentResult(_ o: [String: Any], context: PayloadContext,
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
    static func codexItem(_ o: [String: Any], into items: inout PayloadItems) {
        guard let item = o["item"] as? [String: Any] else { return }
        let kind = item["type"] as? String ?? item["item_type"] as? String
        items.boundary()
        switch kind {
        case "agent_message", "assistant_message": items.add(text: item["text"])
        case "reasoning": items.add(reasoning: item["text"])
        default: break   // command_execution, file_change, mcp_tool_call, web_search, todo_list, error
        }
    }

    static func responsesEvent(_ type: String, _ o: [String: Any], into items: inout PayloadItems) {
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

    static func chatCompletion(_ o: [String: Any], _ choices: [Any], into items: inout PayloadItems) {
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
    static func firstReasoning(_ part: [String: Any]) -> String? {
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

    static func gemini(_ o: [String: Any], into items: inout PayloadItems) -> Bool {
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
    static let geminiBlockReasons: Set<String> = ["SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII"]

    static func responsesBody(_ output: [Any], into items: inout PayloadItems) {
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

    static func ollama(_ o: [String: Any], into items: inout PayloadItems) {
        if let message = o["message"] as? [String: Any] {
            items.add(reasoning: message["thinking"])
            items.add(text: message["content"])
        } else {
            items.add(reasoning: o["thinking"])
            items.add(text: o["response"])
        }
        if o["done"] as? Bool == true { items.add(.end) }
    }
}
