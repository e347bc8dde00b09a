import Testing
@testable import TypewriteCore
@testable import TypewriteCLI

/// `--exec`'s pure parts: the command line, the signs that the command waits for keys, the keys
/// typed while a query waited, the session leader's reports, the command's lookup, and
/// `--notify`. The processes and the pty are driven end to end by Tests/exec-check.py.
@Suite("Exec")
struct ExecTests {
    // MARK: Command line

    @Test("--exec takes the rest of the line as the command", arguments: [
        (["--exec", "make", "-j8", "--cps", "9"], ["make", "-j8", "--cps", "9"]),
        (["-e", "ls", "-l"], ["ls", "-l"]),
        (["-emake", "all"], ["make", "all"]),
        (["--cps", "200", "-e", "sh", "-c", "exit 7"], ["sh", "-c", "exit 7"]),
        (["--exec=ollama", "run", "llama3.2"], ["ollama", "run", "llama3.2"]),
    ])
    func execTakesTheRest(arguments: [String], command: [String]) throws {
        let options = try Options.parse(arguments)
        #expect(options.command == command)
        #expect(options.files.isEmpty)
    }

    @Test("--exec with what rewrites or reads keys, or with files, is a usage error", arguments: [
        (["--exec"], "option '--exec' needs a COMMAND"),
        (["-e"], "option '-e' needs a COMMAND"),
        (["--timestamps", "--exec", "ls"], "--timestamps cannot be used with --exec"),
        (["--collapse", "--exec", "ls"], "--collapse cannot be used with --exec"),
        (["--demo", "--exec", "ls"], "--demo cannot be used with --exec"),
        (["notes.txt", "--exec", "ls"], "--exec runs a command, but a FILE was given: 'notes.txt'"),
        (["--notify=soon"], "invalid value 'soon' for --notify"),
        (["--notify=-1"], "invalid value '-1' for --notify"),
    ])
    func execUsageErrors(arguments: [String], message: String) {
        do {
            _ = try Options.parse(arguments)
            Issue.record("accepted \(arguments)")
        } catch {
            #expect(error.message.hasPrefix(message), "got: \(error.message)")
        }
    }

    @Test("--notify's default is 10 seconds")
    func notifyDefault() throws {
        #expect(try Options.parse(["--notify"]).notifyAfter == 10)
        #expect(try Options.parse(["--notify=2.5"]).notifyAfter == 2.5)
        #expect(try Options.parse([]).notifyAfter == nil)
    }

    // MARK: Waiting for keys

    @Test("a prompt in non-canonical mode is found after the editor's quiet")
    func editorPrompt() {
        var wait = KeyWait()
        wait.output(Array("answer\r\n".utf8), at: 1.0)
        #expect(wait.deadline == nil)  // a whole line: nothing waits at a line's start
        wait.output(Array(">>> ".utf8), at: 1.2)
        #expect(wait.deadline == 1.2 + KeyWait.editorQuiet)
        let early = wait.check(at: 1.21, canonical: false)
        let due = wait.check(at: 1.2 + KeyWait.editorQuiet, canonical: false)
        #expect(!early && due)
        #expect(wait.deadline == nil)  // said once
        let again = wait.check(at: 2, canonical: false)
        #expect(!again)
    }

    @Test("a partial line in canonical mode waits for the longer quiet")
    func canonicalPrompt() {
        var wait = KeyWait()
        wait.output(Array("Name? ".utf8), at: 0)
        let short = wait.check(at: KeyWait.editorQuiet, canonical: true)
        #expect(!short)
        #expect(wait.deadline == KeyWait.lineQuiet)
        let long = wait.check(at: KeyWait.lineQuiet, canonical: true)
        #expect(long)
    }

    @Test("more output before the deadline starts the quiet again")
    func outputResetsTheQuiet() {
        var wait = KeyWait()
        wait.output(Array("partial".utf8), at: 0)
        wait.output(Array(" more".utf8), at: 0.02)
        let early = wait.check(at: KeyWait.editorQuiet, canonical: false)
        let due = wait.check(at: 0.02 + KeyWait.editorQuiet, canonical: false)
        #expect(!early && due)
    }

    @Test("output within the echo window of a key is its echo")
    func echoWindow() {
        var wait = KeyWait()
        #expect(!wait.isEcho(at: 5))
        wait.key(at: 5)
        #expect(wait.isEcho(at: 5.01))
        #expect(!wait.isEcho(at: 5 + 2 * KeyWait.echoWindow))
    }

    // MARK: Keys typed while a query waited

