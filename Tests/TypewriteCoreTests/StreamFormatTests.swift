// Tests for the wire-format decoders (Sources/TypewriteCore/Formats).
//
// The trace tests read the wire-format traces in Tests/traces (Tests/traces/README.md says what
// each one imitates and where it came from).

import Foundation
import Testing
import TypewriteCore

/// Helpers, fixtures and the suites below live in this namespace, so that nothing here can
/// collide with declarations in other test files of the target.
enum WireFixtures {
    /// How the input is cut into `feed` calls.
    enum Split: CustomStringConvertible {
        case whole, byteByByte, every(Int), writes([[UInt8]])
        var description: String {
            switch self {
            case .whole: "whole"
            case .byteByByte: "byte by byte"
            case .every(let n): "every \(n) bytes"
            case .writes: "trace writes"
            }
        }
    }

    static func makeDecoder(_ format: StreamFormat) -> any StreamDecoder {
        guard let decoder = format.makeDecoder() else { fatalError("no decoder for \(format)") }
        return decoder
    }

    static func decode(_ input: [UInt8], as format: StreamFormat = .sse, split: Split,
                       decoder: (any StreamDecoder)? = nil) -> [StreamEvent] {
        var d = decoder ?? makeDecoder(format)
        var out: [StreamEvent] = []
        switch split {
        case .whole:
            out += d.feed(input)
        case .byteByByte:
            for b in input { out += d.feed(CollectionOfOne(b)) }
        case .every(let n):
            var i = 0
            while i < input.count {
                out += d.feed(input[i..<min(i + n, input.count)])
                i += n
            }
        case .writes(let writes):
            for w in writes { out += d.feed(w) }
        }
        return out + d.finish()
    }

    /// Decodes `input` whole, byte by byte and in 2-, 3- and 7-byte pieces; checks all agree.
    static func decodeAnySplit(_ input: String, as format: StreamFormat = .sse,
                               decoder: @autoclosure () -> (any StreamDecoder)? = nil,
                               sourceLocation: SourceLocation = #_sourceLocation) -> [StreamEvent] {
        let bytes = Array(input.utf8)
        let reference = decode(bytes, as: format, split: .whole, decoder: decoder())
        for split in [Split.byteByByte, .every(2), .every(3), .every(7)] {
            let events = decode(bytes, as: format, split: split, decoder: decoder())
            #expect(events == reference, "split \(split) differs from whole input", sourceLocation: sourceLocation)
        }
        return reference
    }

    static func t(_ s: String) -> StreamEvent { .text(Array(s.utf8)) }

    /// The line of a `.malformed` event, else nil.
    static func malformedLine(_ event: StreamEvent?) -> Int? {
        if case .malformed(let line, _)? = event { line } else { nil }
    }

    /// True for `.remoteError`.
    static func isRemoteError(_ event: StreamEvent?) -> Bool {
        if case .remoteError? = event { true } else { false }
    }

    /// A compact OpenAI Chat Completions chunk event carrying `content` (2 lines).
    static func chunk(_ content: String) -> String {
        let json = try! JSONSerialization.data(withJSONObject: ["content": content])
        return #"data: {"choices":[{"delta":"# + String(decoding: json, as: UTF8.self) + "}]}\n\n"
    }

    enum Traces {
        /// Tests/traces, found from this file's path (Tests/TypewriteCoreTests/StreamFormatTests.swift).
        static let directory = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("traces")

        /// The writes of a `.trace` file (JSON lines of {"delay_ms","hex"}).
        static func writes(_ name: String) throws -> [[UInt8]] {
            let url = directory.appendingPathComponent(name)
            let content = try String(contentsOf: url, encoding: .utf8)
            return try content.split(separator: "\n").map { line in
                let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                let hex = try #require(object?["hex"] as? String)
                return try hexBytes(hex)
            }
        }

        static func answer() throws -> [UInt8] {
            Array(try Data(contentsOf: directory.appendingPathComponent("wire-answer.txt")))
        }

        static func hexBytes(_ hex: String) throws -> [UInt8] {
            let digits = Array(hex.utf8)
            try #require(digits.count % 2 == 0)
            func nibble(_ c: UInt8) throws -> UInt8 {
                switch c {
                case 0x30...0x39: return c - 0x30
                case 0x61...0x66: return c - 0x61 + 10
                case 0x41...0x46: return c - 0x41 + 10
                default: throw CocoaError(.coderInvalidValue)
                }
            }
            return try stride(from: 0, to: digits.count, by: 2).map { try nibble(digits[$0]) << 4 | nibble(digits[$0 + 1]) }
        }
    }

