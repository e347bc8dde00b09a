import Foundation
import TypewriteCore
import TerminalJudge

/// A `FrameTimer` driven by hand: time stands still until `advance` moves it, and every frame due
/// on the way runs at once, in order, on the caller's thread. Nothing sleeps.
final class ManualFrameTimer: FrameTimer, @unchecked Sendable {
    // @unchecked: `time` and `pending` are only touched while holding `lock`.
    private let lock = NSLock()
    private var time: Seconds = 100
    private var pending: (deadline: Seconds, action: @Sendable () -> Void)?

    func now() -> Seconds { lock.withLock { time } }

    func schedule(at deadline: Seconds, _ action: @escaping @Sendable () -> Void) {
        lock.withLock { pending = (deadline, action) }
    }

    func cancel() { lock.withLock { pending = nil } }

    /// Whether a frame is scheduled.
    var hasPending: Bool { lock.withLock { pending != nil } }

    /// Moves time forward by `seconds`, running each scheduled frame at its deadline.
    func advance(by seconds: Seconds) {
        let target = now() + seconds
        while true {
            lock.lock()
            guard let next = pending, next.deadline <= target else {
                time = max(time, target)
                lock.unlock()
                return
            }
            pending = nil
            time = max(time, next.deadline)
            lock.unlock()
            next.action()
        }
    }
}

/// Collects what a `Typewriter` writes.
final class Recorder: @unchecked Sendable {
    // @unchecked: `bytes` and `writes` are only touched while holding `lock`.
    private let lock = NSLock()
    private var collected: [UInt8] = []
    private var writeCount = 0

    var bytes: [UInt8] { lock.withLock { collected } }
    var writes: Int { lock.withLock { writeCount } }

    func append(_ bytes: ArraySlice<UInt8>) {
        lock.withLock {
            collected += bytes
            writeCount += 1
        }
    }

    /// The screen these bytes leave in a terminal of the given size (LF returns the carriage):
    /// characters, styles, scrollback and cursor.
    func screen(columns: Int = 80, rows: Int = 24) -> VirtualTerminal.Snapshot {
        var terminal = VirtualTerminal(columns: columns, rows: rows, newlineIsCRLF: true)
        terminal.feed(bytes)
        return terminal.snapshot()
    }
}

/// The screen `cat` of `text` leaves.
func catScreen(_ text: String, columns: Int = 80, rows: Int = 24) -> VirtualTerminal.Snapshot {
    var terminal = VirtualTerminal(columns: columns, rows: rows, newlineIsCRLF: true)
    terminal.feed(text)
    return terminal.snapshot()
}

/// A terminal environment with 24-bit colour.
let colourTerminal = ["TERM": "xterm-256color", "COLORTERM": "truecolor"]
