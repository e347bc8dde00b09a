// Decoding real recorded model streams (Fixtures/streams/RecordedStreams.swift and
// CapturedStreams.swift, each with its source; a source that starts "Not a capture" is a
// documented shape kept beside a real one): the exact answer text, reasoning and error, however
// the bytes are chunked, through the decoders, through the CLI's input pipeline with each
// --thinking choice, and through --format auto.
//
// TYPEWRITE_DUMP_STREAMS=/some/dir swift test --filter dumpedFilesReadBack writes each body and its
// expected answer there (NAME.sse or NAME.ndjson, NAME.answer) for checking the built binary by hand.

import Foundation
import Testing
@testable import TypewriteCore

/// One recorded stream and what decoding it must give.
struct RecordedStream: CustomTestStringConvertible, Sendable {
    let name: String
    let format: StreamFormat
    /// Where the bytes came from.
    let source: String
    let body: String
    /// The answer text, exactly.
    let answer: String
    /// The reasoning, exactly ("" when there is none).
    let reasoning: String
    /// The message of the error that ends the stream, if it has one.
    let error: String?
    /// How many lines are not JSON at all (reported, not failures).
    let notJSONLines: Int
    /// Whether `--format auto` takes it for a model stream (a bare `{"message": …}` error body
    /// could as well be a log line, so it stays raw).
    var autoDetected = true

    var testDescription: String { name }
    var bytes: [UInt8] { Array(body.utf8) }
}

/// What a decoder's events add up to.
struct DecodedStream: Equatable {
    var answer: [UInt8] = []
    var reasoning: [UInt8] = []
    var error: String?
    var notJSON = 0
    var malformed: [String] = []

    init(_ events: [StreamEvent]) {
        for event in events {
            if error != nil { break }   // what follows an error is not shown
            switch event {
            case .text(let t): answer += t
            case .reasoning(let r): reasoning += r
            case .remoteError(let message): error = message
            case .notJSON: notJSON += 1
            case .malformed(let line, let reason): malformed.append("line \(line): \(reason)")
            case .end: break
            }
        }
    }
}

enum RecordedDecoding {
    static func decoder(_ format: StreamFormat) -> any StreamDecoder {
        format == .ndjson ? NDJSONDecoder() : SSEDecoder()
    }

    /// Decodes `bytes` fed in pieces that end at `cuts` (sorted offsets).
    static func decode(_ bytes: [UInt8], as format: StreamFormat, cuts: [Int]) -> [StreamEvent] {
        var d = decoder(format)
        var out: [StreamEvent] = []
        var start = 0
        for cut in cuts + [bytes.count] where cut >= start {
            out += d.feed(bytes[start..<cut])
            start = cut
        }
        return out + d.finish()
    }

    /// A deterministic pseudo-random chunking (xorshift), pieces of 1…`maxPiece` bytes.
    static func randomCuts(count: Int, seed: UInt64, maxPiece: Int) -> [Int] {
        var state = seed | 1
        var cuts: [Int] = []
        var at = 0
        while true {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            at += 1 + Int(state % UInt64(maxPiece))
            guard at < count else { return cuts }
            cuts.append(at)
        }
    }
}

@Suite("Recorded model streams decode exactly")
struct StreamFormatRecordedTests {
    @Test(arguments: RecordedStream.all)
    func decodesToItsAnswer(_ stream: RecordedStream) {
        let decoded = DecodedStream(RecordedDecoding.decode(stream.bytes, as: stream.format, cuts: []))
        #expect(String(decoding: decoded.answer, as: UTF8.self) == stream.answer)
        #expect(String(decoding: decoded.reasoning, as: UTF8.self) == stream.reasoning)
        #expect(decoded.error == stream.error)
        #expect(decoded.notJSON == stream.notJSONLines)
        #expect(decoded.malformed.isEmpty, "\(decoded.malformed)")
    }

    @Test(arguments: RecordedStream.all)
    func sameEventsForEveryChunking(_ stream: RecordedStream) {
        let bytes = stream.bytes
        let whole = RecordedDecoding.decode(bytes, as: stream.format, cuts: [])
        // Every byte boundary at once: one byte per feed.
        #expect(RecordedDecoding.decode(bytes, as: stream.format, cuts: Array(1..<max(1, bytes.count))) == whole)
        for seed in 1...8 as ClosedRange<UInt64> {
            let cuts = RecordedDecoding.randomCuts(count: bytes.count, seed: seed, maxPiece: 64)
            #expect(RecordedDecoding.decode(bytes, as: stream.format, cuts: cuts) == whole, "seed \(seed)")
        }
    }

    /// Each boundary on its own (two pieces), for one stream of each shape that is small enough.
    @Test(arguments: RecordedStream.all.filter { $0.body.utf8.count <= 900 })
    func twoPiecesSplitAtEveryByte(_ stream: RecordedStream) {
        let bytes = stream.bytes
        let whole = RecordedDecoding.decode(bytes, as: stream.format, cuts: [])
        for cut in 1..<bytes.count where RecordedDecoding.decode(bytes, as: stream.format, cuts: [cut]) != whole {
            Issue.record("split at byte \(cut) of \(bytes.count) differs")
            return
        }
    }