    enum WireTrace: String, CaseIterable, CustomTestStringConvertible {
        case openAI = "openai-sse.trace"
        case openAIResponses = "openai-responses-sse.trace"
        case anthropic = "anthropic-sse.trace"
        case gemini = "gemini-sse.trace"
        case ollama = "ollama-ndjson.trace"

        var format: StreamFormat { self == .ollama ? .ndjson : .sse }
        var testDescription: String { rawValue }
    }
}

extension WireFixtures {
    @Suite("Wire traces decode to wire-answer.txt")
    struct WireTraceTests {
        @Test(arguments: WireTrace.allCases)
        func decodesExactly(_ trace: WireTrace) throws {
            let writes = try Traces.writes(trace.rawValue)
            let answer = try Traces.answer()
            let body = writes.flatMap { $0 }
            for split in [Split.writes(writes), .byteByByte, .whole] {
                let events = decode(body, as: trace.format, split: split)
                var got: [UInt8] = []
                for case .text(let t) in events { got += t }
                #expect(got == answer, "\(trace.rawValue), \(split): text differs from wire-answer.txt")
                #expect(events.filter { $0 == .end }.count == 1, "\(trace.rawValue), \(split): expected exactly one .end")
                #expect(events.last == .end, "\(trace.rawValue), \(split): .end should come last")
                let problems = events.filter {
                    if case .text = $0 { return false }
                    return $0 != .end
                }
                #expect(problems.isEmpty, "\(trace.rawValue), \(split): unexpected \(problems)")
            }
        }

        @Test func tracesReallySplitAwkwardly() throws {
            // Guards the premise of the test above: some writes end inside a UTF-8 sequence.
            for trace in WireTrace.allCases {
                let writes = try Traces.writes(trace.rawValue)
                let midUTF8 = writes.dropLast().contains { w in
                    var k = w.count - 1
                    while k >= 0, w[k] & 0xC0 == 0x80 { k -= 1 }
                    guard k >= 0, w[k] >= 0xC0 else { return false }
                    let need = w[k] >= 0xF0 ? 4 : w[k] >= 0xE0 ? 3 : 2
                    return w.count - k < need
                }
                #expect(midUTF8, "\(trace.rawValue) has no write ending mid-UTF-8")
            }
        }

        @Test func decodesOpenAITraceQuickly() throws {
            // Not a benchmark: catches accidental quadratic behaviour (release target: well under 50 ms).
            let body = try Traces.writes(WireTrace.openAI.rawValue).flatMap { $0 }
            let clock = ContinuousClock()
            let elapsed = clock.measure { _ = decode(body, split: .every(512)) }
            #expect(elapsed < .seconds(2), "decoding the OpenAI trace took \(elapsed)")
        }
    }

    // MARK: - StreamFormat

    @Suite struct StreamFormatAPITests {
        @Test func rawValuesAndFactories() {
            #expect(StreamFormat.allCases.map(\.rawValue) == ["raw", "sse", "ndjson", "auto"])
            #expect(StreamFormat.auto.makeDecoder() == nil)
            #expect(StreamFormat(rawValue: "sse") == .sse)
            #expect(StreamFormat.raw.makeDecoder() == nil)
            #expect(StreamFormat.sse.makeDecoder() is SSEDecoder)
            #expect(StreamFormat.ndjson.makeDecoder() is NDJSONDecoder)
        }

        @Test func feedAcceptsCommonCollections() {
            let bytes = Array(chunk("hé").utf8)
            var a = SSEDecoder()
            #expect(a.feed(bytes) == [t("hé")])
            var b = SSEDecoder()
            #expect(b.feed(Data(bytes)) == [t("hé")])
            var c = SSEDecoder()
            #expect(c.feed(bytes[...]) + c.feed(Array("data: [DONE]\n\n".utf8).lazy.map { $0 }) == [t("hé"), .end])
        }
    }

    // MARK: - SSE framing

