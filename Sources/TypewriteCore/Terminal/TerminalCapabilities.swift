/// When to do something that depends on the output being a terminal.
public enum When: String, Sendable, CaseIterable {
    /// When the output is a terminal (and the environment does not say otherwise).
    case auto
    case always
    case never
}

/// Facts about typewrite itself.
public enum Typewrite {
    /// The version `typewrite --version` prints, and the package's release tag.
    public static let version = "0.3.0"
}

/// What typewrite may do on an output, decided once from the caller's choices, the environment
/// and whether the output is a terminal (after SwiftPM's `TerminalCapabilities`). The command
/// line and the library decide with this same type.
///
/// The rules, in order: not a terminal (or reduced motion) → plain bytes; `TERM` unset or `dumb`,
/// or `NO_COLOR` set and not empty (no-color.org) → no escape sequences of typewrite's own,
/// unless colour is forced; colour depth from `COLORTERM` (`truecolor`, `24bit`) and `TERM`.
package struct TerminalCapabilities: Equatable, Sendable {
    /// Whether text is paced and faded (false: plain mode, bytes out = bytes in).
    package var animates: Bool
    /// How the fade is drawn; `.none` means no colours from typewrite.
    package var colorDepth: ColorDepth
    /// Whether typewrite may write SGR attributes of its own (bold, italic, underline, for
    /// markdown): with colours, and also under `NO_COLOR`, which asks for no colour only
    /// (no-color.org); not with `--color=never` or a `TERM` that is unset or `dumb`.
    package var allowsAttributes: Bool
    /// Whether the terminal's background is light (from COLORFGBG; else assumed dark).
    package var lightBackground: Bool
    /// Whether East Asian ambiguous-width characters are wide: under a CJK locale (LC_ALL,
    /// LC_CTYPE or LANG of ja, ko or zh), as terminals configured for those locales draw them (UAX #11).
    package var ambiguousIsWide: Bool
    /// How the terminal reflows its rows on a resize, where the environment names it: tmux (`TMUX`
    /// set and a `TERM` of `tmux*` or `screen*`) wraps wide clusters whole, kitty (`TERM` of
    /// `xterm-kitty`) cuts rows by cells (`docs/terminals.md#resize-and-reflow`). Only breaks a tie
    /// the cursor report cannot.
    package var reflow: TerminalReflow?

    /// Decides the capabilities.
    /// - Parameters:
    ///   - environment: the process environment (`REDUCED_MOTION`, `TERM`, `NO_COLOR`,
    ///     `COLORTERM`, `COLORFGBG`, `LC_ALL`, `LC_CTYPE`, `LANG`), read once by the caller.
    ///   - outputIsTerminal: `isatty` of the output.
    ///   - animate: `.auto` animates on a terminal unless `REDUCED_MOTION` is set (to anything but
    ///     empty or `0`); `.always` animates even into a pipe (for recordings).
    ///   - color: `.auto` honours `NO_COLOR` and `TERM`; `.always` colours anyway.
    ///   - reduceMotion: the user asked for no motion: plain mode whatever `animate` says.
    package init(environment: [String: String], outputIsTerminal: Bool, animate: When = .auto, color: When = .auto,
                reduceMotion: Bool = false) {
        let reducedMotion = environment["REDUCED_MOTION"].map { !$0.isEmpty && $0 != "0" } ?? false
        switch animate {
        case _ where reduceMotion: animates = false
        case .never: animates = false
        case .always: animates = true
        case .auto: animates = outputIsTerminal && !reducedMotion
        }
        let term = environment["TERM"] ?? ""
        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
        switch color {
        case .never: colorDepth = .none
        case .always: colorDepth = Self.depth(environment: environment)
        case .auto: colorDepth = term.isEmpty || term == "dumb" || noColor ? .none : Self.depth(environment: environment)
        }
        allowsAttributes = colorDepth != .none || (color == .auto && !term.isEmpty && term != "dumb")
        // COLORFGBG is "fg;bg" or "fg;default;bg"; backgrounds 7 and 9–15 are light.
        if let bg = environment["COLORFGBG"]?.split(separator: ";").last.flatMap({ Int($0) }) {
            lightBackground = bg == 7 || (9...15).contains(bg)
        } else {
            lightBackground = false
        }
        let locale = [environment["LC_ALL"], environment["LC_CTYPE"], environment["LANG"]]
            .compactMap { $0 }.first { !$0.isEmpty } ?? ""
        ambiguousIsWide = ["ja", "ko", "zh"].contains { locale.hasPrefix($0) }
        if !(environment["TMUX"] ?? "").isEmpty && (term.hasPrefix("tmux") || term.hasPrefix("screen")) {
            reflow = .wrapsWide
        } else if term == "xterm-kitty" {
            reflow = .cutsCells
        } else {
            reflow = nil
        }
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

    /// The fade's settings for this terminal: colour depth, the assumed colours (light or dark
    /// background), and how ambiguous-width characters are treated.
    /// - Parameters:
    ///   - columns: the terminal's width in cells, nil when unknown (nothing fades then).
    ///   - rows: its height in rows, nil when unknown (then rows about to scroll away unseen are
    ///     not written ahead).
    ///   - ambiguousIsWide: the user says ambiguous-width characters are two cells wide.
    ///   - hyperlinks: `.auto` draws highlighted links as OSC 8 hyperlinks where typewrite writes
    ///     colours (terminals without hyperlinks ignore them: `docs/terminals.md#hyperlinks`);
    ///     `.always` wherever it writes escape sequences of its own; `.never` not at all.
    package func fadeConfiguration(columns: Int?, rows: Int? = nil, newlineReturnsCarriage: Bool = true,
                                  ambiguousIsWide userWide: Bool = false, hyperlinks: When = .auto) -> FadeConfiguration {
        var configuration = FadeConfiguration()
        configuration.colorDepth = colorDepth
        configuration.markdownUsesColor = colorDepth != .none
        switch hyperlinks {
        case .never: configuration.hyperlinks = false
        case .always: configuration.hyperlinks = allowsAttributes
        case .auto: configuration.hyperlinks = colorDepth != .none
        }
        configuration.ambiguousIsWide = userWide
        // A CJK locale hints that they may be wide, but terminals differ (tmux draws them narrow
        // whatever the locale): never fade them there, so a wrong guess cannot garble a row.
        configuration.ambiguousIsUncertain = !userWide && ambiguousIsWide
        if lightBackground {
            configuration.background = RGB(255, 255, 255)
            configuration.foreground = RGB(40, 40, 40)
        }
        configuration.columns = columns
        configuration.rows = rows
        configuration.newlineReturnsCarriage = newlineReturnsCarriage
        configuration.reflow = reflow
        return configuration
    }
}