    /// `--format auto` decides from the first line: a CLI's stderr line before the JSON (run with
    /// `2>&1`) makes it raw, so those streams are left out here.
    static let autoDetectable = RecordedStream.all.filter { $0.autoDetected && ($0.format != .ndjson || $0.body.hasPrefix("{")) }

    @Test(arguments: RecordedStream.all.filter { !$0.autoDetected })
    func autoLeavesABareErrorBodyRaw(_ stream: RecordedStream) {
        var detector = StreamFormatDetector()
        var decision = detector.feed(stream.bytes)
        if decision == .undecided { decision = detector.finish() }
        guard case .decided(let format, _) = decision else { Issue.record("undecided"); return }
        #expect(format == .raw)
    }

    @Test(arguments: autoDetectable)
    func autoDetectsTheRightFormat(_ stream: RecordedStream) {
        var detector = StreamFormatDetector()
        var decision = detector.feed(stream.bytes)
        if decision == .undecided { decision = detector.finish() }
        guard case .decided(let format, let replay) = decision else { Issue.record("undecided"); return }
        #expect(format == stream.format)
        #expect(replay == stream.bytes)
    }

    @Test(arguments: RecordedStream.all)
    func pipelineShowsAnswerAndReasoningAsAsked(_ stream: RecordedStream) {
        for thinking in [ThinkingDisplay.hide, .show, .dim] {
            for format in Self.autoDetectable.contains(where: { $0.name == stream.name }) ? [stream.format, .auto] : [stream.format] {
                var pipeline = InputPipeline(format: format, thinking: thinking, mayStyle: true)
                var out: [UInt8] = []
                var start = 0
                for cut in RecordedDecoding.randomCuts(count: stream.bytes.count, seed: 7, maxPiece: 300) + [stream.bytes.count] {
                    out += pipeline.process(stream.bytes[start..<cut], at: 0)
                    start = cut
                    if pipeline.stopped { break }
                }
                out += pipeline.finish(at: 0)
                let expected = Self.expectedOutput(stream, thinking: thinking)
                #expect(String(decoding: out, as: UTF8.self) == expected, "--thinking \(thinking.rawValue) --format \(format.rawValue)")
                #expect(pipeline.exitStatus == (stream.error == nil ? 0 : 1), "--format \(format.rawValue)")
                let messages = pipeline.takeErrors().map(\.line)
                #expect(messages.filter { $0.contains("not JSON") }.count == stream.notJSONLines)
                if let error = stream.error { #expect(messages.last == "typewrite: the stream reported an error: \(error)") }
            }
        }
    }

    /// What typewrite writes for `stream`: reasoning first (faint with `dim`), a blank line, the
    /// answer (newlines the answer starts with count towards that blank line).
    static func expectedOutput(_ stream: RecordedStream, thinking: ThinkingDisplay) -> String {
        guard thinking != .hide, !stream.reasoning.isEmpty else { return stream.answer }
        let reasoning = thinking == .dim ? "\u{1B}[2m" + stream.reasoning + "\u{1B}[22m" : stream.reasoning
        guard !stream.answer.isEmpty else { return reasoning }
        let trailing = stream.reasoning.reversed().prefix { $0 == "\n" }.count
        let leading = stream.answer.prefix(2).prefix { $0 == "\n" }.count
        return reasoning + String(repeating: "\n", count: max(0, 2 - trailing - leading)) + stream.answer
    }

    /// The files a dump writes (NAME.FORMAT, the body; NAME.answer, the answer) read back as the
    /// stream: the body byte for byte, and decoded from the file it gives the answer file's text.
    /// They go to TYPEWRITE_DUMP_STREAMS when it is set (and stay there), else to a temporary
    /// folder that is removed.
    @Test func dumpedFilesReadBack() throws {
        let files = FileManager.default
        let requested = ProcessInfo.processInfo.environment["TYPEWRITE_DUMP_STREAMS"].flatMap { $0.isEmpty ? nil : $0 }
        let dir = requested.map { URL(fileURLWithPath: $0) }
            ?? files.temporaryDirectory.appendingPathComponent("typewrite-streams-\(UInt64.random(in: 0...UInt64.max))")
        try files.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { if requested == nil { try? files.removeItem(at: dir) } }
        for stream in RecordedStream.all {
            let bodyURL = dir.appendingPathComponent("\(stream.name).\(stream.format.rawValue)")
            let answerURL = dir.appendingPathComponent("\(stream.name).answer")
            try Data(stream.bytes).write(to: bodyURL)
            try Data(stream.answer.utf8).write(to: answerURL)
            let body = Array(try Data(contentsOf: bodyURL))
            #expect(body == stream.bytes, "\(stream.name): body")
            let decoded = DecodedStream(RecordedDecoding.decode(body, as: stream.format, cuts: []))
            #expect(decoded.answer == Array(try Data(contentsOf: answerURL)), "\(stream.name): answer")
        }
    }
}
