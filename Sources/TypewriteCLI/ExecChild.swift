#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TypewriteCore

/// A command run by `--exec` on a pseudo-terminal of its own, as typewrite sees it: the pty's
/// master (the command's output is read from it, keys are written to it), the session leader that
/// runs the command (`ExecLeader`), and the leader's reports (`docs/exec.md#processes`).
struct ExecChild {
    /// The pty's master: non-blocking, close-on-exec.
    let master: Int32
    /// typewrite's own descriptor of the slave, kept until the leader exits: it tells how much
    /// typed input the command has not read (`System.bytesWaiting`), and while it is open the
    /// master never reads EIO.
    private(set) var slave: Int32?
    /// The session leader's process ID.
    let leader: Int32
    /// The read end of the leader's report pipe (nil once it ended).
    private(set) var reports: Int32?
    /// The command's process ID, which is its process group's (nil until the leader reports it).
    private(set) var group: Int32?
    /// The exit status to pass on, the leader's (the command's; 128 + N when signal N killed it);
    /// nil while it runs.
    private(set) var exitStatus: Int32?
    /// Whether the command is stopped (Control-Z) and typewrite has not continued it.
    private(set) var stopped = false
    private var pending: [UInt8] = []

    /// A command that cannot be started: the message and the exit status, as `env` and `nohup`
    /// give them (127: not found; 126: found but not executable).
    struct StartError: Error, Equatable {
        var message: String
        var status: Int32
    }

    /// Looks `command` up in `path` (as `execvp` does), before any terminal mode is touched.
    /// - Returns: the file to execute.
    /// - Throws: `StartError` with status 127 (not found) or 126 (not executable).
    static func resolve(_ command: String, path: String?) throws(StartError) -> String {
        switch System.lookUpCommand(command, path: path) {
        case .found(let file): return file
        case .notFound:
            throw StartError(message: command.contains("/") ? "\(command): No such file or directory" : "\(command): command not found", status: 127)
        case .notExecutable(_, let error):
            throw StartError(message: "\(command): \(error)", status: 126)
        }
    }

    /// Starts `arguments` (the command's name first) from `file` on a new pseudo-terminal whose
    /// settings and window size are copied from `terminal` (typewrite's own, when it has one).
    /// - Throws: `SystemError` when the pty, the pipe or the leader cannot be made.
    static func start(file: String, arguments: [String], terminal: Int32?, fallbackSize: WindowSize) throws(SystemError) -> ExecChild {
        guard let me = System.executablePath() else { throw SystemError(ENOENT) }
        let pty = try System.openPseudoTerminal()
        if let terminal, let settings = System.terminalSettings(terminal) {
            System.applyTerminalSettings(settings, to: pty.slave)
        }
        let size = terminal.flatMap { System.windowSize($0) }.flatMap { $0.columns > 0 ? $0 : nil } ?? fallbackSize
        System.setWindowSize(pty.master, size)
        let pipe: (read: Int32, write: Int32)
        do { pipe = try System.makePipe() } catch {
            System.closeDescriptor(pty.master); System.closeDescriptor(pty.slave)
            throw error
        }
        let leader: Int32
        do {
            leader = try System.spawn(me, arguments: ["typewrite", ExecLeader.leaderMode, file, "--"] + arguments,
                                      descriptors: [(pty.slave, 0), (pty.slave, 1), (pty.slave, 2), (pipe.write, ExecLeader.pipeDescriptor)],
                                      newSession: true)
        } catch {
            for fd in [pty.master, pty.slave, pipe.read, pipe.write] { System.closeDescriptor(fd) }
            throw error
        }
        System.closeDescriptor(pipe.write)
        System.setNonBlocking(pipe.read)
        return ExecChild(master: pty.master, slave: pty.slave, leader: leader, reports: pipe.read)
    }

    private init(master: Int32, slave: Int32, leader: Int32, reports: Int32) {
        self.master = master
        self.slave = slave
        self.leader = leader
        self.reports = reports
    }

    /// Reads the leader's reports (its pipe was readable). At the pipe's end the leader has exited:
    /// its status is taken and typewrite's slave descriptor closed, so the master reads EIO once
    /// every program on the pty has closed it.
    /// - Returns: the reports, in order.
    mutating func readReports() -> [ExecLeader.Report] {
        guard let fd = reports else { return [] }
        var ended = false
        reading: while true {
            switch System.readChunk(fd, maxCount: 256) {
            case .data(let bytes): pending += bytes
            case .nothingYet: break reading  // the rest later
            case .ended: ended = true; break reading
            }
        }
        var result: [ExecLeader.Report] = []
        while let newline = pending.firstIndex(of: 0x0A) {
            let line = String(decoding: pending[..<newline], as: UTF8.self)
            pending.removeSubrange(...newline)
            if let report = ExecLeader.Report(line: line[...]) { result.append(report) }
        }
        for report in result {
            switch report {
            case .started(let pid): group = pid
            case .stopped: stopped = true
            case .continued: stopped = false
            }
        }
        if ended {
            System.closeDescriptor(fd)
            reports = nil
            exitStatus = waitForLeader()
            if let slave { System.closeDescriptor(slave) }
            slave = nil
        }
        return result
    }

    /// Typed input the command has not read yet, in bytes (0 once the leader exited).
    var unreadInput: Int { slave.map { System.bytesWaiting($0) } ?? 0 }

    /// Gives the pty `size` (the kernel signals SIGWINCH to the command when it changed).
    func resize(to size: WindowSize) { System.setWindowSize(master, size) }

    /// Sends `signal` to the terminal's foreground process group (the command's, or a job it
    /// started in the foreground), and to the command's group when that is another.
    func signalForeground(_ signal: Int32) {
        let foreground = System.foregroundProcessGroup(master)
        if let foreground { System.sendSignal(signal, to: -foreground) }
        if let group, group != foreground { System.sendSignal(signal, to: -group) }
    }

    /// Continues the command after a stop (SIGCONT to its groups).
    mutating func resume() {
        signalForeground(SIGCONT)
        stopped = false
    }

    /// Ends the command as a closed terminal would (`script` does the same): SIGHUP, then SIGCONT
    /// so a stopped one gets it, to the terminal's foreground group, the command's group and the
    /// leader. Called when typewrite ends early (a signal, its output gone).
    func hangUp() {
        guard exitStatus == nil else { return }
        signalForeground(SIGHUP)
        signalForeground(SIGCONT)
        System.sendSignal(SIGHUP, to: leader)
    }

    /// Waits for the leader to exit (after `hangUp`, or at the end), and closes every descriptor.
    /// - Returns: the exit status to pass on.
    mutating func finish() -> Int32 {
        if exitStatus == nil {
            if let fd = reports { System.closeDescriptor(fd) }
            reports = nil
            exitStatus = waitForLeader()
        }
        if let slave { System.closeDescriptor(slave) }
        slave = nil
        System.closeDescriptor(master)
        return exitStatus ?? 1
    }

    /// Waits until the leader has exited: its status (a leader a signal killed: 128 + N).
    private func waitForLeader() -> Int32 {
        while let change = System.waitForChild(leader, blocking: true) {
            if let status = change.shellStatus { return status }
        }
        return 1
    }
}
