// Rules of the decoders beyond the recorded streams: the BOM and the line limit, in-band
// `<think>` split anywhere, the blank line between whole messages, error shapes, and what
// `--format auto` leaves raw.

import Foundation
import Testing
@testable import TypewriteCore

@Suite struct StreamFormatShapesTests {
    typealias W = WireFixtures

    // MARK: - The BOM and the line limit

    /// The UTF-8 BOM is not part of the first line: with a 16-byte limit, a 14-byte line after a
    /// BOM fits whether the BOM arrives with it or in a read of its own.
    @Test func byteOrderMarkDoesNotCountTowardTheLineLimit() {
        let input: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("data:   [DONE]\n\n".utf8)
        for cuts in [[], [1], [2], [3], [4], Array(1..<input.count)] {
            let events = RecordedDecoding.decodeSSE(input, cuts: cuts, maxEventBytes: 16)
            #expect(events == [.end], "cuts \(cuts)")
        }
        // One byte more than the limit is over it, again however it is chunked.
        let long: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("data:    [DONE]xx\n\n".utf8)
        let whole = RecordedDecoding.decodeSSE(long, cuts: [], maxEventBytes: 16)
        #expect(W.malformedLine(whole.first) == 1)
        for cut in 1..<long.count {
            #expect(RecordedDecoding.decodeSSE(long, cuts: [cut], maxEventBytes: 16) == whole, "cut \(cut)")
        }
        var ndjson = NDJSONDecoder(maxLineBytes: 16)
        #expect(ndjson.feed([0xEF, 0xBB]) + ndjson.feed([0xBF] + Array(#"{"response":"a"}"#.utf8)) + ndjson.finish() == [W.t("a")])
    }

    // MARK: - In-band reasoning

    @Test func thinkTagsSplitAnywhereAcrossChunks() {
        let content = "\n<think>Let me see.</think>\n\n  The answer."
        // Cut the content into two deltas at every position, and feed the body byte by byte too.
        for cut in 0...content.utf8.count {
            let bytes = Array(content.utf8)
            let parts = [bytes[..<cut], bytes[cut...]].map { String(decoding: $0, as: UTF8.self) }
            let body = parts.map(W.chunk).joined() + "data: [DONE]\n\n"
            let events = W.decodeAnySplit(body)
            #expect(DecodedStream(events).reasoning == Array("Let me see.".utf8), "cut \(cut)")
            #expect(DecodedStream(events).answer == Array("The answer.".utf8), "cut \(cut)")
        }
    }

    @Test func thinkTagElsewhereIsAnswerText() {
        let body = W.chunk("Use the ") + W.chunk("<think> tag") + "data: [DONE]\n\n"
        #expect(W.decodeAnySplit(body) == [W.t("Use the "), W.t("<think> tag"), .end])
        let html = W.chunk("<") + W.chunk("html>") + "data: [DONE]\n\n"
        #expect(DecodedStream(W.decodeAnySplit(html)).answer == Array("<html>".utf8))
        // Never closed: all of it is reasoning; a lone "<thi" at the end is answer text.
        #expect(W.decodeAnySplit(W.chunk("<think>still going")) == [.reasoning(Array("still going".utf8))])
        #expect(W.decodeAnySplit(W.chunk("<thi")) == [W.t("<thi")])
    }

    // MARK: - Whole messages

