import Foundation
import TypewriteCore

/// One command-line option, defined once: `--help`, the man page's OPTIONS (checked by a test)
/// and the shell completions are all produced from `OptionSpec.all`.
public struct OptionSpec: Sendable {
    public enum Value: Sendable {
        /// A flag without value.
        case none
        /// A required value: `--cps 200`, `--cps=200`, `-c200`, `-c 200`.
        case required(name: String, choices: [String])
        /// An optional value, given only with `=`: `--collapse`, `--collapse=5`.
        case optional(name: String, choices: [String])
        /// Every argument after it, a command (named `name`) and its arguments: `--exec make -j8`.
        case command(name: String)
    }
    public let long: String
    public let short: Character?
    public let value: Value
    /// One line for `--help`, with units and default.
    public let summary: String

    public var valueName: String? {
        switch value {
        case .none: return nil
        case .required(let name, _), .optional(let name, _), .command(let name): return name
        }
    }
    public var choices: [String] {
        switch value {
        case .none, .command: return []
        case .required(_, let c), .optional(_, let c): return c
        }
    }

    public static let all: [OptionSpec] = [
        OptionSpec(long: "cps", short: "c", value: .required(name: "N", choices: []),
                   summary: "typing speed in characters (grapheme clusters) per second; default 80"),
        OptionSpec(long: "fade", short: "f", value: .required(name: "N", choices: []),
                   summary: "width of the soft leading edge in characters; default 10, 0 = hard edge"),
        OptionSpec(long: "max-lag", short: nil, value: .required(name: "SECONDS", choices: []),
                   summary: "longest time a burst is spread over; default 1.5, minimum 0.15, inf = strict --cps"),
        OptionSpec(long: "reduce-motion", short: nil, value: .none,
                   summary: "show text at once, unchanged (also REDUCED_MOTION=1)"),
        OptionSpec(long: "animate", short: nil, value: .optional(name: "WHEN", choices: ["auto", "always", "never"]),
                   summary: "animate: auto (stdout is a terminal), always (bare), never; default auto"),
        OptionSpec(long: "color", short: nil, value: .optional(name: "WHEN", choices: ["auto", "always", "never"]),
                   summary: "colour the fade: auto (honours NO_COLOR, TERM), always (bare), never; default auto"),
        OptionSpec(long: "format", short: nil, value: .required(name: "FORMAT", choices: ["raw", "sse", "ndjson", "auto"]),
                   summary: "input format: raw text, a model stream (sse, ndjson), or auto; default raw"),
        OptionSpec(long: "thinking", short: nil, value: .required(name: "WHEN", choices: ["hide", "dim", "show"]),
                   summary: "a decoded stream's reasoning: hide, dim, show (before the answer); default hide"),
        OptionSpec(long: "markdown", short: nil, value: .optional(name: "WHEN", choices: ["auto", "always", "never"]),
                   summary: "highlight markdown, keeping every character: auto (decoded model streams), always, never"),
        OptionSpec(long: "hyperlinks", short: nil, value: .optional(name: "WHEN", choices: ["auto", "always", "never"]),
                   summary: "make highlighted links clickable (OSC 8; http, https, mailto): auto, always (bare), never"),
        OptionSpec(long: "timestamps", short: nil, value: .optional(name: "FORMAT", choices: []),
                   summary: "start each line with the time it arrived (strftime FORMAT, default %H:%M:%S)"),
        OptionSpec(long: "collapse", short: nil, value: .optional(name: "N", choices: []),
                   summary: "show at most N lines (default 3), then a Read more prompt"),
        OptionSpec(long: "more-label", short: nil, value: .required(name: "TEXT", choices: []),
                   summary: "label that expands a collapsed view; default \"Read more\""),
        OptionSpec(long: "less-label", short: nil, value: .required(name: "TEXT", choices: []),
                   summary: "label that collapses it again; default \"Show less\""),
        OptionSpec(long: "query-colors", short: nil, value: .optional(name: "WHEN", choices: ["auto", "never"]),
                   summary: "ask the terminal for its colours (OSC 10/11): auto (default), never (assume dark or COLORFGBG)"),
        OptionSpec(long: "ambiguous-wide", short: nil, value: .none,
                   summary: "treat East Asian ambiguous-width characters as two cells (CJK terminals)"),
        OptionSpec(long: "tee", short: nil, value: .required(name: "FILE", choices: []),
                   summary: "also write what a pipe would get (the decoded answer, or the input) to FILE, as it arrives"),
        OptionSpec(long: "notify", short: nil, value: .optional(name: "SECONDS", choices: []),
                   summary: "tell the desktop when an answer that took SECONDS (default 10) is done"),
        OptionSpec(long: "exec", short: "e", value: .command(name: "COMMAND"),
                   summary: "run COMMAND on a terminal of its own, typing its output; keys go to it"),
        OptionSpec(long: "demo", short: nil, value: .none,
                   summary: "stream a built-in answer the way a language model would; reads no input"),
        OptionSpec(long: "completions", short: nil, value: .required(name: "SHELL", choices: ["bash", "zsh", "fish"]),
                   summary: "print a completion script for SHELL and exit"),
        OptionSpec(long: "help", short: "h", value: .none, summary: "show this help and exit"),
        OptionSpec(long: "version", short: "V", value: .none, summary: "show the version and exit"),
    ]
}

