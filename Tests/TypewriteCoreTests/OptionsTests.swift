import Testing
@testable import TypewriteCore
@testable import TypewriteCLI

@Suite("Options")
struct OptionsTests {
    @Test("bad command lines name the problem", arguments: [
        (["--bogus"], "unknown option '--bogus'"),
        (["-x"], "unknown option '-x'"),
        (["--cps"], "option '--cps' needs a value N"),
        (["-c"], "option '-c' needs a value N"),
        (["--cps", "0"], "invalid value '0' for --cps"),
        (["--cps", "-1"], "invalid value '-1' for --cps"),
        (["--cps", "nan"], "invalid value 'nan' for --cps"),
        (["--cps", "inf"], "invalid value 'inf' for --cps"),
        (["--cps", "abc"], "invalid value 'abc' for --cps"),
        (["--cps", "1e309"], "invalid value '1e309' for --cps"),
        (["--fade", "-1"], "invalid value '-1' for --fade"),
        (["--color=purple"], "invalid value 'purple' for --color"),
        (["--color", "purple"], "invalid value 'purple' for --color"),
        (["--hyperlinks", "sometimes"], "invalid value 'sometimes' for --hyperlinks"),
        (["--tee", "-"], "--tee needs a FILE, not '-'"),
        (["--animate=sometimes"], "invalid value 'sometimes' for --animate"),
        (["--format=xml"], "invalid value 'xml' for --format"),
        (["--max-lag", "0.1"], "invalid value '0.1' for --max-lag"),
        (["--max-lag", "nan"], "invalid value 'nan' for --max-lag"),
        (["--collapse=0"], "invalid value '0' for --collapse"),
        (["--reduce-motion=yes"], "option '--reduce-motion' takes no value"),
        (["--timestamps="], "empty FORMAT for --timestamps"),
        (["--c"], "option '--c' is ambiguous: --cps, --color, --collapse, --completions"),
        (["--demo", "notes.txt"], "--demo reads no input, but a FILE was given: 'notes.txt'"),
        (["--cps", "0x10"], "invalid value '0x10' for --cps"),
        (["--fade", "1e19"], "invalid value '1e19' for --fade"),
    ])
    func badCommandLines(arguments: [String], message: String) {
        do {
            _ = try Options.parse(arguments)
            Issue.record("accepted \(arguments)")
        } catch {
            #expect(error.message.hasPrefix(message), "got: \(error.message)")
            #expect(!error.message.contains("\n"))
            #expect(error.hint.map { !$0.contains("\n") } ?? true)
        }
    }

    @Test("a mistyped long option suggests the nearest one, as the hint line", arguments: [
        ("--colr", "color"), ("--colour", "color"), ("--fomat=sse", "format"), ("--hlep", "help"),
        ("--timestmps", "timestamps"), ("--reduced-motion", "reduce-motion"), ("--max_lag", "max-lag"),
        ("--hiperlinks=never", "hyperlinks"),
    ])
    func suggestsNearestOption(argument: String, nearest: String) {
        do {
            _ = try Options.parse([argument])
            Issue.record("accepted \(argument)")
        } catch {
            #expect(error.message.hasPrefix("unknown option '--"), "got: \(error.message)")
            #expect(error.hint == "Did you mean '--\(nearest)'?", "got: \(error.hint ?? "no hint")")
        }
    }

    @Test("an option not near any keeps the general hint", arguments: ["--bogus", "--xy", "--zzzzzzzz"])
    func noSuggestionWhenNothingIsNear(argument: String) {
        do {
            _ = try Options.parse([argument])
            Issue.record("accepted \(argument)")
        } catch {
            #expect(error.hint == "Try 'typewrite --help' for more information.", "got: \(error.hint ?? "no hint")")
        }
    }

    @Test("--help fits 80 columns; a wrapped summary continues under its first line")
    func helpFitsEightyColumns() {
        let lines = Options.helpText().split(separator: "\n", omittingEmptySubsequences: false)
        for line in lines {
            #expect(line.count <= 80, "\(line.count) columns: \(line)")
        }
        let start = lines.firstIndex(of: "Options:") ?? 0
        let block = lines[(start + 1)...].prefix { !$0.isEmpty }
        func indent(_ line: Substring) -> Int { line.prefix { $0 == " " }.count }
        for line in block {
            let isOption = (2...6).contains(indent(line)) && line.dropFirst(indent(line)).hasPrefix("-")
            let isContinuation = indent(line) == Options.summaryColumn
            #expect(isOption || isContinuation, "neither an option nor its summary's continuation: \(line)")
        }
        #expect(block.filter { indent($0) < Options.summaryColumn }.count == OptionSpec.all.count)
    }

