import TypewriteCore

/// Tells, from what a program on a pseudo-terminal writes and when, that it is waiting for keys —
/// the moment everything it wrote must be on the screen at once, in its final colours
/// (`docs/exec.md#when-the-program-waits-for-keys`). A pure value on the caller's clock: the
/// driver reports output and keys, asks for the next deadline, and at that deadline says whether
/// the terminal is in canonical mode.
///
/// The signs, from no system call but `tcgetattr` on the master:
/// - a program that edits its own line (readline, libedit, linenoise, prompt_toolkit, Node's
///   readline) or draws the screen turns canonical mode off while it reads keys; its prompt is
///   followed by `editorQuiet` of silence;
/// - a program that reads whole lines in canonical mode (Python's `input()` without readline,
///   `read` in a shell) shows a partial line and goes quiet for `lineQuiet`;
/// - either way the output ends inside a line: text that ends with a line feed is an answer
///   between two writes, not a prompt.
/// And what the user types is echoed by the tty or the program within `echoWindow` of the key:
/// output then is shown at once, never paced.
struct KeyWait: Equatable, Sendable {
    /// Silence after a partial line that means a program in non-canonical mode waits, in seconds.
    static let editorQuiet: Seconds = 0.03
    /// Silence after a partial line that means a program in canonical mode waits, in seconds.
    static let lineQuiet: Seconds = 0.1
    /// How long after a key its echo may come, in seconds: output meanwhile is shown at once.
    static let echoWindow: Seconds = 0.1

    /// When the program last wrote (seconds); -infinity before it wrote anything.
    private(set) var lastOutputAt: Seconds = -.infinity
    /// Whether its last byte ended a line (LF): nothing waits at the start of a line.
    private(set) var endsLine = true
    /// When the user last typed a key (seconds).
    private(set) var lastKeyAt: Seconds = -.infinity
    /// Whether the silence since the last output was already found to be a wait (reported once),
    /// or found not to be one.
    private var decided = true
    /// Whether the short deadline (non-canonical) has been checked for this silence.
    private var checkedEditorQuiet = false

    /// The program wrote `bytes` at `time` (one read).
    mutating func output(_ bytes: some Collection<UInt8>, at time: Seconds) {
        guard let last = bytes.reversed().first else { return }
        lastOutputAt = time
        endsLine = last == 0x0A
        decided = endsLine
        checkedEditorQuiet = false
    }

    /// The user typed a key at `time`.
    mutating func key(at time: Seconds) { lastKeyAt = time }

    /// Whether output that arrives at `time` is the echo of a key, to show at once.
    func isEcho(at time: Seconds) -> Bool { time - lastKeyAt < Self.echoWindow }

    /// When `check` should next be called (seconds), nil while nothing could be a wait.
    var deadline: Seconds? {
        guard !decided else { return nil }
        return lastOutputAt + (checkedEditorQuiet ? Self.lineQuiet : Self.editorQuiet)
    }

    /// At `time`, once `deadline` passed: whether the program now waits for keys, given whether its
    /// terminal is in canonical mode (nil: unknown, read as canonical). True once per silence.
    mutating func check(at time: Seconds, canonical: Bool?) -> Bool {
        guard let due = deadline, time >= due else { return false }
        if !checkedEditorQuiet {
            checkedEditorQuiet = true
            guard canonical == false else { return false }
        }
        decided = true
        return true
    }
}