/// The command line, parsed and validated: the library's one settings type (`Typewriter.Settings`,
/// which `--cps`, `--fade`, `--max-lag`, `--reduce-motion`, `--animate`, `--color`, `--format`,
/// `--thinking`, `--markdown`, `--hyperlinks` and `--ambiguous-wide` fill in, and which validates their ranges), and
/// what only the command has.
public struct Options: Sendable, Equatable {
    /// The settings the options fill in.
    public var settings = Typewriter.Settings()
    /// strftime format of --timestamps; nil when off.
    public var timestampFormat: String?
    /// Lines of --collapse; nil when off.
    public var collapseLines: Int?
    public var moreLabel = "Read more"
    public var lessLabel = "Show less"

    /// --query-colors: `.auto` asks the terminal when the fade uses colour, `.never` assumes.
    public var queryColors = When.auto
    /// Whether --query-colors was given (an option beats TYPEWRITE_QUERY_COLORS).
    public var queryColorsGiven = false
    public var demo = false
    public var completions: String?
    public var help = false
    public var version = false
    /// --tee: the file that gets what a pipe would (nil: none).
    public var tee: String?
    /// Inputs in order; "-" is standard input. Empty means standard input.
    public var files: [String] = []
    /// --notify: the shortest answer, in seconds, worth a notification (nil: none).
    public var notifyAfter: Double?
    /// --exec: the command and its arguments (nil: none).
    public var command: [String]?
    /// The numbers as given on the command line, by setting, for error messages.
    private var given: [String: String] = [:]

    public init() {}
}

/// A command line typewrite cannot run: one line naming the problem, at most one line of hint.
public struct UsageError: Error, Equatable, Sendable {
    public var message: String
    public var hint: String?
    public init(_ message: String, hint: String? = nil) { self.message = message; self.hint = hint }
}

extension Options {
    public static let defaultTimestampFormat = "%H:%M:%S "