    @Suite struct SSEFramingTests {
        @Test func lineEndingsLFCRLFAndCR() {
            let lf = chunk("a") + chunk("b") + "data: [DONE]\n\n"
            #expect(decodeAnySplit(lf) == [t("a"), t("b"), .end])
            let crlf = lf.replacingOccurrences(of: "\n", with: "\r\n")
            #expect(decodeAnySplit(crlf) == [t("a"), t("b"), .end])
            let cr = lf.replacingOccurrences(of: "\n", with: "\r")
            #expect(decodeAnySplit(cr) == [t("a"), t("b"), .end])
            let mixed = chunk("a").replacingOccurrences(of: "\n\n", with: "\r\n\r") + chunk("b").replacingOccurrences(of: "\n\n", with: "\r\n")
            #expect(decodeAnySplit(mixed) == [t("a"), t("b")])
        }

        @Test func crlfSplitAcrossFeedsIsOneLineEnd() {
            // Line numbers prove it: counting CR and LF separately would put "data: nope" on line 5.
            var d = SSEDecoder()
            var events = d.feed(Array(chunk("a").replacingOccurrences(of: "\n\n", with: "\r").utf8))
            events += d.feed(Array("\n\r".utf8))
            events += d.feed(Array("\ndata: nope\r".utf8))
            events += d.feed(Array("\n\r\n".utf8))
            events += d.finish()
            #expect(events.count == 2)
            #expect(events.first == t("a"))
            #expect(malformedLine(events.last) == 3)
        }

        @Test func multiLineDataIsJoinedWithLF() {
            let split = "data: {\"choices\":[{\"delta\":\ndata: {\"content\":\"hi\"}}]}\n\n"
            #expect(decodeAnySplit(split) == [t("hi")])
            let error = "event: error\ndata: upstream\ndata:overloaded\n\n"
            #expect(decodeAnySplit(error) == [.remoteError(message: "upstream\noverloaded")])
        }

        @Test func fieldParsing() {
            // No space after the colon, "data" without colon (empty value), unknown fields, id/retry.
            let input = "id: 7\nretry: 3000\nfoo: bar\ndata:" + #"{"choices":[{"delta":{"content":"x"}}]}"# + "\n\n"
                + "data\n\n" + "event\ndata: [DONE]\n\n"
            #expect(decodeAnySplit(input) == [t("x"), .end])
            // Only one leading space is removed from the value: " error" is not "error".
            #expect(decodeAnySplit("event: error\ndata: boom\n\n") == [.remoteError(message: "boom")])
            #expect(decodeAnySplit("event:error\ndata:boom\n\n") == [.remoteError(message: "boom")])
            #expect(malformedLine(decodeAnySplit("event:  error\ndata: boom\n\n").first) == 1)
        }

        @Test func commentsAreIgnored() {
            let input = ": OPENROUTER PROCESSING\n\n" + chunk("a") + ":\n: keep-alive\n" + chunk("b")
                + ": OPENROUTER PROCESSING\r\n\r\n" + "data: [DONE]\n\n"
            #expect(decodeAnySplit(input) == [t("a"), t("b"), .end])
        }

        @Test func byteOrderMarkIsSkipped() {
            #expect(decodeAnySplit("\u{FEFF}" + chunk("a")) == [t("a")])
            #expect(decodeAnySplit("\u{FEFF}: comment\n\n" + chunk("b")) == [t("b")])
            // Only at the very start: a BOM on a later line is part of the field name.
            #expect(decodeAnySplit(chunk("a") + "\u{FEFF}" + chunk("b")) == [t("a")])
        }

        @Test func unterminatedFinalEventIsFlushed() {
            #expect(decodeAnySplit(chunk("a") + "data: [DONE]") == [t("a"), .end])
            #expect(decodeAnySplit(String(chunk("z").dropLast(2))) == [t("z")])
            #expect(decodeAnySplit(String(chunk("z").dropLast(2)) + "\r") == [t("z")])
        }

        @Test func utf8AndEscapesArePreservedExactly() {
            // Decomposed é (e + U+0301) must not be normalized; \u escapes and surrogate pairs resolved.
            let input = "data: {\"choices\":[{\"delta\":{\"content\":\"e\u{301} \\u003ctag\\u003e \\ud83d\\ude00 naïve\"}}]}\n\n"
            let events = decodeAnySplit(input)
            #expect(events == [.text(Array("e\u{301} <tag> 😀 naïve".utf8))])
        }

