import Dispatch

/// The clock and the timer a `Typewriter` draws its frames with. Inject one to drive the fade by
/// hand (a test advances time and sees each frame at once).
public protocol FrameTimer: Sendable {
    /// Now, in seconds on a monotonic clock.
    func now() -> Seconds
    /// Calls `action` once at `deadline` (seconds on the same clock), or as soon after as it can;
    /// replaces any call scheduled before and not yet made. Never call `action` from inside
    /// `schedule` (even when the deadline has passed): the typewriter schedules while it holds
    /// its lock, and `action` takes it.
    func schedule(at deadline: Seconds, _ action: @escaping @Sendable () -> Void)
    /// Drops the call scheduled, if any.
    func cancel()
}

/// Frames on a Dispatch timer (a private serial queue), on the monotonic clock (`DispatchTime`).
public final class DispatchFrameTimer: FrameTimer, @unchecked Sendable {
    // @unchecked: `generation` is only read and written on `queue` (a serial queue), and `queue`
    // itself is immutable and thread-safe.
    private let queue = DispatchQueue(label: "typewrite.frames")
    private var generation = 0

    public init() {}

    /// Now, from `DispatchTime.now()` (the monotonic clock), in seconds.
    public func now() -> Seconds { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// Calls `action` on the timer's own serial queue at `deadline`, replacing any call scheduled before.
    public func schedule(at deadline: Seconds, _ action: @escaping @Sendable () -> Void) {
        queue.async {
            self.generation += 1
            let mine = self.generation
            let when = DispatchTime(uptimeNanoseconds: UInt64(max(0, deadline) * 1e9))
            self.queue.asyncAfter(deadline: when) {
                guard self.generation == mine else { return }
                action()
            }
        }
    }

    /// Drops the call scheduled, if any.
    public func cancel() {
        queue.async { self.generation += 1 }
    }
}
