// The library's contracts measured as a client meets them, on the wall clock and in resident
// memory (Scripts/check/library-check.sh builds this in a fresh package that depends on the repository
// by URL). Prints one JSON object per check.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import TypewriteCore

func seconds() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

/// The process's peak resident memory so far, in MiB (getrusage ru_maxrss: KiB on Linux).
func peakMiB() -> Double {
    var usage = rusage()
    #if os(Linux)
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_maxrss) / 1024
    #else
    getrusage(RUSAGE_SELF, &usage)
    return Double(usage.ru_maxrss) / 1_048_576
    #endif
}

func report(_ check: String, _ fields: [String: Any]) {
    var all = fields
    all["check"] = check
    let data = try! JSONSerialization.data(withJSONObject: all, options: [.sortedKeys])
    print(String(decoding: data, as: UTF8.self))
}

/// A terminal the typewriter animates on, whose bytes go nowhere.
let sink = TypewriterOutput.terminal(columns: 80, rows: 24) { _ in }

/// cancel() from another task `after` seconds; how long `stream` took to return after it.
func cancelTime<S: AsyncSequence & Sendable>(_ source: S, after: Double) async -> Double where S.Element == String {
    let typewriter = try! Typewriter(output: sink)
    let task = Task { try? await typewriter.stream(source) }
    try? await Task.sleep(nanoseconds: UInt64(after * 1e9))
    let cancelled = seconds()
    typewriter.cancel()
    _ = await task.value
    return seconds() - cancelled
}

let mode = CommandLine.arguments.dropFirst().first ?? ""
switch mode {
case "cancel-endless":
    // A model that keeps talking: a chunk every 10 ms, forever.
    let endless = AsyncStream<String> { continuation in
        let feeder = Task {
            while !Task.isCancelled {
                continuation.yield("and more ")
                try? await Task.sleep(nanoseconds: 10_000_000)
            }
        }
        continuation.onTermination = { _ in feeder.cancel() }
    }
    report(mode, ["returned_after_s": await cancelTime(endless, after: 1)])
case "cancel-silent":
    // One chunk, then nothing, never finishing.
    let (silent, continuation) = AsyncStream.makeStream(of: String.self)
    continuation.yield("one chunk, then silence")
    report(mode, ["returned_after_s": await cancelTime(silent, after: 1)])
    continuation.finish()
case "strict-stream":
    // Strict pacing from a source that always has 64 KiB ready: memory after 5 s.
    var settings = Typewriter.Settings()
    settings.maximumLag = .infinity
    let typewriter = try Typewriter(output: sink, settings: settings)
    let chunk = String(repeating: "The tide goes out and the pools warm in the sun. ", count: 1338)  // 64 KiB
    // A source with a chunk ready whenever it is asked (an AsyncStream fed by a loop would hold
    // every chunk the loop yields in its own buffer: the client's memory, not typewrite's).
    struct Ready: AsyncSequence, Sendable {
        let chunk: String
        struct AsyncIterator: AsyncIteratorProtocol {
            let chunk: String
            mutating func next() async -> String? { chunk }
        }
        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(chunk: chunk) }
    }
    let ready = Ready(chunk: chunk)
    let task = Task { try? await typewriter.stream(ready) }
    try? await Task.sleep(nanoseconds: 5_000_000_000)
    report(mode, ["peak_rss_mib": peakMiB()])
    typewriter.cancel()
    _ = await task.value
case "write-flood":
    // 200 MiB through the synchronous write, default settings, on a terminal output.
    let typewriter = try Typewriter(output: sink)
    let line = String(repeating: "0123456789", count: 7) + "ab\n"  // 73 bytes
    let piece = String(repeating: line, count: 898)  // about 64 KiB
    let start = seconds()
    var written = 0
    while written < 200 << 20 {
        typewriter.write(piece)
        written += piece.utf8.count
    }
    let wrote = seconds()
    try await typewriter.finish()
    report(mode, ["peak_rss_mib": peakMiB(), "write_s": wrote - start, "settled_after_s": seconds() - wrote])
default:
    print("usage: contract cancel-endless|cancel-silent|strict-stream|write-flood")
    exit(2)
}