        @Test func oversizedEventIsSkippedAndDecodingContinues() {
            let big = "data: {\"choices\":[{\"delta\":{\"content\":\"" + String(repeating: "x", count: 80) + "\"}}]}\n"
            // Data over the limit across several short lines.
            let manyLines = chunk("a") + "data: 0123456789012345678901234567890123456789\n" + "data: 0123456789012345678901234567890123456789\n\n" + chunk("b")
            let events = decodeAnySplit(manyLines, decoder: SSEDecoder(maxEventBytes: 64))
            #expect(events.count == 3)
            #expect(events[0] == t("a"))
            #expect(malformedLine(events[1]) == 3)
            #expect(events[2] == t("b"))
            // One line over the limit (not held in memory), followed by more lines of the same event.
            let longLine = chunk("a") + "event: x\n" + big + "data: more\n\n" + chunk("b")
            let events2 = decodeAnySplit(longLine, decoder: SSEDecoder(maxEventBytes: 64))
            #expect(events2.count == 3)
            #expect(malformedLine(events2[1]) == 3)
            #expect(events2[2] == t("b"))
        }
    }

    // MARK: - Payloads (SSE)

    @Suite struct SSEPayloadTests {
        @Test func openAIChatCompletions() {
            let input = #"data: {"choices":[{"index":0,"delta":{"role":"assistant","content":"","refusal":null}}]}"# + "\n\n"
                + chunk("Hi") + chunk(" there")
                + #"data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}"# + "\n\n"
                + #"data: {"choices":[],"usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}}"# + "\n\n"
                + "data: [DONE]\n\n"
            #expect(decodeAnySplit(input) == [t("Hi"), t(" there"), .end])
        }

        @Test func thinkingIsReasoningAndToolDeltasAreHidden() {
            let openAI = #"data: {"choices":[{"delta":{"reasoning_content":"hmm"}}]}"# + "\n\n"
                + #"data: {"choices":[{"delta":{"reasoning":"hmm"}}]}"# + "\n\n"
                + #"data: {"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"a\":"}}]}}]}"# + "\n\n"
                + chunk("answer") + "data: [DONE]\n\n"
            #expect(decodeAnySplit(openAI) == [.reasoning(Array("hmm".utf8)), .reasoning(Array("hmm".utf8)), t("answer"), .end])

            let anthropic = """
                event: content_block_start
                data: {"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":""}}

                event: content_block_delta
                data: {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Let me think"}}

                event: content_block_delta
                data: {"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"EqQB"}}

                event: content_block_delta
                data: {"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Yes."}}

                event: content_block_delta
                data: {"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\\"city\\":"}}

                event: message_stop
                data: {"type":"message_stop"}


                """
            #expect(decodeAnySplit(anthropic) == [.reasoning(Array("Let me think".utf8)), t("Yes."), .end])

            let gemini = #"data: {"candidates":[{"content":{"parts":[{"text":"pondering","thought":true},{"text":"Sure"},{"thoughtSignature":"abc"}],"role":"model"}}]}"# + "\r\n\r\n"
            #expect(decodeAnySplit(gemini) == [.reasoning(Array("pondering".utf8)), t("Sure")])

            let responses = """
                event: response.reasoning_summary_text.delta
                data: {"type":"response.reasoning_summary_text.delta","delta":"thinking"}

                event: response.function_call_arguments.delta
                data: {"type":"response.function_call_arguments.delta","delta":"{\\"a\\""}

                event: response.output_text.delta
                data: {"type":"response.output_text.delta","delta":"ok"}


                """
            #expect(decodeAnySplit(responses) == [.reasoning(Array("thinking".utf8)), t("ok")])
        }

        @Test func responsesCumulativeEventsAreNotRepeated() {
            let input = """
                event: response.created
                data: {"type":"response.created","sequence_number":0,"response":{"id":"r","object":"response","status":"in_progress","error":null,"output":[]}}

                event: response.in_progress
                data: {"type":"response.in_progress","sequence_number":1,"response":{"id":"r","object":"response","status":"in_progress","output":[]}}

                event: response.output_text.delta
                data: {"type":"response.output_text.delta","sequence_number":2,"delta":"Tide"}

                event: response.output_text.delta
                data: {"type":"response.output_text.delta","sequence_number":3,"delta":" pools"}

                event: response.output_text.done
                data: {"type":"response.output_text.done","sequence_number":4,"text":"Tide pools"}

                event: response.content_part.done
                data: {"type":"response.content_part.done","sequence_number":5,"part":{"type":"output_text","text":"Tide pools"}}

                event: response.output_item.done
                data: {"type":"response.output_item.done","sequence_number":6,"item":{"type":"message","content":[{"type":"output_text","text":"Tide pools"}]}}

                event: response.completed
                data: {"type":"response.completed","sequence_number":7,"response":{"id":"r","object":"response","status":"completed","output":[{"type":"message","content":[{"type":"output_text","text":"Tide pools"}]}]}}


                """
            #expect(decodeAnySplit(input) == [t("Tide"), t(" pools"), .end])
            let incomplete = "event: response.incomplete\ndata: {\"type\":\"response.incomplete\",\"response\":{}}\n\n"
            #expect(decodeAnySplit(incomplete) == [.end])
        }

