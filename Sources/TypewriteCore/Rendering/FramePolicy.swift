/// How one frame's bytes are put together: a frame that moves the cursor (a repaint going back
/// along the row, a restyle going up) is wrapped in a synchronized update (`CSI ? 2026 h` … `l`), so
/// terminals that support it draw it at once; everything else is written as it came.
///
/// Rules (`docs/terminals.md#the-fades-safety-rules`):
/// - Between frames the cursor rests right after the last character written, in the input's own
///   SGR state; a repaint that moves away comes back within the same frame, which is one write.
/// - A repaint contains no LF or TAB: the tty's line discipline may let the echo of a key (`^C`)
///   into a write only at those bytes, and the echo must land where the text ends.
/// - Bytes a terminal reads differently inside a synchronized update (a C0 control inside an escape
///   sequence, an incomplete UTF-8 sequence that must be the last thing written) close the update
///   first, so they are written as `cat` writes them.
struct FramePolicy: Sendable {
    /// Most bytes one frame writes before it leaves the rest to the next frame (16 ms later), so a
    /// huge burst never needs one huge buffer (`MemoryBudget.frameBytes`).
    let byteLimit: Int

    /// Where the frame being built starts in its output.
    private(set) var start = 0
    /// Whether its synchronized update is already closed.
    private(set) var synchronized = false
    /// Whether it moved the cursor (then it is wrapped in a synchronized update).
    var movedCursor = false

    /// A frame starts at `position` in the output.
    mutating func begin(at position: Int) {
        start = position
        synchronized = false
        movedCursor = false
    }

    /// Whether the frame has reached its byte limit at `position`.
    func isFull(at position: Int) -> Bool { position - start > byteLimit }

    /// Closes the frame's synchronized update here, when it moved the cursor: what follows is
    /// written as it came.
    mutating func closeSynchronizedUpdate(into out: inout [UInt8]) {
        closeSynchronizedUpdate(endingAt: out.count, into: &out)
    }

    /// Closes the frame's synchronized update before the output's byte at `position` (which must
    /// be after the frame's start), when it moved the cursor.
    mutating func closeSynchronizedUpdate(endingAt position: Int, into out: inout [UInt8]) {
        guard movedCursor && !synchronized else { return }
        out.insert(contentsOf: ControlSequence.synchronizedOutputBegin, at: start)
        out.insert(contentsOf: ControlSequence.synchronizedOutputEnd, at: position + ControlSequence.synchronizedOutputBegin.count)
        synchronized = true
    }

    /// Ends the frame: wraps it in a synchronized update if it moved the cursor and has not
    /// closed one already.
    mutating func end(into out: inout [UInt8]) {
        guard out.count > start else { return }
        closeSynchronizedUpdate(into: &out)
    }
}
