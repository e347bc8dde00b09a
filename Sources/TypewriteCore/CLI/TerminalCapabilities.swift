/// What typewrite may do on this output, decided once at start from the options, the environment
/// and whether stdout is a terminal (TERMINAL-NOTES §3; after SwiftPM's `TerminalCapabilities`).
public struct TerminalCapabilities: Equatable, Sendable {
    /// Whether text is paced and faded (false: plain mode, bytes out = bytes in).
    public var animates: Bool
    /// How the fade is drawn; `.none` means no escape sequences from typewrite.
    public var colorDepth: ColorDepth
    /// Whether the terminal's background is light (from COLORFGBG; else assumed dark).
    public var lightBackground: Bool
    /// Whether East Asian ambiguous-width characters are wide: under a CJK locale (LC_ALL,
    /// LC_CTYPE or LANG of ja, ko or zh), as terminals configured for those locales draw them (UAX #11).
    public var ambiguousIsWide: Bool

    /// Decides the capabilities.
    /// - Parameters:
    ///   - options: the parsed command line; its flags beat the environment.
    ///   - environment: the process environment, read once.
    ///   - outputIsTerminal: `isatty(1)`.
    public init(options: Options, environment: [String: String], outputIsTerminal: Bool) {
        let reducedMotion = environment["REDUCED_MOTION"].map { !$0.isEmpty && $0 != "0" } ?? false
        switch options.animate {
        case _ where options.reduceMotion: animates = false
        case .never: animates = false
        case .always: animates = true
        case .auto: animates = outputIsTerminal && !reducedMotion
        }
        let term = environment["TERM"] ?? ""
        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
        switch options.color {
        case .never: colorDepth = .none
        case .always: colorDepth = Self.depth(environment: environment)
        case .auto: colorDepth = term.isEmpty || term == "dumb" || noColor ? .none : Self.depth(environment: environment)
        }
        // COLORFGBG is "fg;bg" or "fg;default;bg"; backgrounds 7 and 9–15 are light.
        if let bg = environment["COLORFGBG"]?.split(separator: ";").last.flatMap({ Int($0) }) {
            lightBackground = bg == 7 || (9...15).contains(bg)
        } else {
            lightBackground = false
        }
        let locale = [environment["LC_ALL"], environment["LC_CTYPE"], environment["LANG"]]
            .compactMap { $0 }.first { !$0.isEmpty } ?? ""
        ambiguousIsWide = ["ja", "ko", "zh"].contains { locale.hasPrefix($0) }
    }

    /// Colour depth from COLORTERM and TERM.
    static func depth(environment: [String: String]) -> ColorDepth {
        let colorterm = (environment["COLORTERM"] ?? "").lowercased()
        if colorterm == "truecolor" || colorterm == "24bit" { return .trueColor }
        let term = (environment["TERM"] ?? "").lowercased()
        for name in ["kitty", "ghostty", "wezterm", "alacritty", "contour", "rio"] where term.contains(name) {
            return .trueColor
        }
        if term.contains("256color") { return .palette256 }
        return .basic16
    }
}
