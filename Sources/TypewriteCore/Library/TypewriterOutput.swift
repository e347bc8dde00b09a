import Foundation

/// Where a `Typewriter` writes.
public struct TypewriterOutput: Sendable {
    private enum Target: Sendable {
        case descriptor(Int32)
        case sink(SinkSize, newlineReturnsCarriage: Bool, write: @Sendable (ArraySlice<UInt8>) throws -> Void)
        case pipe(write: @Sendable (ArraySlice<UInt8>) throws -> Void)
    }
    private let target: Target

    /// Standard output (file descriptor 1).
    public static var standardOutput: TypewriterOutput { .fileDescriptor(System.standardOutput) }

    /// An open file descriptor, written with `write(2)` (partial writes and EINTR retried). A
    /// terminal (`isatty`) animates; its size is read with `TIOCGWINSZ` whenever it matters.
    public static func fileDescriptor(_ descriptor: Int32) -> TypewriterOutput { TypewriterOutput(target: .descriptor(descriptor)) }

    /// A byte sink that ends on a terminal of `columns` × `rows` cells (a pseudo-terminal the
    /// host drives, a test's virtual terminal): the text animates as on a terminal. When that
    /// terminal is resized, tell the typewriter (`Typewriter.resize(columns:rows:)`). An error the
    /// sink throws ends the typing; `finish()` throws it as `TypewriteError.sinkFailed`.
    /// - Parameter newlineReturnsCarriage: whether LF also returns to column 0 (a tty's ONLCR).
    public static func terminal(columns: Int, rows: Int, newlineReturnsCarriage: Bool = true,
                                write: @escaping @Sendable (ArraySlice<UInt8>) throws -> Void) -> TypewriterOutput {
        TypewriterOutput(target: .sink(SinkSize(columns, rows), newlineReturnsCarriage: newlineReturnsCarriage, write: write))
    }

    /// A byte sink that is not a terminal: text passes through unchanged. An error it throws ends
    /// the typing; `finish()` throws it as `TypewriteError.sinkFailed`.
    public static func bytes(_ write: @escaping @Sendable (ArraySlice<UInt8>) throws -> Void) -> TypewriterOutput {
        TypewriterOutput(target: .pipe(write: write))
    }

    /// The terminal's size now (columns, rows), nil when the output is not a terminal: read
    /// (`TIOCGWINSZ`) for a descriptor, as given (or as `resized` last said) for a sink.
    var terminalSize: (columns: Int, rows: Int)? {
        switch target {
        case .descriptor(let fd):
            guard System.isTerminal(fd) else { return nil }
            return (System.terminalColumns(fd) ?? 80, System.terminalRows(fd) ?? 24)
        case .sink(let size, _, _):
            return size.current
        case .pipe:
            return nil
        }
    }

    /// A host said its terminal now has this size (a `.terminal` sink keeps it).
    func resized(columns: Int?, rows: Int?) {
        if case .sink(let size, _, _) = target, let columns, let rows { size.set(columns, rows) }
    }

    /// What the tty echoed for the key that sent `signal`, when this output is the controlling
    /// terminal (`System.keyEcho`); nil for a sink.
    func keyEcho(for signal: Int32) -> KeyEcho? {
        guard case .descriptor(let fd) = target else { return nil }
        return System.keyEcho(for: signal, terminal: fd, userMode: nil)
    }

    var translatesNewline: Bool {
        switch target {
        case .descriptor(let fd): return System.isTerminal(fd) ? System.translatesNewline(fd) : true
        case .sink(_, let translates, _): return translates
        case .pipe: return true
        }
    }

    func write(_ bytes: ArraySlice<UInt8>) throws(TypewriteError) {
        switch target {
        case .descriptor(let fd):
            let error: SystemError? = bytes.withUnsafeBytes { raw in
                do throws(SystemError) { try System.writeAll(fd, raw); return nil } catch { return error }
            }
            if let error { throw error == .brokenPipe ? .brokenPipe : .outputFailed(error) }
        case .sink(_, _, let write), .pipe(let write):
            do { try write(bytes) } catch let error as TypewriteError { throw error } catch {
                throw .sinkFailed(SinkFailure(error))
            }
        }
    }
}


/// The size of a `.terminal` sink, which its host may change (`Typewriter.resize`).
final class SinkSize: @unchecked Sendable {
    // @unchecked: `value` is only read and written while holding `lock`.
    private let lock = NSLock()
    private var value: (columns: Int, rows: Int)

    init(_ columns: Int, _ rows: Int) { value = (columns, rows) }

    var current: (columns: Int, rows: Int) {
        lock.lock(); defer { lock.unlock() }
        return value
    }

    func set(_ columns: Int, _ rows: Int) {
        lock.lock(); defer { lock.unlock() }
        value = (columns, rows)
    }
}
