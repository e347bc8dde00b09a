#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TypewriteCore

/// The two hidden modes of the typewrite executable that `--exec` starts on the command's
/// pseudo-terminal (`docs/exec.md#processes`), so that no Swift code runs in a forked copy of the
/// multithreaded process: both are new processes made by `posix_spawn`.
///
/// 1. The **session leader** (`leaderMode`): started in a new session with the pty's slave as its
///    standard input, output and error, and the write end of a report pipe as descriptor 3. It takes
///    the pty as its controlling terminal, starts the command in a process group of its own, makes
///    that group the terminal's foreground, and waits for it as a shell waits for a foreground job.
///    Because the command's group has a parent in another group of the same session, it is not
///    orphaned, and Control-Z stops it (the kernel discards SIGTSTP for an orphaned group: the trap
///    util-linux `script -c` falls into). It reports each stop and continue on the pipe, and exits
///    with the command's status (128 + N when signal N killed it).
/// 2. The **starter** (`startMode`): the command's process before it becomes the command. It waits
///    until the leader has made its group the foreground (the leader closes the pipe on
///    descriptor 3), then `execv`s the command, so the command never runs a moment in the
///    background, where touching the terminal would stop it.
enum ExecLeader {
    /// The session leader's hidden first argument; then the command's path, `--`, its arguments.
    static let leaderMode = "--exec-session-leader"
    /// The starter's hidden first argument; then the command's path, `--`, its arguments.
    static let startMode = "--exec-start"
    /// The descriptor of the leader's report pipe, and of the starter's go-ahead pipe.
    static let pipeDescriptor: Int32 = 3

    /// What the leader reports on its pipe, one line each.
    enum Report: Equatable, Sendable {
        /// The command started: its process ID, which is also its process group's.
        case started(Int32)
        /// A signal stopped the command (Control-Z).
        case stopped
        /// The command continued.
        case continued

        var line: String {
            switch self {
            case .started(let pid): return "started \(pid)\n"
            case .stopped: return "stopped\n"
            case .continued: return "continued\n"
            }
        }

        init?(line: Substring) {
            let words = line.split(separator: " ")
            switch words.first {
            case "started": guard words.count == 2, let pid = Int32(words[1]) else { return nil }; self = .started(pid)
            case "stopped": self = .stopped
            case "continued": self = .continued
            default: return nil
            }
        }
    }

    /// Runs a hidden mode when `arguments` start with one; nil otherwise.
    static func run(_ arguments: [String]) -> RunOutcome? {
        guard let mode = arguments.first, mode == leaderMode || mode == startMode,
              arguments.count >= 4, arguments[2] == "--" else { return nil }
        let path = arguments[1]
        let command = Array(arguments[3...])
        return mode == leaderMode ? lead(path: path, command: command) : start(path: path, command: command)
    }

    private static func lead(path: String, command: [String]) -> RunOutcome {
        let terminal = System.standardInput
        let report = pipeDescriptor
        do throws(SystemError) {
            try System.takeControllingTerminal(terminal)
            guard let me = System.executablePath() else { throw SystemError(ENOENT) }
            let go = try System.makePipe()
            let pid = try System.spawn(me, arguments: ["typewrite", startMode, path, "--"] + command,
                                       descriptors: [(go.read, pipeDescriptor)], newProcessGroup: true)
            System.closeDescriptor(go.read)
            try? System.setForegroundProcessGroup(terminal, pid)
            System.closeDescriptor(go.write)
            try? System.writeAll(report, Array(Report.started(pid).line.utf8))
            while let status = System.waitForChild(pid, blocking: true) {
                switch status {
                case .stopped: try? System.writeAll(report, Array(Report.stopped.line.utf8))
                case .continued: try? System.writeAll(report, Array(Report.continued.line.utf8))
                case .exited, .killed: return .exit(status.shellStatus ?? 1)
                }
            }
            return .exit(1)
        } catch {
            System.printError("typewrite: \(command.first ?? path): \(error)")
            return .exit(126)
        }
    }

    private static func start(path: String, command: [String]) -> RunOutcome {
        // The go-ahead: the leader closes its end once this group is the terminal's foreground.
        var byte = [UInt8](repeating: 0, count: 1)
        while true {
            let n = byte.withUnsafeMutableBytes { try? System.read(pipeDescriptor, into: $0) }
            guard let count = n, count > 0 else { break }
        }
        System.closeDescriptor(pipeDescriptor)
        let error = System.execute(path, arguments: command)
        System.printError("typewrite: \(command.first ?? path): \(error)")
        return .exit(error.code == ENOENT ? 127 : 126)
    }
}