    /// Parses `arguments` (without the program name), GNU style: long options with `=` or a separate
    /// value, bundled short flags, `-c200`, `--` ends options, `-` is standard input.
    /// - Throws: `UsageError` for an unknown option, a missing or invalid value.
    public static func parse(_ arguments: [String]) throws(UsageError) -> Options {
        var options = Options()
        var i = 0
        var onlyFiles = false
        let hint = "Try 'typewrite --help' for more information."
        while i < arguments.count {
            let arg = arguments[i]
            i += 1
            if onlyFiles || arg == "-" || !arg.hasPrefix("-") {
                options.files.append(arg)
                continue
            }
            if arg == "--" { onlyFiles = true; continue }
            var spec: OptionSpec
            var inlineValue: String?
            var display: String
            if arg.hasPrefix("--") {
                let body = arg.dropFirst(2)
                let name = body.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
                if let eq = body.firstIndex(of: "=") { inlineValue = String(body[body.index(after: eq)...]) }
                let matches = OptionSpec.all.filter { $0.long == name }
                let prefixed = OptionSpec.all.filter { $0.long.hasPrefix(name) }
                if matches.isEmpty && prefixed.count > 1 && !name.isEmpty {
                    throw UsageError("option '--\(name)' is ambiguous: " + prefixed.map { "--\($0.long)" }.joined(separator: ", "), hint: hint)
                }
                guard let found = matches.first ?? (prefixed.count == 1 && !name.isEmpty ? prefixed.first : nil) else {
                    throw UsageError("unknown option '--\(name)'",
                                     hint: nearestOption(to: name).map { "Did you mean '--\($0.long)'?" } ?? hint)
                }
                spec = found
                display = "--\(found.long)"
            } else {
                // Short options, possibly bundled: -h, -V, -c200, -c 200.
                var chars = arg.dropFirst()
                while let c = chars.first {
                    chars = chars.dropFirst()
                    guard let found = OptionSpec.all.first(where: { $0.short == c }) else {
                        throw UsageError("unknown option '-\(c)'", hint: hint)
                    }
                    if case .none = found.value {
                        try options.apply(found, value: nil, display: "-\(c)")
                        continue
                    }
                    if case .command = found.value {
                        // `-e make`, or `-emake`: the rest of the line is the command.
                        let rest = chars.isEmpty ? Array(arguments[i...]) : [String(chars)] + arguments[i...]
                        try options.takeCommand(rest, display: "-\(c)")
                        i = arguments.count
                        break
                    }
                    var value = String(chars)
                    if value.isEmpty {
                        guard i < arguments.count else { throw UsageError("option '-\(c)' needs a value \(found.valueName ?? "")", hint: hint) }
                        value = arguments[i]
                        i += 1
                    }
                    try options.apply(found, value: value, display: "-\(c)")
                    break
                }
                continue
            }
            switch spec.value {
            case .none:
                if inlineValue != nil { throw UsageError("option '\(display)' takes no value", hint: hint) }
                try options.apply(spec, value: nil, display: display)
            case .optional(_, let choices):
                // `--color never` as well as `--color=never`: a following word that is one of
                // the option's values is its value (a file of that name needs `./never`). A word
                // that is neither a value nor an existing file reads as a mistyped value
                // (`--color purple`), not as a missing FILE.
                var value = inlineValue
                if value == nil, i < arguments.count, !choices.isEmpty {
                    let next = arguments[i]
                    if choices.contains(next)
                        || (!next.hasPrefix("-") && !next.contains("/") && !FileManager.default.fileExists(atPath: next)) {
                        value = next
                        i += 1
                    }
                }
                try options.apply(spec, value: value, display: display)
            case .command:
                try options.takeCommand((inlineValue.map { [$0] } ?? []) + arguments[i...], display: display)
                i = arguments.count
            case .required(let name, _):
                var value = inlineValue
                if value == nil {
                    guard i < arguments.count else { throw UsageError("option '\(display)' needs a value \(name)", hint: hint) }
                    value = arguments[i]
                    i += 1
                }
                try options.apply(spec, value: value, display: display)
            }
        }
        if options.command != nil {
            // They rewrite what is shown or read keys of their own, or are inputs of their own.
            if let file = options.files.first {
                throw UsageError("--exec runs a command, but a FILE was given: '\(file)'", hint: hint)
            }
            for (given, name) in [(options.timestampFormat != nil, "--timestamps"), (options.collapseLines != nil, "--collapse"),
                                  (options.demo, "--demo")] where given {
                throw UsageError("\(name) cannot be used with --exec", hint: hint)
            }
        }
        if options.demo && !options.files.isEmpty {
            throw UsageError("--demo reads no input, but a FILE was given: '\(options.files[0])'", hint: hint)
        }
        do {
            try options.settings.validate()
        } catch {
            // The one check of the ranges is the settings' own; name the option that set it.
            guard case .invalidSetting(let setting, let value, let expected) = error else { throw UsageError(error.description) }
            let option = ["charactersPerSecond": "--cps", "fadeWidth": "--fade", "maximumLag": "--max-lag"][setting] ?? setting
            throw UsageError("invalid value '\(options.given[setting] ?? value)' for \(option): expected \(expected)",
                             hint: setting == "charactersPerSecond" ? "For no pacing at all, use --reduce-motion." : nil)
        }
        return options
    }