        @Test func responsesFailureAndErrorEvents() {
            let failed = #"event: response.failed"# + "\n" + #"data: {"type":"response.failed","response":{"status":"failed","error":{"code":"server_error","message":"The model failed to generate a response."}}}"# + "\n\n"
            #expect(decodeAnySplit(failed) == [.remoteError(message: "The model failed to generate a response.")])
            let error = "event: error\n" + #"data: {"type":"error","code":"ERR_SOMETHING","message":"Something went wrong","param":null,"sequence_number":1}"# + "\n\n"
            #expect(decodeAnySplit(error) == [.remoteError(message: "Something went wrong")])
        }

        @Test func errorEventMidStreamKeepsEarlierText() {
            let input = """
                event: content_block_delta
                data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hello"}}

                event: ping
                data: {"type": "ping"}

                event: error
                data: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}


                """
            #expect(decodeAnySplit(input) == [t("Hello"), .remoteError(message: "Overloaded")])
            // OpenAI / OpenRouter put an error object in a data-only event.
            let openAI = chunk("Hi") + #"data: {"error":{"message":"The server had an error while processing your request.","type":"server_error"}}"# + "\n\n"
            #expect(decodeAnySplit(openAI) == [t("Hi"), .remoteError(message: "The server had an error while processing your request.")])
        }

        @Test func geminiEndsAtFinishReasonAndReportsBlocks() {
            let input = #"data: {"candidates": [{"content": {"parts": [{"text": "Hi"}],"role": "model"},"index": 0}]}"# + "\r\n\r\n"
                + #"data: {"candidates": [{"content": {"parts": [{"text": "!"}],"role": "model"},"finishReason": "STOP","index": 0}]}"# + "\r\n\r\n"
            #expect(decodeAnySplit(input) == [t("Hi"), t("!"), .end])
            let blocked = #"data: {"promptFeedback": {"blockReason": "SAFETY"}}"# + "\r\n\r\n"
            #expect(decodeAnySplit(blocked) == [.remoteError(message: "prompt blocked: SAFETY")])
        }

        @Test func unknownWellFormedEventsAreIgnored() {
            let input = """
                event: response.in_progress
                data: {"type":"response.in_progress","response":{}}

                event: message_delta
                data: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":4}}

                event: something_new
                data: {"x":1}

                data: {"type":"brand.new.event","payload":[1,2]}

                data: {"type":"message_start","message":{"content":[],"role":"assistant"}}

                data: {"type":"content_block_stop","index":0}


                """
            #expect(decodeAnySplit(input) == [])
            // The SSE event name stands in for a missing JSON `type`, but never hides a known shape.
            let named = "event: content_block_delta\n" + #"data: {"delta":{"type":"text_delta","text":"a"}}"# + "\n\n"
                + "event: completion\n" + chunk("b")
            #expect(decodeAnySplit(named) == [t("a"), t("b")])
        }

