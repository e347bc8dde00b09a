/// Everything that can go wrong while typing a stream, as a value: stages and drivers return
/// these, and one place (`description`) turns each into the one line a user reads. Only the
/// executable turns them into exit statuses (`exitStatus`) and decides to exit.
public enum TypewriteError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An input could not be opened or read; `name` is as given ("-" is standard input).
    case unreadableInput(name: String, SystemError)
    /// The stream itself reported an error (an SSE `error` event, an HTTP error body, …):
    /// `message` is the provider's own words. Reading stops; the text before it stays.
    case remoteError(message: String)
    /// An event or line of a decoded stream that could not be understood; decoding went on.
    /// `line` is 1-based, `reason` says what was wrong.
    case malformedEvent(line: Int, reason: String)
    /// A line of an NDJSON stream that is not JSON at all (a tool's stderr mixed in with `2>&1`):
    /// reported and skipped, but not a failure of the run.
    case strayLine(line: Int, excerpt: String)
    /// Raw input that is plainly a model's wire stream (said once, at the end, on a terminal):
    /// `format` would decode it. Advice, not a failure.
    case looksLikeModelStream(format: String)
    /// A `--format` other than raw found not a single event in the input.
    case noEvents(format: String)
    /// Writing the output failed (other than a reader that has gone, which is `brokenPipe`).
    case outputFailed(SystemError)
    /// The reader of the output has gone (EPIPE). Quiet by design, like `cat`: no message.
    case brokenPipe
    /// A library host's output sink threw (`TypewriterOutput.terminal`, `.bytes`): its own error,
    /// kept in `SinkFailure.underlying`.
    case sinkFailed(SinkFailure)
    /// A setting out of range (a speed that is not a positive number, a negative fade width):
    /// `setting` names it, `value` is what was given.
    case invalidSetting(setting: String, value: String, expected: String)

    /// The message, without the program name: "notes.txt: No such file or directory".
    public var description: String {
        switch self {
        case .unreadableInput(let name, let error):
            return "\(name == "-" ? "standard input" : name): \(error)"
        case .remoteError(let message):
            return "the stream reported an error: \(message)"
        case .malformedEvent(let line, let reason):
            return "line \(line): skipped a malformed event: \(reason)"
        case .strayLine(let line, let excerpt):
            return "line \(line): skipped a line that is not JSON: \(excerpt)"
        case .looksLikeModelStream(let format):
            return "the input looks like a model stream; --format \(format) (or auto) would show its answer"
        case .noEvents(let format):
            return "no \(format) events in the input (an error page, or the wrong --format?)"
        case .outputFailed(let error):
            return "write error: \(error)"
        case .brokenPipe:
            return "write error: \(SystemError.brokenPipe)"
        case .sinkFailed(let failure):
            return "write error: \(failure)"
        case .invalidSetting(let setting, let value, let expected):
            return "invalid \(setting) '\(value)': expected \(expected)"
        }
    }

    /// The line typewrite prints on standard error for this error: `typewrite: ` + `description`.
    public var line: String { "typewrite: \(description)" }

    /// Whether the run fails because of it (exit status 1): everything but a stray line and advice.
    public var failsRun: Bool {
        switch self {
        case .strayLine, .looksLikeModelStream: return false
        default: return true
        }
    }
}

/// The error an output sink threw, kept as it was thrown.
public struct SinkFailure: Error, Equatable, Sendable, CustomStringConvertible {
    private let box: Box
    private final class Box: @unchecked Sendable {
        // @unchecked: immutable after init.
        let error: any Error
        init(_ error: any Error) { self.error = error }
    }

    /// The sink's own error.
    public var underlying: any Error { box.error }

    /// Keeps `error` as the sink threw it.
    public init(_ error: any Error) { box = Box(error) }

    /// Its description (`String(describing:)` of the sink's error).
    public var description: String { String(describing: box.error) }

    /// Two failures are equal when their errors describe themselves alike.
    public static func == (a: SinkFailure, b: SinkFailure) -> Bool { a.description == b.description }
}
