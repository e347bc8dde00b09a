import TypewriteCore

/// When a command whose standard input (a pipe or file) has ended is sent its end-of-file
/// character although it shows no prompt (`docs/exec.md#keys`): its output ends a line, or it wrote
/// nothing (`echo hi | typewrite --exec cat`, `wc -c`), so `KeyWait` never finds it waiting. After
/// `gap` of quiet one is owed; the gap doubles after each one until the command writes again, up
/// to `limit`. A partial last line needs two (the first only passes the line on), and a line editor
/// that took one while busy reads it as a NUL byte, then waits at its prompt and gets another.
/// A pure value on the caller's clock, in seconds.
struct QuietEndOfFile: Equatable, Sendable {
    /// The first quiet that owes an end-of-file character, in seconds.
    static let gap: Seconds = 0.25
    /// The longest quiet between two, in seconds.
    static let limit: Seconds = 4

    /// When the input ended (nil: it has not).
    private(set) var endedAt: Seconds?
    /// Since when the command has been quiet, or when the last one was owed, in seconds.
    private var since: Seconds = 0
    private var currentGap = QuietEndOfFile.gap

    /// The input ended at `time`.
    mutating func inputEnded(at time: Seconds) {
        endedAt = time
        since = time
    }

    /// The command wrote at `time`: the quiet starts again, with the first gap.
    mutating func output(at time: Seconds) {
        since = time
        currentGap = Self.gap
    }

    /// When the next one is owed, in seconds (nil while the input has not ended).
    var deadline: Seconds? { endedAt == nil ? nil : since + currentGap }

    /// Whether one is owed at `time`; true once per deadline.
    mutating func check(at time: Seconds) -> Bool {
        guard let due = deadline, time >= due else { return false }
        since = time
        currentGap = min(currentGap * 2, Self.limit)
        return true
    }
}
