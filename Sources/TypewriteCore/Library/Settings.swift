extension Typewriter {
    /// How fast and how the text types in: the one settings type of typewrite. The command line's
    /// options fill one in; `validate()` is the one place each range is checked.
    public struct Settings: Sendable, Equatable {
        /// Typing speed in grapheme clusters per second; > 0 and ≤ 1e12. Default 80
        /// (`docs/design.md#pacing`).
        public var charactersPerSecond: Double = 80
        /// Width of the soft leading edge in grapheme clusters; 0 (a hard edge) to 1,000,000.
        /// Default 10 (`docs/design.md#the-soft-edge`).
        public var fadeWidth: Double = 10
        /// Longest time one burst is spread over, in seconds: ≥ 0.15, or `.infinity` for a strict
        /// typewriter at `charactersPerSecond`. Default 1.5 (`docs/design.md#pacing`).
        public var maximumLag: Seconds = PacingEngine.defaultMaximumLag
        /// When to animate: `.auto` on a terminal unless `REDUCED_MOTION` is set; `.always` even
        /// into a pipe; `.never` is plain text.
        public var animate: When = .auto
        /// When to colour the fade: `.auto` honours `NO_COLOR` and `TERM`.
        public var color: When = .auto
        /// Show text at once, unchanged (the platform's Reduce Motion).
        public var reduceMotion = false
        /// East Asian ambiguous-width characters take two cells (a CJK terminal; UAX #11).
        public var ambiguousIsWide = false
        /// How bytes given to `write(bytes:)` are read: text, or a model's wire stream to decode
        /// (`.auto` decides from the first event).
        public var format: StreamFormat = .raw
        /// What a decoded stream's reasoning does: hidden (the default), dimmed, or shown.
        public var thinking: ThinkingDisplay = .hide
        /// When to highlight markdown (`MarkdownAppearance`), keeping every character in its
        /// cell: `.auto` (the default) a decoded model answer (`format` other than `.raw`),
        /// `.always` any text, `.never` none. Only when animated; with colours, or with
        /// attributes only under `NO_COLOR`.
        public var markdown: When = .auto
        /// When highlighted links become OSC 8 hyperlinks a terminal can open (`http`, `https` and
        /// `mailto` only, `MarkdownLink.destination`): `.auto` (the default) where typewrite writes
        /// colours (not under `NO_COLOR`), `.always` wherever it writes escape sequences, `.never`
        /// none. Only where markdown is highlighted.
        public var hyperlinks: When = .auto
        /// The terminal's colours, if the host knows them (for example from its own OSC 10/11
        /// query): the fade runs from this background to this foreground. Nil: assumed from
        /// `COLORFGBG`, else a dark background.
        public var terminalColors: TerminalColors?
        /// Memory the typewriter may hold for text received and not yet shown, in bytes; at least
        /// 64 KiB. Default 16 MiB. Every holding cap derives from it (`docs/design.md#memory`):
        /// past it `stream(_:)` asks its source for nothing more and `write(waitingForRoom:)` waits,
        /// while the synchronous `write(_:)` writes the oldest text at once, settled.
        public var memoryBudget: Int = MemoryBudget.standard.bytes

        /// The defaults: 80 characters per second, a 10-character edge, 1.5 s at most per burst.
        public init() {}

        /// Checks every range, once for both faces (the command line's options and the library).
        /// - Throws: `TypewriteError.invalidSetting` naming the first setting out of range.
        public func validate() throws(TypewriteError) {
            guard charactersPerSecond.isFinite, charactersPerSecond > 0, charactersPerSecond <= PacingEngine.fastestSpeed else {
                throw .invalidSetting(setting: "charactersPerSecond", value: Self.show(charactersPerSecond),
                                      expected: "a number of characters per second, greater than 0 and at most 1e12")
            }
            guard fadeWidth.isFinite, fadeWidth >= 0, fadeWidth <= 1_000_000 else {
                throw .invalidSetting(setting: "fadeWidth", value: Self.show(fadeWidth),
                                      expected: "a number of characters from 0 to 1000000")
            }
            guard !maximumLag.isNaN, maximumLag >= PacingEngine.minimumBurstDuration else {
                throw .invalidSetting(setting: "maximumLag", value: Self.show(maximumLag), expected: "seconds, at least 0.15, or infinity")
            }
            guard memoryBudget >= Self.smallestMemoryBudget else {
                throw .invalidSetting(setting: "memoryBudget", value: "\(memoryBudget)", expected: "at least 65536 bytes")
            }
        }

        /// The smallest memory budget taken, in bytes.
        public static let smallestMemoryBudget = 64 << 10

        private static func show(_ value: Double) -> String {
            value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : "\(value)"
        }
    }
}