    @Test("good command lines")
    func goodCommandLines() throws {
        func parse(_ a: [String]) throws -> Options { try Options.parse(a) }
        #expect(try parse(["--cps", "200"]).settings.charactersPerSecond == 200)
        #expect(try parse(["--cps=200"]).settings.charactersPerSecond == 200)
        #expect(try parse(["-c200"]).settings.charactersPerSecond == 200)
        #expect(try parse(["-c", "2.5"]).settings.charactersPerSecond == 2.5)
        #expect(try parse(["--fade", "0"]).settings.fadeWidth == 0)
        #expect(try parse(["--max-lag", "inf"]).settings.maximumLag == .infinity)
        #expect(try parse(["--max-lag=0.15"]).settings.maximumLag == 0.15)
        #expect(try parse(["-hV"]).help && parse(["-hV"]).version)
        #expect(try parse(["--collapse"]).collapseLines == 3)
        #expect(try parse(["--collapse=5"]).collapseLines == 5)
        #expect(try parse(["--timestamps"]).timestampFormat == "%H:%M:%S ")
        #expect(try parse(["--timestamps=%T|"]).timestampFormat == "%T|")
        #expect(try parse(["a", "-", "b"]).files == ["a", "-", "b"])
        #expect(try parse(["--", "-c", "--cps"]).files == ["-c", "--cps"])
        #expect(try parse(["--color", "never"]).settings.color == .never)
        #expect(try parse(["--color", "./purple"]).files == ["./purple"])
        #expect(try parse(["--color", "-"]).files == ["-"])
        #expect(try parse(["--color", "/"]).settings.color == .always)
        let o = try parse(["--color=never", "--animate=always"])
        #expect(o.settings.color == .never && o.settings.animate == .always)
        #expect(try parse(["--format", "sse"]).settings.format == .sse)
        #expect(try parse(["--red"]).settings.reduceMotion)  // an unambiguous prefix
    }

    @Test("capabilities: flags beat the environment; reduce motion beats --animate=always")
    func capabilities() throws {
        let tty = true
        func caps(_ args: [String], _ env: [String: String], tty: Bool = tty) throws -> TerminalCapabilities {
            let settings = try Options.parse(args).settings
            return TerminalCapabilities(environment: env, outputIsTerminal: tty, animate: settings.animate, color: settings.color,
                                        reduceMotion: settings.reduceMotion)
        }
        let term = ["TERM": "xterm-256color"]
        #expect(try caps([], term).animates)
        #expect(try !caps([], term, tty: false).animates)
        #expect(try caps(["--animate=always"], term, tty: false).animates)
        #expect(try !caps(["--animate=always", "--reduce-motion"], term).animates)
        #expect(try !caps([], term.merging(["REDUCED_MOTION": "1"]) { $1 }).animates)
        #expect(try caps([], term.merging(["REDUCED_MOTION": "0"]) { $1 }).animates)
        #expect(try caps(["--animate=always"], term.merging(["REDUCED_MOTION": "1"]) { $1 }).animates)
        #expect(try caps([], term).colorDepth == .palette256)
        #expect(try caps([], term.merging(["COLORTERM": "truecolor"]) { $1 }).colorDepth == .trueColor)
        #expect(try caps([], ["TERM": "xterm-kitty"]).colorDepth == .trueColor)
        #expect(try caps([], ["TERM": "xterm"]).colorDepth == .basic16)
        #expect(try caps([], ["TERM": "dumb"]).colorDepth == ColorDepth.none)
        #expect(try caps([], [:]).colorDepth == ColorDepth.none)
        #expect(try caps([], term.merging(["NO_COLOR": "1"]) { $1 }).colorDepth == ColorDepth.none)
        #expect(try caps([], term.merging(["NO_COLOR": ""]) { $1 }).colorDepth == .palette256)
        #expect(try caps(["--color=always"], term.merging(["NO_COLOR": "1"]) { $1 }).colorDepth == .palette256)
        #expect(try caps(["--color=never"], term).colorDepth == ColorDepth.none)
        #expect(try caps([], term.merging(["COLORFGBG": "0;15"]) { $1 }).lightBackground)
        #expect(try !caps([], term.merging(["COLORFGBG": "15;0"]) { $1 }).lightBackground)
        #expect(try caps([], term.merging(["LANG": "ja_JP.UTF-8"]) { $1 }).ambiguousIsWide)
        #expect(try !caps([], term.merging(["LANG": "en_US.UTF-8"]) { $1 }).ambiguousIsWide)
    }
}