        @Test func malformedEventsNameTheirLineAndDecodingContinues() {
            let input = chunk("a")                                  // lines 1-2
                + ": comment\n\n"                                   // lines 3-4
                + "event: content_block_delta\ndata: not json\n\n"  // lines 5-7
                + "data: {\"unknown\":true}\n\n"                    // lines 8-9
                + "data: 42\n\n"                                    // lines 10-11
                + chunk("b")                                        // lines 12-13
            let events = decodeAnySplit(input)
            #expect(events.count == 5)
            #expect(events[0] == t("a"))
            #expect(malformedLine(events[1]) == 5)
            #expect(malformedLine(events[2]) == 8)
            #expect(malformedLine(events[3]) == 10)
            #expect(events[4] == t("b"))
            if case .malformed(_, let reason) = events[1] { #expect(reason.contains("not JSON")) }
        }

        @Test func nonStreamedBodies() {
            let chat = #"{"id":"c","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"Whole answer"},"finish_reason":"stop"}]}"#
            #expect(decodeAnySplit(chat) == [t("Whole answer"), .end])
            let anthropic = """
                {
                  "id": "msg_1",
                  "type": "message",
                  "role": "assistant",
                  "content": [
                    {"type": "thinking", "thinking": "..."},
                    {"type": "text", "text": "Whole answer"}
                  ]
                }

                """
            #expect(decodeAnySplit(anthropic) == [t("Whole answer"), .end])
            // Gemini without alt=sse: one JSON array, elements are chunks.
            let geminiArray = """
                [{
                  "candidates": [{"content": {"parts": [{"text": "Whole"}],"role": "model"}}]
                }
                ,
                {
                  "candidates": [{"content": {"parts": [{"text": " answer"}],"role": "model"},"finishReason": "STOP"}]
                }
                ]
                """
            #expect(decodeAnySplit(geminiArray) == [t("Whole answer"), .end])
        }
    }

    // MARK: - HTTP error bodies

    @Suite struct ErrorBodyTests {
        static let openAIPretty = """
            {
                "error": {
                    "message": "Incorrect API key provided: sk-abc. You can find your API key at https://platform.openai.com/account/api-keys.",
                    "type": "invalid_request_error",
                    "param": null,
                    "code": "invalid_api_key"
                }
            }

            """

        @Test func compactErrorBody() {
            let body = #"{"error":{"message":"Incorrect API key provided","type":"invalid_request_error"}}"#
            #expect(decodeAnySplit(body) == [.remoteError(message: "Incorrect API key provided")])
            #expect(decodeAnySplit(body + "\n") == [.remoteError(message: "Incorrect API key provided")])
            #expect(decodeAnySplit("\n  \r\n" + body + "\r\n") == [.remoteError(message: "Incorrect API key provided")])
            let anthropic = #"{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}"#
            #expect(decodeAnySplit(anthropic) == [.remoteError(message: "invalid x-api-key")])
        }

        @Test func prettyPrintedErrorBody() {
            let message = "Incorrect API key provided: sk-abc. You can find your API key at https://platform.openai.com/account/api-keys."
            #expect(decodeAnySplit(Self.openAIPretty) == [.remoteError(message: message)])
            #expect(decodeAnySplit(String(Self.openAIPretty.dropLast())) == [.remoteError(message: message)])
            #expect(decodeAnySplit(Self.openAIPretty.replacingOccurrences(of: "\n", with: "\r\n")) == [.remoteError(message: message)])
            // Gemini wraps streaming errors in an array.
            let gemini = """
                [{
                  "error": {
                    "code": 429,
                    "message": "Resource has been exhausted (e.g. check quota).",
                    "status": "RESOURCE_EXHAUSTED"
                  }
                }
                ]

                """
            #expect(decodeAnySplit(gemini) == [.remoteError(message: "Resource has been exhausted (e.g. check quota).")])
        }

        @Test func errorBodyAfterCurlHeaders() {
            let input = "HTTP/2 401\r\ncontent-type: application/json\r\n\r\n" + Self.openAIPretty
            #expect(isRemoteError(decodeAnySplit(input).first))
        }

        @Test func ollamaErrorBody() {
            #expect(decodeAnySplit(#"{"error":"model not found"}"#) == [.remoteError(message: "model not found")])
            #expect(decodeAnySplit(#"{"error":"model 'llama9' not found"}"# + "\n", as: .ndjson)
                    == [.remoteError(message: "model 'llama9' not found")])
        }