    private mutating func apply(_ spec: OptionSpec, value: String?, display: String) throws(UsageError) {
        let v = value ?? ""
        if !spec.choices.isEmpty, value != nil, !spec.choices.contains(v) {
            throw UsageError("invalid value '\(v)' for \(display)",
                             hint: "Valid values: \(spec.choices.joined(separator: ", ")).")
        }
        switch spec.long {
        case "cps":
            // Only the syntax here: the range is the settings' to check (`validate`).
            guard let n = Self.decimal(v) else {
                throw UsageError("invalid value '\(v)' for \(display): expected a number of characters per second, greater than 0 and at most 1e12",
                                 hint: "For no pacing at all, use --reduce-motion.")
            }
            settings.charactersPerSecond = n
            given["charactersPerSecond"] = v
        case "fade":
            guard let n = Self.decimal(v) else {
                throw UsageError("invalid value '\(v)' for \(display): expected a number of characters from 0 to 1000000")
            }
            settings.fadeWidth = n
            given["fadeWidth"] = v
        case "max-lag":
            guard let n = ["inf", "infinity"].contains(v.lowercased()) ? Double.infinity : Self.decimal(v) else {
                throw UsageError("invalid value '\(v)' for \(display): expected seconds, at least 0.15, or infinity")
            }
            settings.maximumLag = n
            given["maximumLag"] = v
        case "reduce-motion": settings.reduceMotion = true
        case "animate": settings.animate = value.flatMap(When.init(rawValue:)) ?? .always
        case "color": settings.color = value.flatMap(When.init(rawValue:)) ?? .always
        case "format": settings.format = StreamFormat(rawValue: v) ?? .raw
        case "thinking": settings.thinking = ThinkingDisplay(rawValue: v) ?? .hide
        case "timestamps":
            guard value.map({ !$0.isEmpty }) ?? true else { throw UsageError("empty FORMAT for \(display)") }
            timestampFormat = value ?? Self.defaultTimestampFormat
        case "collapse":
            if let value {
                guard let n = Int(value), n >= 1, n <= 10_000 else {
                    throw UsageError("invalid value '\(value)' for \(display): expected a number of lines from 1 to 10000")
                }
                collapseLines = n
            } else {
                collapseLines = 3
            }
        case "more-label": moreLabel = v
        case "less-label": lessLabel = v
        case "markdown": settings.markdown = value.flatMap(When.init(rawValue:)) ?? .always
        case "hyperlinks": settings.hyperlinks = value.flatMap(When.init(rawValue:)) ?? .always
        case "query-colors": queryColors = value.flatMap(When.init(rawValue:)) ?? .auto; queryColorsGiven = true
        case "ambiguous-wide": settings.ambiguousIsWide = true
        case "tee":
            guard v != "-" else {
                throw UsageError("--tee needs a FILE, not '-': standard output already gets the text",
                                 hint: "To keep a copy, name a file: --tee answer.md.")
            }
            guard !v.isEmpty else { throw UsageError("empty FILE for \(display)") }
            tee = v
        case "notify":
            guard let n = value.map({ Self.decimal($0) }) ?? 10, n >= 0, n.isFinite else {
                throw UsageError("invalid value '\(v)' for \(display): expected seconds, 0 or more")
            }
            notifyAfter = n
        case "demo": demo = true
        case "completions": completions = v
        case "help": help = true
        case "version": version = true
        default: throw UsageError("unknown option '\(display)'")
        }
    }

    /// Takes `words` as `--exec`'s command and its arguments.
    private mutating func takeCommand(_ words: some Collection<String>, display: String) throws(UsageError) {
        guard let name = words.first, !name.isEmpty else {
            throw UsageError("option '\(display)' needs a COMMAND", hint: "Try 'typewrite --help' for more information.")
        }
        command = Array(words)
    }