    @Test func wholeMessagesAreSeparatedByOneBlankLine() {
        func codex(_ texts: [String]) -> String {
            texts.map { text in
                let json = try! JSONSerialization.data(withJSONObject: ["type": "item.completed",
                                                                         "item": ["type": "agent_message", "text": text]])
                return String(decoding: json, as: UTF8.self) + "\n"
            }.joined()
        }
        #expect(DecodedStream(W.decodeAnySplit(codex(["a", "b\n", "c\n\n", "d"]), as: .ndjson)).answer
                == Array("a\n\nb\n\nc\n\nd".utf8))
        // Codex's retry notices are `error` events that do not end the turn.
        let retry = #"{"type":"error","message":"Reconnecting... 1/5 (stream disconnected before completion)"}"# + "\n"
        #expect(W.decodeAnySplit(codex(["a"]) + retry + codex(["b"]), as: .ndjson) == [W.t("a"), W.t("\n\nb")])
        // API streams are one answer: no separators, whatever their events say about messages.
        let lmStudio = "event: message.delta\n" + #"data: {"type":"message.delta","content":"a"}"# + "\n\n"
            + "event: message.start\n" + #"data: {"type":"message.start"}"# + "\n\n"
            + "event: message.delta\n" + #"data: {"type":"message.delta","content":"b"}"# + "\n\n"
        #expect(W.decodeAnySplit(lmStudio) == [W.t("a"), W.t("b")])
    }

    // MARK: - More shapes, from their providers' documentation

    @Test(arguments: [
        // Replicate predictions stream: the data of an `output` event is the text itself.
        ("event: output\ndata: Hello\n\nevent: output\ndata:  world\n\nevent: done\ndata: {}\n\n", StreamFormat.sse, "Hello world"),
        // OpenAI Assistants run stream.
        ("event: thread.message.delta\n" + #"data: {"id":"msg_1","object":"thread.message.delta","delta":{"content":[{"index":0,"type":"text","text":{"value":"Hi","annotations":[]}}]}}"# + "\n\nevent: done\ndata: [DONE]\n\n", .sse, "Hi"),
        // Anthropic Text Completions (legacy).
        ("event: completion\n" + #"data: {"type":"completion","completion":" Hello","stop_reason":null,"model":"claude-2.1"}"# + "\n\n", .sse, " Hello"),
        // Vercel AI SDK UI message stream.
        (#"data: {"type":"start"}"# + "\n\n" + #"data: {"type":"text-start","id":"t"}"# + "\n\n" + #"data: {"type":"text-delta","id":"t","delta":"Hey"}"# + "\n\n" + #"data: {"type":"finish"}"# + "\n\ndata: [DONE]\n\n", .sse, "Hey"),
        // Mistral conversations API.
        ("event: message.output.delta\n" + #"data: {"type":"message.output.delta","output_index":0,"id":"m","content":"Bonjour","role":"assistant"}"# + "\n\n", .sse, "Bonjour"),
        // IBM watsonx.ai generation_stream.
        ("id: 1\nevent: message\n" + #"data: {"model_id":"ibm/granite-13b-chat-v2","results":[{"generated_text":"Granite","generated_token_count":1,"stop_reason":"not_finished"}]}"# + "\n\n", .sse, "Granite"),
        // Amazon Bedrock ConverseStream events as JSON (vercel/ai packages/amazon-bedrock fixtures).
        (#"data: {"messageStart":{"role":"assistant"}}"# + "\n\n" + #"data: {"contentBlockDelta":{"contentBlockIndex":0,"delta":{"text":"Hi"}}}"# + "\n\n"
            + #"data: {"contentBlockStop":{"contentBlockIndex":0}}"# + "\n\n" + #"data: {"messageStop":{"stopReason":"end_turn"}}"# + "\n\n", .sse, "Hi"),
        // A stream of tool calls only: nothing to show, and no complaint about the format.
        (#"data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{}"}}]}}]}"# + "\n\n", .sse, ""),
        // Claude Code --output-format json: one result object.
        (#"{"type":"result","subtype":"success","is_error":false,"duration_ms":100,"num_turns":1,"result":"Done.","session_id":"s"}"# + "\n", .ndjson, "Done."),
        // Gemini CLI --output-format json.
        (#"{"session_id":"s","response":"Hello World","stats":{}}"# + "\n", .ndjson, "Hello World"),
    ])
    func documentedShapes(_ body: String, _ format: StreamFormat, _ answer: String) {
        let decoded = DecodedStream(W.decodeAnySplit(body, as: format))
        #expect(String(decoding: decoded.answer, as: UTF8.self) == answer)
        #expect(decoded.malformed.isEmpty && decoded.error == nil)
    }

    // MARK: - Error shapes not covered by a recording

    @Test(arguments: [
        (#"data: {"event_type":"error","error":{"code":"RESOURCE_EXHAUSTED","message":"Quota exceeded"}}"#, "Quota exceeded"),
        (#"data: {"type":"message-end","delta":{"finish_reason":"ERROR"}}"#, "the model stopped with an error (finish_reason ERROR)"),
        (#"data:{"error":"Input validation error: `inputs` must have less than 4096 tokens","error_type":"validation"}"#,
         "Input validation error: `inputs` must have less than 4096 tokens"),
        (#"data: {"error":{"code":500,"message":"context size exceeded","type":"server_error"}}"#, "context size exceeded"),
        (#"data: {"object":"error","message":"Service tier capacity exceeded","type":"service_tier_capacity_exceeded","param":null,"code":"3505"}"#,
         "Service tier capacity exceeded"),
        // Mistral's answer to temperature 2: a FastAPI validation body inside `message`.
        (#"data: {"object":"error","message":{"detail":[{"loc":["body","temperature"],"msg":"Input should be less than or equal to 1.5","type":"less_than_equal"}]},"type":"invalid_request_error"}"#,
         "body.temperature: Input should be less than or equal to 1.5"),
        (#"data: {"error":{"detail":[{"loc":["body","messages",0],"msg":"Field required"},{"loc":[],"msg":"bad"}]}}"#,
         "body.messages.0: Field required; bad"),
        (#"data: {"error":{"detail":"Not Found","type":"not_found"}}"#, "Not Found"),
        // MiniMax answers a request it refuses with HTTP 200 and base_resp.
        (#"data: {"base_resp":{"status_code":1008,"status_msg":"insufficient balance"}}"#, "insufficient balance"),
        (#"data: {"id":"x","choices":[],"base_resp":{"status_code":2013,"status_msg":""}}"#, "status code 2013"),
        // A filter stopped the answer: marked, not explained, by the API.
        (#"data: {"type":"message_delta","delta":{"stop_reason":"refusal","stop_sequence":null},"usage":{"output_tokens":3}}"#,
         "the model declined to go on (stop_reason refusal)"),
        (#"data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"content_filter"}]}"#,
         "the answer was stopped by a content filter (finish_reason content_filter)"),
        (#"data: {"candidates":[{"content":{"parts":[{"text":""}],"role":"model"},"finishReason":"SAFETY","index":0}]}"#,
         "the answer was blocked (finishReason SAFETY)"),
    ])
    func sseErrorShapes(_ line: String, _ message: String) {
        let events = W.decodeAnySplit(W.chunk("Before") + line + "\n\n")
        #expect(events == [W.t("Before"), .remoteError(message: message)])
    }

    @Test(arguments: [
        (#"{"type":"turn.failed","error":{"message":"stream disconnected before completion"}}"#, "stream disconnected before completion"),
        (#"{"type":"result","subtype":"success","is_error":true,"result":"Claude AI usage limit reached"}"#, "Claude AI usage limit reached"),
        (#"{"type":"result","subtype":"error_max_turns","is_error":true,"errors":["Reached maximum number of turns (1)"]}"#,
         "Reached maximum number of turns (1)"),
        (#"{"type":"error","timestamp":"t","severity":"error","message":"API Error: 429"}"#, "API Error: 429"),
        // Codex passes the provider's JSON error body on as the message (recorded: codex-errored).
        (#"{"type":"turn.failed","error":{"message":"{\"type\":\"error\",\"status\":400,\"error\":{\"type\":\"invalid_request_error\",\"message\":\"The model is not supported.\"}}"}}"#,
         "The model is not supported."),
        (#"{"type":"error","message":"{not json"}"#, "{not json"),
        // Claude Code's own message about a failure: its text, not the code (recorded: claude-code-auth-failure).
        (#"{"type":"assistant","message":{"id":"m","model":"<synthetic>","role":"assistant","content":[{"type":"text","text":"Not logged in · Please run /login"}]},"error":"authentication_failed"}"#,
         "Not logged in · Please run /login"),
        (#"{"type":"assistant","message":{"id":"m","content":[]},"error":"rate_limit"}"#, "rate_limit"),
    ])
    func agentErrorShapes(_ line: String, _ message: String) {
        let before = #"{"type":"item.completed","item":{"type":"agent_message","text":"Before"}}"#
        #expect(W.decodeAnySplit(before + "\n" + line + "\n", as: .ndjson) == [W.t("Before"), .remoteError(message: message)])
    }

    // MARK: - --format auto

    @Test(arguments: [
        "Tide pools are rocky.\nThey hold water at low tide.\n",
        "[1/42] Building Swift object Tokenizer.swift.o\n[2/42] Linking\n",
        "data: some log line\n\nmore\n",
        "event: deploy\nstarted\n",
        #"{"name":"typewrite","version":"0.1.0"}"# + "\n",
        #"{"type":"log","msg":"hello"}"# + "\n",
        #"{"message":"server started"}"# + "\n",
        #"{"detail":"Not Found"}"# + "\n",
        "[1, 2, 3]\n",
        "{broken json\n",
        "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n\r\ndata: [DONE]\r\n\r\n",
        "\u{1B}[31mred\u{1B}[0m\n",
        "",
    ])
    func autoLeavesRawInputByteExact(_ text: String) {
        let bytes = Array(text.utf8)
        for cuts in [[], Array(1..<max(1, bytes.count))] {
            var detector = StreamFormatDetector()
            var out: [UInt8] = []
            var format: StreamFormat?
            var start = 0
            for cut in cuts + [bytes.count] {
                if case .decided(let f, let replay) = detector.feed(bytes[start..<cut]) { format = f; out += replay }
                start = cut
            }
            if case .decided(let f, let replay) = detector.finish() { format = format ?? f; out += replay }
            #expect(format == .raw)
            #expect(out == bytes)
        }
    }

    @Test func autoDecidesRawAtOnceForPlainText() {
        var detector = StreamFormatDetector()
        #expect(detector.feed(Array("Hel".utf8)) == .decided(.raw, replay: Array("Hel".utf8)))
        #expect(detector.feed(Array("lo".utf8)) == .decided(.raw, replay: Array("lo".utf8)))
        var waiting = StreamFormatDetector()
        #expect(waiting.feed(Array("dat".utf8)) == .undecided)
        #expect(waiting.feed(Array("e: 1".utf8)) == .decided(.raw, replay: Array("date: 1".utf8)))
    }

    @Test func autoRecognizesErrorBodiesAndArrays() {
        var detector = StreamFormatDetector()
        let body = Array(WireFixtures.ErrorBodyTests.openAIPretty.utf8)
        guard case .decided(let format, let replay) = detector.feed(body) else { Issue.record("undecided"); return }
        #expect(format == .ndjson && replay == body)
        #expect(W.isRemoteError(NDJSONDecoder().decodeAllCopy(replay).first))

        let gemini = "[{\n  \"candidates\": [{\"content\": {\"parts\": [{\"text\": \"Hi\"}],\"role\": \"model\"}}]\n}\n,\r\n"
        var arrays = StreamFormatDetector()
        #expect(arrays.feed(Array(gemini.utf8)) == .decided(.ndjson, replay: Array(gemini.utf8)))
    }
}

@Suite struct StreamFormatPipelineTests {
    static func run(_ text: String, format: StreamFormat, thinking: ThinkingDisplay, mayStyle: Bool) -> (String, Int32, [String]) {
        var pipeline = InputPipeline(format: format, thinking: thinking, mayStyle: mayStyle)
        var out: [UInt8] = []
        for b in text.utf8 { out += pipeline.process(CollectionOfOne(b), at: 0) }
        out += pipeline.finish(at: 0)
        return (String(decoding: out, as: UTF8.self), pipeline.exitStatus, pipeline.takeErrors().map(\.line))
    }

    static let thinkAloud = WireFixtures.chunk("<think>Hmm.</think>") + WireFixtures.chunk("\n\nYes.") + "data: [DONE]\n\n"

    @Test func thinkingChoices() {
        #expect(Self.run(Self.thinkAloud, format: .sse, thinking: .hide, mayStyle: true).0 == "Yes.")
        #expect(Self.run(Self.thinkAloud, format: .sse, thinking: .show, mayStyle: true).0 == "Hmm.\n\nYes.")
        #expect(Self.run(Self.thinkAloud, format: .sse, thinking: .dim, mayStyle: true).0 == "\u{1B}[2mHmm.\u{1B}[22m\n\nYes.")
        // Not styling (not a terminal, NO_COLOR, TERM=dumb): plain text.
        #expect(Self.run(Self.thinkAloud, format: .sse, thinking: .dim, mayStyle: false).0 == "Hmm.\n\nYes.")
        // Raw input is never changed.
        #expect(Self.run(Self.thinkAloud, format: .raw, thinking: .show, mayStyle: true).0 == Self.thinkAloud)
    }

    @Test func reasoningBetweenWholeMessagesKeepsOneBlankLine() {
        func item(_ type: String, _ text: String) -> String {
            #"{"type":"item.completed","item":{"type":""# + type + #"","text":""# + text + #""}}"# + "\n"
        }
        let input = item("reasoning", "R1") + item("agent_message", "T1") + item("reasoning", "R2") + item("agent_message", "T2")
        #expect(Self.run(input, format: .ndjson, thinking: .show, mayStyle: false).0 == "R1\n\nT1\n\nR2\n\nT2")
        #expect(Self.run(input, format: .ndjson, thinking: .hide, mayStyle: false).0 == "T1\n\nT2")
    }

    @Test func dimReasoningIsClosedBeforeAnError() {
        let body = WireFixtures.chunk("<think>Hmm") + #"data: {"error":{"message":"boom"}}"# + "\n\n"
        let (out, status, messages) = Self.run(body, format: .sse, thinking: .dim, mayStyle: true)
        #expect(out == "\u{1B}[2mHmm\u{1B}[22m")
        #expect(status == 1 && messages == ["typewrite: the stream reported an error: boom"])
    }

    @Test func linesThatAreNotJSONAreReportedButDoNotFail() {
        let input = "warming up\n" + #"{"type":"item.completed","item":{"type":"agent_message","text":"ok"}}"# + "\n"
        let (out, status, messages) = Self.run(input, format: .ndjson, thinking: .hide, mayStyle: false)
        #expect(out == "ok" && status == 0)
        #expect(messages == ["typewrite: line 1: skipped a line that is not JSON: warming up"])
        // Nothing but such lines: the wrong --format, as before.
        let (_, wrong, said) = Self.run("just text\n", format: .ndjson, thinking: .hide, mayStyle: false)
        #expect(wrong == 1 && said.last?.contains("no ndjson events") == true)
        // A stream whose events show nothing (tool calls only) is still a stream.
        let tools = #"data: {"choices":[{"index":0,"delta":{"tool_calls":[]}}]}"# + "\n\n"
        #expect(Self.run(tools, format: .sse, thinking: .hide, mayStyle: false) == ("", 0, []))
    }

    @Test func rawModelStreamOnATerminalGetsAHint() {
        var pipeline = InputPipeline(format: .raw, suggestsFormat: true)
        let body = Array(Self.thinkAloud.utf8)
        #expect(!pipeline.isPassthrough)
        #expect(pipeline.process(body, at: 0) == body)
        #expect(pipeline.isPassthrough)
        #expect(pipeline.finish(at: 0) == [] && pipeline.exitStatus == 0)
        #expect(pipeline.takeErrors().map(\.line) == ["typewrite: the input looks like a model stream; --format sse (or auto) would show its answer"])
        var prose = InputPipeline(format: .raw, suggestsFormat: true)
        _ = prose.process(Array("Just text\n".utf8), at: 0)
        _ = prose.finish(at: 0)
        #expect(prose.takeErrors().map(\.line).isEmpty)
    }

    @Test func autoRawPassesThroughAndAutoDecodes() {
        let log = "[1/2] Compiling\n[2/2] Linking\n"
        #expect(Self.run(log, format: .auto, thinking: .hide, mayStyle: false) == (log, 0, []))
        #expect(Self.run(Self.thinkAloud, format: .auto, thinking: .hide, mayStyle: false).0 == "Yes.")
    }
}

extension RecordedDecoding {
    static func decodeSSE(_ bytes: [UInt8], cuts: [Int], maxEventBytes: Int) -> [StreamEvent] {
        var d = SSEDecoder(maxEventBytes: maxEventBytes)
        var out: [StreamEvent] = []
        var start = 0
        for cut in cuts + [bytes.count] {
            out += d.feed(bytes[start..<cut])
            start = cut
        }
        return out + d.finish()
    }
}

extension StreamDecoder {
    /// `decodeAll` on a copy, for expressions.
    func decodeAllCopy(_ bytes: [UInt8]) -> [StreamEvent] {
        var copy = self
        return copy.decodeAll(bytes)
    }
}