        @Test func brokenOrHugeBodiesAreMalformed() {
            // Cut off at end of input.
            let cut = String(Self.openAIPretty.prefix(60))
            let events = decodeAnySplit(cut)
            #expect(events.count == 1 && malformedLine(events[0]) == 1)
            // A one-line value that does not parse, then a normal stream.
            let broken = "{\"error\": oops}\n\n" + chunk("a")
            let events2 = decodeAnySplit(broken)
            #expect(events2.count == 2 && malformedLine(events2[0]) == 1 && events2[1] == t("a"))
            // A value left open, interrupted by SSE: reported, and the SSE event still decoded.
            let interrupted = "{\"error\": {\n" + chunk("b")
            let events3 = decodeAnySplit(interrupted)
            #expect(events3.count == 2 && malformedLine(events3[0]) == 1 && events3[1] == t("b"))
            // A bare `[DONE]` line (not SSE) does not swallow what follows.
            let bare = "[DONE]\n" + chunk("c")
            let events5 = decodeAnySplit(bare)
            #expect(events5.count == 2 && malformedLine(events5[0]) == 1 && events5[1] == t("c"))
            // Over the body limit.
            let events4 = decodeAnySplit(Self.openAIPretty, decoder: SSEDecoder(maxBodyBytes: 64))
            #expect(events4.count == 1 && malformedLine(events4[0]) == 1)
        }
    }

    // MARK: - NDJSON

    @Suite struct NDJSONTests {
        @Test func ollamaChatAndGenerate() {
            let chat = #"{"model":"llama3.2","message":{"role":"assistant","content":"Tide"},"done":false}"# + "\n"
                + #"{"model":"llama3.2","message":{"role":"assistant","content":" \u003cpools\u003e \u0026 ok"},"done":false}"# + "\n"
                + #"{"model":"llama3.2","message":{"role":"assistant","content":""},"done_reason":"stop","done":true}"# + "\n"
            #expect(decodeAnySplit(chat, as: .ndjson) == [t("Tide"), t(" <pools> & ok"), .end])
            let generate = #"{"model":"llama3.2","response":"Tide","done":false}"# + "\r\n\r\n"
                + #"{"model":"llama3.2","response":" pools","done":false}"# + "\r\n   \n"
                + #"{"model":"llama3.2","response":"","done":true,"context":[1,2,3]}"#
            #expect(decodeAnySplit(generate, as: .ndjson) == [t("Tide"), t(" pools"), .end])
        }

        @Test func thinkingIsReasoning() {
            let input = #"{"model":"qwen3","message":{"role":"assistant","content":"","thinking":"Hmm"},"done":false}"# + "\n"
                + #"{"model":"qwen3","response":"","thinking":"Hmm","done":false}"# + "\n"
                + #"{"model":"qwen3","message":{"role":"assistant","content":"Yes"},"done":false}"# + "\n"
            #expect(decodeAnySplit(input, as: .ndjson) == [.reasoning(Array("Hmm".utf8)), .reasoning(Array("Hmm".utf8)), t("Yes")])
        }

        @Test func errorLineMidStream() {
            let input = #"{"model":"m","response":"Hi","done":false}"# + "\n" + #"{"error":"an unknown error was encountered while running the model"}"# + "\n"
            #expect(decodeAnySplit(input, as: .ndjson)
                    == [t("Hi"), .remoteError(message: "an unknown error was encountered while running the model")])
        }

        @Test func malformedLinesNameTheirLine() {
            let input = #"{"model":"m","response":"a","done":false}"# + "\n\n"
                + "not json\n"                                          // line 3
                + #"{"model":"m","response":"b","#  + "\n"              // line 4, cut off
                + #"{"model":"m","response":"c","done":false}"# + "\n"
                + "data: {\"choices\":[]}\n"                            // line 6
                + #"{"what":"ever"}"# + "\n"                            // line 7
            let events = decodeAnySplit(input, as: .ndjson)
            #expect(events.map(malformedLine) == [nil, nil, 4, nil, 6, 7])
            #expect(events[1] == .notJSON(line: 3, excerpt: "not json"))
            #expect(events[0] == t("a") && events[3] == t("c"))
            if case .malformed(_, let reason) = events[4] { #expect(reason.contains("--format sse")) }
        }

        @Test func prettyPrintedErrorBody() {
            #expect(isRemoteError(decodeAnySplit(ErrorBodyTests.openAIPretty, as: .ndjson).first))
        }

        @Test func overlongLineIsSkipped() {
            let input = #"{"model":"m","response":"a","done":false}"# + "\n"
                + "{\"response\":\"" + String(repeating: "x", count: 200) + "\"}\n"
                + #"{"model":"m","response":"b","done":true}"# + "\n"
            let events = decodeAnySplit(input, as: .ndjson, decoder: NDJSONDecoder(maxLineBytes: 100))
            #expect(events.count == 4)
            #expect(malformedLine(events[1]) == 2)
            #expect(Array(events[2...]) == [t("b"), .end])
        }
    }
}