    /// A plain decimal number (`200`, `2.5`, `1e3`); not hexadecimal, `nan` or `inf`.
    static func decimal(_ text: String) -> Double? {
        guard !text.isEmpty, text.allSatisfy({ "0123456789.eE+-".contains($0) }) else { return nil }
        return Double(text)
    }

    /// The option whose long name is nearest to a mistyped `name` (without dashes): at most one edit
    /// (insertion, deletion, substitution or swap of two neighbours: optimal string alignment
    /// distance) for names shorter than 6 characters, two for longer ones; the first in table order
    /// on a tie; nil when none is that near or `name` is shorter than 3 characters.
    static func nearestOption(to name: String) -> OptionSpec? {
        let typed = Array(name.lowercased())
        guard typed.count >= 3 else { return nil }
        let limit = typed.count >= 6 ? 2 : 1
        var best: (spec: OptionSpec, distance: Int)?
        for spec in OptionSpec.all {
            let d = editDistance(typed, Array(spec.long))
            if d <= limit, d < (best?.distance ?? .max) { best = (spec, d) }
        }
        return best?.spec
    }

    /// Optimal string alignment distance between `a` and `b`: insertions, deletions, substitutions
    /// and swaps of two adjacent characters, each costing 1.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }

    /// Width of `--help`: every line fits a terminal 80 columns wide.
    static let helpWidth = 80
    /// Column where an option's summary starts (and its continuation lines).
    static let summaryColumn = 30

    /// `text` cut at spaces into lines of at most `width` characters (a word longer than `width`
    /// stands alone on its line).
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// The text of `--help`: at most `helpWidth` columns, each option's summary wrapped beside it.
    public static func helpText() -> String {
        var lines = [
            "typewrite \(Typewrite.version): type a stream of text onto the terminal with a soft fade-in",
            "",
            "Usage: typewrite [OPTIONS] [FILE...]",
            "       command | typewrite [OPTIONS]",
            "       typewrite [OPTIONS] --exec COMMAND [ARG...]",
            "",
        ]
        lines += wrap("Reads each FILE in order (- or none: standard input). On a terminal, text types in at "
                      + "--cps with each new character fading in; elsewhere the bytes pass through unchanged.",
                      width: helpWidth)
        lines += [
            "",
            "Options:",
        ]
        for spec in OptionSpec.all {
            var left = spec.short.map { "-\($0), " } ?? "    "
            left += "--\(spec.long)"
            switch spec.value {
            case .none: break
            case .required(let name, _): left += " \(name)"
            case .optional(let name, _): left += "[=\(name)]"
            case .command(let name): left += " \(name) [ARG...]"
            }
            left = "  " + left
            let indent = String(repeating: " ", count: summaryColumn)
            var summary = wrap(spec.summary, width: helpWidth - summaryColumn)
            if left.count + 1 > summaryColumn {
                lines.append(left)  // too wide for the column: the summary starts on the next line
            } else {
                lines.append(left + String(repeating: " ", count: summaryColumn - left.count) + (summary.isEmpty ? "" : summary.removeFirst()))
            }
            lines += summary.map { indent + $0 }
        }
        lines.append("")
        lines += wrap("Environment: NO_COLOR, REDUCED_MOTION, TERM, COLORTERM, COLORFGBG, COLUMNS (with "
                      + "--animate=always to a non-terminal), LC_ALL, LC_CTYPE, LANG (CJK: ambiguous width 2), "
                      + "TYPEWRITE_QUERY_COLORS (never: do not ask the terminal for its colours).", width: helpWidth)
        lines += wrap("Exit status: 0 success, 1 a file could not be read or the stream reported an error, "
                      + "2 usage error, 128+N killed by signal N (130 Ctrl-C, 141 broken pipe); with --exec "
                      + "the command's status (127 not found, 126 not executable).", width: helpWidth)
        return lines.joined(separator: "\n") + "\n"
    }
}
