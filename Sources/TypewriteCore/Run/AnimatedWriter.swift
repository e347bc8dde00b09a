/// What `AnimatedSession` drives: bytes and time in, frames of terminal output out. The fade
/// renderer is one; `CollapsedView` (--collapse) is another, built on it.
///
/// Time is seconds on the monotonic clock; output is appended to a buffer the caller writes with
/// one `write(2)` per frame.
protocol AnimatedWriter {
    /// Memory held for input not yet written, in bytes (reading pauses above
    /// `AnimatedSession.memoryLimit`).
    var pendingBytes: Int { get }
    /// Input bytes received and not yet written (reading pauses above `AnimatedSession.pendingLimit`).
    var pendingInputBytes: Int { get }
    /// Memory one input byte cost in the last burst, in bytes (sizes the next read).
    var bytesOfMemoryPerInputByte: Double { get }
    /// Whether frames are still needed.
    var isAnimating: Bool { get }
    /// Whether input has ended and everything has been drawn.
    var isFinished: Bool { get }
    /// Whether the input left an OSC 8 hyperlink open.
    var hyperlinkOpen: Bool { get }
    /// Takes bytes as read (any split) that arrived at `time`.
    mutating func receive(_ bytes: some Collection<UInt8>, at time: Seconds)
    /// End of input at `time`.
    mutating func endInput(at time: Seconds)
    /// Writes what changed by `time`.
    mutating func frame(at time: Seconds, into out: inout [UInt8])
    /// Writes everything due at once, settled (SIGINT, SIGTERM, SIGTSTP).
    mutating func flushSettled(into out: inout [UInt8])
    /// The terminal is now `newColumns` wide and `newRows` high (SIGWINCH).
    mutating func resize(columns newColumns: Int?, rows newRows: Int?, into out: inout [UInt8])
    /// Resets the terminal's SGR state before typewrite stops (SIGTSTP).
    mutating func resetPen(into out: inout [UInt8])
    /// Something else moved the cursor (the job was stopped and continued).
    mutating func forgetCursor(into out: inout [UInt8])
}

extension FadeRenderer: AnimatedWriter {}
