/// A monotonic time or a duration, in seconds.
public typealias Seconds = Double

/// Where the typing front stands, as a pure function of what arrived when.
///
/// Positions count grapheme clusters (UAX #29) in arrival order, starting at 0. The front `visible`
/// moves linearly toward `target = received + fadeWidth`; a cluster at index `i` has opacity
/// `clamp((visible − i) / fadeWidth, 0, 1)`, and `fadeWidth == 0` is a hard front
/// (docs/design.md#pacing, #the-soft-edge). When text arrives, a new linear segment starts from the current front with
/// duration `clamp((target − visible) / charactersPerSecond, minimumDuration, maximumLag)`.
///
/// Unlike a plain retarget, a new segment never moves slower than the one it replaces
/// while that one had not reached its target: its duration is also capped at
/// `(target − visible) / currentVelocity`. With that rule every cluster is fully shown at most
/// `maximumLag` seconds after it arrived, however the input is chunked: the segment started at its
/// arrival reaches its target within `maximumLag`, and every later segment is at least as fast.
///
/// A value type with no clock of its own: callers pass the time of every event.
public struct PacingEngine: Sendable, Equatable {
    /// Shortest time a burst is spread over (0.15 s, docs/design.md#pacing), so a single token still glides in.
    public static let minimumBurstDuration: Seconds = 0.15
    /// Default cap on how long a burst is spread (1.5 s, docs/design.md#pacing).
    public static let defaultMaximumLag: Seconds = 1.5
    /// The fastest typing speed taken, in grapheme clusters per second (a finite bound keeps the
    /// pacing arithmetic exact).
    public static let fastestSpeed: Double = 1e12

    /// Typing speed in grapheme clusters per second; finite and > 0.
    public let charactersPerSecond: Double
    /// Width of the soft leading edge in grapheme clusters; ≥ 0 (0 = hard front).
    public let fadeWidth: Double
    /// Longest time one burst is spread over, in seconds; ≥ `minimumBurstDuration`, may be
    /// `.infinity` for a strict typewriter that always moves at `charactersPerSecond`.
    public let maximumLag: Seconds

    /// Grapheme clusters received so far.
    public private(set) var received: Int = 0

    private var segmentStart: Double = 0
    private var segmentTime: Seconds = 0
    private var velocity: Double = 0
    private var target: Double = 0

    /// Creates an engine with nothing received.
    /// - Parameters:
    ///   - charactersPerSecond: clusters per second, finite and > 0 (precondition).
    ///   - fadeWidth: soft-edge width in clusters, ≥ 0.
    ///   - maximumLag: seconds, ≥ 0.15 or `.infinity`.
    public init(charactersPerSecond: Double, fadeWidth: Double, maximumLag: Seconds = defaultMaximumLag) {
        precondition(charactersPerSecond > 0 && charactersPerSecond.isFinite)
        precondition(fadeWidth >= 0 && fadeWidth.isFinite)
        precondition(maximumLag >= Self.minimumBurstDuration)
        self.charactersPerSecond = charactersPerSecond
        self.fadeWidth = fadeWidth
        self.maximumLag = maximumLag
    }

    /// Position of the front at `time`, in clusters (fractional); never past `received + fadeWidth`.
    public func front(at time: Seconds) -> Double {
        guard velocity > 0 else { return target }
        return min(target, segmentStart + velocity * max(0, time - segmentTime))
    }

    /// Records `count` new clusters arriving at `time` and starts a new segment.
    /// - Parameters:
    ///   - count: clusters that arrived; 0 changes nothing.
    ///   - time: arrival time in seconds on the caller's monotonic clock, not before earlier calls.
    public mutating func receive(_ count: Int, at time: Seconds) {
        guard count > 0 else { return }
        let position = front(at: time)
        let wasMoving = velocity > 0 && position < target
        received += count
        target = Double(received) + fadeWidth
        let remaining = target - position
        var duration = min(max(remaining / charactersPerSecond, Self.minimumBurstDuration), maximumLag)
        if wasMoving {
            // Never slow down while earlier clusters are still on their way (their deadline holds).
            duration = min(duration, remaining / velocity)
        }
        segmentStart = position
        segmentTime = time
        velocity = remaining / duration
    }

    /// Opacity of the cluster at `index` when the front is at `front`: 0 (not shown) … 1 (settled).
    public func opacity(ofClusterAt index: Int, front: Double) -> Double {
        guard fadeWidth > 0 else { return Double(index) < front ? 1 : 0 }
        return min(max((front - Double(index)) / fadeWidth, 0), 1)
    }

    /// Number of clusters with a non-zero opacity when the front is at `front`.
    public func revealedCount(front: Double) -> Int {
        guard front > 0 else { return 0 }
        return min(received, Int(front.rounded(.up)))
    }

    /// Number of clusters fully shown (opacity 1) when the front is at `front`.
    public func settledCount(front: Double) -> Int {
        guard fadeWidth > 0 else { return revealedCount(front: front) }
        let edge = front - fadeWidth  // clusters with index ≤ edge are settled
        guard edge >= 0 else { return 0 }
        return min(received, Int(edge.rounded(.down)) + 1)
    }

    /// When the front reaches its target and every received cluster is settled, in seconds.
    public var settleTime: Seconds {
        guard velocity > 0 else { return segmentTime }
        return segmentTime + (target - segmentStart) / velocity
    }

    /// Moves the front ahead to `position` at `time`: the clusters before it were written at once,
    /// settled (they would have scrolled off unseen, or their deadline came). The rest is paced
    /// from there as a new burst, and never later than the segment it replaces would have shown
    /// it, so every cluster keeps its deadline.
    /// - Parameters:
    ///   - position: the new front, in clusters; a position at or behind the front changes nothing,
    ///     one past `received + fadeWidth` counts as the target.
    ///   - time: seconds on the caller's monotonic clock, not before earlier calls.
    ///   - longest: the longest the rest may take, in seconds (> 0); the maximum lag by default.
    public mutating func skip(to position: Double, at time: Seconds, within longest: Seconds = .infinity) {
        let current = front(at: time)
        guard position > current else { return }
        let deadline = settleTime
        let remaining = target - position
        guard remaining > 0, deadline > time else {
            segmentStart = target
            segmentTime = time
            velocity = 0
            return
        }
        let duration = min(max(remaining / charactersPerSecond, Self.minimumBurstDuration), maximumLag, longest, deadline - time)
        segmentStart = position
        segmentTime = time
        velocity = remaining / duration
    }

    /// Jumps the front to its target: everything received counts as shown (after the writer
    /// flushed it all at once, on a signal), so text that arrives later is paced from there.
    public mutating func settleNow() {
        segmentStart = target
        velocity = 0
    }

    /// Whether every received cluster is fully shown at `time`.
    public func isSettled(at time: Seconds) -> Bool { front(at: time) >= target }
}
