import Foundation
import FuzzSupport
@testable import TypewriteCore

/// The library's snapshot path through its public API (`Typewriter.show(snapshot:)`), on a
/// manual frame timer and a virtual terminal. The input is cut into edits: each keeps a prefix of
/// the text so far (all of it, or back to a point the input picks) and adds new text.
/// Properties:
/// - through a byte sink that is not a terminal, growing snapshots give exactly the last one;
/// - on a terminal, when no update was `.appendedBelow`, the settled screen is `cat` of the last
///   snapshot (every replacement was rewritten in place correctly);
/// - `.extended` only when the new text extends the old; `.rewritten(offset)` at a cluster
///   boundary inside the common prefix.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSnapshots(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = fuzzBytes(data, size)
    var rng = FuzzRNG(hashing: bytes, salt: 0x5AA5)
    let columns = rng.pick([8, 13, 20, 80])
    let rows = rng.pick([3, 5, 24])
    // Edits: 0xFE starts an edit that keeps only a prefix (its next byte says how much);
    // the printable text between is what each edit adds. Other controls are dropped, so the
    // snapshots are the plain text (with newlines) that models stream.
    var snapshots: [String] = []
    var text: [UInt8] = []
    var i = 0
    while i < bytes.count {
        let b = bytes[i]
        if b == 0xFE, i + 1 < bytes.count {
            snapshots.append(String(decoding: text, as: UTF8.self))
            let keep = Int(bytes[i + 1]) * text.count / 256
            text = Array(Array(String(decoding: text, as: UTF8.self).utf8).prefix(keep))
            // Cut back to valid UTF-8.
            text = Array(String(decoding: text, as: UTF8.self).utf8)
            if text.last.map({ $0 >= 0x80 }) == true { text = Array(String(decoding: text.dropLast(), as: UTF8.self).utf8) }
            i += 2
            continue
        }
        if b == 0x0A || (b >= 0x20 && b < 0x7F) || b >= 0x80 { text.append(b) }
        i += 1
    }
    snapshots.append(String(decoding: text, as: UTF8.self))
    snapshots = snapshots.map { String($0.unicodeScalars.filter { $0 == "\n" || !($0.properties.generalCategory == .control) }) }

    // Through a pipe: growth only gives exactly the last snapshot.
    let pipe = Collector()
    let growing = zip(snapshots, snapshots.dropFirst()).allSatisfy { $1.utf8.starts(with: $0.utf8) }
    do {
        let typewriter = try Typewriter(output: .bytes { pipe.append($0) }, environment: ["TERM": "xterm-256color"],
                                        timer: ManualTimer())
        for s in snapshots { typewriter.show(snapshot: s) }
        typewriter.endInput()
        if growing { fuzzCheck(pipe.bytes == Array((snapshots.last ?? "").utf8), "pipe: growing snapshots give the last one") }
    } catch {
        fuzzFailure("Typewriter init", "\(error)")
    }

    // On a terminal.
    let screen = Collector()
    let timer = ManualTimer()
    guard let typewriter = try? Typewriter(output: .terminal(columns: columns, rows: rows) { screen.append($0) },
                                           environment: ["TERM": "xterm-256color", "COLORTERM": "truecolor"], timer: timer) else {
        fuzzFailure("Typewriter init")
    }
    var appendedBelow = false
    var previous = ""
    for s in snapshots {
        let update = typewriter.show(snapshot: s)
        switch update {
        case .unchanged: fuzzCheck(s == previous, "unchanged only for the same text")
        case .extended: fuzzCheck(s.utf8.starts(with: previous.utf8), "extended only when the text extends")
        case .rewritten(let offset):
            fuzzCheck(offset <= previous.utf8.count && offset <= s.utf8.count
                      && Array(previous.utf8.prefix(offset)) == Array(s.utf8.prefix(offset)), "rewritten inside the common prefix")
        case .appendedBelow: appendedBelow = true
        }
        previous = s
        timer.advance(by: Double(rng.int(0...40)) / 100)
    }
    typewriter.endInput()
    timer.advance(by: 60)
    if !appendedBelow {
        let ours = fuzzVisibleScreen(screen.bytes, columns: columns, rows: rows)
        let cat = fuzzVisibleScreen(Array((snapshots.last ?? "").utf8), columns: columns, rows: rows)
        // The visible screen (scrollback may hold rows a rewrite left above the screen).
        fuzzCheck(ours.lines == cat.lines && ours.cursorColumn == cat.cursorColumn,
                  "settled screen equals cat of the last snapshot",
                  "columns \(columns) rows \(rows)\nours:\n\(ours.description)\ncat:\n\(cat.description)\nsnapshots: \(snapshots)")
    }
    return 0
}

/// Collects bytes written by a sink (the fuzzer runs one input at a time; the lock is for the
/// timer's thread rule, which the manual timer never uses).
final class Collector: @unchecked Sendable {
    // @unchecked: `bytes` is only touched while holding `lock`.
    private let lock = NSLock()
    private var stored: [UInt8] = []
    var bytes: [UInt8] { lock.withLock { stored } }
    func append(_ piece: ArraySlice<UInt8>) { lock.withLock { stored += piece } }
}

/// Time moves only when told; due frames run at once on the caller's thread.
final class ManualTimer: FrameTimer, @unchecked Sendable {
    // @unchecked: `time` and `pending` are only touched while holding `lock`.
    private let lock = NSLock()
    private var time: Seconds = 10
    private var pending: (Seconds, @Sendable () -> Void)?
    func now() -> Seconds { lock.withLock { time } }
    func schedule(at deadline: Seconds, _ action: @escaping @Sendable () -> Void) { lock.withLock { pending = (deadline, action) } }
    func cancel() { lock.withLock { pending = nil } }
    func advance(by seconds: Seconds) {
        let target = now() + seconds
        while true {
            lock.lock()
            guard let next = pending, next.0 <= target else { time = max(time, target); lock.unlock(); return }
            pending = nil
            time = max(time, next.0)
            lock.unlock()
            next.1()
        }
    }
}