    @Test("the terminal's answers are taken out of what it sent, the keys stay", arguments: [
        ("\u{1B}]11;rgb:ffff/ffff/ffff\u{1B}\\\u{1B}[?62;22c", ""),
        ("a\u{1B}]10;rgb:0000/0000/0000\u{07}b\u{1B}[?1;2cc", "abc"),
        ("\u{1B}[12;40R\u{1B}[?6c", ""),
        ("x\u{1B}[A\u{1B}[?64;1c", "x\u{1B}[A"),  // an arrow key is a key
        ("\u{1B}[1;5R", ""),  // a report; Control-F3 reads the same and is lost only during a query
        ("\u{03}", "\u{03}"),
    ])
    func typedKeys(reply: String, keys: String) {
        #expect(TerminalQuery.typedKeys(in: Array(reply.utf8)) == Array(keys.utf8))
    }

    // MARK: The session leader

    @Test("the leader's reports read back as written")
    func reports() {
        for report in [ExecLeader.Report.started(4242), .stopped, .continued] {
            #expect(ExecLeader.Report(line: report.line.dropLast()[...]) == report)
        }
        #expect(ExecLeader.Report(line: "started") == nil)
        #expect(ExecLeader.Report(line: "nonsense") == nil)
    }

    @Test("a command is looked up as execvp does: 127 when missing, 126 when not executable")
    func lookUp() {
        #expect(System.lookUpCommand("sh", path: "/usr/bin:/bin") != .notFound)
        #expect(System.lookUpCommand("no-such-command-typewrite", path: "/usr/bin:/bin") == .notFound)
        #expect(throws: ExecChild.StartError(message: "no-such-command-typewrite: command not found", status: 127)) {
            _ = try ExecChild.resolve("no-such-command-typewrite", path: "/usr/bin")
        }
        #expect(throws: ExecChild.StartError(message: "/nonexistent/x: No such file or directory", status: 127)) {
            _ = try ExecChild.resolve("/nonexistent/x", path: nil)
        }
        if case .notExecutable = System.lookUpCommand("/etc/passwd", path: nil) {} else {
            Issue.record("a file without the execute bit is found")
        }
        if case .notExecutable = System.lookUpCommand("/", path: nil) {} else {
            Issue.record("a directory is found")
        }
    }

    // MARK: --notify

    @Test("the terminal's kind decides the notification", arguments: [
        (["TERM": "xterm-kitty"], DesktopNotification.kitty),
        (["TERM": "foot"], .osc777),
        (["TERM": "xterm-256color", "TERM_PROGRAM": "WezTerm"], .osc777),
        (["TERM": "rxvt-unicode-256color"], .osc777),
        (["TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app"], .osc9),
        (["TERM": "xterm-kitty", "TMUX": "/tmp/tmux-0/default,1,0"], .bell),
        (["TERM": "screen-256color"], .bell),
        (["TERM": "xterm-256color"], .bell),
        ([:], .bell),
    ])
    func notificationKind(environment: [String: String], kind: DesktopNotification) {
        #expect(DesktopNotification(environment: environment) == kind)
    }

    @Test("a long answer notifies with its first line; a short one does not")
    func notifier() {
        var notifier = AnswerNotifier(threshold: 10, kind: .osc777)
        notifier.begin(at: 0, typed: false)
        notifier.text(Array("\n\u{1B}[1mTide pools\u{1B}[0m survive\tlow tide.\r\nMore.\n".utf8), at: 3)
        let long = notifier.complete(at: 12)
        #expect(long == Array("\u{1B}]777;notify;typewrite;Tide pools survive low tide.\u{1B}\\".utf8))
        var short = AnswerNotifier(threshold: 10, kind: .bell)
        short.begin(at: 0, typed: false)
        short.text(Array("hi\n".utf8), at: 1)
        let none = short.complete(at: 2)
        #expect(none == nil)
        var bell = AnswerNotifier(threshold: 1, kind: .bell)
        bell.text(Array("hi\n".utf8), at: 1)
        let rung = bell.complete(at: 2.5)
        #expect(rung == [0x07])
    }

    @Test("after a key, the echoed question is not the answer's first line")
    func notifierSkipsTheEcho() {
        var notifier = AnswerNotifier(threshold: 1, kind: .osc9)
        notifier.begin(at: 0, typed: true)
        notifier.text(Array("why tide pools?\r\nBecause\u{07} they hold water.\r\n".utf8), at: 0.5)
        let sequence = notifier.complete(at: 3)
        #expect(sequence == Array("\u{1B}]9;Because they hold water.\u{07}".utf8))
    }

    @Test("an OSC 9 message never takes the shape of a ConEmu command")
    func osc9Shape() {
        #expect(DesktopNotification.osc9.sequence(title: "typewrite", body: "4;2 done") == Array("\u{1B}]9;typewrite: 4;2 done\u{07}".utf8))
        #expect(DesktopNotification.osc9.sequence(title: "typewrite", body: "42 apples") == Array("\u{1B}]9;42 apples\u{07}".utf8))
    }
}
